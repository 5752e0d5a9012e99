/**
 * The dashboards' calls against a small known data set: the demo transactions, app users and
 * beneficiaries are replaced by a handful of rows with known times, statuses and amounts, and every
 * reply is compared with figures computed here in plain JavaScript from that data set (filters and
 * sums over the arrays below, never the server's SQL). Then the period rules and the permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDashboardCalls, auditDashboardCalls } from '../../src/api/dashboard';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

type Kind = 'ceft' | 'bill' | 'echannelling' | 'thyaga' | 'insurance';
type Status = 'SUCCESS' | 'PENDING' | 'FAILED' | 'REFUNDED' | 'HOLD';

const DAY = 24 * 60 * 60 * 1000;
const tables: Record<Kind, string> = {
  ceft: 'ceft_transactions',
  bill: 'bill_transactions',
  echannelling: 'echannelling_transactions',
  thyaga: 'thyaga_transactions',
  insurance: 'insurance_transactions',
};
const categoryOf: Record<Kind, string> = { ceft: 'Remittances', bill: 'Bill Payments', echannelling: 'EChannelling', thyaga: 'Thyaga', insurance: 'Insurance' };
const typeOf: Record<Kind, string> = { ceft: 'Remittance', bill: 'Bill Payment', echannelling: 'EChannelling', thyaga: 'Thyaga', insurance: 'Insurance' };
const countryNames: Record<string, string> = {
  AE: 'United Arab Emirates',
  SA: 'Saudi Arabia',
  KR: 'Korea, Republic of',
  GB: 'United Kingdom of Great Britain and Northern Ireland',
  LK: 'Sri Lanka',
  CA: 'Canada',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

// ---- the known data set, in local time relative to now ---------------------------------------

const now = new Date();
/** Local time `daysAgo` days before today at h:m:s, never later than a second ago. */
function at(daysAgo: number, h = 12, m = 0, s = 0): Date {
  const t = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, h, m, s);
  return t.getTime() > now.getTime() - 1000 ? new Date(now.getTime() - 1000) : t;
}

interface User {
  key: string;
  country: string;
  created: Date;
}
const users: User[] = [
  { key: 'u1', country: 'AE', created: at(400) },
  { key: 'u2', country: 'SA', created: at(100) },
  { key: 'u3', country: 'KR', created: at(10) },
  { key: 'u4', country: 'GB', created: at(0, 0, 0, 20) },
  { key: 'u5', country: 'AE', created: at(40) },
  { key: 'u6', country: 'LK', created: at(2) },
];

interface Beneficiary {
  key: string;
  user: string;
  bank: string;
  account: string;
  created: Date;
}
const beneficiaries: Beneficiary[] = [
  { key: 'b1', user: 'u1', bank: '7010', account: '1110001', created: at(300) },
  { key: 'b2', user: 'u1', bank: '7056', account: '2220002', created: at(5) },
  { key: 'b3', user: 'u2', bank: '7010', account: '3330003', created: at(50) },
  { key: 'b4', user: 'u3', bank: '7135', account: '4440004', created: at(0, 0, 0, 10) },
];

