/**
 * `npm run load [-- --duration 60 --connections 200 --users 200 --transactions 1000000 --pending 40000 --reseed]`
 * `npm run load -- --soak 600` (a 10-minute run that also prints the RSS slope)
 *
 * A load run on loopback against PostgreSQL (LOAD_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test),
 * schema `load`: seeds (or reuses, marker `load_transactions` in app_settings, as scripts/bench-api.ts does)
 * N generated transactions, creates the signed-in users (role "Load Tester") and plenty of pending change
 * requests (role CREATE requests made by `maker`), starts the real server as a child process
 * (node --import tsx src/server/main.ts; not production mode, which refuses the demo accounts), signs the users in, and drives it with
 * autocannon: `connections` concurrent connections, each with its own user, mixing
 *
 *   list     Transaction/get-ceftTransaction, today, 10 rows
 *   filter   the same over the last 7 days, with a country, a status and a text filter, 25 rows
 *   export   the same as the console's export: today, every row (fetchCount All), then report/log-export
 *   approve  role/approve of the next pending request (409 "already decided" is an expected answer)
 *
 * Prints requests/s, p50/p95/p99 latency per call and overall, statuses per call, the error count
 * (5xx, unexpected statuses, socket errors, timeouts), and the server's RSS sampled every 5 s; with
 * --soak the RSS slope (MB/min, least squares, after the first minute) and the first and last RSS.
 * Exits with 1 when there were errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EXPECTED, WEIGHTS, loadMix, type Kind } from './loadMix';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { freePort } from '../src/server/freePort';
import { subDays } from 'date-fns';
import { benchToday } from './benchData';
import autocannon from 'autocannon';
import { openDb, type Db } from '../src/server/db/db';
import { migrate } from '../src/server/db/migrate';
import { hashPassword } from '../src/server/auth/passwords';
import { seedDemo } from '../src/server/seed/demo';
import { replaceTransactions } from '../src/server/seed/transactions';
import { numberArg } from './benchArgs';

const SOAK = process.argv.includes('--soak') ? numberArg('soak', 600) : undefined;
const DURATION = SOAK ?? numberArg('duration', 60);
const CONNECTIONS = numberArg('connections', 200);
const USERS = numberArg('users', 200);
const N = numberArg('transactions', 1_000_000);
const PENDING = numberArg('pending', 40_000);
const DATABASE_URL = process.env.LOAD_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'load';
const PASSWORD = 'Load@Pass1';
const LOAD_PERMISSIONS = ['send-money-report-view', 'role-view', 'role-approve'];

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

/** Migrates, seeds the demo and N transactions (reused when already there today), the load users and the pending requests. */
async function prepare(db: Db): Promise<{ firstRequest: number; lastRequest: number }> {
  await migrate(db);
  process.env.SEED_TRANSACTIONS = '0';
  await seedDemo(db, { scryptN: 2 ** 10 });
  const wanted = JSON.stringify({ count: N, day: benchToday() });
  const stored = await db.one<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'load_transactions'`);
  if (stored?.value === wanted && !process.argv.includes('--reseed')) {
    log(`Reusing ${N.toLocaleString('en-US')} transactions generated today in schema ${SCHEMA}.`);
  } else {
    log(`Generating ${N.toLocaleString('en-US')} transactions in schema ${SCHEMA} ...`);
    const started = Date.now();
    await replaceTransactions(db, {
      now: new Date(),
      count: N,
      onProgress: (loaded, total) => {
        if (loaded % 200_000 < 5000 || loaded === total) log(`  ${loaded.toLocaleString('en-US')} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      },
    });
    await db.query(`INSERT INTO app_settings (key, value) VALUES ('load_transactions', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [wanted]);
    log(`Loaded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }

  // the signed-in users: one role that may list send-money transactions and approve role requests
  const role = await db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('Load Tester', 'BACKEND', (SELECT id FROM user_levels ORDER BY level DESC LIMIT 1), $1)
     ON CONFLICT (lower(role_name)) DO UPDATE SET permissions = EXCLUDED.permissions, disabled = 0 RETURNING id`,
    [LOAD_PERMISSIONS],
  );
  const hash = await hashPassword(PASSWORD, 2 ** 10);
  await db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT 'Load User ' || g, 'load.user' || g || '@remit.lk', '0770000000', 'load_user_' || g, 'BACKEND', 'HO', $1, $2 FROM generate_series(1, $3::int) g
     ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role_id = EXCLUDED.role_id, disabled = 0, locked = 0`,
    [role!.id, hash, USERS],
  );
  await db.query(`DELETE FROM login_attempts WHERE username_lower LIKE 'load_user_%'`);

  // pending role CREATE requests made by `maker`, as role/create stores them (those left by an earlier run go)
  await db.query(`DELETE FROM change_requests WHERE status = 'PENDING' AND entity_type = 'Role' AND payload ->> 'role_name' LIKE 'Load Role %'`);
  const run = randomBytes(4).toString('hex');
  const ids = await db.one<{ first: number; last: number }>(
    `WITH made AS (
       INSERT INTO change_requests (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status)
       SELECT 'Role', NULL, 'CREATE',
              jsonb_build_object('role_name', jsonb_build_object('header', 'Role Name', 'type', 'STRING', 'value', 'Load Role ' || $1 || ' ' || g)),
              NULL,
              jsonb_build_object('role_name', 'Load Role ' || $1 || ' ' || g, 'user_type', 'BACKEND', 'user_level', (SELECT id FROM user_levels ORDER BY level LIMIT 1),
                                 'permissions', '["user-view"]'::jsonb, 'disabled', 0),
              NULL, 'maker', (SELECT id FROM console_users WHERE username = 'maker'), now(), 'PENDING'
         FROM generate_series(1, $2::int) g
       RETURNING id)
     SELECT min(id) AS first, max(id) AS last FROM made`,
    [run, PENDING],
  );
  log(`${USERS} users (role Load Tester) and ${PENDING.toLocaleString('en-US')} pending change requests ready.`);
  return { firstRequest: ids!.first, lastRequest: ids!.last };
}

