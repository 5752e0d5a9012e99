/**
 * The read replica's routing (src/server/db/readRouting.ts) through real HTTP on PostgreSQL: the
 * "replica" is a second pool on the same database (so every answer is the primary's), wrapped to count
 * the statements it runs and, when a test says so, to fail like a replica that went away or to report
 * a replay position that no longer moves. Which pool served a call is read from those counts.
 * A real streaming replica is exercised by `npm run cluster -- --chaos` (scripts/cluster.ts).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { openDb, type Db } from '../../src/server/db/db';
import { createReadRouting, isConnectionFailure, lsnValue, type ReadRouting } from '../../src/server/db/readRouting';
import { freePort } from '../../src/server/freePort';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { TEST_SCRYPT_N } from './harness';
import { freshDatabase, type FreshDb } from './templateDb';

const databaseUrl = process.env.TEST_DATABASE_URL;

/** A Db that counts the statements it runs for calls (not the health checks) and can be made to fail or stand still. */
function observedReplica(inner: Db) {
  const state = { statements: 0, failing: false, frozenAt: undefined as string | undefined };
  const isCheck = (sql: string) => sql.includes('pg_is_in_recovery');
  const gate = (sql: string) => {
    if (state.failing) {
      // what node-postgres says when the server (or PgBouncer) closes the connection
      throw new Error('Connection terminated unexpectedly');
    }
    if (!isCheck(sql)) state.statements++;
  };
  const db: Db = {
    kind: 'pg',
    async query(sql, params) {
      gate(sql);
      return inner.query(sql, params);
    },
    async one<T>(sql: string, params?: readonly unknown[]) {
      gate(sql);
      if (isCheck(sql) && state.frozenAt) return { lsn: state.frozenAt } as T;
      return inner.one<T>(sql, params);
    },
    async exec(sql) {
      gate(sql);
      return inner.exec(sql);
    },
    tx: (fn) => inner.tx(fn),
    close: () => inner.close(),
  };
  return { db, state };
}

interface Running {
  url: string;
  app: FastifyInstance;
  reads: ReadRouting;
  replica: ReturnType<typeof observedReplica>;
  replicaInner: Db;
}