interface Tx {
  kind: Kind;
  user: string | null;
  at: Date;
  status: Status;
  country: string;
  currency: string;
  usd: number;
  lkr: number;
  bank?: string;
  account?: string;
  biller?: string;
  id?: number;
}
const txs: Tx[] = [
  { kind: 'ceft', user: 'u1', at: at(0, 0, 0, 30), status: 'SUCCESS', country: 'AE', currency: 'AED', usd: 100.1, lkr: 30000.5, bank: '7010', account: '1110001' },
  { kind: 'ceft', user: 'u1', at: at(3), status: 'FAILED', country: 'AE', currency: 'AED', usd: 50, lkr: 15000, bank: '7056', account: '2220002' },
  { kind: 'ceft', user: 'u2', at: at(10), status: 'SUCCESS', country: 'SA', currency: 'SAR', usd: 200.25, lkr: 60075.25, bank: '7010', account: '3330003' },
  { kind: 'ceft', user: 'u3', at: at(20), status: 'HOLD', country: 'KR', currency: 'KRW', usd: 80, lkr: 24000, bank: '7135', account: '4440004' },
  { kind: 'ceft', user: 'u5', at: at(40), status: 'SUCCESS', country: 'AE', currency: 'AED', usd: 300, lkr: 90000, bank: '7010', account: '9990009' },
  { kind: 'ceft', user: 'u2', at: at(100), status: 'REFUNDED', country: 'SA', currency: 'SAR', usd: 70, lkr: 21000, bank: '7010', account: '3330003' },
  { kind: 'ceft', user: null, at: at(200), status: 'SUCCESS', country: 'GB', currency: 'GBP', usd: 400, lkr: 120000, bank: '7278', account: '5550005' },
  { kind: 'ceft', user: 'u1', at: at(400), status: 'SUCCESS', country: 'AE', currency: 'AED', usd: 500, lkr: 150000, bank: '7010', account: '1110001' },
  { kind: 'ceft', user: 'u6', at: at(1), status: 'PENDING', country: 'LK', currency: 'LKR', usd: 10, lkr: 3000, bank: '7010', account: '6660006' },
  // the edges of This Week: 6 days ago is in, 7 days ago is out
  { kind: 'ceft', user: 'u6', at: at(6, 0, 0, 30), status: 'SUCCESS', country: 'LK', currency: 'LKR', usd: 5.55, lkr: 1665, bank: '7010', account: '6660006' },
  { kind: 'ceft', user: 'u6', at: at(7, 23, 59, 30), status: 'SUCCESS', country: 'LK', currency: 'LKR', usd: 6.66, lkr: 1998, bank: '7010', account: '6660006' },
  { kind: 'bill', user: 'u2', at: at(0, 0, 1, 0), status: 'SUCCESS', country: 'SA', currency: 'SAR', usd: 20, lkr: 6000, biller: 'CEB' },
  { kind: 'bill', user: 'u4', at: at(2), status: 'SUCCESS', country: 'GB', currency: 'GBP', usd: 35.5, lkr: 10650, biller: 'DIALOG' },
  { kind: 'bill', user: 'u1', at: at(15), status: 'SUCCESS', country: 'AE', currency: 'AED', usd: 40, lkr: 12000, biller: 'CEB' },
  { kind: 'bill', user: 'u1', at: at(60), status: 'FAILED', country: 'AE', currency: 'AED', usd: 15, lkr: 4500, biller: 'NWSDB' },
  { kind: 'bill', user: 'u5', at: at(300), status: 'SUCCESS', country: 'AE', currency: 'AED', usd: 60, lkr: 18000, biller: 'NEWBILLER' },
  { kind: 'echannelling', user: 'u3', at: at(5), status: 'SUCCESS', country: 'KR', currency: 'KRW', usd: 25, lkr: 7500 },
  { kind: 'echannelling', user: 'u6', at: at(35), status: 'REFUNDED', country: 'LK', currency: 'LKR', usd: 12, lkr: 3600 },
  { kind: 'thyaga', user: 'u4', at: at(0, 0, 2, 0), status: 'SUCCESS', country: 'GB', currency: 'GBP', usd: 45, lkr: 13500 },
  { kind: 'thyaga', user: 'u2', at: at(70), status: 'FAILED', country: 'SA', currency: 'SAR', usd: 30, lkr: 9000 },
  { kind: 'insurance', user: 'u5', at: at(33), status: 'SUCCESS', country: 'AE', currency: 'USD', usd: 120, lkr: 36000 },
  { kind: 'insurance', user: null, at: at(380), status: 'SUCCESS', country: 'CA', currency: 'CAD', usd: 90, lkr: 27000 },
];

