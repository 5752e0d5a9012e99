/**
 * Durability: the real server process (node --import tsx src/server/main.ts, as `npm run server`) and
 * the seed command are killed with SIGKILL in the middle of their work, on the embedded database
 * (PGlite in DATA_DIR) and, when it answers, on PostgreSQL (a fresh schema). After the kill:
 *
 * - every change request is either fully decided (record written, request APPROVED by the checker,
 *   one CHANGE_APPROVED activity row) or not at all (still PENDING, record untouched, no decision row);
 *   every acknowledged approval and submission is there; no pending request is lost;
 * - the seed's transaction tables hold the old set or the new one, never a part, with their indexes;
 * - the server starts again cleanly on the same data and serves the pending requests;
 * - a first start whose demo seed fails half-way leaves nothing, so the next start seeds it all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../src/server/freePort';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { seedDemo } from '../../src/server/seed/demo';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const DEMO_PASSWORD = 'Demo@Pass1';
const DEMO_TRANSACTIONS = 1000;
const TRANSACTION_TABLES = ['ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions', 'insurance_dependants', 'transaction_daily_stats'];

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

interface Backend {
  name: string;
  /** The server's and the seed command's environment. */
  env: Record<string, string>;
  /** Opens the database directly (only while no server process holds it, for the embedded one). */
  open(): Promise<Db>;
  cleanup(): Promise<void>;
}

