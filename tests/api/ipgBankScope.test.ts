/**
 * What an IPG bank user may see beyond the transaction lists and settlement (tests/api/settlementScope.test.ts).
 *
 * The app dashboard of an IPG bank user shows their own provider's figures only (docs/settlement.md):
 * the latest transactions, every count and value, the months and the currencies come from
 * their provider's transactions, and the app-user figures count the app users their bank served. Each
 * figure is checked against the transaction tables; a second provider's officer sees disjoint rows; a
 * body that names another provider is refused or changes nothing; the back-office staff see the whole
 * service.
 *
 * The activity logs (the service's staff's and app users' actions) are never a partner bank's: an IPG
 * bank role may not be given activity-log-report-view, and an IPG bank user whose role holds it from
 * before the rule is refused both activity reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appUsersByCountry,
  currencyWiseTransactionValues,
  kindTypeNames,
  overallTransactionCounts,
  totalAppUsersByMonth,
  totalCountsAndValues,
  totalTransactionsByMonth,
  totalTransactionValues,
} from '../../src/api/dashboard';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let maker: string;
let checker: string;
let boc: string;
let combank: string;
const BOC = '7010';
const COMBANK = '7056';

const tables = { ceft: 'ceft_transactions', bill: 'bill_transactions', echannelling: 'echannelling_transactions', thyaga: 'thyaga_transactions', insurance: 'insurance_transactions' } as const;
const every = (provider: string | null) =>
  Object.entries(tables)
    .map(
      ([kind, table]) =>
        `SELECT id, '${kind}' AS kind, app_user_id, currency_code, status, amount_usd, amount_lkr, initiated_time, provider_bank_code FROM ${table}` +
        (provider ? ` WHERE provider_bank_code = '${provider}'` : ''),
    )
    .join(' UNION ALL ');

beforeAll(async () => {
  server = await startServer();
  [maker, checker, boc, combank] = await Promise.all(['maker', 'checker', 'kasun_herath', 'ishara_d'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

const ok: TestServer['ok'] = (contract, body, token) => server.ok(contract, body, token);

/** Per kind: every-status count and the successful LKR sum, from the transaction tables. */
async function kindFigures(provider: string | null) {
  const rows = await server.db.query<{ kind: string; count: number; lkr: string }>(
    `SELECT kind, count(*)::int AS count, coalesce(sum(amount_lkr) FILTER (WHERE status = 'SUCCESS'), 0)::text AS lkr FROM (${every(provider)}) t GROUP BY kind`,
  );
  const of = (k: string) => rows.find((r) => r.kind === k) ?? { count: 0, lkr: '0' };
  return of;
}

async function servedAppUsers(provider: string): Promise<number> {
  const row = await server.db.one<{ n: number }>(`SELECT count(DISTINCT app_user_id)::int AS n FROM (${every(provider)}) t WHERE app_user_id IS NOT NULL`);
  return row!.n;
}

