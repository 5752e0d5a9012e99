/**
 * `npx tsx scripts/bench-dashboard.ts [--transactions 1000000] [--runs 30] [--reseed] [--json results.json]`
 *
 * Goal 3 of the benchmark (dashboards). Seeds or reuses N transactions in PostgreSQL (scripts/benchData.ts,
 * schema `bench`, shared with bench-api.ts), starts the API in-process on the same pool, signs in as
 * admin (the app dashboard) and auditor (the audit dashboard), and times every dashboard call with
 * each of its typical bodies over HTTP (3 warm-up calls, then --runs timed ones): p50 and p95. The
 * baseline is measured in the same run: the scan the roll-ups replace, counts and USD sums GROUP BY
 * month over all 1M transactions (the issue measured 370 to 510 ms).
 *
 * With --json <file>, writes the rows {goal, measure, ours, baseline, unit, target, met}.
 */
import { readBusinessTimeZone } from '../src/server/environment';
import { writeFile } from 'node:fs/promises';
import { DEMO_PASSWORD } from '../src/server/seed/demo';
import { addDays } from '../src/api/dashboard';
import { localDay } from '../src/server/areas/transactions/stats';
import { jsonArg, numberArg, openBenchDb, printTable, startBenchApi, timeIt, type BenchRow } from './benchData';

const N = numberArg('transactions', 1_000_000);
const RUNS = numberArg('runs', 30);
const JSON_FILE = jsonArg();
const GOAL = '3 dashboards';
const TARGET_MS = 50;

/** The scan a dashboard would need without the roll-ups: every transaction, by month. */
const RAW_SCAN = `SELECT kind, month, sum(n) AS count, sum(usd) AS usd FROM (
  ${['ceft', 'bill', 'echannelling', 'thyaga', 'insurance']
    .map((k) => `SELECT '${k}' AS kind, date_trunc('month', initiated_time) AS month, count(*) AS n, sum(amount_usd) FILTER (WHERE status = 'SUCCESS') AS usd FROM ${k}_transactions GROUP BY 2`)
    .join('\n  UNION ALL ')}) x GROUP BY 1, 2`;

