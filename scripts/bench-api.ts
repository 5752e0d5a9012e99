/**
 * `npm run bench:api [-- --transactions 1000000 --runs 30 --reseed]`
 *
 * Seeds (or reuses) N generated transactions in PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test) in the schema `bench`, starts the API on it, and times every
 * transaction list and count call through HTTP beside the very same SQL run directly on the same pool
 * (src/server/areas/transactionsQuery.ts builds both). Prints p50 and p95 in milliseconds.
 *
 * The data is reused while it has N transactions and was generated today (the lists filter today);
 * otherwise, or with --reseed, it is generated again.
 */
import { randomBytes } from 'node:crypto';
import { format } from 'date-fns';
import { buildApp } from '../src/server/app';
import { openDb, type Db } from '../src/server/db/db';
import { migrate } from '../src/server/db/migrate';
import { seedDemo } from '../src/server/seed/demo';
import { replaceTransactions } from '../src/server/seed/transactions';
import { countriesSql, countsSql, keysOf, kinds, listSql, resolveFilters, totalSql, type KindSpec } from '../src/server/areas/transactionsQuery';
import { billRow, ceftAuditRow, ceftRow, eChannellingRow, insuranceRow, thyagaRow, type ListFilters } from '../src/api/transactions';
import { SUCCESS, type TransactionKind } from '../src/domain/transactionStatus';
import type { z } from 'zod';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]?.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a positive whole number`);
  return n;
}

const N = arg('transactions', 1_000_000);
const RUNS = arg('runs', 30);
const WARMUP = 3;
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench';

async function prepare(db: Db): Promise<void> {
  await migrate(db);
  process.env.SEED_TRANSACTIONS = '0';
  await seedDemo(db, { scryptN: 2 ** 10 });
  const today = format(new Date(), 'yyyy-MM-dd');
  const wanted = JSON.stringify({ count: N, day: today });
  const stored = await db.one<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'bench_transactions'`);
  if (stored?.value === wanted && !process.argv.includes('--reseed')) {
    console.log(`Reusing ${N.toLocaleString('en-US')} transactions generated today in schema ${SCHEMA}.`);
    return;
  }
  console.log(`Generating ${N.toLocaleString('en-US')} transactions in schema ${SCHEMA} ...`);
  const started = Date.now();
  await replaceTransactions(db, {
    now: new Date(),
    count: N,
    onProgress: (loaded, total) => {
      if (loaded % 200_000 < 5000 || loaded === total) process.stdout.write(`  ${loaded.toLocaleString('en-US')} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    },
  });
  console.log(`Loaded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  await db.query(`INSERT INTO app_settings (key, value) VALUES ('bench_transactions', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [wanted]);
}

interface Case {
  readonly path: string;
  readonly kind: TransactionKind;
  readonly row: z.ZodObject;
  readonly body: Record<string, unknown>;
  readonly refunded?: boolean;
  readonly scenario: string;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

/** The statements a list call runs, run directly, as the handler does (in parallel). */
async function directList(db: Db, c: Case): Promise<void> {
  const spec: KindSpec = kinds[c.kind];
  const filters = await resolveFilters(db, c.body as unknown as ListFilters, c.refunded ? 'REFUNDED' : undefined);
  const amount = c.refunded ? 'amount_lkr' : 'amount_usd';
  const list = listSql(spec, keysOf(c.row), filters, amount);
  const total = totalSql(spec, filters, c.refunded ? 'REFUNDED' : SUCCESS, amount);
  await Promise.all([db.query(list.sql, list.params), db.query(total.sql, total.params), db.query(countriesSql.sql, countriesSql.params)]);
}

async function main(): Promise<void> {
  const db = await openDb({ databaseUrl: DATABASE_URL, schema: SCHEMA });
  try {
    await prepare(db);
    const app = await buildApp({ db, secret: randomBytes(32), scryptN: 2 ** 10 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `http://127.0.0.1:${address.port}`;
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { statusCode: number; data: { filteredList?: unknown[]; message?: string } };
      if (json.statusCode !== 200) throw new Error(`${path}: ${json.statusCode} ${json.data.message ?? ''}`);
      return json;
    };
    const token = ((await post('auth/login', { username: 'admin', password: 'Demo@Pass1' })).data as { token: string }).token;

    const day = format(new Date(), 'yyyy-MM-dd');
    const range = { from_date: `${day}T00:00:01`, to_date: `${day}T23:59:00` };
    const narrow = { ...range, country_code: 'AE', data: '19' };
    const wide = { ...range, country_code: '', data: '' };
    const lists: [string, TransactionKind, z.ZodObject, 'status' | 'counted' | 'plain', boolean?][] = [
      ['Transaction/get-ceftTransaction', 'ceft', ceftRow, 'status'],
      ['dashboard/CeftList', 'ceft', ceftAuditRow, 'status'],
      ['dashboard/CeftRefundedList', 'ceft', ceftAuditRow, 'status', true],
      ['Transaction/billTransactions', 'bill', billRow, 'counted'],
      ['dashboard/BillList', 'bill', billRow, 'status'],
      ['Transaction/echannellingTransactions', 'echannelling', eChannellingRow, 'counted'],
      ['dashboard/E-ChannellingList', 'echannelling', eChannellingRow, 'plain'],
      ['Transaction/thyagaTransactions', 'thyaga', thyagaRow, 'counted'],
      ['dashboard/ThayagaList', 'thyaga', thyagaRow, 'counted'],
      ['Transaction/insuranceTransactions', 'insurance', insuranceRow, 'counted'],
    ];
    const cases: Case[] = [];
    for (const [path, kind, row, shape, refunded] of lists) {
      const scenarios =
        shape === 'plain'
          ? ([['1 day, AE, text "19", every row', narrow, undefined], ['1 day, all countries, every row', wide, undefined]] as const)
          : ([['1 day, AE, text "19", fetch 10', narrow, 10], ['1 day, all countries, fetch All', wide, 99_999_999]] as const);
      for (const [scenario, base, fetchCount] of scenarios) {
        const body: Record<string, unknown> = { ...base };
        if (fetchCount !== undefined) body.fetchCount = fetchCount;
        if (shape === 'status') body.status = '';
        cases.push({ path, kind, row, body, refunded, scenario });
      }
    }

    const out: string[][] = [['call', 'filter', 'rows', 'HTTP p50', 'HTTP p95', 'SQL p50', 'SQL p95']];
    for (const c of cases) {
      const rows = (await post(c.path, c.body, token)).data.filteredList?.length ?? 0;
      const http = await time(() => post(c.path, c.body, token));
      const sql = await time(() => directList(db, c));
      out.push([c.path, c.scenario, String(rows), http.p50.toFixed(1), http.p95.toFixed(1), sql.p50.toFixed(1), sql.p95.toFixed(1)]);
    }
    for (const [path, kind] of [
      ['dashboard/CeftCount', 'ceft'],
      ['dashboard/BillCount', 'bill'],
      ['dashboard/E-ChannellingCount', 'echannelling'],
      ['dashboard/ThayagaCount', 'thyaga'],
    ] as const) {
      const q = countsSql(kind);
      const http = await time(() => post(path, {}, token));
      const sql = await time(() => db.query(q.sql, q.params));
      out.push([path, 'all time, by status', '-', http.p50.toFixed(1), http.p95.toFixed(1), sql.p50.toFixed(1), sql.p95.toFixed(1)]);
    }

    const totals = await db.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
            + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS n`,
    );
    console.log(`\n${Number(totals?.n).toLocaleString('en-US')} transactions in PostgreSQL (schema ${SCHEMA}); ${RUNS} timed runs after ${WARMUP} warm-up runs; milliseconds.\n`);
    const widths = out[0].map((_, i) => Math.max(...out.map((r) => r[i].length)));
    const line = (r: string[]) => `| ${r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
    console.log(line(out[0]));
    console.log(`|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
    for (const r of out.slice(1)) console.log(line(r));
    await app.close();
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
