/**
 * The roll-ups (daily, monthly, per biller; migration 60) and the latest activity per app user and
 * beneficiary (migration 62) follow every change of the transactions:
 * money actions through the API, rows inserted, updated (moved between days, months, countries,
 * currencies, statuses, amounts) and deleted with plain SQL. After each change, the dashboard and
 * count-card replies are compared with the same figures computed here by scanning the transaction
 * tables (direct SQL aggregates, no roll-up), and the roll-up tables with GROUP BYs of the tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardKinds, kindLabels } from '../../src/api/dashboard';
import { syncRollupTimeZone } from '../../src/server/areas/transactions/stats';
import { startServer, type TestServer, useEnvironment } from './harness';

let server: TestServer;
let maker: string;
let admin: string;
let auditor: string;

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const tables = {
  ceft: 'ceft_transactions',
  bill: 'bill_transactions',
  echannelling: 'echannelling_transactions',
  thyaga: 'thyaga_transactions',
  insurance: 'insurance_transactions',
} as const;
type Kind = keyof typeof tables;
const kinds = Object.keys(tables) as Kind[];
const DAY = 86_400_000;

useEnvironment({ PAYMENT_SIMULATOR_FAILURE_RATE: '0', PAYMENT_ADAPTER: undefined });
beforeAll(async () => {
  server = await startServer();
  [maker, admin, auditor] = await Promise.all(['maker', 'admin', 'auditor'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

const num = (v: unknown) => Number(v ?? 0);
const money = (v: unknown) => Math.round(num(v) * 100) / 100;
const localDayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const localMidnight = (daysAgo: number) => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
};

/** Per kind over [lo, hi) (null: all time), scanning the table: counts by status and successful sums. */
async function scanTotals(lo: Date | null, hi: Date | null) {
  const out = {} as Record<Kind, { count: number; failed: number; refunded: number; hold: number; pending: number; success: number; usd: number; lkr: number }>;
  for (const k of kinds) {
    const r = await server.db.one<Record<string, unknown>>(
      `SELECT count(*) AS count, count(*) FILTER (WHERE status = 'FAILED') AS failed, count(*) FILTER (WHERE status = 'REFUNDED') AS refunded,
              count(*) FILTER (WHERE status = 'HOLD') AS hold, count(*) FILTER (WHERE status = 'PENDING') AS pending,
              count(*) FILTER (WHERE status = 'SUCCESS') AS success,
              coalesce(sum(amount_usd) FILTER (WHERE status = 'SUCCESS'), 0) AS usd, coalesce(sum(amount_lkr) FILTER (WHERE status = 'SUCCESS'), 0) AS lkr
         FROM ${tables[k]} WHERE ($1::timestamptz IS NULL OR initiated_time >= $1) AND ($2::timestamptz IS NULL OR initiated_time < $2)`,
      [lo, hi],
    );
    out[k] = {
      count: num(r!.count),
      failed: num(r!.failed),
      refunded: num(r!.refunded),
      hold: num(r!.hold),
      pending: num(r!.pending),
      success: num(r!.success),
      usd: money(r!.usd),
      lkr: money(r!.lkr),
    };
  }
  return out;
}