async function startWithReplica(fresh: FreshDb, replicaInner: Db, maxLagMs = 5000): Promise<Running> {
  const replica = observedReplica(replicaInner);
  // the checks run only when a test asks (check()), so what a call sees is decided by the test
  const reads = createReadRouting(fresh.db, replica.db, { maxLagMs, checkMs: 60_000, timeoutMs: 2000, warn: () => {} });
  const app = await buildApp({ db: fresh.db, secret: randomBytes(32), scryptN: TEST_SCRYPT_N, reads, moneyActionApprovalAboveUsd: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, app, reads, replica, replicaInner };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the replies of many calls, read by key in the asserts
async function call(url: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: { statusCode: number; data: any; [k: string]: unknown } }> {
  const res = await fetch(`${url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { statusCode: number; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
}

async function login(url: string, username: string): Promise<string> {
  const reply = await call(url, 'auth/login', { username, password: DEMO_PASSWORD });
  if (reply.status !== 200) throw new Error(`login ${username}: ${reply.status}`);
  return reply.body.data.token as string;
}

async function health(url: string) {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: (await res.json()) as { status: string; primary: string; replica: { configured: boolean; state: string; readsFrom: string; lagMs: number | null } } };
}

const today = new Date().toISOString().slice(0, 10);
const listBody = { from_date: `${today}T00:00:00`, to_date: `${today}T23:59:59`, country_code: '', data: '', status: '', fetchCount: 10 };
const roleBody = (name: string) => ({ role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 });

describe.runIf(databaseUrl)('read replica routing (PostgreSQL)', () => {
  let fresh: FreshDb;
  let running: Running;
  let admin: string;
  let maker: string;
  let checker: string;

  beforeAll(async () => {
    fresh = await freshDatabase(TEST_SCRYPT_N);
    running = await startWithReplica(fresh, await openDb({ databaseUrl: fresh.databaseUrl! }));
    await running.reads.check();
    admin = await login(running.url, 'admin');
    maker = await login(running.url, 'maker');
    checker = await login(running.url, 'checker');
  }, 120_000);

  afterAll(async () => {
    await running?.app.close();
    await running?.replicaInner.close();
    await fresh?.drop();
  });

  it('sends dashboards, transaction lists and reports to the replica, and sign-in and change requests to the primary', async () => {
    const { state } = running.replica;
    expect((await health(running.url)).body.replica).toMatchObject({ configured: true, state: 'ok', readsFrom: 'replica', lagMs: 0 });

    let before = state.statements;
    const dashboard = await call(running.url, 'dashboard/AllTranCount', { range: 'WEEKLY' }, admin);
    expect(dashboard.status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);

    before = state.statements;
    const list = await call(running.url, 'Transaction/get-ceftTransaction', listBody, checker);
    expect(list.status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);

    before = state.statements;
    expect((await call(running.url, 'report/get-activity-report', { from: `${today}T00:00:00`, to: `${today}T23:59:59`, fetchCount: 10, username: '' }, admin)).status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);

    before = state.statements;
    await login(running.url, 'auditor');
    const created = await call(running.url, 'role/create', roleBody(`Replica Route ${randomBytes(3).toString('hex')}`), maker);
    expect(created.status).toBe(200);
    expect((await call(running.url, 'role/list', {}, checker)).status).toBe(200);
    expect(state.statements).toBe(before);
  });

  it("reads a user's own write on the primary until the replica has replayed it, others keep reading the replica", async () => {
    const { state } = running.replica;
    const created = await call(running.url, 'role/create', roleBody(`Replica Own ${randomBytes(3).toString('hex')}`), maker);
    expect(created.status).toBe(200);
    const stored = await fresh.db.one<{ lsn: string }>(`SELECT lsn::text AS lsn FROM user_write_positions WHERE username = 'maker'`);
    expect(stored).toBeDefined();
    // the replica's position is the one of the last check, before the write: the maker's reads stay on the primary
    const replayed = running.reads.status();
    expect(replayed.readsFrom).toBe('replica');

    let before = state.statements;
    expect((await call(running.url, 'Transaction/get-ceftTransaction', listBody, maker)).status).toBe(200);
    expect(state.statements).toBe(before);
    // the checker wrote nothing since: the replica
    before = state.statements;
    expect((await call(running.url, 'Transaction/get-ceftTransaction', listBody, checker)).status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);

    // the replica reports a position past the maker's write: the maker reads it again
    await running.reads.check();
    before = state.statements;
    expect((await call(running.url, 'Transaction/get-ceftTransaction', listBody, maker)).status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);
  });

  it('falls back to the primary when a read fails on the replica, and the health endpoint says so', async () => {
    const { state } = running.replica;
    await running.reads.check();
    state.failing = true;
    try {
      const onReplica = await call(running.url, 'Transaction/get-ceftTransaction', listBody, checker);
      // the read that met the failure ran again on the primary
      expect(onReplica.status).toBe(200);
      const direct = await call(running.url, 'Transaction/get-ceftTransaction', listBody, admin);
      expect(direct.body.data).toEqual(onReplica.body.data);
      const h = await health(running.url);
      expect(h.status).toBe(200);
      expect(h.body.replica).toMatchObject({ state: 'down', readsFrom: 'primary' });
      // the next check still fails: reads stay on the primary
      expect((await running.reads.check()).state).toBe('down');
      expect((await call(running.url, 'dashboard/AllTranCount', { range: 'WEEKLY' }, admin)).status).toBe(200);
    } finally {
      state.failing = false;
    }
    // back: the next check sends reads to the replica again
    expect((await running.reads.check()).state).toBe('ok');
    const before = state.statements;
    expect((await call(running.url, 'dashboard/AllTranCount', { range: 'WEEKLY' }, admin)).status).toBe(200);
    expect(state.statements).toBeGreaterThan(before);
  });

  it('falls back to the primary while the replica lags past the limit', async () => {
    const lagging = await startWithReplica(fresh, await openDb({ databaseUrl: fresh.databaseUrl! }), 300);
    try {
      const lagAdmin = await login(lagging.url, 'admin');
      const lagMaker = await login(lagging.url, 'maker');
      await lagging.reads.check();
      expect(lagging.reads.status().state).toBe('ok');
      // the replica stops replaying at the primary's position now; the primary moves on
      const now = await fresh.db.one<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      lagging.replica.state.frozenAt = now!.lsn;
      await call(lagging.url, 'role/create', roleBody(`Replica Lag ${randomBytes(3).toString('hex')}`), lagMaker);
      await lagging.reads.check();
      await new Promise((r) => setTimeout(r, 500));
      const status = await lagging.reads.check();
      expect(status.state).toBe('lagging');
      expect(status.lagMs).toBeGreaterThan(300);
      const h = await health(lagging.url);
      expect(h.body.replica).toMatchObject({ state: 'lagging', readsFrom: 'primary' });
      const before = lagging.replica.state.statements;
      expect((await call(lagging.url, 'dashboard/AllTranCount', { range: 'WEEKLY' }, lagAdmin)).status).toBe(200);
      expect(lagging.replica.state.statements).toBe(before);
    } finally {
      await lagging.app.close();
      await lagging.replicaInner.close();
    }
  });

  it('treats an unreachable replica as down from the first check, and the server still answers', async () => {
    const nobody = await openDb({ databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/nothing` });
    const down = await startWithReplica(fresh, nobody);
    try {
      const status = await down.reads.check();
      expect(status).toMatchObject({ configured: true, state: 'down', readsFrom: 'primary', primaryUp: true });
      expect((await health(down.url)).status).toBe(200);
      const token = await login(down.url, 'auditor');
      expect((await call(down.url, 'dashboard/AllTranCount', { range: 'WEEKLY' }, token)).status).toBe(200);
    } finally {
      await down.app.close();
      await nobody.close();
    }
  });
});

describe('read routing pieces', () => {
  it('orders WAL positions as PostgreSQL does', () => {
    expect(lsnValue('0/16B3748') < lsnValue('0/16B3749')).toBe(true);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(() => lsnValue('nonsense')).toThrow();
  });

  it('tells connection failures from statement errors', () => {
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('server conn crashed?'), { code: '08P01' }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isConnectionFailure(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
  });

  it('without a replica, every read is the primary itself and no write position is stored', async () => {
    const calls: string[] = [];
    const primary = {
      kind: 'pg',
      query: async (sql: string) => (calls.push(sql), []),
      one: async () => undefined,
      exec: async () => {},
      tx: async () => undefined,
      close: async () => {},
    } as unknown as Db;
    const reads = createReadRouting(primary, undefined);
    expect(reads.readDbFor('maker')).toBe(primary);
    expect(reads.readDb).toBe(primary);
    await reads.recordWrite('maker');
    expect(calls).toEqual([]);
    expect(reads.status()).toMatchObject({ configured: false, state: 'off', readsFrom: 'primary' });
  });
});
