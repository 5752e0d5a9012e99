/**
 * The dashboards (spec 000 §2, §7), what the app dashboard (./app.ts) and the audit dashboard
 * (./audit.ts) share: every figure is an SQL aggregate. Counts and sums by day, kind,
 * currency and status come from the roll-ups (kept equal to the transaction tables by the triggers of
 * migration 60): a range of days reads the monthly roll-up for its whole months and the daily one for
 * the days at its edges (`rollup`), so a year is a few hundred rows, not a scan; Top Billers reads the
 * per-biller daily roll-up, Active Users the latest activity per app user and beneficiary. The latest
 * rows come from the transaction tables through their indexes; app users and beneficiaries are
 * counted on their own tables.
 *
 * Days are business days, calendar days in the business time zone (BUSINESS_TIME_ZONE), as in the
 * roll-up (`localDay`, whose zone the server sets at start-up); the time bounds of a day are its
 * midnights in that zone, whatever the zone of the server process.
 */
import { addDays, CUSTOM_RANGE, dashboardKinds, messages, periodDaysOf, type ChartPoint, type ChartRange, type DashboardKind, type PeriodCounts } from '../../../api/dashboard';
import { dayOfWeek, startOfBusinessDay } from '../../../domain/businessTime';
import type { Db } from '../../db/db';
import type { Ctx } from '../../http/handle';
import { HttpError } from '../../http/httpError';
import { providerScopeOf } from '../../providerScope';
import { transactionKindSpecs } from '../transactions/kinds';
import { localDay } from '../transactions/stats';

// ---- tables and names ------------------------------------------------------------------------

/** The billers' display names by biller code (reference data; an unknown code shows as itself). */
export const billerNames: Readonly<Record<string, string>> = {
  CEB: 'Ceylon Electricity Board',
  LECO: 'Lanka Electricity Company',
  NWSDB: 'National Water Supply and Drainage Board',
  DIALOG: 'Dialog Axiata',
  DIALOGTV: 'Dialog Television',
  SLTMOBITEL: 'SLT-Mobitel',
  SLTBB: 'SLT Broadband',
  HUTCH: 'Hutchison Telecommunications Lanka',
  AIA: 'AIA Insurance Lanka',
  CEYLINCO: 'Ceylinco Life Insurance',
};

export const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

// ---- calendar --------------------------------------------------------------------------------

/** The instant a yyyy-MM-dd business day starts: its midnight in the business time zone. */
export function startOfDay(day: string, zone: string): Date {
  return startOfBusinessDay(day, zone);
}

/** The last 12 months, this one included, oldest first: yyyy-MM keys and 'Mon yyyy' names. */
export function lastMonths(today: string, count = 12): { key: string; name: string; first: string }[] {
  const [y, m] = today.split('-').map(Number);
  const out: { key: string; name: string; first: string }[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const idx = y * 12 + (m - 1) - i;
    const yy = Math.floor(idx / 12);
    const mm = (idx % 12) + 1;
    const key = `${yy}-${String(mm).padStart(2, '0')}`;
    out.push({ key, name: `${SHORT_MONTHS[mm - 1]} ${yy}`, first: `${key}-01` });
  }
  return out;
}

/** The last 7 days, today included, oldest first. */
export function lastDays(today: string, count = 7): { day: string; dayOfWeek: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const day = addDays(today, i - (count - 1));
    return { day, dayOfWeek: SHORT_DAYS[dayOfWeek(day)] };
  });
}

