/**
 * Methods and the published contract, through real HTTP: a path that exists answers another method
 * with 405 and `Allow` naming the methods it answers (every API call POST; the event stream, export
 * files, images, the OpenAPI document and the health check GET and HEAD), in the usual error envelope;
 * an unknown path stays 404. GET /api/openapi.json (the whole permission map) is for signed-in users
 * only.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCalls } from '../../src/api/index';
import { buildApp } from '../../src/server/app';
import { MUST_CHANGE_PASSWORD } from '../../src/server/auth/passwordChangeGate';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

const UNAUTHORIZED = { statusCode: 401, data: { message: 'Unauthorized' } };

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

async function expect405(res: Response, method: string, path: string, allow: string): Promise<void> {
  expect(res.status, `${method} ${path}`).toBe(405);
  expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
  if (method === 'HEAD') return;
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json(), `${method} ${path}`).toEqual({ statusCode: 405, data: { message: `Method ${method} is not allowed on ${path}; it answers ${allow.split(', ').join(' and ')}` } });
}

describe('405 for a path that exists under another method', () => {
  it('every API call answers GET, HEAD, PUT, PATCH, DELETE and OPTIONS with 405 and Allow: POST, with or without a token, and runs nothing', async () => {
    const changesBefore = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests');
    for (const c of allCalls) {
      for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        const withBody = method !== 'GET' && method !== 'HEAD';
        const res = await server.raw(`/api/${c.path}`, {
          method,
          headers: { authorization: `Bearer ${admin}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { body: '{}' } : {}),
        });
        await expect405(res, method, `/api/${c.path}`, 'POST');
      }
      await expect405(await server.raw(`/api/${c.path}`), 'GET', `/api/${c.path}`, 'POST');
    }
    // paths match case-insensitively, as for POST
    await expect405(await server.raw('/api/USER/List'), 'GET', '/api/USER/List', 'POST');
    expect((await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests'))!.n).toBe(changesBefore!.n);
  });

  it('an unknown path is still 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const res = await server.raw('/api/nope/nothing', { method, headers: { authorization: `Bearer ${admin}` } });
      expect(res.status, method).toBe(404);
      expect(res.headers.get('allow'), method).toBeNull();
      expect(await res.json()).toEqual({ statusCode: 404, data: { message: method === 'POST' ? 'Unknown API call: nope/nothing' : 'Unknown API call: /api/nope/nothing' } });
    }
    const outside = await server.raw('/nothing-here', { method: 'DELETE' });
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ statusCode: 404, data: { message: 'Not found' } });
  });

  it('the GET paths keep answering GET and answer POST, PUT and DELETE with 405 and Allow: GET, HEAD', async () => {
    const image = await server.db.one<{ path: string }>("SELECT path FROM images WHERE content_type = 'image/png' ORDER BY path LIMIT 1");
    const auth = { authorization: `Bearer ${admin}` };
    const getPaths: [string, number][] = [
      ['/health', 200],
      ['/api/openapi.json', 200],
      ['/api/export-file/1?exp=1&sig=forged', 403],
      [`/${image!.path}`, 200],
    ];
    for (const [path, status] of getPaths) {
      expect((await server.raw(path, { headers: auth })).status, `GET ${path}`).toBe(status);
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await server.raw(path, { method, headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
        await expect405(res, method, path.split('?')[0]!, 'GET, HEAD');
      }
    }
    // the event stream: its own token check on GET (401 without one), 405 for POST
    expect(await (await server.raw('/api/changeRequest/events')).json()).toEqual(UNAUTHORIZED);
    await expect405(await server.raw('/api/changeRequest/events', { method: 'POST', headers: auth }), 'POST', '/api/changeRequest/events', 'GET, HEAD');
  });

  describe('with the console built (static files and history routing)', () => {
    let staticDir: string;
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      staticDir = mkdtempSync(join(tmpdir(), 'http-methods-'));
      writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
      app = await buildApp({ db: server.db, secret: server.secret, clock: server.now, staticDir, scryptN: TEST_SCRYPT_N });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      url = `http://127.0.0.1:${address.port}`;
    });
    afterAll(async () => {
      await app?.close();
      rmSync(staticDir, { recursive: true, force: true });
    });

    it('a GET of an API call is 405, not the console page; pages and unknown API paths are as before', async () => {
      await expect405(await fetch(`${url}/api/user/list`), 'GET', '/api/user/list', 'POST');
      await expect405(await fetch(`${url}/health`, { method: 'POST' }), 'POST', '/health', 'GET, HEAD');
      const page = await fetch(`${url}/transactions/ceft`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>console</title>');
      expect((await fetch(`${url}/api/nope`)).status).toBe(404);
      expect((await fetch(`${url}/api/user/list`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    });
  });
});

describe('GET /api/openapi.json is for signed-in users only', () => {
  it('401 without a token, with a forged one and after logout; 200 and the committed document with one', async () => {
    const res = await server.raw('/api/openapi.json');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHORIZED);
    const forged = await server.raw('/api/openapi.json', { headers: { authorization: `Bearer ${admin.slice(0, -4)}AAAA` } });
    expect(await forged.json()).toEqual(UNAUTHORIZED);

    const token = await server.login('auditor');
    const ok = await server.raw('/api/openapi.json', { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.text()).toBe(readFileSync('generated/openapi.json', 'utf8'));

    expect((await server.call('auth/logout', {}, token)).statusCode).toBe(200);
    expect(await (await server.raw('/api/openapi.json', { headers: { authorization: `Bearer ${token}` } })).json()).toEqual(UNAUTHORIZED);
  });

  it('an account that must change its password first gets 403, as for every call', async () => {
    await server.db.query("UPDATE console_users SET must_change_password = 1 WHERE username = 'maker'");
    try {
      const token = await server.login('maker');
      const res = await server.raw('/api/openapi.json', { headers: { authorization: `Bearer ${token}` } });
      expect(await res.json()).toEqual({ statusCode: 403, data: { message: MUST_CHANGE_PASSWORD } });
    } finally {
      await server.db.query("UPDATE console_users SET must_change_password = 0 WHERE username = 'maker'");
    }
  });
});