// ---- independent figures ---------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const today = dayOf(now);
const midnight = (daysAgo: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
/** Rows whose time falls on one of the last `days` days (today included). */
const lastDaysOf = <T>(rows: T[], time: (r: T) => Date, days: number) => rows.filter((r) => time(r) >= midnight(days - 1));
const between = <T>(rows: T[], time: (r: T) => Date, from: Date, toExclusive: Date) => rows.filter((r) => time(r) >= from && time(r) < toExclusive);
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;
const success = (rows: Tx[]) => rows.filter((t) => t.status === 'SUCCESS');
const ofKind = (rows: Tx[], k: Kind) => rows.filter((t) => t.kind === k);
const kinds: Kind[] = ['ceft', 'bill', 'echannelling', 'thyaga', 'insurance'];

/** The last 12 months, oldest first: [year, month index]. */
const months = Array.from({ length: 12 }, (_, i) => {
  const d = new Date(now.getFullYear(), now.getMonth() - 11 + i, 1);
  return [d.getFullYear(), d.getMonth()] as const;
});
const monthNames = months.map(([y, m]) => `${MONTHS[m]} ${y}`);
const inMonth = (d: Date, [y, m]: readonly [number, number]) => d.getFullYear() === y && d.getMonth() === m;
const years = (() => {
  const first = Math.min(...txs.map((t) => t.at.getFullYear()));
  return Array.from({ length: now.getFullYear() - first + 1 }, (_, i) => first + i);
})();
const weekDays = Array.from({ length: 7 }, (_, i) => midnight(6 - i));

function valueBlock(rows: Tx[]) {
  return {
    count: rows.length,
    totalValue: sum(success(rows).map((t) => t.usd)),
    failed: rows.filter((t) => t.status === 'FAILED').length,
    refunded: rows.filter((t) => t.status === 'REFUNDED').length,
  };
}

function countryCounts(list: User[]) {
  const m = new Map<string, number>();
  for (const u of list) m.set(countryNames[u.country], (m.get(countryNames[u.country]) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([country, count]) => ({ country, count }));
}

// ---- the server, with the data set in place of the demo data ------------------------------------

let server: TestServer;
let admin: string;
let auditor: string;
let maker: string;

async function loadDataSet(s: TestServer) {
  const db = s.db;
  await db.exec(
    `TRUNCATE insurance_dependants, ${Object.values(tables).join(', ')}, transaction_daily_stats, transaction_actions RESTART IDENTITY CASCADE;
     TRUNCATE beneficiaries, app_users RESTART IDENTITY CASCADE;`,
  );
  const ids = new Map<string, number>();
  for (const [i, u] of users.entries()) {
    const row = await db.one<{ id: number }>(
      `INSERT INTO app_users (first_name, last_name, uid_type, uid, contact, email, country, created_at, updated_at)
       VALUES ($1, 'Test', 'NIC', $2, '0770000000', $3, $4, $5, $5) RETURNING id`,
      [u.key, `19900000${i}V`, `${u.key}@example.lk`, u.country, u.created],
    );
    ids.set(u.key, row!.id);
  }
  for (const b of beneficiaries) {
    await db.query('INSERT INTO beneficiaries (app_user_id, name, bank_code, account_number, created_at) VALUES ($1, $2, $3, $4, $5)', [ids.get(b.user), b.key, b.bank, b.account, b.created]);
  }
  for (const [i, t] of txs.entries()) {
    const common = [`TRACE${i}`, 'NIC0001', t.user ? ids.get(t.user) : null, t.country, t.currency, t.usd * 3, t.usd, t.lkr, t.at, t.status];
    const cols = 'trace, uid, app_user_id, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status';
    const ph = '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10';
    let row: { id: number } | undefined;
    if (t.kind === 'ceft') {
      row = await db.one(`INSERT INTO ceft_transactions (${cols}, tran_type, bank_code, account_number) VALUES (${ph}, 'CEFT', $11, $12) RETURNING id`, [...common, t.bank, t.account]);
    } else if (t.kind === 'bill') {
      row = await db.one(`INSERT INTO bill_transactions (${cols}, biller_code) VALUES (${ph}, $11) RETURNING id`, [...common, t.biller]);
    } else if (t.kind === 'echannelling') {
      row = await db.one(
        `INSERT INTO echannelling_transactions (${cols}, patient_name, patient_mobile, hospital_name, doctor_name, appointment_day, appointment_date, start_time)
         VALUES (${ph}, 'P', '0770000000', 'H', 'D', 'Monday', '2026-01-05', '09:00') RETURNING id`,
        common,
      );
    } else if (t.kind === 'thyaga') {
      row = await db.one(`INSERT INTO thyaga_transactions (${cols}, mobile_number, receiver_name, sender_name) VALUES (${ph}, '0770000000', 'R', 'S') RETURNING id`, common);
    } else {
      row = await db.one(
        `INSERT INTO insurance_transactions (${cols}, nic, email, cover_package, plan_no, insurance_package_price) VALUES (${ph}, 'NIC', 'e@x.lk', 'Basic', 'P1', 100) RETURNING id`,
        common,
      );
    }
    t.id = row!.id;
    // the roll-ups follow by trigger (migration 60)
  }
}

beforeAll(async () => {
  server = await startServer();
  await loadDataSet(server);
  admin = await server.login('admin');
  auditor = await server.login('auditor');
  maker = await server.login('maker');
});
afterAll(async () => {
  await server?.close();
});

async function ok(path: string, body: unknown, token = admin) {
  const reply = await server.call(path, body, token);
  expect(reply.statusCode, `${path} ${JSON.stringify(reply.data)}`).toBe(200);
  return reply.data;
}

// ---- the app dashboard -----------------------------------------------------------------------

describe('the app dashboard', () => {
  it('counts strip: counts per service, app users, LKR values of successful transactions', async () => {
    const strip: Kind[] = ['ceft', 'bill', 'echannelling', 'thyaga'];
    expect(await ok('dashboard/totalCountsAndValues', {})).toEqual({
      ceftTransactions: ofKind(txs, 'ceft').length,
      billTransactions: ofKind(txs, 'bill').length,
      ecTransactions: ofKind(txs, 'echannelling').length,
      thyagaTransactions: ofKind(txs, 'thyaga').length,
      insuranceTransactions: ofKind(txs, 'insurance').length,
      totalTransactions: txs.filter((t) => strip.includes(t.kind)).length,
      appUsers: users.length,
      totalCeftValueLKR: sum(success(ofKind(txs, 'ceft')).map((t) => t.lkr)),
      totalValueLKR: sum(success(txs.filter((t) => strip.includes(t.kind))).map((t) => t.lkr)),
    });
  });

  it('pie of transaction counts by category', async () => {
    expect(await ok('dashboard/overallTransactionCounts', {})).toEqual({
      categories: kinds.map((k) => categoryOf[k]),
      counts: kinds.map((k) => ofKind(txs, k).length),
    });
  });

  it('pie of app users by country (full names, most first)', async () => {
    const expected = countryCounts(users);
    expect(await ok('dashboard/getAppUsersByCountry', {})).toEqual({ countries: expected.map((r) => r.country), counts: expected.map((r) => r.count) });
  });

  it('bar of USD amounts of successful transactions per currency, largest first', async () => {
    const byCurrency = new Map<string, number[]>();
    for (const t of success(txs)) byCurrency.set(t.currency, [...(byCurrency.get(t.currency) ?? []), t.usd]);
    const expected = [...byCurrency.entries()].map(([c, v]) => [c, sum(v)] as const).sort((a, b) => b[1] - a[1]);
    expect(await ok('dashboard/currencyWiseTransactionValues', {})).toEqual({ currencies: expected.map((e) => e[0]), amounts: expected.map((e) => e[1]) });
  });

  it('bar of transactions per month, one series per category, last 12 months', async () => {
    expect(await ok('dashboard/getTotalTransactionsByMonth', {})).toEqual({
      monthNames,
      transactions: kinds.map((k) => ({ name: categoryOf[k], data: months.map((m) => ofKind(txs, k).filter((t) => inMonth(t.at, m)).length) })),
    });
  });

  it('line of app-user registrations per month, last 12 months', async () => {
    expect(await ok('dashboard/getTotalAppUsersByMonth', {})).toEqual({ monthNames, users: months.map((m) => users.filter((u) => inMonth(u.created, m)).length) });
  });

  it.each([7, 30, 90, 365])('All Transactions table for the last %i days: newest first, LKR amounts, the period count', async (range) => {
    const rows = lastDaysOf(txs, (t) => t.at, range).sort((a, b) => b.at.getTime() - a.at.getTime());
    const data = await ok('dashboard/totalTransactionValues', { range });
    expect(data.transactions).toEqual(rows.map((t) => ({ id: t.id, type: typeOf[t.kind], amount: t.lkr, initiated_time: t.at.toISOString() })));
    expect(data.count).toBe(rows.length);
    expect(data.to).toBe(today);
    expect(data.from).toBe(dayOf(midnight(range - 1)));
  });

  it('This Week holds the row of 6 days ago and not the one of 7 days ago', async () => {
    const data = await ok('dashboard/totalTransactionValues', { range: 7 });
    const amounts = data.transactions.map((r: { amount: number }) => r.amount);
    expect(amounts).toContain(1665);
    expect(amounts).not.toContain(1998);
  });
});

// ---- the audit dashboard ---------------------------------------------------------------------

describe('the audit dashboard', () => {
  it('active users (transacted) and active beneficiaries (received a successful transfer) in the last 30 days', async () => {
    const since = new Date(Date.now() - 30 * DAY);
    const recent = txs.filter((t) => t.at >= since);
    const activeUsers = new Set(recent.filter((t) => t.user).map((t) => t.user));
    const activeBeneficiaries = beneficiaries.filter((b) => recent.some((t) => t.kind === 'ceft' && t.status === 'SUCCESS' && t.user === b.user && t.bank === b.bank && t.account === b.account));
    expect(await ok('dashboard/getActiveUsers', {}, auditor)).toEqual({ activeUserCount: activeUsers.size, activeBeneficiariesCount: activeBeneficiaries.length });
    // u1, u2, u3, u4, u6 transacted; b1 and b3 received money (b2's transfer failed, b4's is on hold)
    expect(activeUsers.size).toBe(5);
    expect(activeBeneficiaries.map((b) => b.key)).toEqual(['b1', 'b3']);
  });

  it('app users and beneficiaries: total, today, this week (from Monday), this month, this year', async () => {
    const monday = midnight((now.getDay() + 6) % 7);
    const counts = (created: Date[]) => ({
      total: created.length,
      today: created.filter((d) => d >= midnight(0)).length,
      week: created.filter((d) => d >= monday).length,
      month: created.filter((d) => d >= new Date(now.getFullYear(), now.getMonth(), 1)).length,
      year: created.filter((d) => d >= new Date(now.getFullYear(), 0, 1)).length,
    });
    expect(await ok('dashboard/getAppUsersAndBeneficiariesCount', {}, auditor)).toEqual({
      appUsersValues: counts(users.map((u) => u.created)),
      beneficiariesValues: counts(beneficiaries.map((b) => b.created)),
    });
  });

  it.each([7, 14, 30, 90, 365])('transaction cards for the last %i days', async (range) => {
    const rows = lastDaysOf(txs, (t) => t.at, range);
    const ceft = ofKind(rows, 'ceft');
    expect(await ok('dashboard/getTransactionValues', { range }, auditor)).toEqual({
      ceft: { ...valueBlock(ceft), hold: ceft.filter((t) => t.status === 'HOLD').length },
      biller: valueBlock(ofKind(rows, 'bill')),
      thyaga: valueBlock(ofKind(rows, 'thyaga')),
      echanneling: valueBlock(ofKind(rows, 'echannelling')),
    });
  });

  const chartCalls: [string, Kind][] = [
    ['dashboard/getCeftTransactionTableData', 'ceft'],
    ['dashboard/getBillerTransactionTableData', 'bill'],
    ['dashboard/getThyagaTransactionTableData', 'thyaga'],
    ['dashboard/getEchTransactionTableData', 'echannelling'],
  ];
  it.each(chartCalls)('%s: USD of successful transactions per year, month and day', async (path, kind) => {
    const rows = success(ofKind(txs, kind));
    expect(await ok(path, { range: 'YEARLY' }, auditor)).toEqual(years.map((y) => ({ year: String(y), amount: sum(rows.filter((t) => t.at.getFullYear() === y).map((t) => t.usd)) })));
    expect(await ok(path, { range: 'MONTHLY' }, auditor)).toEqual(
      months.map((m) => ({ year: String(m[0]), month: MONTHS[m[1]], amount: sum(rows.filter((t) => inMonth(t.at, m)).map((t) => t.usd)) })),
    );
    expect(await ok(path, { range: 'WEEKLY' }, auditor)).toEqual(
      weekDays.map((d) => ({
        dayOfWeek: WEEKDAYS[d.getDay()],
        date: dayOf(d),
        amount: sum(between(rows, (t) => t.at, d, new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)).map((t) => t.usd)),
      })),
    );
  });

  it('app users by country: all time (1) and a period', async () => {
    expect(await ok('dashboard/TopUsers', { range: 1 }, auditor)).toEqual(countryCounts(users));
    expect(await ok('dashboard/TopUsers', { range: 30 }, auditor)).toEqual(countryCounts(lastDaysOf(users, (u) => u.created, 30)));
  });

  it('top billers by USD of successful bill payments; an unknown biller code shows as itself', async () => {
    for (const range of [30, 365]) {
      const byBiller = new Map<string, number[]>();
      for (const t of success(
        ofKind(
          lastDaysOf(txs, (x) => x.at, range),
          'bill',
        ),
      ))
        byBiller.set(t.biller!, [...(byBiller.get(t.biller!) ?? []), t.usd]);
      const names: Record<string, string> = { CEB: 'Ceylon Electricity Board', DIALOG: 'Dialog Axiata', NEWBILLER: 'NEWBILLER' };
      const expected = [...byBiller.entries()].map(([c, v]) => ({ billerName: names[c], totalAmount: sum(v) })).sort((a, b) => b.totalAmount - a.totalAmount);
      expect(await ok('dashboard/getTopBillers', { range }, auditor)).toEqual(expected);
    }
  });

  it('overall transaction count: the total and one series per service, per year, month and day', async () => {
    const expectSeries = (buckets: ((t: Tx) => boolean)[], labels: string[], data: { transactions: unknown; labels: unknown }) => {
      expect(data.labels).toEqual(labels);
      expect(data.transactions).toEqual([
        { name: 'All', data: buckets.map((b) => txs.filter(b).length) },
        ...kinds.map((k) => ({ name: categoryOf[k], data: buckets.map((b) => ofKind(txs, k).filter(b).length) })),
      ]);
    };
    expectSeries(
      years.map((y) => (t: Tx) => t.at.getFullYear() === y),
      years.map(String),
      await ok('dashboard/AllTranCount', { range: 'YEARLY' }, auditor),
    );
    expectSeries(
      months.map((m) => (t: Tx) => inMonth(t.at, m)),
      monthNames,
      await ok('dashboard/AllTranCount', { range: 'MONTHLY' }, auditor),
    );
    expectSeries(
      weekDays.map((d) => (t: Tx) => dayOf(t.at) === dayOf(d)),
      weekDays.map((d) => WEEKDAYS[d.getDay()]),
      await ok('dashboard/AllTranCount', { range: 'WEEKLY' }, auditor),
    );
  });

  it('country-wise app user count for a period and for a custom date-time range', async () => {
    const asReply = (rows: { country: string; count: number }[]) => ({ countries: rows.map((r) => r.country), counts: rows.map((r) => r.count) });
    expect(await ok('dashboard/CountryWiseAppUserCount', { range: 365 }, auditor)).toEqual(asReply(countryCounts(lastDaysOf(users, (u) => u.created, 365))));
    const from = dayOf(midnight(45));
    const to = dayOf(midnight(2));
    expect(await ok('dashboard/CountryWiseAppUserCount', { range: 0, fromDate: `${from}T00:00:00`, toDate: `${to}T23:59:59` }, auditor)).toEqual(
      asReply(countryCounts(between(users, (u) => u.created, midnight(45), midnight(1)))),
    );
  });

  it('remittances per month of a year, as a count or a USD value, with the years that have remittances', async () => {
    const ceft = ofKind(txs, 'ceft');
    const ceftYears = [...new Set(ceft.map((t) => t.at.getFullYear()))].sort();
    const latest = ceftYears[ceftYears.length - 1];
    const perMonth = (y: number, f: (rows: Tx[]) => number) => MONTHS.map((_, m) => f(ceft.filter((t) => t.at.getFullYear() === y && t.at.getMonth() === m)));
    expect(await ok('dashboard/remittanceByYear', { measure: 'count' }, auditor)).toEqual({
      year: latest,
      years: ceftYears,
      measure: 'count',
      months: MONTHS,
      values: perMonth(latest, (r) => r.length),
    });
    for (const y of ceftYears) {
      expect((await ok('dashboard/remittanceByYear', { year: y, measure: 'value' }, auditor)).values).toEqual(perMonth(y, (r) => sum(success(r).map((t) => t.usd))));
    }
    // a year without remittances: twelve zeros, and the years that have some
    const empty = await ok('dashboard/remittanceByYear', { year: 2001, measure: 'count' }, auditor);
    expect(empty).toMatchObject({ year: 2001, years: ceftYears, values: MONTHS.map(() => 0) });
  });
});

// ---- periods ---------------------------------------------------------------------------------

describe('period semantics', () => {
  it('a custom range counts whole days, both ends included', async () => {
    const from = dayOf(midnight(12));
    const to = dayOf(midnight(3));
    const rows = between(txs, (t) => t.at, midnight(12), midnight(2));
    const data = await ok('dashboard/totalTransactionValues', { range: 0, fromDate: from, toDate: to });
    expect(data).toMatchObject({ count: rows.length, from, to });
    expect(data.transactions.map((r: { id: number; type: string }) => `${r.type}${r.id}`).sort()).toEqual(rows.map((t) => `${typeOf[t.kind]}${t.id}`).sort());
    const cards = await ok('dashboard/getTransactionValues', { range: 0, fromDate: from, toDate: to }, auditor);
    expect(cards.ceft.count).toBe(ofKind(rows, 'ceft').length);
    expect(cards.biller).toEqual(valueBlock(ofKind(rows, 'bill')));
  });

  it('a custom range gives the same figures whether it covers whole months, parts of months or both (monthly and daily roll-ups)', async () => {
    // ranges with edges inside months, on month boundaries, within one month and over a year
    const first = (monthsAgo: number) => new Date(now.getFullYear(), now.getMonth() - monthsAgo, 1);
    const last = (monthsAgo: number) => new Date(now.getFullYear(), now.getMonth() - monthsAgo + 1, 0);
    const ranges: [Date, Date][] = [
      [new Date(now.getFullYear(), now.getMonth() - 14, 15), new Date(now.getFullYear(), now.getMonth() - 1, 10)],
      [first(13), last(1)],
      [first(3), last(3)],
      [new Date(now.getFullYear(), now.getMonth() - 2, 3), new Date(now.getFullYear(), now.getMonth() - 2, 27)],
      [first(11), midnight(0)],
      [new Date(now.getFullYear(), now.getMonth() - 6, 20), midnight(1)],
    ];
    for (const [lo, hi] of ranges) {
      const body = { range: 0, fromDate: dayOf(lo), toDate: dayOf(hi) };
      const rows = between(txs, (t) => t.at, lo, new Date(hi.getFullYear(), hi.getMonth(), hi.getDate() + 1));
      const cards = await ok('dashboard/getTransactionValues', body, auditor);
      expect(cards, JSON.stringify(body)).toEqual({
        ceft: { ...valueBlock(ofKind(rows, 'ceft')), hold: ofKind(rows, 'ceft').filter((t) => t.status === 'HOLD').length },
        biller: valueBlock(ofKind(rows, 'bill')),
        thyaga: valueBlock(ofKind(rows, 'thyaga')),
        echanneling: valueBlock(ofKind(rows, 'echannelling')),
      });
      expect((await ok('dashboard/totalTransactionValues', body)).count, JSON.stringify(body)).toBe(rows.length);
    }
  });

  it('a custom range of today alone', async () => {
    const rows = between(txs, (t) => t.at, midnight(0), midnight(-1));
    expect(rows.length).toBeGreaterThan(0);
    expect((await ok('dashboard/totalTransactionValues', { range: 0, fromDate: today, toDate: today })).count).toBe(rows.length);
  });

  it('ignores the dates of a non-custom range', async () => {
    const a = await ok('dashboard/getTransactionValues', { range: 30 }, auditor);
    const b = await ok('dashboard/getTransactionValues', { range: 30, fromDate: '2020-01-01', toDate: '2020-01-02' }, auditor);
    expect(b).toEqual(a);
  });

  it('refuses a custom range that ends after today, names the field', async () => {
    const tomorrow = dayOf(midnight(-1));
    for (const [path, token] of [
      ['dashboard/totalTransactionValues', admin],
      ['dashboard/getTransactionValues', auditor],
      ['dashboard/getTopBillers', auditor],
      ['dashboard/TopUsers', auditor],
    ] as const) {
      expect(await server.call(path, { range: 0, fromDate: today, toDate: tomorrow }, token), path).toEqual({
        statusCode: 400,
        data: { message: 'toDate: To cannot be later than today' },
      });
    }
    expect(await server.call('dashboard/CountryWiseAppUserCount', { range: 0, fromDate: `${today}T00:00:00`, toDate: `${tomorrow}T23:59:59` }, auditor)).toEqual({
      statusCode: 400,
      data: { message: 'toDate: To cannot be later than today' },
    });
  });

  it('refuses a custom range without dates, reversed, or malformed, and unknown periods', async () => {
    const bad = async (body: unknown) => (await server.call('dashboard/getTransactionValues', body, auditor)).data.message;
    expect(await bad({ range: 0 })).toBe('fromDate: Choose a From date for a custom range; toDate: Choose a To date for a custom range');
    expect(await bad({ range: 0, fromDate: '2026-02-10', toDate: '2026-02-01' })).toBe('toDate: To cannot be before From');
    expect(await bad({ range: 0, fromDate: '2026-02-30', toDate: '2026-03-01' })).toMatch(/^fromDate: /);
    expect(await bad({ range: 3 })).toBe('range: Choose a period: 7, 14, 30, 90, 365 or 0 (custom)');
    expect(await bad({ range: 1 })).toMatch(/^range: /); // All belongs to the app-users-by-country table only
    expect((await server.call('dashboard/AllTranCount', { range: 'DAILY' }, auditor)).data.message).toBe('range: Choose YEARLY, MONTHLY or WEEKLY');
    expect((await server.call('dashboard/remittanceByYear', { measure: 'sum' }, auditor)).statusCode).toBe(400);
  });
});

// ---- permissions -----------------------------------------------------------------------------

describe('permissions', () => {
  it("refuses the app dashboard's calls to an auditor (403)", async () => {
    for (const c of appDashboardCalls) {
      const reply = await server.call(c.path, sampleBody(c.path), auditor);
      expect(reply.statusCode, c.path).toBe(403);
    }
  });

  it("refuses the audit dashboard's calls to a user without an auditor permission (403)", async () => {
    for (const c of auditDashboardCalls) {
      expect(await server.call(c.path, sampleBody(c.path), maker), c.path).toEqual({
        statusCode: 403,
        data: { message: 'Forbidden: needs one of auditor-dashboard-view, auditor-report-view' },
      });
    }
  });

  it('answers the app dashboard for users without auditor permissions and the audit dashboard for auditors', async () => {
    for (const c of appDashboardCalls) expect((await server.call(c.path, sampleBody(c.path), maker)).statusCode, c.path).toBe(200);
    for (const c of auditDashboardCalls) {
      const body = c.path === 'dashboard/CountryWiseAppUserCount' ? { range: 30 } : sampleBody(c.path);
      expect((await server.call(c.path, body, auditor)).statusCode, c.path).toBe(200);
    }
  });

  it('refuses anyone not signed in (401)', async () => {
    for (const c of [...appDashboardCalls, ...auditDashboardCalls]) expect((await server.call(c.path, {})).statusCode, c.path).toBe(401);
  });
});