function embeddedBackend(): Backend {
  const dataDir = mkdtempSync(join(tmpdir(), 'remit-durability-'));
  return {
    name: 'embedded PGlite',
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    open: () => openDb({ dataDir: join(dataDir, 'db') }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  const schema = `durability_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const dataDir = mkdtempSync(join(tmpdir(), 'remit-durability-pg-'));
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url },
    open: () => openDb({ databaseUrl: PG_URL, schema }),
    async cleanup() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Reply {
  statusCode: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

interface Running {
  child: ChildProcess;
  output(): string;
  call(path: string, body: unknown, token?: string): Promise<Reply>;
  login(username: string): Promise<string>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r())));

/** Spawns a node process running `script` with the backend's environment; keeps the last 20 KB of its output. */
function spawnNode(backend: Backend, script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, NODE_ENV: 'test', SEED_TRANSACTIONS: String(DEMO_TRANSACTIONS), ...backend.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => output };
}

async function startServerProcess(backend: Backend): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, output } = spawnNode(backend, 'src/server/main.ts', [], { PORT: String(port) });
  const call = async (path: string, body: unknown, token?: string): Promise<Reply> => {
    const res = await fetch(`${url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Reply;
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`);
    try {
      await call('auth/login', {});
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the server did not start:\n${output()}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    child,
    output,
    call,
    async login(username) {
      const reply = await call('auth/login', { username, password: DEMO_PASSWORD });
      if (reply.statusCode !== 200) throw new Error(`login ${username}: ${reply.statusCode} ${JSON.stringify(reply.data)}`);
      return reply.data.token;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited(child), new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** Runs the tasks `concurrency` at a time; after `killAfter` of them settled, calls `kill` (once). */
async function runAndKill<T>(tasks: (() => Promise<T>)[], concurrency: number, killAfter: number, kill: () => Promise<void>): Promise<(T | Error)[]> {
  const results: (T | Error)[] = new Array(tasks.length);
  let next = 0;
  let settled = 0;
  let killing: Promise<void> | undefined;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      try {
        results[i] = await tasks[i]();
      } catch (err) {
        results[i] = err as Error;
      }
      settled += 1;
      if (settled === killAfter) killing = kill();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await killing;
  return results;
}

/** A cheap shuffle with a fixed seed, so that a failure can be replayed. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function tableCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TRANSACTION_TABLES) out[t] = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`))!.n;
  return out;
}

async function indexNames(db: Db): Promise<string[]> {
  const rows = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY (string_to_array($1, ',')) ORDER BY indexname`, [
    TRANSACTION_TABLES.join(','),
  ]);
  return rows.map((r) => r.indexname);
}

/**
 * Migrates and seeds the demo data with a cheap password hash cost (the server would spend a minute
 * hashing the demo passwords at the production cost), so that the server process finds it seeded.
 */
async function seededCheaply(backend: Backend): Promise<Backend> {
  const previous = process.env.SEED_TRANSACTIONS;
  process.env.SEED_TRANSACTIONS = String(DEMO_TRANSACTIONS);
  const db = await backend.open();
  try {
    await migrate(db);
    await seedDemo(db, { scryptN: 2 ** 10 });
  } finally {
    await db.close();
    if (previous === undefined) delete process.env.SEED_TRANSACTIONS;
    else process.env.SEED_TRANSACTIONS = previous;
  }
  return backend;
}

/**
 * The suites for one database, each in a test file of its own (durabilityPglite.test.ts,
 * durabilityPostgres.test.ts) so that the two run side by side: most of their time is the killed
 * server and seed processes' own work, one process each. PostgreSQL's are skipped when
 * it does not answer.
 */
export async function durabilitySuites(which: 'PGlite' | 'PostgreSQL'): Promise<void> {
  const make: () => Promise<Backend> = which === 'PGlite' ? async () => embeddedBackend() : postgresBackend;
  const available = which === 'PGlite' || (await postgresAnswers());
  const label = which === 'PGlite' ? 'embedded PGlite' : 'PostgreSQL';
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  describe.runIf(available)(`${label}: kill -9`, () => {
    let backend: Backend;
    let server: Running | undefined;

    afterAll(async () => {
      await server?.kill();
    });

    it('in the middle of approvals and submissions: every change fully applied or not at all, nothing pending lost', async () => {
      backend = await make();
      cleanups.push(() => backend.cleanup());
      await seededCheaply(backend);
      server = await startServerProcess(backend);
      const running0 = server;
      const [maker, checker] = [await server.login('maker'), await server.login('checker')];
      const tag = `Dur ${randomBytes(3).toString('hex')}`;
      const role = (name: string, permissions = ['user-view']) => ({ role_name: name, user_type: 'BACKEND', user_level: 1, permissions, disabled: 0 });

      // 20 roles to edit, then 20 pending EDIT requests on them and 80 pending CREATE requests (8 calls at a time)
      const inBatches = async <T>(items: T[], fn: (item: T) => Promise<void>) => {
        for (let i = 0; i < items.length; i += 8) await Promise.all(items.slice(i, i + 8).map(fn));
      };
      const edited = Array.from({ length: 20 }, (_, i) => ({ id: 0, name: `${tag} Base ${i}` }));
      const baseRequests = new Set<number>();
      await inBatches(edited, async (e) => {
        const created = await running0.call('role/create', role(e.name), maker);
        expect(created.statusCode).toBe(200);
        baseRequests.add(created.data.changeRequestId);
        expect((await running0.call('role/approve', { changeRequestID: created.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
      });
      const listed = (await server.call('role/list', {}, checker)).data.roles as { id: number; role_name: string }[];
      for (const e of edited) e.id = listed.find((r) => r.role_name === e.name)!.id;
      const prepared: number[] = [];
      await inBatches(edited, async (e) => {
        const reply = await running0.call('role/edit', { id: e.id, ...role(e.name, ['user-view', 'role-view']) }, maker);
        expect(reply.statusCode).toBe(200);
        prepared.push(reply.data.changeRequestId);
      });
      await inBatches(
        Array.from({ length: 80 }, (_, i) => `${tag} New ${i}`),
        async (name) => {
          const reply = await running0.call('role/create', role(name), maker);
          expect(reply.statusCode).toBe(200);
          prepared.push(reply.data.changeRequestId);
        },
      );
      prepared.sort((a, b) => a - b);

      // approvals of all 100 and 50 fresh submissions, 12 at a time; SIGKILL once 50 have answered
      type Task = { kind: 'approve'; request: number } | { kind: 'submit'; name: string };
      const work: Task[] = shuffled(
        [...prepared.map((request) => ({ kind: 'approve' as const, request })), ...Array.from({ length: 50 }, (_, i) => ({ kind: 'submit' as const, name: `${tag} Late ${i}` }))],
        prepared[0],
      );
      const running = server;
      const results = await runAndKill(
        work.map(
          (t) => () => (t.kind === 'approve' ? running.call('role/approve', { changeRequestID: t.request, actionTaken: 'approve' }, checker) : running.call('role/create', role(t.name), maker)),
        ),
        12,
        50,
        () => running.kill(),
      );
      server = undefined;
      const acknowledged = work.filter((_, i) => !(results[i] instanceof Error) && (results[i] as Reply).statusCode === 200);
      expect(acknowledged.length).toBeGreaterThanOrEqual(50);
      for (const [i, r] of results.entries()) if (!(r instanceof Error)) expect([200], JSON.stringify({ task: work[i], r })).toContain(r.statusCode);
      expect(results.filter((r) => r instanceof Error).length).toBeGreaterThan(0);

      // the database as the dead server left it
      const db = await backend.open();
      try {
        const requests = (
          await db.query<{ id: number; action: string; status: string; decided_by: string | null; payload: { role_name: string; permissions: string[] } }>(
            "SELECT id, action, status, decided_by, payload FROM change_requests WHERE entity_type = 'Role' AND payload ->> 'role_name' LIKE $1 ORDER BY id",
            [`${tag} %`],
          )
        ).filter((r) => !baseRequests.has(r.id));
        const roles = await db.query<{ id: number; role_name: string; permissions: string[]; locked: number; version: number }>(
          'SELECT id, role_name, permissions, locked, version FROM roles WHERE role_name LIKE $1',
          [`${tag} %`],
        );
        const activity = await db.query<{ type: string; description: string }>(
          "SELECT type, description FROM activity_logs WHERE type IN ('CHANGE_REQUEST', 'CHANGE_APPROVED', 'CHANGE_REJECTED') AND description ~ '\\(change request #'",
        );
        const logged = (type: string, id: number) => activity.filter((a) => a.type === type && new RegExp(`\\(change request #${id}[ )]`).test(a.description)).length;

        // no prepared request lost; every acknowledged approval and submission is there
        const byId = new Map(requests.map((r) => [r.id, r]));
        for (const id of prepared) expect(byId.has(id), `request ${id}`).toBe(true);
        for (const t of acknowledged) {
          if (t.kind === 'approve') expect(byId.get(t.request)!.status, `acknowledged approval of ${t.request}`).toBe('APPROVED');
          else
            expect(
              requests.some((r) => r.payload.role_name === t.name),
              `acknowledged submission of ${t.name}`,
            ).toBe(true);
        }
        let approved = 0;
        let pending = 0;
        for (const r of requests) {
          expect(['APPROVED', 'PENDING']).toContain(r.status);
          expect(logged('CHANGE_REQUEST', r.id), `request ${r.id} logged`).toBe(1);
          const rolesNamed = roles.filter((x) => x.role_name === r.payload.role_name);
          if (r.status === 'APPROVED') {
            approved += 1;
            expect(r.decided_by).toBe('checker');
            expect(logged('CHANGE_APPROVED', r.id), `approval of ${r.id} logged once`).toBe(1);
            expect(rolesNamed, `role of ${r.id}`).toEqual([expect.objectContaining({ permissions: r.payload.permissions, locked: 0, version: r.action === 'EDIT' ? 2 : 1 })]);
          } else {
            pending += 1;
            expect(r.decided_by).toBeNull();
            expect(logged('CHANGE_APPROVED', r.id), `request ${r.id} not decided`).toBe(0);
            if (r.action === 'EDIT') expect(rolesNamed, `role of ${r.id}`).toEqual([expect.objectContaining({ permissions: ['user-view'], locked: 1, version: 1 })]);
            else expect(rolesNamed, `no role for ${r.id}`).toEqual([]);
          }
        }
        expect(approved).toBeGreaterThan(0);
        expect(pending).toBeGreaterThan(0);
        expect(roles.filter((x) => x.role_name.includes(' New ') || x.role_name.includes(' Late ')).length).toBe(requests.filter((r) => r.action === 'CREATE' && r.status === 'APPROVED').length);

        // a clean start on the same data: the pending requests are listed and can be approved
        const stillPending = requests.filter((r) => r.status === 'PENDING').map((r) => r.id);
        await db.close().catch(() => {});
        server = await startServerProcess(backend);
        const checker2 = await server.login('checker');
        const list = await server.call('role/list', {}, checker2);
        const listedPending = (list.data.changeRequests as { changeRequestId: number }[]).map((c) => c.changeRequestId).filter((id) => byId.has(id));
        expect(listedPending.sort((a, b) => a - b)).toEqual(stillPending);
        expect(await server.call('role/approve', { changeRequestID: stillPending[0], actionTaken: 'approve' }, checker2)).toEqual({
          statusCode: 200,
          data: { message: 'Role approved successfully' },
        });
        await server.stop();
        server = undefined;
      } finally {
        await db.close().catch(() => {});
      }
    }, 180_000);

    it('in the middle of `npm run seed -- --transactions 40000`: the old set or the new one, never a part; then a clean start', async () => {
      let db = await backend.open();
      const before = await tableCounts(db);
      const indexes = await indexNames(db);
      await db.close();
      expect(Object.values(before).reduce((a, b) => a + b, 0)).toBeGreaterThan(DEMO_TRANSACTIONS);

      const seed = spawnNode(backend, 'src/server/cli/seed.ts', ['--transactions', '40000']);
      // kill it once it has written half of the rows (a progress line every tenth)
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (/20,000 \/ 40,000/.test(seed.output())) {
            clearInterval(timer);
            resolve();
          } else if (seed.child.exitCode !== null) {
            clearInterval(timer);
            reject(new Error(`the seed ended before it was killed:\n${seed.output()}`));
          }
        }, 20);
      });
      seed.child.kill('SIGKILL');
      await exited(seed.child);

      db = await backend.open();
      try {
        const after = await tableCounts(db);
        const total = TRANSACTION_TABLES.slice(0, 5).reduce((s, t) => s + after[t], 0);
        if (total !== 40_000) expect(after).toEqual(before);
        expect(await indexNames(db)).toEqual(indexes);
      } finally {
        await db.close();
      }

      // the server starts cleanly and lists transactions
      server = await startServerProcess(backend);
      const admin = await server.login('admin');
      const today = new Date().toISOString().slice(0, 10);
      const list = await server.call(
        'Transaction/get-ceftTransaction',
        { from_date: `${today}T00:00:01`, to_date: `${today}T23:59:00`, country_code: '', data: '', status: '', fetchCount: 10 },
        admin,
      );
      expect(list.statusCode).toBe(200);
      await server.stop();
      server = undefined;

      // and a seed run to its end replaces the set as a whole
      const small = spawnNode(backend, 'src/server/cli/seed.ts', ['--transactions', '3000']);
      await exited(small.child);
      expect(small.child.exitCode, small.output()).toBe(0);
      db = await backend.open();
      try {
        const after = await tableCounts(db);
        expect(TRANSACTION_TABLES.slice(0, 5).reduce((s, t) => s + after[t], 0)).toBe(3000);
        expect(await indexNames(db)).toEqual(indexes);
      } finally {
        await db.close();
      }
    }, 180_000);
  });

  describe.runIf(available)(`${label}: the first demo seed`, () => {
    it('failing half-way (in its last part, the settlement history) leaves nothing, and the next start seeds everything', async () => {
      // the embedded database in memory here: what matters is the transaction, not the files
      const backend = which === 'PGlite' ? undefined : await make();
      if (backend) cleanups.push(() => backend.cleanup());
      const previous = process.env.SEED_TRANSACTIONS;
      process.env.SEED_TRANSACTIONS = String(DEMO_TRANSACTIONS);
      const db = backend ? await backend.open() : await openDb({});
      try {
        await migrate(db);
        await db.exec(`
        CREATE FUNCTION test_injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$;
        CREATE TRIGGER test_injected_fault BEFORE INSERT ON settlement_batches FOR EACH ROW EXECUTE FUNCTION test_injected_fault();`);
        await expect(seedDemo(db, { scryptN: 2 ** 10 })).rejects.toThrow(/injected fault/);
        const left = await db.one<{ users: number; roles: number; transactions: number }>(
          'SELECT (SELECT count(*)::int FROM console_users) AS users, (SELECT count(*)::int FROM roles) AS roles, (SELECT count(*)::int FROM ceft_transactions) AS transactions',
        );
        expect(left).toEqual({ users: 0, roles: 0, transactions: 0 });

        await db.exec('DROP TRIGGER test_injected_fault ON settlement_batches; DROP FUNCTION test_injected_fault();');
        expect(await seedDemo(db, { scryptN: 2 ** 10 })).toBe(true);
        const seeded = await db.one<{ users: number; transactions: number; batches: number }>(
          `SELECT (SELECT count(*)::int FROM console_users) AS users,
                (SELECT count(*)::int FROM ceft_transactions) + (SELECT count(*)::int FROM bill_transactions) + (SELECT count(*)::int FROM echannelling_transactions)
                  + (SELECT count(*)::int FROM thyaga_transactions) + (SELECT count(*)::int FROM insurance_transactions) AS transactions,
                (SELECT count(*)::int FROM settlement_batches) AS batches`,
        );
        expect(seeded!.users).toBeGreaterThan(10);
        expect(seeded!.transactions).toBe(DEMO_TRANSACTIONS);
        expect(seeded!.batches).toBeGreaterThan(0);
      } finally {
        await db.close();
        if (previous === undefined) delete process.env.SEED_TRANSACTIONS;
        else process.env.SEED_TRANSACTIONS = previous;
      }
    });
  });
}
