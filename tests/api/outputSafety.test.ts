/**
 * Output and headers: security headers on every reply (pages, files, API, images,
 * 404s, errors), JSON-only request bodies (415 otherwise), a correlation id on every reply, and error
 * replies that never carry a stack trace or SQL text.
 *
 * The server here is the real app with a stand-in console build (index.html and one asset), so the
 * static routes and history routing are exercised without depending on `npm run build`.
 */
import { gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/db';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

let server: TestServer;
let app: FastifyInstance;
let url: string;
let staticDir: string;
let admin: string;

async function listen(db: Db, logLines?: string[]): Promise<{ app: FastifyInstance; url: string }> {
  const logger = logLines ? { stream: { write: (line: string) => void logLines.push(line) } } : false;
  const built = await buildApp({ db, secret: server.secret, clock: server.now, staticDir, scryptN: TEST_SCRYPT_N, logger });
  await built.listen({ port: 0, host: '127.0.0.1' });
  const address = built.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app: built, url: `http://127.0.0.1:${address.port}` };
}

beforeAll(async () => {
  server = await startServer();
  staticDir = mkdtempSync(join(tmpdir(), 'output-safety-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'export {};');
  ({ app, url } = await listen(server.db));
  admin = await server.login('admin');
});
afterAll(async () => {
  await app?.close();
  await server?.close();
  if (staticDir) rmSync(staticDir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

function expectSecurityHeaders(res: Response, what: string) {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp.size, `${what}: content-security-policy`).toBeGreaterThan(0);
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  expect(scripts, `${what}: script-src or default-src`).toBeDefined();
  expect(scripts, `${what}: scripts`).not.toContain("'unsafe-inline'");
  expect(scripts, `${what}: scripts`).not.toContain("'unsafe-eval'");
  expect(scripts, `${what}: scripts`).not.toContain('*');
  expect(csp.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(res.headers.get('x-content-type-options'), `${what}: nosniff`).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), `${what}: referrer-policy`).toBe('no-referrer');
  expect(res.headers.get('x-correlation-id'), `${what}: correlation id`).toMatch(/^[0-9a-f-]{36}$/);
  // the server's own time for the reply, in milliseconds (what the export bench compares with the client's)
  expect(res.headers.get('server-timing'), `${what}: server-timing`).toMatch(/^app;dur=\d+\.\d$/);
}

const post = (path: string, init: { body?: string; contentType?: string; token?: string } = {}) => {
  const headers: Record<string, string> = {};
  if (init.contentType) headers['content-type'] = init.contentType;
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  return fetch(`${url}${path}`, { method: 'POST', headers, body: init.body });
};

describe('security headers', () => {
  it('are on every page, file, API reply, image and error', async () => {
    const image = await server.db.one<{ path: string }>("SELECT path FROM images WHERE content_type = 'image/png' ORDER BY path LIMIT 1");
    const requests: [string, () => Promise<Response>, number][] = [
      ['the console', () => fetch(`${url}/`), 200],
      ['the sign-in page', () => fetch(`${url}/login`), 200],
      ['a deep route', () => fetch(`${url}/transactions/ceft/details?id=12`), 200],
      ['an asset', () => fetch(`${url}/assets/app.js`), 200],
      ['a missing file', () => fetch(`${url}/missing.txt`), 404],
      ['a HEAD of a page', () => fetch(`${url}/login`, { method: 'HEAD' }), 200],
      ['the OpenAPI document', () => fetch(`${url}/api/openapi.json`, { headers: { authorization: `Bearer ${admin}` } }), 200],
      ['the OpenAPI document without a token', () => fetch(`${url}/api/openapi.json`), 401],
      ['an API call', () => post('/api/user/list', { body: '{}', contentType: 'application/json', token: admin }), 200],
      ['an API call without a token', () => post('/api/user/list', { body: '{}', contentType: 'application/json' }), 401],
      ['an unknown API call', () => post('/api/nope/nothing', { body: '{}', contentType: 'application/json', token: admin }), 404],
      ['a GET of an API call', () => fetch(`${url}/api/user/list`), 405],
      ['a bad API body', () => post('/api/user/list', { body: '{"fetchCount":"x"}', contentType: 'application/json', token: admin }), 400],
      ['a non-JSON API body', () => post('/api/user/list', { body: 'x', contentType: 'text/plain', token: admin }), 415],
      ['an image', () => fetch(`${url}/${image!.path}`), 200],
      ['a missing image', () => fetch(`${url}/images/banks/nothing-here.png`), 404],
      ['a malformed URL', () => fetch(`${url}/%E0%A4%A`), 400],
    ];
    for (const [what, request, status] of requests) {
      const res = await request();
      expect(res.status, what).toBe(status);
      expectSecurityHeaders(res, what);
    }
  });

  it('gives every reply its own correlation id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await fetch(`${url}/login`)).headers.get('x-correlation-id')!);
    expect(ids.size).toBe(5);
  });
});

describe('JSON only', () => {
  const types = [
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'text/xml',
    'text/html',
    'application/javascript',
    'application/jsonp',
  ];

  it('answers a POST /api/* body of any other content type with 415, and runs nothing', async () => {
    const before = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests');
    // a valid bank creation in JSON form (it would make a change request if it were accepted)
    const body = JSON.stringify({ bank_name: 'Form Bank', bank_code: 'FORM1', logo: 'iVBORw0KGgo=', disabled: 0 });
    for (const contentType of types) {
      const res = await post('/api/bank/create', { body, contentType, token: admin });
      expect(res.status, contentType).toBe(415);
      expect(await res.json(), contentType).toEqual({ statusCode: 415, data: { message: 'Request body must be application/json' } });
    }
    const missing = await fetch(`${url}/api/bank/create`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: new Blob([body]) });
    expect(missing.status, 'no content type').toBe(415);
    const form = await post('/api/user/list', { body: 'fetchCount=1', contentType: 'application/x-www-form-urlencoded', token: admin });
    expect(form.status).toBe(415);
    expect(await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests')).toEqual(before);
  });

  it('refuses a compressed request body with 415 and runs nothing; identity is accepted', async () => {
    const before = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests');
    const body = JSON.stringify({ bank_name: 'Gzip Bank', bank_code: 'GZIP1', logo: 'iVBORw0KGgo=', disabled: 0 });
    const res = await fetch(`${url}/api/bank/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: new Blob([gzipSync(body)]),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ statusCode: 415, data: { message: 'Request body must be sent uncompressed (no Content-Encoding)' } });
    expect(await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM change_requests')).toEqual(before);
    const plain = await fetch(`${url}/api/user/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: '{"fetchCount":1}',
    });
    expect(plain.status).toBe(200);
  });

  it('accepts application/json with a charset, and refuses broken JSON with 400', async () => {
    const ok = await post('/api/user/list', { body: '{"fetchCount":1}', contentType: 'application/json; charset=utf-8', token: admin });
    expect(ok.status).toBe(200);
    const broken = await post('/api/user/list', { body: '{"fetchCount":', contentType: 'application/json', token: admin });
    expect(await broken.json()).toEqual({ statusCode: 400, data: { message: 'Request body is not valid JSON' } });
  });

  it('checks the token before the content type: a stranger gets 401 whatever they send', async () => {
    const res = await post('/api/bank/create', { body: '<bank/>', contentType: 'application/xml' });
    expect(res.status).toBe(401);
  });
});

describe('errors', () => {
  /** A database whose queries on one table fail with PostgreSQL's own error (which quotes the SQL). */
  function breakTable(db: Db, table: string): Db {
    const fails = (sql: string) => new RegExp(`\\b${table}\\b`).test(sql);
    const failure = () => db.query(`SELECT secret_column FROM missing_${table} WHERE password_hash = 'x'`);
    const broken: Db = {
      kind: db.kind,
      query: (sql, params) => (fails(sql) ? failure() : db.query(sql, params)) as never,
      one: (sql, params) => (fails(sql) ? failure().then(() => undefined) : db.one(sql, params)) as never,
      exec: (sql) => db.exec(sql),
      tx: (fn) => db.tx((tx) => fn(breakTable(tx, table))),
      close: () => db.close(),
    };
    return broken;
  }

  it('a failure inside the server answers 500 with a correlation id, no stack trace and no SQL; the log has the detail under that id', async () => {
    const logLines: string[] = [];
    const broken = await listen(breakTable(server.db, 'banks'), logLines);
    try {
      // the cause is real: the query fails in the database
      await expect(breakTable(server.db, 'banks').query('SELECT 1 FROM banks')).rejects.toThrow(/missing_banks/);
      const res = await fetch(`${broken.url}/api/bank/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: '{}',
      });
      expect(res.status).toBe(500);
      expectSecurityHeaders(res, '500');
      const text = await res.text();
      const body = JSON.parse(text);
      expect(body).toEqual({ statusCode: 500, data: { message: 'Internal server error', correlationId: res.headers.get('x-correlation-id') } });
      for (const leak of ['SELECT', 'secret_column', 'missing_banks', 'password_hash', 'does not exist', ' at ', '.ts', 'node_modules', 'Error']) {
        expect(text, leak).not.toContain(leak);
      }
      // the operator finds the cause by the id the client was given
      const logged = logLines.map((l) => JSON.parse(l) as { correlationId?: string; err?: { message?: string; stack?: string } });
      const entry = logged.find((l) => l.correlationId === body.data.correlationId);
      expect(entry?.err?.message).toContain('missing_banks');
      expect(entry?.err?.stack).toBeDefined();
    } finally {
      await broken.app.close();
    }
  });

  it('a handler throwing a plain error (not a known failure) answers the same 500, without its message', async () => {
    const built = await buildApp({ db: server.db, secret: server.secret, scryptN: TEST_SCRYPT_N });
    built.post('/test-only/boom', async () => {
      throw new Error('duplicate key value violates unique constraint "console_users_username_lower" in SELECT * FROM console_users WHERE username = \'admin\'');
    });
    try {
      const res = await built.inject({ method: 'POST', url: '/test-only/boom', payload: {} });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ statusCode: 500, data: { message: 'Internal server error', correlationId: res.headers['x-correlation-id'] } });
      expect(res.body).not.toMatch(/SELECT|console_users|constraint|at .*\.ts/);
    } finally {
      await built.close();
    }
  });

  it('client errors carry the correlation id in a header and name what was wrong, not how the server works', async () => {
    const replies = [
      await post('/api/user/list', { body: '{"fetchCount":"x"}', contentType: 'application/json', token: admin }),
      await post('/api/user/list', { body: '{"fetchCount":', contentType: 'application/json', token: admin }),
      await post('/api/user/get-for-edit', { body: '{"id":999999}', contentType: 'application/json', token: admin }),
      await post('/api/bank/list', { body: 'x'.repeat(11 * 1024 * 1024), contentType: 'application/json', token: admin }),
    ];
    const statuses = [];
    for (const res of replies) {
      statuses.push(res.status);
      expect(res.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
      const text = await res.text();
      expect(text).not.toMatch(/ at |\.ts:|node_modules|SELECT|FROM /);
      expect(JSON.parse(text).data.message).toEqual(expect.any(String));
    }
    expect(statuses).toEqual([400, 400, 404, 413]);
  });
});
