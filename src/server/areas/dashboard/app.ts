/**
 * The app dashboard's calls (spec 000 §2); the figures' sources are described in ./queries.ts. An IPG
 * bank user sees their own provider's figures only: its transactions, and the app users it served
 * (`dashboardScopeOf`); everyone else who may see the dashboard sees the whole service's.
 */
import {
  addDays,
  appUsersByCountry,
  currencyWiseTransactionValues,
  dashboardKinds,
  kindLabels,
  kindTypeNames,
  overallTransactionCounts,
  totalAppUsersByMonth,
  totalCountsAndValues,
  totalTransactionsByMonth,
  totalTransactionValues,
  TRANSACTION_TABLE_LIMIT,
  type DashboardKind,
  type Series,
} from '../../../api/dashboard';
import { handle } from '../../http/handle';
import { transactionKindSpecs } from '../transactions/kinds';
import { appUserCount, appUsersByCountryBetween, countInBuckets, dashboardScopeOf, kindTotals, lastMonths, money, n, nextMonthFirst, periodOf, rollup, startOfDay, todayOf } from './queries';

export const appDashboardHandlers = [
  handle(totalTransactionValues, async (ctx, body) => {
    const days = periodOf(ctx, body)!;
    const lo = startOfDay(days.from, ctx.businessTimeZone);
    const hi = startOfDay(addDays(days.to, 1), ctx.businessTimeZone);
    const scope = await dashboardScopeOf(ctx);
    const ofProvider = scope === undefined ? '' : ' AND provider_bank_code = $4';
    const parts = dashboardKinds.map(
      (k) =>
        `(SELECT id, '${k}' AS kind, amount_lkr, initiated_time FROM ${transactionKindSpecs[k].table}
           WHERE initiated_time >= $1 AND initiated_time < $2${ofProvider} ORDER BY initiated_time DESC, id DESC LIMIT $3)`,
    );
    const rows = await ctx.readDb.query<{ id: number; kind: DashboardKind; amount_lkr: number; initiated_time: Date }>(
      `SELECT id, kind, amount_lkr, initiated_time FROM (${parts.join(' UNION ALL ')}) t ORDER BY initiated_time DESC, kind, id DESC LIMIT $3`,
      scope === undefined ? [lo, hi, TRANSACTION_TABLE_LIMIT] : [lo, hi, TRANSACTION_TABLE_LIMIT, scope.provider],
    );
    const params: unknown[] = [];
    const count = await ctx.readDb.one<{ count: number }>(`SELECT coalesce(sum(count), 0) AS count FROM ${rollup(days.from, days.to, params, scope)} s`, params);
    return {
      data: {
        transactions: rows.map((r) => ({ id: r.id, type: kindTypeNames[r.kind], amount: money(r.amount_lkr), initiated_time: r.initiated_time.toISOString() })),
        count: n(count?.count),
        from: days.from,
        to: days.to,
      },
    };
  }),

  handle(overallTransactionCounts, async (ctx) => {
    const of = await kindTotals(ctx.readDb, null, await dashboardScopeOf(ctx));
    return { data: { categories: dashboardKinds.map((k) => kindLabels[k]), counts: dashboardKinds.map((k) => of(k).count) } };
  }),

  handle(appUsersByCountry, async (ctx) => {
    const rows = await appUsersByCountryBetween(ctx.readDb, null, null, await dashboardScopeOf(ctx));
    return { data: { countries: rows.map((r) => r.country), counts: rows.map((r) => n(r.count)) } };
  }),

  handle(currencyWiseTransactionValues, async (ctx) => {
    const params: unknown[] = [];
    const rows = await ctx.readDb.query<{ currency_code: string; usd: number }>(
      `SELECT currency_code, sum(amount_usd) AS usd FROM ${rollup(null, null, params, await dashboardScopeOf(ctx))} s WHERE status = 'SUCCESS'
        GROUP BY currency_code HAVING sum(count) > 0 ORDER BY sum(amount_usd) DESC, currency_code`,
      params,
    );
    return { data: { currencies: rows.map((r) => r.currency_code), amounts: rows.map((r) => money(r.usd)) } };
  }),

  handle(totalTransactionsByMonth, async (ctx) => {
    const today = todayOf(ctx);
    const months = lastMonths(today);
    const params: unknown[] = [];
    const rows = await ctx.readDb.query<{ kind: string; month: string; count: number }>(
      `SELECT kind, to_char(day, 'YYYY-MM') AS month, sum(count) AS count FROM ${rollup(months[0].first, today, params, await dashboardScopeOf(ctx))} s GROUP BY 1, 2`,
      params,
    );
    const at = new Map(rows.map((r) => [`${r.kind}|${r.month}`, n(r.count)]));
    const transactions: Series[] = dashboardKinds.map((k) => ({ name: kindLabels[k], data: months.map((m) => at.get(`${k}|${m.key}`) ?? 0) }));
    return { data: { transactions, monthNames: months.map((m) => m.name) } };
  }),

  handle(totalCountsAndValues, async (ctx) => {
    const scope = await dashboardScopeOf(ctx);
    const of = await kindTotals(ctx.readDb, null, scope);
    const users = await appUserCount(ctx.readDb, scope);
    const strip = ['ceft', 'bill', 'echannelling', 'thyaga'] as const;
    return {
      data: {
        ceftTransactions: of('ceft').count,
        billTransactions: of('bill').count,
        ecTransactions: of('echannelling').count,
        thyagaTransactions: of('thyaga').count,
        insuranceTransactions: of('insurance').count,
        totalTransactions: strip.reduce((s, k) => s + of(k).count, 0),
        appUsers: users,
        totalCeftValueLKR: of('ceft').lkr,
        totalValueLKR: money(strip.reduce((s, k) => s + of(k).lkr, 0)),
      },
    };
  }),

  handle(totalAppUsersByMonth, async (ctx) => {
    const months = lastMonths(todayOf(ctx));
    const users = await countInBuckets(
      ctx.readDb,
      'app_users',
      months.map((m) => ({ lo: startOfDay(m.first, ctx.businessTimeZone), hi: startOfDay(nextMonthFirst(m.key), ctx.businessTimeZone) })),
      await dashboardScopeOf(ctx),
    );
    return { data: { users, monthNames: months.map((m) => m.name) } };
  }),
];