/** The first day of the next month of a yyyy-MM key. */
export function nextMonthFirst(key: string): string {
  const [y, m] = key.split('-').map(Number);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

export function todayOf(ctx: Ctx): string {
  return localDay(ctx.clock(), ctx.businessTimeZone);
}

/** The days of a period body; a custom range may not end after today. */
export function periodOf(ctx: Ctx, body: { range: number; fromDate?: string; toDate?: string }): { from: string; to: string } | null {
  const today = todayOf(ctx);
  if (body.range === CUSTOM_RANGE && (body.toDate ?? '').slice(0, 10) > today) throw new HttpError(400, `toDate: ${messages.future}`);
  return periodDaysOf(body, today);
}

// ---- queries ---------------------------------------------------------------------------------

export const n = (v: unknown) => Number(v ?? 0);
export const money = (v: unknown) => Math.round(n(v) * 100) / 100;

/** The first day of the month of a yyyy-MM-dd day. */
const monthOf = (day: string) => `${day.slice(0, 8)}01`;
/** The last day of the month of a yyyy-MM-dd day. */
const monthEnd = (day: string) => addDays(nextMonthFirst(day.slice(0, 7)), -1);

/**
 * Whose transactions a figure counts: every provider's (undefined), or one IPG provider's for an IPG
 * bank user (src/server/providerScope.ts), with the business time zone its days are read in.
 */
export type ProviderScope = { provider: string; zone: string } | undefined;

/** The provider scope of the caller of a dashboard call. */
export async function dashboardScopeOf(ctx: Ctx): Promise<ProviderScope> {
  const provider = await providerScopeOf(ctx.db, ctx.user);
  return provider === undefined ? undefined : { provider, zone: ctx.businessTimeZone };
}

/**
 * The roll-up rows of the days from..to (both included; null: open), as a subquery with the columns
 * day, kind, country, currency_code, status, count, amount_usd, amount_lkr: the monthly roll-up for
 * the whole months of the range (day = the month's first day) and the daily roll-up for the days
 * before the first and after the last whole month. Grouping its rows by year, month, kind, currency
 * or status gives the same sums as the daily roll-up; only a range without whole months may be
 * grouped by day. Parameters are added to `params`.
 *
 * For one provider (an IPG bank user) the same columns come from that provider's own transactions,
 * one row each (count 1, day its business day), through the (provider_bank_code, initiated_time)
 * indexes: the roll-ups have no provider, and a partner bank's figures are its own rows only.
 */
export function rollup(from: string | null, to: string | null, params: unknown[], scope?: ProviderScope): string {
  if (scope !== undefined) return providerRows(from, to, params, scope);
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}::date`;
  };
  const monthly = (lo: string | null, hi: string | null) =>
    `SELECT month AS day, kind, country, currency_code, status, count, amount_usd, amount_lkr FROM transaction_monthly_stats` +
    (lo || hi ? ` WHERE ${[lo && `month >= ${p(lo)}`, hi && `month <= ${p(hi)}`].filter(Boolean).join(' AND ')}` : '');
  const daily = (lo: string, hi: string) => `SELECT day, kind, country, currency_code, status, count, amount_usd, amount_lkr FROM transaction_daily_stats WHERE day >= ${p(lo)} AND day <= ${p(hi)}`;
  // the whole months of the range: from its first 1st to the last month ending in it
  const firstWhole = from === null ? null : from === monthOf(from) ? from : nextMonthFirst(from.slice(0, 7));
  const lastWhole = to === null ? null : to === monthEnd(to) ? monthOf(to) : monthOf(addDays(monthOf(to), -1));
  if (firstWhole !== null && lastWhole !== null && firstWhole > lastWhole) return `(${daily(from!, to!)})`;
  const parts = [monthly(firstWhole, lastWhole)];
  if (from !== null && firstWhole !== from) parts.push(daily(from, addDays(firstWhole!, -1)));
  if (to !== null && lastWhole !== null && monthEnd(lastWhole) !== to) parts.push(daily(addDays(monthEnd(lastWhole), 1), to));
  return `(${parts.join(' UNION ALL ')})`;
}

/** One provider's transactions of the days from..to as roll-up-shaped rows (see `rollup`). */
function providerRows(from: string | null, to: string | null, params: unknown[], scope: NonNullable<ProviderScope>): string {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const zone = p(scope.zone);
  const conditions = [`provider_bank_code = ${p(scope.provider)}`];
  if (from !== null) conditions.push(`initiated_time >= ${p(startOfDay(from, scope.zone))}::timestamptz`);
  if (to !== null) conditions.push(`initiated_time < ${p(startOfDay(addDays(to, 1), scope.zone))}::timestamptz`);
  const parts = dashboardKinds.map(
    (k) =>
      `SELECT (initiated_time AT TIME ZONE ${zone}::text)::date AS day, '${k}'::text AS kind, country, currency_code, status, 1::bigint AS count, amount_usd, amount_lkr
         FROM ${transactionKindSpecs[k].table} WHERE ${conditions.join(' AND ')}`,
  );
  return `(${parts.join(' UNION ALL ')})`;
}

/** Counts (every status) and successful USD/LKR sums per kind over a range of days (null: all days). */
export async function kindTotals(db: Db, days: { from: string; to: string } | null, scope?: ProviderScope) {
  const params: unknown[] = [];
  const source = rollup(days?.from ?? null, days?.to ?? null, params, scope);
  const rows = await db.query<{ kind: string; count: number; failed: number; refunded: number; hold: number; usd: number; lkr: number }>(
    `SELECT kind, sum(count) AS count,
            coalesce(sum(count) FILTER (WHERE status = 'FAILED'), 0) AS failed,
            coalesce(sum(count) FILTER (WHERE status = 'REFUNDED'), 0) AS refunded,
            coalesce(sum(count) FILTER (WHERE status = 'HOLD'), 0) AS hold,
            coalesce(sum(amount_usd) FILTER (WHERE status = 'SUCCESS'), 0) AS usd,
            coalesce(sum(amount_lkr) FILTER (WHERE status = 'SUCCESS'), 0) AS lkr
       FROM ${source} s
      GROUP BY kind`,
    params,
  );
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const of = (k: DashboardKind) => {
    const r = byKind.get(k);
    return { count: n(r?.count), failed: n(r?.failed), refunded: n(r?.refunded), hold: n(r?.hold), usd: money(r?.usd), lkr: money(r?.lkr) };
  };
  return of;
}

/**
 * An SQL condition on app user `alias`: for one provider, the app user has a transaction of any kind
 * through it (an IPG bank user counts the app users their bank served, not the service's); else true.
 */
function appUserInScope(alias: string, params: unknown[], scope: ProviderScope): string {
  if (scope === undefined) return 'true';
  params.push(scope.provider);
  const p = `$${params.length}`;
  return `${alias}.id IN (${dashboardKinds.map((k) => `SELECT app_user_id FROM ${transactionKindSpecs[k].table} WHERE provider_bank_code = ${p}`).join(' UNION ')})`;
}

/** App users created in [from, to), by country, most first; null bounds: open. */
export async function appUsersByCountryBetween(db: Db, from: Date | null, to: Date | null, scope?: ProviderScope) {
  const params: unknown[] = [from, to];
  return db.query<{ country: string; count: number }>(
    `SELECT c.name AS country, count(*) AS count
       FROM app_users u JOIN countries c ON c.code = u.country
      WHERE ($1::timestamptz IS NULL OR u.created_at >= $1::timestamptz) AND ($2::timestamptz IS NULL OR u.created_at < $2::timestamptz)
        AND ${appUserInScope('u', params, scope)}
      GROUP BY c.name
      ORDER BY count(*) DESC, c.name`,
    params,
  );
}

/** How many app users there are (for one provider: that it served). */
export async function appUserCount(db: Db, scope?: ProviderScope): Promise<number> {
  const params: unknown[] = [];
  const row = await db.one<{ count: number }>(`SELECT count(*) AS count FROM app_users u WHERE ${appUserInScope('u', params, scope)}`, params);
  return n(row?.count);
}

/** Counts of rows of `table` whose created_at falls in each [lo, hi) bucket (app users: of the scope). */
export async function countInBuckets(db: Db, table: 'app_users' | 'beneficiaries', buckets: readonly { lo: Date; hi: Date }[], scope?: ProviderScope): Promise<number[]> {
  const params: unknown[] = [buckets.map((b, i) => ({ i, lo: b.lo.toISOString(), hi: b.hi.toISOString() }))];
  const inScope = table === 'app_users' ? appUserInScope('t', params, scope) : 'true';
  const rows = await db.query<{ i: number; count: number }>(
    `SELECT b.i, (SELECT count(*) FROM ${table} t WHERE t.created_at >= b.lo AND t.created_at < b.hi AND ${inScope}) AS count
       FROM (SELECT (e->>'i')::int AS i, (e->>'lo')::timestamptz AS lo, (e->>'hi')::timestamptz AS hi FROM json_array_elements($1::json) e) b
      ORDER BY b.i`,
    params,
  );
  const out = buckets.map(() => 0);
  for (const r of rows) out[r.i] = n(r.count);
  return out;
}

/** Total, today, this week (from Monday), this month and this year of `table`'s created_at. */
export async function periodCounts(db: Db, table: 'app_users' | 'beneficiaries', now: Date, zone: string): Promise<PeriodCounts> {
  const today = localDay(now, zone);
  const monday = addDays(today, -((dayOfWeek(today) + 6) % 7));
  const bounds = [today, monday, `${today.slice(0, 7)}-01`, `${today.slice(0, 4)}-01-01`].map((day) => startOfDay(day, zone));
  const row = await db.one<{ total: number; today: number; week: number; month: number; year: number }>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE created_at >= $1) AS today,
            count(*) FILTER (WHERE created_at >= $2) AS week,
            count(*) FILTER (WHERE created_at >= $3) AS month,
            count(*) FILTER (WHERE created_at >= $4) AS year
       FROM ${table}`,
    bounds,
  );
  return { total: n(row?.total), today: n(row?.today), week: n(row?.week), month: n(row?.month), year: n(row?.year) };
}