/** Every dashboard and count-card figure the roll-ups feed, from the API, equal to the same figures scanned from the tables. */
async function expectDashboardsEqualScan() {
  const all = await scanTotals(null, null);
  const strip = ['ceft', 'bill', 'echannelling', 'thyaga'] as const;
  const counts = (await server.call('dashboard/totalCountsAndValues', {}, admin)).data;
  expect(counts).toMatchObject({
    ceftTransactions: all.ceft.count,
    billTransactions: all.bill.count,
    ecTransactions: all.echannelling.count,
    thyagaTransactions: all.thyaga.count,
    insuranceTransactions: all.insurance.count,
    totalTransactions: strip.reduce((s, k) => s + all[k].count, 0),
    totalCeftValueLKR: all.ceft.lkr,
    totalValueLKR: money(strip.reduce((s, k) => s + all[k].lkr, 0)),
  });
  expect((await server.call('dashboard/overallTransactionCounts', {}, admin)).data.counts).toEqual(dashboardKinds.map((k) => all[k].count));

  const ceftCards = (await server.call('dashboard/CeftCount', {}, auditor)).data;
  expect(ceftCards).toEqual({
    completeTranCount: all.ceft.success,
    pendingTranCount: all.ceft.pending,
    failedTranCount: all.ceft.failed,
    refundTranCount: all.ceft.refunded,
    holdTranCount: all.ceft.hold,
  });
  expect((await server.call('dashboard/BillCount', {}, auditor)).data).toEqual({
    completeTranCount: all.bill.success,
    pendingTranCount: all.bill.pending,
    failedTranCount: all.bill.failed,
    refundTranCount: all.bill.refunded,
  });

  // a year, 90 days, a week, and a custom range of whole months and edge days
  const periods: [Record<string, unknown>, number, number][] = [
    [{ range: 365 }, 364, -1],
    [{ range: 90 }, 89, -1],
    [{ range: 7 }, 6, -1],
    [{ range: 0, fromDate: localDayOf(localMidnight(75)), toDate: localDayOf(localMidnight(3)) }, 75, 2],
  ];
  for (const [body, fromAgo, toAgo] of periods) {
    const p = await scanTotals(localMidnight(fromAgo), localMidnight(toAgo));
    const values = (await server.call('dashboard/getTransactionValues', body, auditor)).data;
    const block = (k: Kind) => ({ totalValue: p[k].usd, count: p[k].count, failed: p[k].failed, refunded: p[k].refunded });
    expect(values, JSON.stringify(body)).toEqual({ ceft: { ...block('ceft'), hold: p.ceft.hold }, biller: block('bill'), thyaga: block('thyaga'), echanneling: block('echannelling') });
  }

  const currencies = await server.db.query<{ currency_code: string; usd: number }>(
    `SELECT currency_code, sum(usd) AS usd FROM (${kinds.map((k) => `SELECT currency_code, amount_usd AS usd FROM ${tables[k]} WHERE status = 'SUCCESS'`).join(' UNION ALL ')}) x
      GROUP BY currency_code ORDER BY sum(usd) DESC, currency_code`,
  );
  expect((await server.call('dashboard/currencyWiseTransactionValues', {}, admin)).data).toEqual({
    currencies: currencies.map((c) => c.currency_code),
    amounts: currencies.map((c) => money(c.usd)),
  });

  // counts per year and per month of every kind
  for (const range of ['YEARLY', 'MONTHLY'] as const) {
    const reply = (await server.call('dashboard/AllTranCount', { range }, auditor)).data;
    const keyFormat = range === 'YEARLY' ? 'YYYY' : 'YYYY-MM';
    const since = range === 'YEARLY' ? null : new Date(localMidnight(0).getFullYear(), localMidnight(0).getMonth() - 11, 1);
    for (const [i, k] of dashboardKinds.entries()) {
      const rows = await server.db.query<{ key: string; n: number }>(
        `SELECT to_char(initiated_time AT TIME ZONE $1, '${keyFormat}') AS key, count(*) AS n FROM ${tables[k]}
          WHERE ($2::timestamptz IS NULL OR initiated_time >= $2) AND initiated_time < $3 GROUP BY 1`,
        [zone, since, localMidnight(-1)],
      );
      const byKey = new Map(rows.map((r) => [r.key, num(r.n)]));
      const keys: string[] =
        range === 'YEARLY'
          ? reply.labels
          : Array.from({ length: 12 }, (_, m) => {
              const d = new Date(since!.getFullYear(), since!.getMonth() + m, 1);
              return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
            });
      expect(reply.transactions[i + 1].name).toBe(kindLabels[k]);
      expect(reply.transactions[i + 1].data, `${range} ${k}`).toEqual(keys.map((key) => byKey.get(key) ?? 0));
    }
  }

  const year = new Date().getFullYear();
  const remittances = await server.db.query<{ m: number; usd: number }>(
    `SELECT extract(month FROM initiated_time AT TIME ZONE $1)::int AS m, sum(amount_usd) AS usd FROM ceft_transactions
      WHERE status = 'SUCCESS' AND initiated_time >= $2 AND initiated_time < $3 GROUP BY 1`,
    [zone, new Date(year, 0, 1), new Date(year + 1, 0, 1)],
  );
  const usdByMonth = new Map(remittances.map((r) => [r.m, money(r.usd)]));
  expect((await server.call('dashboard/remittanceByYear', { measure: 'value', year }, auditor)).data.values).toEqual(Array.from({ length: 12 }, (_, m) => usdByMonth.get(m + 1) ?? 0));

  const since = new Date(Date.now() - 30 * DAY);
  const active = await server.db.one<{ users: number; beneficiaries: number }>(
    `SELECT (SELECT count(DISTINCT app_user_id) FROM (${kinds.map((k) => `SELECT app_user_id FROM ${tables[k]} WHERE initiated_time >= $1`).join(' UNION ALL ')}) x) AS users,
            (SELECT count(*) FROM beneficiaries b WHERE EXISTS (SELECT 1 FROM ceft_transactions t WHERE t.app_user_id = b.app_user_id AND t.bank_code = b.bank_code
                AND t.account_number = b.account_number AND t.status = 'SUCCESS' AND t.initiated_time >= $1)) AS beneficiaries`,
    [since],
  );
  expect((await server.call('dashboard/getActiveUsers', {}, auditor)).data).toEqual({ activeUserCount: num(active!.users), activeBeneficiariesCount: num(active!.beneficiaries) });

  const billers = await server.db.query<{ biller_code: string; usd: number }>(
    `SELECT biller_code, sum(amount_usd) AS usd FROM bill_transactions WHERE status = 'SUCCESS' AND initiated_time >= $1 AND initiated_time < $2
      GROUP BY biller_code ORDER BY sum(amount_usd) DESC, biller_code LIMIT 10`,
    [localMidnight(364), localMidnight(-1)],
  );
  const topBillers = (await server.call('dashboard/getTopBillers', { range: 365 }, auditor)).data as { totalAmount: number }[];
  expect(topBillers.map((b) => b.totalAmount)).toEqual(billers.map((b) => money(b.usd)));
}

