/**
 * The health endpoints (src/server/http/health.ts, docs/observability.md) as a load balancer sees
 * them: /health/live always 200 while the process runs; /health/ready 200 only with the database
 * answering, the code's migrations exactly applied and the process not draining, else 503 naming the
 * failed check; /health 503 while draining, its body's shape kept. And the server process itself: on
 * SIGTERM it answers not-ready for SHUTDOWN_DRAIN_MS while it goes on serving, then exits cleanly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/db';
import { migrations } from '../../src/server/db/migrations';
import { freePort } from '../../src/server/freePort';
import { createLifecycle, DRAINING_MESSAGE, type Lifecycle } from '../../src/server/http/health';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

let server: TestServer;
let app: FastifyInstance;
let lifecycle: Lifecycle;
/** The database the app sees: the test's, until `down` makes every statement fail as an unreachable server's would. */
const link = { down: false };

function breakable(db: Db): Db {
  const check = () => {
    if (link.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  };
  return {
    kind: db.kind,
    query: async (sql, params) => (check(), db.query(sql, params)),
    one: async (sql, params) => (check(), db.one(sql, params)),
    exec: async (sql) => (check(), db.exec(sql)),
    tx: async (fn) => (check(), db.tx(fn)),
    close: () => db.close(),
  };
}

const get = async (url: string) => {
  const reply = await app.inject({ method: 'GET', url });
  return { status: reply.statusCode, body: reply.json(), headers: reply.headers };
};

beforeAll(async () => {
  server = await startServer();
  lifecycle = createLifecycle();
  app = await buildApp({ db: breakable(server.db), secret: server.secret, clock: server.now, scryptN: TEST_SCRYPT_N, lifecycle });
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

describe('a process that is well', () => {
  it('is live and ready, with the replica state in the body, never cached', async () => {
    const live = await get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'live', draining: false });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', checks: { database: 'ok', migrations: 'ok', draining: 'ok' }, failed: [] });
    expect(ready.body.replica).toMatchObject({ configured: false, state: 'off', readsFrom: 'primary' });
    expect(ready.headers['cache-control']).toBe('no-store');
    const health = await get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', primary: 'up' });
  });
});

describe('not ready', () => {
  it("while the database lacks the code's last migration: 503 naming it; ready again once it is there", async () => {
    const last = migrations[migrations.length - 1];
    const row = await server.db.one<Record<string, unknown>>('DELETE FROM schema_migrations WHERE id = $1 RETURNING id, name, applied_at, checksum', [last.id]);
    try {
      const ready = await get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('unavailable');
      expect(ready.body.failed).toEqual(['migrations']);
      expect(ready.body.checks.migrations).toBe(`not applied to the database: ${last.id}`);
      expect(ready.body.checks.database).toBe('ok');
      // live all the same: nothing a restart would mend
      expect((await get('/health/live')).status).toBe(200);
    } finally {
      await server.db.query('INSERT INTO schema_migrations (id, name, applied_at, checksum) VALUES ($1, $2, $3, $4)', [row!.id, row!.name, row!.applied_at, row!.checksum]);
    }
    expect((await get('/health/ready')).status).toBe(200);
  });

  it('while the database has a migration this code does not know (a newer version migrated it)', async () => {
    await server.db.query(`INSERT INTO schema_migrations (id, name, checksum) VALUES (999999, 'from a newer version', 'x')`);
    try {
      const ready = await get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.checks.migrations).toMatch(/^applied but unknown to this code \(a newer version\?\): 999999$/);
    } finally {
      await server.db.query('DELETE FROM schema_migrations WHERE id = 999999');
    }
  });

  it('while the database does not answer: ready and /health 503 naming it, live 200', async () => {
    link.down = true;
    try {
      const ready = await get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.failed).toEqual(['database', 'migrations']);
      expect(ready.body.checks.database).toMatch(/ECONNREFUSED/);
      const health = await get('/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'unavailable', primary: 'down', error: expect.stringMatching(/ECONNREFUSED/) });
      expect((await get('/health/live')).status).toBe(200);
    } finally {
      link.down = false;
    }
  });

  it('while draining: ready and /health 503 (the shape of /health kept), live 200, every reply says Connection: close', async () => {
    lifecycle.startDraining();
    const ready = await get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', failed: ['draining'], checks: { database: 'ok', migrations: 'ok', draining: DRAINING_MESSAGE } });
    const health = await get('/health');
    expect(health.status).toBe(503);
    expect(Object.keys(health.body).sort()).toEqual(['error', 'primary', 'replica', 'status']);
    expect(health.body).toMatchObject({ status: 'unavailable', primary: 'up', error: DRAINING_MESSAGE });
    const live = await get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'live', draining: true });
    // calls are still answered meanwhile
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: DEMO_PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect(login.headers.connection).toBe('close');
  });
});

describe('the server process on SIGTERM', () => {
  it('answers not-ready for SHUTDOWN_DRAIN_MS while it serves, finishes, and exits 0', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'remit-drain-'));
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, NODE_ENV: 'test', SCRYPT_N: '1024', SEED_TRANSACTIONS: '200', DATA_DIR: dataDir, PORT: String(port), SHUTDOWN_DRAIN_MS: '3000', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
    try {
      await expect.poll(async () => (await fetch(`${url}/health/ready`).catch(() => undefined))?.status, { timeout: 240_000, interval: 250 }).toBe(200);
      const sent = Date.now();
      child.kill('SIGTERM');
      await expect.poll(async () => (await fetch(`${url}/health/ready`)).status, { timeout: 2_000, interval: 50 }).toBe(503);
      expect((await fetch(`${url}/health`)).status).toBe(503);
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      // still serving while draining
      const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }) });
      expect(login.status).toBe(200);
      const { code, at } = await exited;
      expect(code, output).toBe(0);
      expect(at - sent).toBeGreaterThanOrEqual(3000);
      expect(at - sent).toBeLessThan(15_000);
      await expect(fetch(`${url}/health/live`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