async function main() {
  const db = await openBenchDb(N);
  const api = await startBenchApi(db);
  const call = async (path: string, body: unknown, token?: string) => {
    const reply = await api.call(path, body, token);
    if (reply.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(body)}: ${reply.statusCode} ${reply.data?.message ?? ''}`);
    return reply;
  };
  const login = async (username: string) => (await call('auth/login', { username, password: DEMO_PASSWORD })).data.token!;

  const results: BenchRow[] = [];
  try {
    const sizes = await db.one<{ transactions: number; app_users: number; beneficiaries: number; daily: number; monthly: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
              + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS transactions,
              (SELECT count(*) FROM app_users) AS app_users, (SELECT count(*) FROM beneficiaries) AS beneficiaries,
              (SELECT count(*) FROM transaction_daily_stats) AS daily, (SELECT count(*) FROM transaction_monthly_stats) AS monthly`,
    );
    const admin = await login('admin');
    const auditor = await login('auditor');
    const today = localDay(new Date(), readBusinessTimeZone());
    const custom = { range: 0, fromDate: addDays(today, -59), toDate: addDays(today, -10) };
    const cases: [string, unknown, string][] = [
      ['dashboard/totalCountsAndValues', {}, admin],
      ['dashboard/overallTransactionCounts', {}, admin],
      ['dashboard/getAppUsersByCountry', {}, admin],
      ['dashboard/currencyWiseTransactionValues', {}, admin],
      ['dashboard/getTotalTransactionsByMonth', {}, admin],
      ['dashboard/getTotalAppUsersByMonth', {}, admin],
      ['dashboard/totalTransactionValues', { range: 7 }, admin],
      ['dashboard/totalTransactionValues', { range: 365 }, admin],
      ['dashboard/totalTransactionValues', custom, admin],
      ['dashboard/getActiveUsers', {}, auditor],
      ['dashboard/getAppUsersAndBeneficiariesCount', {}, auditor],
      ['dashboard/getTransactionValues', { range: 7 }, auditor],
      ['dashboard/getTransactionValues', { range: 365 }, auditor],
      ['dashboard/getTransactionValues', custom, auditor],
      ['dashboard/getCeftTransactionTableData', { range: 'YEARLY' }, auditor],
      ['dashboard/getCeftTransactionTableData', { range: 'MONTHLY' }, auditor],
      ['dashboard/getBillerTransactionTableData', { range: 'WEEKLY' }, auditor],
      ['dashboard/getThyagaTransactionTableData', { range: 'MONTHLY' }, auditor],
      ['dashboard/getEchTransactionTableData', { range: 'YEARLY' }, auditor],
      ['dashboard/TopUsers', { range: 1 }, auditor],
      ['dashboard/TopUsers', { range: 30 }, auditor],
      ['dashboard/getTopBillers', { range: 7 }, auditor],
      ['dashboard/getTopBillers', { range: 365 }, auditor],
      ['dashboard/AllTranCount', { range: 'WEEKLY' }, auditor],
      ['dashboard/AllTranCount', { range: 'MONTHLY' }, auditor],
      ['dashboard/AllTranCount', { range: 'YEARLY' }, auditor],
      ['dashboard/CountryWiseAppUserCount', { range: 365 }, auditor],
      ['dashboard/CountryWiseAppUserCount', { ...custom, fromDate: `${custom.fromDate}T00:00:00`, toDate: `${custom.toDate}T23:59:59` }, auditor],
      ['dashboard/remittanceByYear', { measure: 'count' }, auditor],
      ['dashboard/remittanceByYear', { measure: 'value', year: Number(today.slice(0, 4)) - 1 }, auditor],
      ['dashboard/CeftCount', {}, auditor],
      ['dashboard/BillCount', {}, auditor],
    ];

    const scan = await timeIt(() => db.query(RAW_SCAN), Math.min(RUNS, 5), 1);
    const out: string[][] = [['call', 'body', 'p50 ms', 'p95 ms', 'met']];
    for (const [path, body, token] of cases) {
      const t = await timeIt(() => call(path, body, token), RUNS);
      const met = t.p95 < TARGET_MS;
      out.push([path, JSON.stringify(body), t.p50.toFixed(1), t.p95.toFixed(1), met ? 'yes' : 'NO']);
      results.push({
        goal: GOAL,
        measure: `${path} ${JSON.stringify(body)}: p95 (baseline: the GROUP BY month scan)`,
        ours: round1(t.p95),
        baseline: round1(scan.p95),
        unit: 'ms',
        target: `< ${TARGET_MS} ms`,
        met,
      });
    }

    console.log(
      `\nPostgreSQL: ${Number(sizes?.transactions).toLocaleString('en-US')} transactions, ${Number(sizes?.app_users).toLocaleString('en-US')} app users, ` +
        `${Number(sizes?.beneficiaries).toLocaleString('en-US')} beneficiaries; roll-ups: ${Number(sizes?.daily).toLocaleString('en-US')} daily rows, ` +
        `${Number(sizes?.monthly).toLocaleString('en-US')} monthly rows. ${RUNS} timed runs each after 3 warm-up runs, over HTTP (whole reply parsed).\n`,
    );
    printTable(out);
    console.log(`\nBaseline, in this run: the scan the roll-ups replace (counts and USD by month over every transaction): p50 ${scan.p50.toFixed(0)} ms, p95 ${scan.p95.toFixed(0)} ms.`);
    const worst = results.reduce((a, b) => (Number(b.ours) > Number(a.ours) ? b : a));
    const failed = results.filter((r) => r.met === false);
    console.log(`Slowest p95: ${worst.ours} ms (${worst.measure.split(':')[0]}).`);
    console.log(failed.length === 0 ? 'Every goal-3 measure met.' : `${failed.length} goal-3 measure(s) NOT met.`);
    if (JSON_FILE) await writeFile(JSON_FILE, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await api.close();
    await db.close();
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

// the results are written: exit without waiting for a pool or a server that would hold the process open
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
