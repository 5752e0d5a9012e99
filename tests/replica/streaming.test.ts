/**
 * The read routing against a real streaming replica, through PgBouncer in transaction mode, as
 * `npm run cluster -- --test` sets them up (scripts/cluster.ts; .ci/run runs it when PostgreSQL is
 * there): the primary's database and its replica made with pg_basebackup, each behind its own
 * PgBouncer. The vitest project `replica` exists only when the runner gives these URLs
 * (vitest.config.ts), so a plain `npm test` has no such file to skip.
 *
 * The replica's replay is paused with `pg_wal_replay_pause()` to make it fall behind at will: what a
 * user wrote must still be what that user reads (from the primary), another user reads the replica's
 * older state, and past the lag limit every read goes to the primary, as `/health` says; when the
 * replica's PostgreSQL is killed, reads go on from the primary.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { DEMO_PASSWORD, seedDemo } from '../../src/server/seed/demo';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this file through npm run cluster -- --test`);
  return v;
};
const PRIMARY = env('REPLICA_TEST_PRIMARY_URL');
const REPLICA = env('REPLICA_TEST_REPLICA_URL');
const PRIMARY_DIRECT = env('REPLICA_TEST_PRIMARY_DIRECT_URL');
const REPLICA_DIRECT = env('REPLICA_TEST_REPLICA_DIRECT_URL');
const REPLICA_PID = Number(env('REPLICA_TEST_REPLICA_PID'));
const MAX_LAG_MS = 1500;
const CHECK_MS = 200;

/** The replica's Db, counting the statements the calls run on it (not the routing's own checks). */
function counted(inner: Db) {
  const state = { statements: 0 };
  const note = (sql: string) => {
    if (!sql.includes('pg_is_in_recovery') && !sql.includes('pg_last_wal_replay_lsn')) state.statements++;
  };
  const db: Db = {
    ...inner,
    kind: inner.kind,
    query: (sql, params) => (note(sql), inner.query(sql, params)),
    one: (sql, params) => (note(sql), inner.one(sql, params)),
    exec: (sql) => inner.exec(sql),
    tx: (fn) => inner.tx(fn),
    close: () => inner.close(),
  };
  return { db, state };
}

async function directly<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Until the replica has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [{ lsn }] = await directly<{ lsn: string }>(PRIMARY_DIRECT, 'SELECT pg_current_wal_lsn()::text AS lsn');
  await waitUntil('the replica replays the primary', async () => (await directly<{ ok: boolean }>(REPLICA_DIRECT, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok);
}

let primaryDb: Db;
let replica: ReturnType<typeof counted>;
let app: FastifyInstance;
let base: string;
let maker: string;
let checker: string;

async function call(path: string, body: unknown, token?: string): Promise<{ statusCode: number; data: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: Record<string, unknown> };
}

async function health(): Promise<{ replica: { state: string; readsFrom: string; lagMs: number | null } }> {
  return (await (await fetch(`${base}/health`)).json()) as { replica: { state: string; readsFrom: string; lagMs: number | null } };
}

const today = new Date();
const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
const activityBody = (username: string) => ({ from: `${day}T00:00:01`, to: `${day}T23:59:00`, fetchCount: 500, username });
/** The file names of the exports the maker's activity log lists, as `who` reads it. */
async function exportsSeenBy(who: string): Promise<string[]> {
  const reply = await call('report/get-activity-report', activityBody('maker'), who);
  expect(reply.statusCode).toBe(200);
  return (reply.data.filteredList as { description: string }[]).map((r) => /as (replica-\w+\.xlsx)/.exec(r.description)?.[1]).filter((x): x is string => !!x);
}
const sendMoneyList = (token: string) =>
  call('Transaction/get-ceftTransaction', { from_date: `${day}T00:00:01`, to_date: `${day}T23:59:00`, country_code: '', data: '', status: '', fetchCount: 50 }, token);

