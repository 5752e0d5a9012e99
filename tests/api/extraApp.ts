/**
 * A second app on a test server's database, built with options the harness does not set (a trusted
 * proxy, a captured logger), talked to over HTTP with the headers a test chooses.
 */
import type { AddressInfo } from 'node:net';
import { buildApp, type AppOptions } from '../../src/server/app';
import { TEST_SCRYPT_N, type TestServer } from './harness';

export interface RawReply {
  status: number;
  /** The body exactly as sent. */
  text: string;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface ExtraApp {
  url: string;
  /** POST /api/<path> with a JSON body, a bearer token and any other headers. */
  post(path: string, body: unknown, options?: { token?: string; headers?: Record<string, string> }): Promise<RawReply>;
  close(): Promise<void>;
}

export async function startExtraApp(server: TestServer, options: Partial<AppOptions> = {}): Promise<ExtraApp> {
  const app = await buildApp({ db: server.db, secret: server.secret, clock: server.now, scryptN: TEST_SCRYPT_N, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    async post(path, body, { token, headers = {} } = {}) {
      const res = await fetch(`${url}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, headers: res.headers, json: JSON.parse(text) };
    },
    close: () => app.close(),
  };
}
