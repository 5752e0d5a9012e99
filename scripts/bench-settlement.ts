/**
 * `npx tsx scripts/bench-settlement.ts [--transactions 1000000] [--runs 5] [--json results.json]`
 *
 * Settlement generation at size. On the bench data set (scripts/benchData.ts, N transactions
 * in PostgreSQL, schema `bench` or BENCH_SCHEMA), every successful send-money transaction of the days
 * before today is first settled by one history batch (as the scheduled batches of a running service
 * would have settled them; made once, kept with the data set), so that what is pending is today's
 * successes: about the same number at any N, since the data set's today holds the same rows. Then the
 * server's own generation (report/generate-settlement-report over HTTP, as admin) is timed --runs
 * times, each batch removed again after its run (its links, rows and batch; the transactions become
 * pending again through migration 180's triggers).
 *
 * Printed beside it, in the same run: the search for the pending transactions as it was before
 * migration 180 (status SUCCESS and no settled_transactions row, which reads the whole settled
 * history), as migration 180 made it (status SUCCESS and not settled: a partial index, but the planner
 * multiplies the two conditions' frequencies) and as it is now (awaiting_settlement, migration 200).
 */
import { writeFile } from 'node:fs/promises';
import { DEMO_PASSWORD } from '../src/server/seed/demo';
import { startOfBusinessDay, businessDay } from '../src/domain/businessTime';
import { readBusinessTimeZone } from '../src/server/environment';
import { jsonArg, numberArg, openBenchDb, printTable, quantile, startBenchApi, timeIt, type BenchRow } from './benchData';
import type { Db } from '../src/server/db/db';

const N = numberArg('transactions', 1_000_000);
const RUNS = numberArg('runs', 5);
const JSON_FILE = jsonArg();
const HISTORY_DATE = '2000-01-01';

/** Settles every successful send-money transaction before `before` in one batch dated HISTORY_DATE, once. */
async function settleHistory(db: Db, before: Date): Promise<number> {
  const done = await db.one<{ transaction_count: number }>(`SELECT transaction_count FROM settlement_batches WHERE batch_date = $1::date AND generated_by = 'bench'`, [HISTORY_DATE]);
  if (done) return Number(done.transaction_count);
  const started = Date.now();
  const settled = await db.tx(async (tx) => {
    const batch = await tx.one<{ id: number }>(
      // (a batch settles at least one transaction: its count is set below, once the links are in)
      `INSERT INTO settlement_batches (kind, batch_date, generated_by, generated_at, transaction_count) VALUES ('SCHEDULED', $1::date, 'bench', now(), 1) RETURNING id`,
      [HISTORY_DATE],
    );
    const row = await tx.one<{ id: number }>(
      `INSERT INTO settlement_rows (batch_id, tran_date, currency_code, account_number, provider_bank_code, transaction_count, fc_amount, fc_commission, fc_net_amount, fc_rate, lkr_amount)
       VALUES ($1, $2::date, 'USD', 'history', '7010', 1, 0, 0, 0, 1, 0) RETURNING id`,
      [batch!.id, HISTORY_DATE],
    );
    // a month at a time, as days of scheduled batches would have (one statement per month)
    const months = await tx.query<{ m: string }>(
      `SELECT DISTINCT to_char(date_trunc('month', initiated_time AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS m FROM ceft_transactions WHERE initiated_time < $1 ORDER BY 1`,
      [before],
    );
    let n = 0;
    for (const { m } of months) {
      const r = await tx.one<{ n: number }>(
        `WITH linked AS (
           INSERT INTO settled_transactions (transaction_id, transaction_initiated_time, batch_id, row_id)
           SELECT t.id, t.initiated_time, $1, $2 FROM ceft_transactions t
            WHERE t.awaiting_settlement AND t.initiated_time < $3
              AND t.initiated_time >= ($4::date::timestamp AT TIME ZONE 'UTC') AND t.initiated_time < (($4::date + interval '1 month')::timestamp AT TIME ZONE 'UTC')
           RETURNING 1)
         SELECT count(*)::int AS n FROM linked`,
        [batch!.id, row!.id, before, m],
      );
      n += r!.n;
    }
    await tx.query('UPDATE settlement_batches SET transaction_count = $2 WHERE id = $1', [batch!.id, n]);
    await tx.query('UPDATE settlement_rows SET transaction_count = $2 WHERE id = $1', [row!.id, n]);
    return n;
  });
  console.log(`Settled the history: ${settled.toLocaleString('en-US')} send-money transactions before today in ${((Date.now() - started) / 1000).toFixed(1)} s; vacuuming ...`);
  await db.exec('VACUUM (ANALYZE) ceft_transactions, settled_transactions');
  return settled;
}

