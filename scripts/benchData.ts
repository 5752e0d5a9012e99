/**
 * The data both API benches use (scripts/bench-api.ts, scripts/bench-dashboard.ts): N generated
 * transactions in PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test), in
 * the schema `bench`, with the demo users and master data, and beneficiaries derived from the
 * remittances. Reused while it holds N transactions generated today (the lists filter today), else,
 * or with --reseed, generated again. Both benches call `openBenchDb`, so they share one data set.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/server/app';
import { openDb, type Db } from '../src/server/db/db';
import { migrate } from '../src/server/db/migrate';
import { seedDemo } from '../src/server/seed/demo';
import { seedBeneficiaries } from '../src/server/seed/beneficiaries';
import { replaceTransactions } from '../src/server/seed/transactions';
import { businessDay } from '../src/domain/businessTime';
import { readBusinessTimeZone } from '../src/server/environment';

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The schema the data set lives in: BENCH_SCHEMA, default `bench` (a second one keeps, say, 10,000,000 beside 1,000,000). */
export const BENCH_SCHEMA = process.env.BENCH_SCHEMA || 'bench';
export const BENCH_SCRYPT_N = 2 ** 10;

export { jsonArg, numberArg, type BenchRow } from './benchArgs';

/**
 * Today as the data set and the lists mean it: the business day (BUSINESS_TIME_ZONE), not the
 * machine's date. A data set holds today's rows from the business day's midnight; past midnight in
 * Colombo (18:30 UTC) the machine's date still names the day before, a full day of the history.
 */
export const benchToday = (now: Date = new Date()): string => businessDay(now, readBusinessTimeZone());

/** Opens the bench schema, migrated, with N transactions of today (generated if needed). */
export async function openBenchDb(count: number, reseed = process.argv.includes('--reseed')): Promise<Db> {
  const db = await openDb({ databaseUrl: BENCH_DATABASE_URL, schema: BENCH_SCHEMA });
  try {
    const applied = await migrate(db);
    process.env.SEED_TRANSACTIONS = '0';
    await seedDemo(db, { scryptN: BENCH_SCRYPT_N });
    const wanted = JSON.stringify({ count, day: benchToday(), generator: 2 });
    const stored = await db.one<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'bench_transactions'`);
    if (stored?.value === wanted && !reseed) {
      console.log(`Reusing ${count.toLocaleString('en-US')} transactions generated today in schema ${BENCH_SCHEMA}.`);
      const beneficiaries = await db.one<{ n: number }>('SELECT count(*) AS n FROM beneficiaries');
      if (Number(beneficiaries?.n) === 0) await seedBeneficiaries(db);
      if (applied.length > 0 || Number(beneficiaries?.n) === 0) await vacuum(db);
      return db;
    }
    console.log(`Generating ${count.toLocaleString('en-US')} transactions in schema ${BENCH_SCHEMA} ...`);
    const started = Date.now();
    await db.query(`DELETE FROM app_settings WHERE key = 'bench_transactions'`);
    await replaceTransactions(db, {
      now: new Date(),
      count,
      onProgress: (loaded, total) => {
        if (loaded % 200_000 < 5000 || loaded === total) console.log(`  ${loaded.toLocaleString('en-US')} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      },
    });
    await db.exec('TRUNCATE beneficiaries RESTART IDENTITY CASCADE');
    await seedBeneficiaries(db);
    await vacuum(db);
    console.log(`Loaded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    await db.query(`INSERT INTO app_settings (key, value) VALUES ('bench_transactions', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [wanted]);
    return db;
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** Fresh statistics and visibility maps (index-only scans) after a load or a schema change. */
async function vacuum(db: Db): Promise<void> {
  await db.exec(
    `VACUUM (ANALYZE) ceft_transactions, bill_transactions, echannelling_transactions, thyaga_transactions, insurance_transactions,
       insurance_dependants, transaction_daily_stats, transaction_monthly_stats, bill_daily_billers, app_users, beneficiaries,
       app_user_activity, beneficiary_activity`,
  );
}

export const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** p50 and p95 of `runs` timed calls after `warmup` untimed ones, in milliseconds. */
export async function timeIt(fn: () => Promise<unknown>, runs: number, warmup = 3): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < warmup; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

/** Prints a markdown table (columns from the third on right-aligned). */
export function printTable(rows: readonly string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: readonly string[]) => `| ${r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(rows[0]));
  console.log(`|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

/** A reply of the bench server's API: the envelope, its data as the call gave it. */
export interface BenchReply {
  statusCode: number;
  data: { token?: string; message?: string; [key: string]: unknown };
}

/**
 * Starts the API in-process on the bench data set (a free port) and gives a caller for it: a POST as a
 * browser sends it (JSON, compressed replies accepted), with a signed-in user's token when given.
 */
export async function startBenchApi(db: Db): Promise<{ close: () => Promise<void>; call: (path: string, body: unknown, token?: string) => Promise<BenchReply> }> {
  const app = await buildApp({ db, secret: randomBytes(32), scryptN: BENCH_SCRYPT_N });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as BenchReply;
  };
  return { close: () => app.close(), call };
}