/** The roll-up tables equal GROUP BYs of the transaction tables (empty buckets aside). */
async function expectRollupsEqualScan() {
  const scan = kinds.map((k) => `SELECT '${k}' AS kind, initiated_time, country, currency_code, status, amount, amount_usd, amount_lkr FROM ${tables[k]}`).join(' UNION ALL ');
  for (const [table, unit, bucket] of [
    ['transaction_daily_stats', 'day', `(initiated_time AT TIME ZONE $1)::date`],
    ['transaction_monthly_stats', 'month', `date_trunc('month', initiated_time AT TIME ZONE $1)::date`],
  ] as const) {
    const diff = await server.db.query(
      `WITH t AS (SELECT ${bucket} AS b, kind, country, currency_code, status, count(*) AS n, sum(amount) AS amount, sum(amount_usd) AS usd, sum(amount_lkr) AS lkr
                    FROM (${scan}) x GROUP BY 1, 2, 3, 4, 5),
            s AS (SELECT ${unit} AS b, kind, country, currency_code, status, count AS n, amount, amount_usd AS usd, amount_lkr AS lkr FROM ${table} WHERE count <> 0 OR amount <> 0)
       SELECT * FROM t FULL JOIN s USING (b, kind, country, currency_code, status)
        WHERE t.n IS DISTINCT FROM s.n OR t.amount IS DISTINCT FROM s.amount OR t.usd IS DISTINCT FROM s.usd OR t.lkr IS DISTINCT FROM s.lkr`,
      [zone],
    );
    expect(diff, table).toEqual([]);
  }
  const billerDiff = await server.db.query(
    `WITH t AS (SELECT (initiated_time AT TIME ZONE $1)::date AS day, biller_code, count(*) AS n, sum(amount_usd) AS usd FROM bill_transactions WHERE status = 'SUCCESS' GROUP BY 1, 2),
          s AS (SELECT day, biller_code, count AS n, amount_usd AS usd FROM bill_daily_billers WHERE count <> 0 OR amount_usd <> 0)
     SELECT * FROM t FULL JOIN s USING (day, biller_code) WHERE t.n IS DISTINCT FROM s.n OR t.usd IS DISTINCT FROM s.usd`,
    [zone],
  );
  expect(billerDiff).toEqual([]);

  // the latest activity per app user and per beneficiary
  const users = await server.db.query(
    `WITH t AS (SELECT app_user_id, max(initiated_time) AS last FROM (${kinds.map((k) => `SELECT app_user_id, initiated_time FROM ${tables[k]}`).join(' UNION ALL ')}) x
                 WHERE app_user_id IS NOT NULL GROUP BY 1),
          s AS (SELECT app_user_id, last_time AS last FROM app_user_activity)
     SELECT * FROM t FULL JOIN s USING (app_user_id) WHERE t.last IS DISTINCT FROM s.last`,
  );
  expect(users).toEqual([]);
  const beneficiaries = await server.db.query(
    `WITH t AS (SELECT app_user_id, bank_code, account_number, max(initiated_time) AS last FROM ceft_transactions
                 WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3),
          s AS (SELECT app_user_id, bank_code, account_number, last_success AS last FROM beneficiary_activity)
     SELECT * FROM t FULL JOIN s USING (app_user_id, bank_code, account_number) WHERE t.last IS DISTINCT FROM s.last`,
  );
  expect(beneficiaries).toEqual([]);
  // the beneficiaries registered under each key (migration 63); a row with neither is removed
  const counts = await server.db.query(
    `WITH t AS (SELECT app_user_id, bank_code, account_number, count(*) AS n FROM beneficiaries GROUP BY 1, 2, 3),
          s AS (SELECT app_user_id, bank_code, account_number, beneficiaries AS n FROM beneficiary_activity WHERE beneficiaries <> 0)
     SELECT * FROM t FULL JOIN s USING (app_user_id, bank_code, account_number) WHERE t.n IS DISTINCT FROM s.n`,
  );
  expect(counts).toEqual([]);
  expect(await server.db.query(`SELECT * FROM beneficiary_activity WHERE last_success IS NULL AND beneficiaries = 0`)).toEqual([]);
  // the same per UTC day (migration 64)
  const utcDay = (c: string) => `floor(extract(epoch FROM ${c}) / 86400)::integer`;
  const days = await server.db.query(
    `WITH t AS (SELECT ${utcDay('last_time')} AS day, count(*) AS n FROM app_user_activity GROUP BY 1),
          s AS (SELECT day, users AS n FROM app_user_activity_days WHERE users <> 0)
     SELECT 'users' AS what, * FROM t FULL JOIN s USING (day) WHERE t.n IS DISTINCT FROM s.n
     UNION ALL
     SELECT 'beneficiaries', * FROM (
       SELECT * FROM (SELECT ${utcDay('last_success')} AS day, sum(beneficiaries) AS n FROM beneficiary_activity WHERE last_success IS NOT NULL GROUP BY 1 HAVING sum(beneficiaries) <> 0) t
       FULL JOIN (SELECT day, beneficiaries AS n FROM beneficiary_activity_days WHERE beneficiaries <> 0) s USING (day) WHERE t.n IS DISTINCT FROM s.n) x`,
  );
  expect(days).toEqual([]);
}