/** The years from the first with a transaction (of any kind) to this one. */
async function chartYears(db: Db, today: string): Promise<number[]> {
  const row = await db.one<{ first: string | null }>(`SELECT to_char(min(month), 'YYYY') AS first FROM transaction_monthly_stats WHERE count > 0`);
  const thisYear = Number(today.slice(0, 4));
  const first = Math.min(thisYear, Number(row?.first ?? thisYear));
  return Array.from({ length: thisYear - first + 1 }, (_, i) => first + i);
}

type Bucket = { key: string; label: string; point: Omit<ChartPoint, 'amount'> };

/** The buckets of a chart range: years, the last 12 months, or the last 7 days. */
export async function bucketsOf(db: Db, range: ChartRange, today: string): Promise<{ buckets: Bucket[]; from: string; keyExpr: string }> {
  if (range === 'YEARLY') {
    const years = await chartYears(db, today);
    return {
      buckets: years.map((y) => ({ key: String(y), label: String(y), point: { year: String(y) } })),
      from: `${years[0]}-01-01`,
      keyExpr: `to_char(day, 'YYYY')`,
    };
  }
  if (range === 'MONTHLY') {
    const months = lastMonths(today);
    return {
      buckets: months.map((m) => ({ key: m.key, label: m.name, point: { month: m.name.slice(0, 3), year: m.key.slice(0, 4) } })),
      from: months[0].first,
      keyExpr: `to_char(day, 'YYYY-MM')`,
    };
  }
  const days = lastDays(today);
  return {
    buckets: days.map((d) => ({ key: d.day, label: d.dayOfWeek, point: { dayOfWeek: d.dayOfWeek, date: d.day } })),
    from: days[0].day,
    keyExpr: `to_char(day, 'YYYY-MM-DD')`,
  };
}

/** USD value of one kind's successful transactions per bucket of a chart range. */
export async function valueChart(ctx: Ctx, kind: DashboardKind, range: ChartRange): Promise<ChartPoint[]> {
  const today = todayOf(ctx);
  const { buckets, from, keyExpr } = await bucketsOf(ctx.readDb, range, today);
  const params: unknown[] = [kind];
  const rows = await ctx.readDb.query<{ key: string; usd: number }>(
    `SELECT ${keyExpr} AS key, sum(amount_usd) AS usd FROM ${rollup(from, today, params)} s
      WHERE kind = $1 AND status = 'SUCCESS' GROUP BY 1`,
    params,
  );
  const byKey = new Map(rows.map((r) => [r.key, money(r.usd)]));
  return buckets.map((b) => ({ ...b.point, amount: byKey.get(b.key) ?? 0 }));
}
