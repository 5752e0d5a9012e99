/**
 * The dashboards' calls timed over HTTP against a seeded database:
 *
 *   DATABASE_URL=postgres://… npm run seed -- --transactions 1000000
 *   DATABASE_URL=postgres://… npx tsx scripts/bench-dashboard.ts [--runs 7]
 *
 * Starts the API in-process on a free port (the database is migrated first), signs in as admin (the
 * app dashboard) and auditor (the audit dashboard), calls every dashboard call with each of its
 * typical bodies once to warm up and then `--runs` times, and prints the median and the slowest time
 * of each, with the number of transactions, app users and beneficiaries the database holds.
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/server/app';
import { openMigratedDb, readEnvironment } from '../src/server/environment';
import { DEMO_PASSWORD } from '../src/server/seed/demo';
import { addDays } from '../src/api/dashboard';
import { localDay } from '../src/server/areas/transactionsStats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} needs a whole number`);
  return v;
}

async function main() {
  const runs = arg('runs', 7);
  const environment = readEnvironment();
  const db = await openMigratedDb(environment);
  const app = await buildApp({ db, secret: randomBytes(32) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const reply = (await res.json()) as { statusCode: number; data: { token?: string; message?: string } };
    if (reply.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(body)}: ${reply.statusCode} ${reply.data?.message ?? ''}`);
    return reply;
  };
  const login = async (username: string) => (await call('auth/login', { username, password: DEMO_PASSWORD })).data.token!;

  try {
    const sizes = await db.one<{ transactions: number; app_users: number; beneficiaries: number; rollup: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
              + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS transactions,
              (SELECT count(*) FROM app_users) AS app_users, (SELECT count(*) FROM beneficiaries) AS beneficiaries,
              (SELECT count(*) FROM transaction_daily_stats) AS rollup`,
    );
    const admin = await login('admin');
    const auditor = await login('auditor');
    const today = localDay(new Date());
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
    ];

    console.log(
      `${db.kind === 'pg' ? 'PostgreSQL' : 'PGlite'}: ${Number(sizes?.transactions).toLocaleString('en-US')} transactions, ` +
        `${Number(sizes?.app_users).toLocaleString('en-US')} app users, ${Number(sizes?.beneficiaries).toLocaleString('en-US')} beneficiaries, ` +
        `${Number(sizes?.rollup).toLocaleString('en-US')} roll-up rows; ${runs} runs each after one warm-up, over HTTP.\n`,
    );
    console.log(`${'call'.padEnd(44)} ${'body'.padEnd(58)} ${'median'.padStart(8)} ${'max'.padStart(8)}`);
    let worst = 0;
    for (const [path, body, token] of cases) {
      await call(path, body, token);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await call(path, body, token);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)];
      const max = times[times.length - 1];
      worst = Math.max(worst, max);
      console.log(`${path.padEnd(44)} ${JSON.stringify(body).padEnd(58)} ${median.toFixed(1).padStart(6)} ms ${max.toFixed(1).padStart(6)} ms`);
    }
    console.log(`\nSlowest single call: ${worst.toFixed(1)} ms.`);
  } finally {
    await app.close();
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