async function startServerProcess(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      // not production mode: production refuses a database with the demo accounts, and the load's
      // change requests are made by the demo maker; the schema is seeded already, so nothing is added
      NODE_ENV: 'development',
      SEED_TRANSACTIONS: '0',
      // no scheduled settlement: on its first start of a day it would generate the day's over the load's rows mid-run
      SETTLEMENT_SCHEDULE: 'off',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '20',
    },
    // the request log is written as in production, and thrown away
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (d) => (errors = (errors + d).slice(-20_000)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${errors}`);
    try {
      await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${errors}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { url, child, output: () => errors };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function signIn(url: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let start = 1; start <= USERS; start += 10) {
    const batch = Array.from({ length: Math.min(10, USERS - start + 1) }, (_, i) => `load_user_${start + i}`);
    tokens.push(
      ...(await Promise.all(
        batch.map(async (username) => {
          const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });
          const json = (await res.json()) as { statusCode: number; data: { token?: string; message?: string } };
          if (json.statusCode !== 200 || !json.data.token) throw new Error(`sign-in of ${username}: ${json.statusCode} ${json.data.message ?? ''}`);
          return json.data.token;
        }),
      )),
    );
  }
  return tokens;
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);

function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const db = await openDb({ databaseUrl: DATABASE_URL, schema: SCHEMA });
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    const { firstRequest, lastRequest } = await prepare(db);
    server = await startServerProcess();
    const { url, child } = server;
    log(`Server (pid ${child.pid}) at ${url}; signing in ${USERS} users ...`);
    const tokens = await signIn(url);

    const now = new Date();
    const today = benchToday(now);
    const weekAgo = benchToday(subDays(now, 7));
    const countries = (await db.query<{ country: string }>("SELECT DISTINCT country FROM ceft_transactions WHERE initiated_time > now() - interval '7 days' LIMIT 20")).map((r) => r.country);
    const { pick, bodyOf } = loadMix({ today, weekAgo, countries, firstRequest, lastRequest, logExportFileName: () => `send-money-${today}.xlsx` });

    const screenIds = await fetch(`${url}/api/report/log-export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[0]}` },
      body: JSON.stringify(bodyOf('log-export').body),
    }).then((r) => r.json() as Promise<{ statusCode: number; data: { message: string } }>);
    if (screenIds.statusCode !== 200) throw new Error(`report/log-export answers ${screenIds.statusCode}: ${screenIds.data.message}`);

    const statusesByKind = new Map<Kind, Map<number, number>>();
    const latencies = new Map<Kind, number[]>();
    const all: number[] = [];
    let connectionNo = 0;
    interface Context {
      token?: string;
      kind?: Kind;
      started?: bigint;
    }

    const rss: [number, number][] = [];
    const t0 = Date.now();
    const sample = () => {
      try {
        rss.push([(Date.now() - t0) / 60_000, rssMb(child.pid!)]);
      } catch {
        /* the server is gone: the run reports it */
      }
    };
    sample();
    const sampler = setInterval(() => {
      sample();
      const last = rss[rss.length - 1];
      if (last) process.stdout.write(`  t=${(last[0] * 60).toFixed(0)} s RSS ${last[1].toFixed(1)} MB\n`);
    }, 5000);

    log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s, mix ${WEIGHTS.map(([k, w]) => `${k} ${w}%`).join(', ')}`);
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 30,
      requests: [
        {
          method: 'POST',
          setupRequest: (req, context: Context) => {
            context.token ??= tokens[connectionNo++ % tokens.length];
            const kind = pick();
            const { path, body } = bodyOf(kind);
            context.kind = kind;
            context.started = process.hrtime.bigint();
            return { ...req, method: 'POST', path: `/api/${path}`, headers: { 'content-type': 'application/json', authorization: `Bearer ${context.token}` }, body: JSON.stringify(body) };
          },
          onResponse: (status, _body, context: Context) => {
            const kind = context.kind ?? 'list';
            const ms = Number(process.hrtime.bigint() - (context.started ?? process.hrtime.bigint())) / 1e6;
            const byStatus = statusesByKind.get(kind) ?? new Map<number, number>();
            byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
            statusesByKind.set(kind, byStatus);
            const list = latencies.get(kind) ?? [];
            list.push(ms);
            latencies.set(kind, list);
            all.push(ms);
          },
        },
      ],
    });
    clearInterval(sampler);
    sample();

    let unexpected = 0;
    const rows: string[][] = [['call', 'requests', 'statuses', 'p50 ms', 'p95 ms', 'p99 ms']];
    for (const [kind] of WEIGHTS) {
      const byStatus = statusesByKind.get(kind) ?? new Map();
      const sorted = (latencies.get(kind) ?? []).sort((a, b) => a - b);
      for (const [status, n] of byStatus) if (!EXPECTED[kind].includes(status)) unexpected += n;
      rows.push([
        kind,
        String(sorted.length),
        [...byStatus]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' '),
        quantile(sorted, 0.5).toFixed(1),
        quantile(sorted, 0.95).toFixed(1),
        quantile(sorted, 0.99).toFixed(1),
      ]);
    }
    all.sort((a, b) => a - b);
    rows.push(['all', String(all.length), '', quantile(all, 0.5).toFixed(1), quantile(all, 0.95).toFixed(1), quantile(all, 0.99).toFixed(1)]);
    const errors = unexpected + result.errors + result.timeouts;

    const totals = await db.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
            + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS n`,
    );
    console.log(`\n${Number(totals?.n).toLocaleString('en-US')} transactions in PostgreSQL (schema ${SCHEMA}); ${CONNECTIONS} connections, ${USERS} signed-in users, ${DURATION} s.\n`);
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) console.log(`| ${r.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`);
    console.log(`\nrequests/s: ${(all.length / DURATION).toFixed(1)} (autocannon average ${result.requests.average.toFixed(1)}), throughput ${(result.throughput.average / 1e6).toFixed(2)} MB/s`);
    console.log(`errors: ${errors} (unexpected statuses ${unexpected}, socket errors ${result.errors}, timeouts ${result.timeouts})`);
    const mb = rss.map((p) => p[1]);
    console.log(`server RSS: first ${mb[0]?.toFixed(1)} MB, last ${mb[mb.length - 1]?.toFixed(1)} MB, max ${Math.max(...mb).toFixed(1)} MB (${rss.length} samples every 5 s)`);
    if (SOAK !== undefined) {
      const settled = rss.filter((p) => p[0] >= 1);
      console.log(`RSS slope: ${slope(rss).toFixed(2)} MB/min over the whole run, ${slope(settled).toFixed(2)} MB/min after the first minute`);
    }
    if (child.exitCode !== null) throw new Error(`the server died during the run (${child.exitCode}):\n${server.output()}`);
    process.exitCode = errors > 0 ? 1 : 0;
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