async function expectAllEqual() {
  await expectRollupsEqualScan();
  await expectDashboardsEqualScan();
}

/** A send-money row in a given state, not used yet. */
const used = new Set<number>();
async function pick(where: string): Promise<{ id: number; trace: string }> {
  const rows = await server.db.query<{ id: number; trace: string }>(`SELECT id, trace FROM ceft_transactions WHERE ${where} ORDER BY id DESC LIMIT 50`);
  const row = rows.find((r) => !used.has(r.id));
  if (!row) throw new Error(`no transaction where ${where}`);
  used.add(row.id);
  return row;
}

const failedTransfer = `card_payment_status = 'SUCCESS' AND ceft_payment_status = 'FAILED' AND ipg_void_status IS NULL AND ipg_refund_status IS NULL AND ceft_try_count < 100`;

describe('the roll-ups follow the transactions', () => {
  it('start equal to the seeded tables', async () => {
    await expectAllEqual();
  });

  it('follow money actions through the API: hold, manual fund transfer, void, refund', async () => {
    const held = await pick(failedTransfer);
    expect((await server.call('Transaction/ceft/hold', { id: held.id, description: 'check' }, maker)).statusCode).toBe(200);

    const transferred = await pick(failedTransfer);
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: transferred.trace }, maker)).statusCode).toBe(200);

    const voided = await pick(failedTransfer);
    await server.db.query(`UPDATE ceft_transactions SET refund_requested = true, card_payment_time = now() WHERE id = $1`, [voided.id]);
    expect((await server.call('Transaction/ceft/void', { transactionID: voided.id }, maker)).statusCode).toBe(200);

    const refunded = await pick(failedTransfer);
    await server.db.query(`UPDATE ceft_transactions SET refund_requested = true, card_payment_time = now() - interval '3 days' WHERE id = $1`, [refunded.id]);
    expect((await server.call('Transaction/ceft/refund', { transactionID: refunded.id }, maker)).statusCode).toBe(200);

    const statuses = await server.db.query<{ id: number; status: string }>("SELECT id, status FROM ceft_transactions WHERE id = ANY (string_to_array($1, ',')::int[]) ORDER BY id", [
      [held.id, transferred.id, voided.id, refunded.id].join(','),
    ]);
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [held.id]: 'HOLD', [transferred.id]: 'SUCCESS', [voided.id]: 'REFUNDED', [refunded.id]: 'REFUNDED' });
    await expectAllEqual();
  });

  it('follow rows inserted with SQL, one by one and many in one statement, today and in other months', async () => {
    const now = Date.now();
    await server.db.query(
      `INSERT INTO ceft_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, tran_type, bank_code, account_number)
       VALUES ('ROLLUP0001', 'NIC1', 'AE', 'AED', 367.25, 100.01, 30003.33, $1, 'SUCCESS', 'CEFT', '7010', '123456789')`,
      [new Date(now - 60_000)],
    );
    await server.db.query(
      `INSERT INTO bill_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, biller_code)
       SELECT 'ROLLUPB' || i, 'NIC2', CASE WHEN i % 2 = 0 THEN 'SA' ELSE 'QA' END, CASE WHEN i % 2 = 0 THEN 'SAR' ELSE 'QAR' END,
              10 * i, 2.5 * i, 750 * i, $1::timestamptz - (i * 17 || ' days')::interval,
              (ARRAY['SUCCESS', 'FAILED', 'PENDING', 'SUCCESS'])[1 + i % 4], (ARRAY['CEB', 'DIALOG', 'ZZNEW'])[1 + i % 3]
         FROM generate_series(1, 40) i`,
      [new Date(now - 60_000)],
    );
    await expectAllEqual();
  });

  it('follow updates that move rows between days, months, countries, currencies, statuses and amounts, and deletes', async () => {
    const ids = (await server.db.query<{ id: number }>(`SELECT id FROM bill_transactions WHERE trace LIKE 'ROLLUPB%' ORDER BY id`)).map((r) => r.id);
    // a status change by SQL (as settlement or an operator might)
    await server.db.query(`UPDATE bill_transactions SET status = 'SUCCESS' WHERE id = $1`, [ids[0]]);
    // a move to another month and day
    await server.db.query(`UPDATE bill_transactions SET initiated_time = initiated_time - interval '40 days' WHERE id = ANY (string_to_array($1, ',')::int[])`, [ids.slice(1, 6).join(',')]);
    // another country and currency, another amount, another biller
    await server.db.query(`UPDATE bill_transactions SET country = 'KW', currency_code = 'KWD', amount_usd = amount_usd + 1.11, biller_code = 'CEB' WHERE id = $1`, [ids[6]]);
    // many rows at once, some to another status
    await server.db.query(`UPDATE ceft_transactions SET status = 'FAILED' WHERE id IN (SELECT id FROM ceft_transactions WHERE status = 'PENDING' ORDER BY id LIMIT 25)`);
    // another app user, another beneficiary account, a remittance that fails after succeeding
    const [u1, u2] = (await server.db.query<{ id: number }>('SELECT id FROM app_users ORDER BY id LIMIT 2')).map((r) => r.id);
    await server.db.query(`UPDATE bill_transactions SET app_user_id = $2 WHERE id = $1`, [ids[7], u1]);
    await server.db.query(
      `UPDATE ceft_transactions SET app_user_id = $1, account_number = '999000111' WHERE id = (SELECT max(id) FROM ceft_transactions WHERE status = 'SUCCESS' AND app_user_id = $2)`,
      [u1, u2],
    );
    await server.db.query(`UPDATE ceft_transactions SET status = 'REFUNDED' WHERE id = (SELECT max(id) FROM ceft_transactions WHERE status = 'SUCCESS' AND app_user_id = $1)`, [u2]);
    await server.db.query(
      `DELETE FROM ceft_transactions WHERE id = (SELECT max(id) FROM ceft_transactions t WHERE app_user_id = $1 AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id))`,
      [u2],
    );
    // deletes
    await server.db.query(`DELETE FROM bill_transactions WHERE id = ANY (string_to_array($1, ',')::int[])`, [ids.slice(10, 20).join(',')]);
    await server.db.query(`DELETE FROM ceft_transactions WHERE trace = 'ROLLUP0001'`);
    await expectAllEqual();
  });

  it('follow beneficiaries registered, moved and removed, and remittances to and away from their accounts', async () => {
    const [u1, u2] = (await server.db.query<{ id: number }>('SELECT id FROM app_users ORDER BY id LIMIT 2')).map((r) => r.id);
    const at = new Date(Date.now() - 2 * DAY);
    const remit = (trace: string, user: number, account: string, status: string, time = at) =>
      server.db.query(
        `INSERT INTO ceft_transactions (trace, uid, app_user_id, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, tran_type, bank_code, account_number)
         VALUES ($1, 'NIC9', $2, 'AE', 'AED', 36.72, 10, 3000, $3, $4, 'CEFT', '7010', $5)`,
        [trace, user, time, status, account],
      );
    // a beneficiary before any remittance to it, then twice the same key, then one never paid
    await server.db.query(
      `INSERT INTO beneficiaries (app_user_id, name, bank_code, account_number) VALUES ($1, 'A', '7010', 'BEN000001'), ($1, 'A again', '7010', 'BEN000001'), ($1, 'B', '7010', 'BEN000002')`,
      [u1],
    );
    await expectAllEqual();
    await remit('ROLLUPN01', u1, 'BEN000001', 'SUCCESS');
    await remit('ROLLUPN02', u1, 'BEN000002', 'FAILED');
    await remit('ROLLUPN03', u2, 'BEN000003', 'SUCCESS', new Date(Date.now() - 45 * DAY));
    await expectAllEqual();
    // just inside and just outside the 30 days (the day that holds their start is counted from the rows)
    await server.db.query(`INSERT INTO beneficiaries (app_user_id, name, bank_code, account_number) VALUES ($1, 'D', '7010', 'BEN000003')`, [u2]);
    for (const minutes of [5, -5]) {
      await server.db.query(`UPDATE ceft_transactions SET initiated_time = $1 WHERE trace = 'ROLLUPN03'`, [new Date(Date.now() - 30 * DAY + minutes * 60_000)]);
      await expectAllEqual();
    }
    await server.db.query(`DELETE FROM beneficiaries WHERE app_user_id = $1 AND name = 'D'`, [u2]);
    // registered after the remittance; one moved to another account and another user
    await server.db.query(`INSERT INTO beneficiaries (app_user_id, name, bank_code, account_number) VALUES ($1, 'C', '7010', 'BEN000003')`, [u2]);
    await server.db.query(`UPDATE beneficiaries SET account_number = 'BEN000003', app_user_id = $2 WHERE app_user_id = $1 AND account_number = 'BEN000002'`, [u1, u2]);
    await server.db.query(`UPDATE ceft_transactions SET initiated_time = $1 WHERE trace = 'ROLLUPN03'`, [at]);
    await expectAllEqual();
    // the remittance fails after succeeding, one of the duplicates goes, a renamed one stays
    await server.db.query(`UPDATE ceft_transactions SET status = 'REFUNDED' WHERE trace = 'ROLLUPN01'`);
    await server.db.query(`DELETE FROM beneficiaries WHERE app_user_id = $1 AND name = 'A again'`, [u1]);
    await server.db.query(`UPDATE beneficiaries SET name = 'C renamed' WHERE app_user_id = $1 AND name = 'C'`, [u2]);
    await expectAllEqual();
    await server.db.query(`UPDATE ceft_transactions SET status = 'SUCCESS' WHERE trace = 'ROLLUPN01'`);
    await server.db.query(`DELETE FROM ceft_transactions WHERE trace = 'ROLLUPN03'`);
    await server.db.query(`DELETE FROM beneficiaries WHERE account_number LIKE 'BEN00000%' AND name <> 'A'`);
    await expectAllEqual();
  });

  it('write nothing for an update that moves no row between buckets', async () => {
    const before = await server.db.one<{ n: number; h: string }>(
      `SELECT count(*) AS n, md5(string_agg(s::text, '|' ORDER BY day, kind, country, currency_code, status)) AS h FROM transaction_daily_stats s`,
    );
    await server.db.query(`UPDATE ceft_transactions SET card_payment_description = coalesce(card_payment_description, '') || '.' WHERE id IN (SELECT id FROM ceft_transactions ORDER BY id LIMIT 200)`);
    const after = await server.db.one<{ n: number; h: string }>(
      `SELECT count(*) AS n, md5(string_agg(s::text, '|' ORDER BY day, kind, country, currency_code, status)) AS h FROM transaction_daily_stats s`,
    );
    expect(after).toEqual(before);
  });

  it('count days in the stored time zone, and are rebuilt when it changes', async () => {
    // a row at 20:30 UTC falls on the next day in Colombo (UTC+5:30)
    const t = new Date(Math.floor((Date.now() - 5 * DAY) / DAY) * DAY + 20.5 * 3600_000);
    await server.db.query(
      `INSERT INTO thyaga_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, mobile_number, receiver_name, sender_name)
       VALUES ('ROLLUPT1', 'NIC3', 'GB', 'GBP', 12, 15.24, 4572, $1, 'SUCCESS', '0770000000', 'R', 'S')`,
      [t],
    );
    const dayIn = async (z: string) =>
      (await server.db.one<{ d: string }>(`SELECT to_char((initiated_time AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS d FROM thyaga_transactions WHERE trace = 'ROLLUPT1'`, [z]))!.d;
    const rollupDays = async () =>
      (
        await server.db.query<{ d: string }>(
          `SELECT DISTINCT to_char(day, 'YYYY-MM-DD') AS d FROM transaction_daily_stats WHERE kind = 'thyaga' AND country = 'GB' AND day BETWEEN $1::date - 1 AND $1::date + 1 AND count > 0 ORDER BY 1`,
          [await dayIn('UTC')],
        )
      ).map((r) => r.d);
    try {
      expect(await syncRollupTimeZone(server.db, 'Asia/Colombo')).toBe(true);
      expect(await syncRollupTimeZone(server.db, 'Asia/Colombo')).toBe(false);
      expect(await rollupDays()).toContain(await dayIn('Asia/Colombo'));
      const diff = await server.db.query(
        `WITH t AS (SELECT (initiated_time AT TIME ZONE 'Asia/Colombo')::date AS day, country, status, count(*) AS n FROM thyaga_transactions GROUP BY 1, 2, 3),
              s AS (SELECT day, country, status, sum(count) AS n FROM transaction_daily_stats WHERE kind = 'thyaga' AND count <> 0 GROUP BY 1, 2, 3)
         SELECT * FROM t FULL JOIN s USING (day, country, status) WHERE t.n IS DISTINCT FROM s.n`,
      );
      expect(diff).toEqual([]);
    } finally {
      await syncRollupTimeZone(server.db, zone);
    }
    await expectAllEqual();
  });
});
