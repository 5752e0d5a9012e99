/**
 * `npm run conformance` against our own server (read-only as an auditor and a bank officer, and with
 * --write as the administrator: 0 differences), and against a backend that strays from the contract
 * (a proxy in front of ours that changes one reply, drops the statusCode of another and answers 200
 * without a token on a third): each stray is named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type TestServer } from './harness';
import { allCalls } from '../../src/api/index';
import { changesData, checkConformance, summaryOf } from '../../scripts/conformance';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('npm run conformance against our server', () => {
  it('reads as the auditor and as a bank officer: nothing differs, the writes are not sent', async () => {
    for (const user of ['auditor', 'kasun_herath']) {
      const findings = await checkConformance({ api: server.url, user, password: 'Demo@Pass1', write: false });
      expect(findings.filter((f) => f.result === 'differs')).toEqual([]);
      expect(findings.filter((f) => f.result === 'skipped').map((f) => f.call)).toEqual(allCalls.filter((c) => changesData(c.path)).map((c) => c.path));
      expect(findings.filter((f) => f.result === 'ok').length).toBeGreaterThan(10);
    }
  }, 300_000);

  it('every call, the writes too, as the administrator: nothing differs', async () => {
    const findings = await checkConformance({ api: server.url, user: 'admin', password: 'Demo@Pass1', write: true });
    expect(findings.filter((f) => f.result === 'differs')).toEqual([]);
    expect(findings.filter((f) => f.result === 'skipped')).toEqual([]);
    expect(summaryOf(findings)).toMatch(/^\d+ calls: \d+ as documented, \d+ refused for this account \(403\), 0 not sent .*, 0 differ$/);
    // the password stayed
    expect(await server.login('admin')).toEqual(expect.any(String));
  }, 300_000);
});

describe('npm run conformance against a backend that strays', () => {
  let proxy: Server;
  let url: string;
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const path = (req.url ?? '').replace(/^\/api\//, '');
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (req.headers.authorization) headers.authorization = req.headers.authorization;
        // a backend that lets anybody read the banks
        if (path === 'bank/list' && !req.headers.authorization) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 200, data: [] }));
          return;
        }
        const upstream = await fetch(`${server.url}${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) });
        let body = await upstream.text();
        if (path === 'appVersion/list' && upstream.status === 200) {
          // a version number sent as a number
          const parsed = JSON.parse(body);
          parsed.data.list[0].version = 3;
          body = JSON.stringify(parsed);
        }
        if (path === 'role/list' && upstream.status === 200) body = JSON.stringify({ data: JSON.parse(body).data });
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it('names each call that differs and why', async () => {
    const calls = allCalls.filter((c) => ['auth/login', 'bank/list', 'appVersion/list', 'role/list', 'config'].includes(c.path));
    const findings = await checkConformance({ api: url, user: 'admin', password: 'Demo@Pass1', write: false, calls });
    const differs = Object.fromEntries(findings.filter((f) => f.result === 'differs').map((f) => [f.call, f.what]));
    expect(Object.keys(differs).sort()).toEqual(['appVersion/list', 'bank/list', 'role/list']);
    expect(differs['bank/list']).toContain('without a token it answered 200, not 401');
    expect(differs['appVersion/list']).toMatch(/data does not match the contract: list\.0\.version: .*string/);
    expect(differs['role/list']).toContain('HTTP status 200 but statusCode undefined');
    expect(summaryOf(findings)).toContain('3 differ');
  }, 120_000);
});