async function main() {
  const db = await openBenchDb(N);
  const zone = readBusinessTimeZone();
  const startOfToday = startOfBusinessDay(businessDay(new Date(), zone), zone);
  const history = await settleHistory(db, startOfToday);
  const { call, close } = await startBenchApi(db);
  try {
    const admin = (await call('auth/login', { username: 'admin', password: DEMO_PASSWORD })).data.token!;
    /** Removes today's batches (and with them their links: the transactions are pending again). */
    const undo = async () => {
      const ids = (await db.query<{ id: number }>(`SELECT id FROM settlement_batches WHERE batch_date > $1::date AND generated_by <> 'bench'`, [HISTORY_DATE])).map((r) => r.id);
      if (ids.length === 0) return;
      const list = `{${ids.join(',')}}`;
      await db.query('DELETE FROM settled_transactions WHERE batch_id = ANY ($1::integer[])', [list]);
      await db.query('DELETE FROM settlement_rows WHERE batch_id = ANY ($1::integer[])', [list]);
      await db.query('DELETE FROM settlement_batches WHERE id = ANY ($1::integer[])', [list]);
    };
    await undo();
    const pending = await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ceft_transactions t WHERE t.awaiting_settlement`);
    const ms: number[] = [];
    let last = { rows: 0, transactions: 0 };
    for (let i = 0; i < RUNS; i++) {
      const t = process.hrtime.bigint();
      const reply = await call('report/generate-settlement-report', {}, admin);
      ms.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (reply.statusCode !== 200) throw new Error(`generate: ${reply.statusCode} ${reply.data.message ?? ''}`);
      last = { rows: Number(reply.data.rows ?? 0), transactions: Number(reply.data.transactions ?? 0) };
      await undo();
    }
    ms.sort((a, b) => a - b);
    const before = await timeIt(
      () => db.query(`SELECT count(*) FROM ceft_transactions t WHERE t.status = 'SUCCESS' AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id)`),
      RUNS,
      1,
    );
    const m180 = await timeIt(() => db.query(`SELECT count(*) FROM ceft_transactions t WHERE t.status = 'SUCCESS' AND NOT t.settled`), RUNS, 1);
    const now = await timeIt(() => db.query(`SELECT count(*) FROM ceft_transactions t WHERE t.awaiting_settlement`), RUNS, 1);
    const total = await db.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
            + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS n`,
    );
    console.log(
      `\n${Number(total?.n).toLocaleString('en-US')} transactions; ${history.toLocaleString('en-US')} send-money transactions settled before today; ` +
        `${pending!.n.toLocaleString('en-US')} pending (today's successes). ${RUNS} generations, each undone after its run.\n`,
    );
    printTable([
      ['measure', 'what', 'p50 ms', 'max ms'],
      ['settlement generation (report/generate-settlement-report, HTTP)', `${last.transactions} transactions in ${last.rows} rows`, quantile(ms, 0.5).toFixed(1), ms[ms.length - 1].toFixed(1)],
      ['find the pending (now: awaiting_settlement, migration 200)', `${pending!.n} rows`, now.p50.toFixed(1), now.p95.toFixed(1)],
      ['find the pending (migration 180: status SUCCESS and not settled)', `${pending!.n} rows`, m180.p50.toFixed(1), m180.p95.toFixed(1)],
      ['find the pending (before migration 180: NOT EXISTS settled_transactions)', `${pending!.n} rows`, before.p50.toFixed(1), before.p95.toFixed(1)],
    ]);
    const rows: BenchRow[] = [
      {
        goal: '21 settlement',
        measure: `settlement generation of today's ${last.transactions} pending, ${N.toLocaleString('en-US')} transactions: p50 of ${RUNS} (baseline: the pending search before migration 180, p50)`,
        ours: Math.round(quantile(ms, 0.5) * 10) / 10,
        baseline: Math.round(before.p50 * 10) / 10,
        unit: 'ms',
        target: 'at most 1.5x its value at 1,000,000',
        met: null,
      },
    ];
    if (JSON_FILE) await writeFile(JSON_FILE, `${JSON.stringify(rows, null, 2)}\n`);
  } finally {
    await close();
    await db.close();
  }
}

// the results are written: exit without waiting for a pool or a server that would hold the process open
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
