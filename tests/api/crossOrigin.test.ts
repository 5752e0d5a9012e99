/**
 * The console on another origin than the API: CORS for the configured origins only (CORS_ORIGINS), off
 * by default, and the Content-Security-Policy of the pages this server serves widened to the API
 * bases the built console's config.json names. What a browser would see: the preflight's answer and
 * the Access-Control-* headers of the reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './harness';
import { startExtraApp, type ExtraApp } from './extraApp';
import { parseCorsOrigins } from '../../src/server/environment';

const CONSOLE = 'https://console.bank.example';
let server: TestServer;
let open: ExtraApp;
let withCors: ExtraApp;

beforeAll(async () => {
  server = await startServer();
  open = await startExtraApp(server);
  withCors = await startExtraApp(server, { corsOrigins: [CONSOLE, 'http://127.0.0.1:7027'] });
}, 120_000);
afterAll(async () => {
  await open?.close();
  await withCors?.close();
  await server?.close();
});

function preflight(url: string, origin: string, headers = 'content-type, authorization') {
  return fetch(`${url}/api/auth/login`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });
}

describe('CORS', () => {
  it('is off by default: no origin is allowed, a preflight gets no Access-Control-Allow-Origin', async () => {
    const res = await preflight(open.url, CONSOLE);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const reply = await open.post('auth/login', { username: 'admin', password: 'Demo@Pass1' }, { headers: { origin: CONSOLE } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("answers a configured origin's preflight for a call with the bearer token, and its calls", async () => {
    const res = await preflight(withCors.url, CONSOLE);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();

    const reply = await withCors.post('auth/login', { username: 'admin', password: 'Demo@Pass1' }, { headers: { origin: CONSOLE } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(reply.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-correlation-id');
    expect(reply.headers.get('vary')?.toLowerCase()).toContain('origin');
    // and a call with the token the sign-in gave
    const list = await withCors.post('bank/list', {}, { token: reply.json.data.token, headers: { origin: CONSOLE } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  });

  it('gives another origin nothing: the browser keeps the reply from its page', async () => {
    const other = 'https://evil.example';
    const res = await preflight(withCors.url, other);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const reply = await withCors.post('auth/login', { username: 'admin', password: 'Demo@Pass1' }, { headers: { origin: other } });
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    // a look-alike of an allowed origin is another origin
    const alike = await preflight(withCors.url, `${CONSOLE}.evil.example`);
    expect(alike.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('CORS_ORIGINS takes exact origins and refuses anything else at start-up', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' https://a.example , http://127.0.0.1:7027 ')).toEqual(['https://a.example', 'http://127.0.0.1:7027']);
    expect(() => parseCorsOrigins('*')).toThrow(/CORS_ORIGINS: "\*" is not an origin/);
    expect(() => parseCorsOrigins('https://a.example/console')).toThrow(/not an origin/);
    expect(() => parseCorsOrigins('ftp://a.example')).toThrow(/not an origin/);
  });
});

describe("the console's pages", () => {
  let dir: string;
  let pages: ExtraApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ apiBase: 'https://api.bank.example/', internalApiBase: 'http://10.0.0.5:8080', internalPort: 7027, timeoutMs: 90000 }));
    pages = await startExtraApp(server, { staticDir: dir });
  });
  afterAll(async () => {
    await pages?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('may call and show images from the API bases config.json names, and nothing else', async () => {
    const res = await fetch(`${pages.url}/banks`);
    expect(res.status).toBe(200);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("connect-src 'self' https://api.bank.example http://10.0.0.5:8080");
    expect(policy).toContain("img-src 'self' data: blob: https://api.bank.example http://10.0.0.5:8080");
    expect(policy).toContain("script-src 'self';");
    const config = await fetch(`${pages.url}/config.json`);
    expect(config.status).toBe(200);
    expect(config.headers.get('cache-control')).toBe('no-cache');
  });

  it('without a config.json, the pages call their own origin only', async () => {
    const res = await fetch(`${open.url}/api/config`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self';");
  });
});