describe("an IPG bank user's app dashboard", () => {
  it("the counts strip and the category counts are their provider's transactions and the app users their bank served", async () => {
    const of = await kindFigures(BOC);
    const all = await kindFigures(null);
    const strip = (await ok(totalCountsAndValues, {}, boc)).data;
    expect(strip.ceftTransactions).toBe(of('ceft').count);
    expect(strip.billTransactions).toBe(of('bill').count);
    expect(strip.ecTransactions).toBe(of('echannelling').count);
    expect(strip.thyagaTransactions).toBe(of('thyaga').count);
    expect(strip.insuranceTransactions).toBe(of('insurance').count);
    expect(strip.totalCeftValueLKR).toBeCloseTo(Number(of('ceft').lkr), 2);
    expect(strip.appUsers).toBe(await servedAppUsers(BOC));
    // the provider's share is real and smaller than the service's
    expect(of('ceft').count).toBeGreaterThan(0);
    expect(of('ceft').count).toBeLessThan(all('ceft').count);
    const everyone = (await ok(totalCountsAndValues, {}, maker)).data;
    expect(everyone.ceftTransactions).toBe(all('ceft').count);
    expect(everyone.appUsers as number).toBeGreaterThan(strip.appUsers as number);

    const counts = (await ok(overallTransactionCounts, {}, boc)).data;
    expect(counts.counts).toEqual(['ceft', 'bill', 'echannelling', 'thyaga', 'insurance'].map((k) => of(k).count));
  });

  it("the All Transactions table lists only their provider's transactions, and its count is theirs", async () => {
    const mine = (await ok(totalTransactionValues, { range: 90 }, boc)).data;
    const theirs = (await ok(totalTransactionValues, { range: 90 }, combank)).data;
    const rows = mine.transactions as { id: number; type: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const key = (r: { id: number; type: string }) => `${r.type}|${r.id}`;
    const theirKeys = new Set((theirs.transactions as { id: number; type: string }[]).map(key));
    expect(rows.filter((r) => theirKeys.has(key(r)))).toEqual([]);
    // every row is one of their provider's transactions (asked per kind, all ids at once)
    for (const [kind, type] of Object.entries(kindTypeNames)) {
      const ids = rows.filter((r) => r.type === type).map((r) => r.id);
      if (ids.length === 0) continue;
      const providers = await server.db.query<{ id: number; provider_bank_code: string | null }>(
        `SELECT id, provider_bank_code FROM ${tables[kind as keyof typeof tables]} WHERE id IN (SELECT value::int FROM json_array_elements_text($1::json))`,
        [ids],
      );
      expect(providers.length, `${type} ids found`).toBe(new Set(ids).size);
      expect(providers.filter((p) => p.provider_bank_code !== BOC)).toEqual([]);
    }
    const expected = await server.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${every(BOC)}) t
        WHERE initiated_time >= ($1::date)::timestamp AT TIME ZONE transaction_day_time_zone()
          AND initiated_time < ($2::date + 1)::timestamp AT TIME ZONE transaction_day_time_zone()`,
      [mine.from, mine.to],
    );
    expect(mine.count).toBe(expected!.n);
    const everyone = (await ok(totalTransactionValues, { range: 90 }, maker)).data;
    expect(everyone.count as number).toBeGreaterThan(mine.count as number);
  });

  it("the months and the currencies add up to their provider's transactions", async () => {
    const months = (await ok(totalTransactionsByMonth, {}, boc)).data;
    const series = months.transactions as { name: string; data: number[] }[];
    const total = series.reduce((s, x) => s + x.data.reduce((a, b) => a + b, 0), 0);
    const firstMonth = (months.monthNames as string[])[0];
    const expected = await server.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM (${every(BOC)}) t
        WHERE (initiated_time AT TIME ZONE transaction_day_time_zone()) >= to_date($1, 'Mon YYYY')
          AND (initiated_time AT TIME ZONE transaction_day_time_zone())::date <= (now() AT TIME ZONE transaction_day_time_zone())::date`,
      [firstMonth],
    );
    expect(total).toBe(expected!.n);

    const currencies = (await ok(currencyWiseTransactionValues, {}, boc)).data;
    const sums = await server.db.query<{ currency_code: string; usd: string }>(
      `SELECT currency_code, sum(amount_usd)::text AS usd FROM (${every(BOC)}) t WHERE status = 'SUCCESS' GROUP BY currency_code ORDER BY sum(amount_usd) DESC, currency_code`,
    );
    expect(currencies.currencies).toEqual(sums.map((s) => s.currency_code));
    (currencies.amounts as number[]).forEach((a, i) => expect(a).toBeCloseTo(Number(sums[i].usd), 2));
  });

  it('the app-user figures count the app users their bank served, by country and by month of registration', async () => {
    const served = await servedAppUsers(BOC);
    const byCountry = (await ok(appUsersByCountry, {}, boc)).data;
    expect((byCountry.counts as number[]).reduce((a, b) => a + b, 0)).toBe(served);
    const everyone = (await ok(appUsersByCountry, {}, maker)).data;
    expect((everyone.counts as number[]).reduce((a, b) => a + b, 0)).toBeGreaterThan(served);

    const byMonth = (await ok(totalAppUsersByMonth, {}, boc)).data;
    const firstMonth = (byMonth.monthNames as string[])[0];
    const expected = await server.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM app_users u
        WHERE u.id IN (SELECT app_user_id FROM (${every(BOC)}) t)
          AND (u.created_at AT TIME ZONE transaction_day_time_zone()) >= to_date($1, 'Mon YYYY')
          AND u.created_at <= now()`,
      [firstMonth],
    );
    expect((byMonth.users as number[]).reduce((a, b) => a + b, 0)).toBe(expected!.n);
  });

  it('naming another provider in the body is refused and changes nothing', async () => {
    for (const body of [{ provider: COMBANK }, { provider_bank_code: COMBANK }]) {
      const reply = await server.call('dashboard/totalCountsAndValues', body, boc);
      expect(reply.statusCode).toBe(400);
    }
    const forged = await server.call('dashboard/totalTransactionValues', { range: 90, provider_bank_code: COMBANK }, boc);
    if (forged.statusCode === 200) {
      const mine = (await ok(totalTransactionValues, { range: 90 }, boc)).data;
      expect(forged.data).toEqual(mine);
    } else {
      expect(forged.statusCode).toBe(400);
    }
  });
});

describe("the activity logs are not a partner bank's", () => {
  const reportBody = { from: '2020-01-01T00:00:01', to: `${new Date().getFullYear()}-12-31T23:59:00`, fetchCount: 100 };

  it('an IPG bank role may not be given activity-log-report-view, nor is it offered in the role form', async () => {
    const body = { role_name: 'IPG Log Reader', user_type: 'IPGBANK', user_level: 1, permissions: ['send-money-report-view', 'activity-log-report-view'], disabled: 0 };
    expect(await server.call('role/create', body, maker)).toEqual({ statusCode: 422, data: { message: 'Not available to IPG Bank User roles: activity-log-report-view' } });
    const offered = await server.call('role/initial-create-data', {}, maker);
    expect(offered.statusCode).toBe(200);
    const groups = (offered.data as { permissionsList: { type: string; userType: string; permissions: string[] }[] }).permissionsList;
    const ipgReports = groups.find((g) => g.userType === 'IPGBANK' && g.type === 'Reports');
    expect(ipgReports?.permissions).toContain('send-money-report-view');
    expect(ipgReports?.permissions).not.toContain('activity-log-report-view');
    expect(groups.find((g) => g.userType === 'BACKEND' && g.type === 'Reports')?.permissions).toContain('activity-log-report-view');
  });

  it('an IPG bank user whose role holds it from before the rule is refused both activity reports; the checker is not', async () => {
    // a role stored before the rule: written straight to the database, as an old deployment would hold it
    await server.db.query(`UPDATE roles SET permissions = permissions || '["activity-log-report-view"]'::jsonb WHERE role_name = 'IPG Bank Officer'`);
    const officer = await server.login('sanduni_k');
    const staff = await server.call('report/get-activity-report', reportBody, checker);
    for (const [path, body] of [
      ['report/get-activity-report', reportBody],
      ['Report/get-mobile-activity-report', reportBody],
    ] as const) {
      const reply = await server.call(path, body, officer);
      expect(reply.statusCode, path).toBe(403);
      expect(JSON.stringify(reply.data)).not.toContain('admin');
    }
    expect(staff.statusCode).toBe(200);
  });
});