beforeAll(async () => {
  // the database is made afresh by the runner; migrated and seeded here, on the primary itself
  const setup = await openDb({ databaseUrl: PRIMARY_DIRECT });
  await migrate(setup);
  await seedDemo(setup, { scryptN: 2 ** 10 });
  await setup.close();
  await caughtUp();
  primaryDb = await openDb({ databaseUrl: PRIMARY, directUrl: PRIMARY_DIRECT });
  replica = counted(await openDb({ databaseUrl: REPLICA }));
  app = await buildApp({ db: primaryDb, replicaDb: replica.db, secret: randomBytes(32), scryptN: 2 ** 10, readRouting: { maxLagMs: MAX_LAG_MS, checkMs: CHECK_MS } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  const login = async (username: string) => {
    const r = await call('auth/login', { username, password: DEMO_PASSWORD });
    expect(r.statusCode, JSON.stringify(r.data)).toBe(200);
    return r.data.token as string;
  };
  [maker, checker] = [await login('maker'), await login('checker')];
  await caughtUp();
  await waitUntil('the routing finds the replica well', async () => (await health()).replica.readsFrom === 'replica');
}, 300_000);

afterAll(async () => {
  await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_resume()').catch(() => {});
  await app?.close();
  await primaryDb?.close();
  await replica?.db.close().catch(() => {});
});

describe('reads on a streaming replica through PgBouncer (transaction mode)', () => {
  it('a transaction list and the activity report are read on the replica, and answer what the primary holds', async () => {
    const before = replica.state.statements;
    const list = await sendMoneyList(checker);
    expect(list.statusCode).toBe(200);
    expect(replica.state.statements).toBeGreaterThan(before);
    const onPrimary = await directly<{ n: string }>(
      PRIMARY_DIRECT,
      `SELECT count(*)::text AS n FROM ceft_transactions WHERE initiated_time >= '${day}T00:00:01'::timestamp AT TIME ZONE transaction_day_time_zone()`,
    );
    expect((list.data.filteredList as unknown[]).length).toBe(Math.min(50, Number(onPrimary[0].n)));
    const [{ r }] = await directly<{ r: boolean }>(REPLICA_DIRECT, 'SELECT pg_is_in_recovery() AS r');
    expect(r).toBe(true);
  });

  it("while the replica stands still, a user reads their own write from the primary and another user reads the replica's older state", async () => {
    await caughtUp();
    await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_pause()');
    try {
      const fileName = `replica-${randomBytes(4).toString('hex')}.xlsx`;
      const logged = await call('report/log-export', { screen: 'transactions.ceft', fileName, rows: 7 }, maker);
      expect(logged.statusCode).toBe(200);
      // the maker's own write: read at once, from the primary (the replica has not replayed it)
      const onReplica = replica.state.statements;
      expect(await exportsSeenBy(maker)).toContain(fileName);
      expect(replica.state.statements).toBe(onReplica);
      // the checker wrote nothing: read on the replica, which does not have it yet
      expect(await exportsSeenBy(checker)).not.toContain(fileName);
      expect(replica.state.statements).toBeGreaterThan(onReplica);

      // replay resumes: once the replica has the write, the maker reads there too, and sees it
      await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_resume()');
      await caughtUp();
      // the routing learns the replica's new replay position at its next check (every CHECK_MS)
      await waitUntil(
        'the maker reads their write on the replica',
        async () => {
          const before = replica.state.statements;
          return (await exportsSeenBy(maker)).includes(fileName) && replica.state.statements > before;
        },
        10_000,
      );
      expect(await exportsSeenBy(checker)).toContain(fileName);
    } finally {
      await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_resume()');
    }
  });

  it('behind past the lag limit: every read goes to the primary and /health says lagging; caught up, back to the replica', async () => {
    await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_pause()');
    try {
      // a write nobody reads, so the replica falls behind
      expect((await call('report/log-export', { screen: 'transactions.ceft', fileName: 'lag.xlsx', rows: 1 }, maker)).statusCode).toBe(200);
      await waitUntil('the routing says lagging', async () => (await health()).replica.state === 'lagging', 20_000);
      const h = await health();
      expect(h.replica.readsFrom).toBe('primary');
      expect(h.replica.lagMs).toBeGreaterThan(MAX_LAG_MS);
      const before = replica.state.statements;
      expect((await sendMoneyList(checker)).statusCode).toBe(200);
      expect(replica.state.statements).toBe(before);
    } finally {
      await directly(REPLICA_DIRECT, 'SELECT pg_wal_replay_resume()');
    }
    await waitUntil('the routing says ok', async () => (await health()).replica.state === 'ok', 20_000);
    const before = replica.state.statements;
    expect((await sendMoneyList(checker)).statusCode).toBe(200);
    expect(replica.state.statements).toBeGreaterThan(before);
  });

  it("the replica's PostgreSQL killed: reads go on from the primary and /health says down", async () => {
    process.kill(REPLICA_PID, 'SIGKILL');
    // the first read after the kill may meet the dead replica: it runs again on the primary
    const first = await sendMoneyList(checker);
    expect(first.statusCode).toBe(200);
    await waitUntil('the routing says down', async () => (await health()).replica.state === 'down', 20_000);
    expect((await health()).replica.readsFrom).toBe('primary');
    for (let i = 0; i < 5; i++) expect((await sendMoneyList(checker)).statusCode).toBe(200);
    expect((await call('dashboard/totalCountsAndValues', {}, maker)).statusCode).toBe(200);
  });
});
