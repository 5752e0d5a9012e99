/** The audit dashboard's calls (spec 000 §7); the figures' sources are described in ./queries.ts. */
import {
  activeUsers,
  ACTIVE_DAYS,
  addDays,
  ALL_PERIOD,
  allTransactionCount,
  appUsersAndBeneficiariesCount,
  billerTransactionTableData,
  ceftTransactionTableData,
  countryWiseAppUserCount,
  CUSTOM_RANGE,
  dashboardKinds,
  echTransactionTableData,
  kindLabels,
  messages,
  remittanceByYear,
  thyagaTransactionTableData,
  TOP_BILLERS_LIMIT,
  topBillers,
  topUsers,
  transactionValues,
  type DashboardKind,
  type Series,
  type ValueBlock,
} from '../../../api/dashboard';
import { instantOf } from '../../../domain/businessTime';
import { handle } from '../../http/handle';
import { HttpError } from '../../http/httpError';
import { appUsersByCountryBetween, billerNames, bucketsOf, kindTotals, money, n, periodCounts, periodOf, rollup, SHORT_MONTHS, startOfDay, todayOf, valueChart } from './queries';

export const auditDashboardHandlers = [
  handle(activeUsers, async (ctx) => {
    // The latest activity per app user and per beneficiary key (with the number of beneficiaries
    // registered under it), kept by triggers (migrations 62 to 64), counted per UTC day: the whole days
    // after the one `since` falls in come from the day tables (~30 rows), that day's part from the
    // activity tables (an index range of at most one day). Exact, and it reads no dead row versions a
    // bulk load leaves in the activity tables before they are vacuumed.
    const since = new Date(ctx.clock().getTime() - ACTIVE_DAYS * 24 * 60 * 60 * 1000);
    const DAY_MS = 24 * 60 * 60 * 1000;
    const day = Math.floor(since.getTime() / DAY_MS);
    const dayEnd = new Date((day + 1) * DAY_MS);
    const row = await ctx.readDb.one<{ users: number; beneficiaries: number }>(
      `SELECT (SELECT coalesce(sum(users), 0) FROM app_user_activity_days WHERE day > $2)
              + (SELECT count(*) FROM app_user_activity WHERE last_time >= $1 AND last_time < $3) AS users,
              (SELECT coalesce(sum(beneficiaries), 0) FROM beneficiary_activity_days WHERE day > $2)
              + (SELECT coalesce(sum(beneficiaries), 0) FROM beneficiary_activity WHERE last_success >= $1 AND last_success < $3) AS beneficiaries`,
      [since, day, dayEnd],
    );
    return { data: { activeUserCount: n(row?.users), activeBeneficiariesCount: n(row?.beneficiaries) } };
  }),

  handle(appUsersAndBeneficiariesCount, async (ctx) => {
    const now = ctx.clock();
    return {
      data: { appUsersValues: await periodCounts(ctx.readDb, 'app_users', now, ctx.businessTimeZone), beneficiariesValues: await periodCounts(ctx.readDb, 'beneficiaries', now, ctx.businessTimeZone) },
    };
  }),

  handle(transactionValues, async (ctx, body) => {
    const of = await kindTotals(ctx.readDb, periodOf(ctx, body));
    const block = (k: DashboardKind): ValueBlock => ({ totalValue: of(k).usd, count: of(k).count, failed: of(k).failed, refunded: of(k).refunded });
    return { data: { ceft: { ...block('ceft'), hold: of('ceft').hold }, biller: block('bill'), thyaga: block('thyaga'), echanneling: block('echannelling') } };
  }),

  handle(ceftTransactionTableData, async (ctx, { range }) => ({ data: await valueChart(ctx, 'ceft', range) })),
  handle(billerTransactionTableData, async (ctx, { range }) => ({ data: await valueChart(ctx, 'bill', range) })),
  handle(thyagaTransactionTableData, async (ctx, { range }) => ({ data: await valueChart(ctx, 'thyaga', range) })),
  handle(echTransactionTableData, async (ctx, { range }) => ({ data: await valueChart(ctx, 'echannelling', range) })),

  handle(topUsers, async (ctx, body) => {
    const days = body.range === ALL_PERIOD.value ? null : periodOf(ctx, body);
    const rows = await appUsersByCountryBetween(ctx.readDb, days && startOfDay(days.from, ctx.businessTimeZone), days && startOfDay(addDays(days.to, 1), ctx.businessTimeZone));
    return { data: rows.map((r) => ({ country: r.country, count: n(r.count) })) };
  }),

  handle(topBillers, async (ctx, body) => {
    const days = periodOf(ctx, body)!;
    const rows = await ctx.readDb.query<{ biller_code: string; usd: number }>(
      `SELECT biller_code, sum(amount_usd) AS usd FROM bill_daily_billers
        WHERE day >= $1::date AND day <= $2::date
        GROUP BY biller_code HAVING sum(count) > 0 ORDER BY sum(amount_usd) DESC, biller_code LIMIT $3`,
      [days.from, days.to, TOP_BILLERS_LIMIT],
    );
    return { data: rows.map((r) => ({ billerName: billerNames[r.biller_code] ?? r.biller_code, totalAmount: money(r.usd) })) };
  }),

  handle(allTransactionCount, async (ctx, { range }) => {
    const today = todayOf(ctx);
    const { buckets, from, keyExpr } = await bucketsOf(ctx.readDb, range, today);
    const params: unknown[] = [];
    const rows = await ctx.readDb.query<{ kind: string; key: string; count: number }>(
      `SELECT kind, ${keyExpr} AS key, sum(count) AS count FROM ${rollup(from, today, params)} s GROUP BY 1, 2`,
      params,
    );
    const at = new Map(rows.map((r) => [`${r.kind}|${r.key}`, n(r.count)]));
    const perKind: Series[] = dashboardKinds.map((k) => ({ name: kindLabels[k], data: buckets.map((b) => at.get(`${k}|${b.key}`) ?? 0) }));
    const total: Series = { name: 'All', data: buckets.map((_, i) => perKind.reduce((s, x) => s + x.data[i], 0)) };
    return { data: { transactions: [total, ...perKind], labels: buckets.map((b) => b.label) } };
  }),

  handle(countryWiseAppUserCount, async (ctx, body) => {
    let lo: Date;
    let hi: Date;
    if (body.range === CUSTOM_RANGE) {
      const today = todayOf(ctx);
      if ((body.toDate ?? '').slice(0, 10) > today) throw new HttpError(400, `toDate: ${messages.future}`);
      lo = instantOf(body.fromDate!, ctx.businessTimeZone)!;
      hi = new Date(instantOf(body.toDate!, ctx.businessTimeZone)!.getTime() + 1000);
    } else {
      const days = periodOf(ctx, body)!;
      lo = startOfDay(days.from, ctx.businessTimeZone);
      hi = startOfDay(addDays(days.to, 1), ctx.businessTimeZone);
    }
    const rows = await appUsersByCountryBetween(ctx.readDb, lo, hi);
    return { data: { countries: rows.map((r) => r.country), counts: rows.map((r) => n(r.count)) } };
  }),

  handle(remittanceByYear, async (ctx, body) => {
    const yearRows = await ctx.readDb.query<{ year: string }>(`SELECT DISTINCT to_char(month, 'YYYY') AS year FROM transaction_monthly_stats WHERE kind = 'ceft' AND count > 0 ORDER BY 1`);
    const years = yearRows.map((r) => Number(r.year));
    const year = body.year ?? years[years.length - 1] ?? Number(todayOf(ctx).slice(0, 4));
    const rows = await ctx.readDb.query<{ month: number; count: number; usd: number }>(
      `SELECT extract(month FROM month)::int AS month, sum(count) AS count, coalesce(sum(amount_usd) FILTER (WHERE status = 'SUCCESS'), 0) AS usd
         FROM transaction_monthly_stats
        WHERE kind = 'ceft' AND month >= $1::date AND month < $2::date
        GROUP BY 1`,
      [`${year}-01-01`, `${year + 1}-01-01`],
    );
    const byMonth = new Map(rows.map((r) => [n(r.month), body.measure === 'count' ? n(r.count) : money(r.usd)]));
    return { data: { year, years, measure: body.measure, months: SHORT_MONTHS.slice(), values: SHORT_MONTHS.map((_, i) => byMonth.get(i + 1) ?? 0) } };
  }),
];
