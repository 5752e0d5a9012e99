/**
 * The dashboards' calls (spec 000 §7, §9): the app dashboard (/dashboard) and the audit dashboard
 * (/AuditDashboard). Every figure is an aggregate over the transaction tables (through their daily
 * roll-up), the app users and the beneficiaries.
 *
 * Periods. `range` is a number of days: 7 This Week, 14 Last Two Weeks, 30 Last Month, 90 Last Three
 * Months, 365 Last Year, 0 Custom (with `fromDate` and `toDate`, yyyy-MM-dd), and on the app-users-by-
 * country table also 1 All. A range of N days is today and the N-1 days before it, whole days on the
 * server's calendar; a custom range is fromDate to toDate, both days included, and may not end after
 * today (400 naming toDate). Chart ranges: YEARLY (every year from the first with a transaction to this
 * one), MONTHLY (the last 12 months, this one included), WEEKLY (the last 7 days, today included).
 *
 * What counts. A transaction count covers every status; a value covers only SUCCESS transactions
 * (the money that moved), in USD, except the LKR value on the app dashboard's counts strip. Active
 * app users: those with a transaction initiated in the last 30 days; active beneficiaries: those that
 * received a successful send-money transfer in the last 30 days.
 *
 * Who may call. The app dashboard's calls: a signed-in user who may see /dashboard (no auditor
 * permission, or super-permission; 403 otherwise). The audit dashboard's calls: auditor-dashboard-view
 * or auditor-report-view.
 */
import { z } from 'zod';
import { anyOf, defineCall, emptyBody, dateBoundsError, inDateBounds, wireDate } from './contract';

// ---- periods ---------------------------------------------------------------------------------

export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** The period dropdown: days, as sent in `range`. */
export const periodOptions = [
  { value: 7, label: 'This Week' },
  { value: 14, label: 'Last Two Weeks' },
  { value: 30, label: 'Last Month' },
  { value: 90, label: 'Last Three Months' },
  { value: 365, label: 'Last Year' },
  { value: 0, label: 'Custom' },
] as const;
/** The extra period of the app-users-by-country table. */
export const ALL_PERIOD = { value: 1, label: 'All' } as const;
export const CUSTOM_RANGE = 0;

export const chartRanges = ['YEARLY', 'MONTHLY', 'WEEKLY'] as const;
export type ChartRange = (typeof chartRanges)[number];
export const chartRangeLabels: Record<ChartRange, string> = { YEARLY: 'Yearly', MONTHLY: 'Monthly', WEEKLY: 'Weekly' };

/** The transaction kinds the dashboards show, in order, with their category names. */
export const dashboardKinds = ['ceft', 'bill', 'echannelling', 'thyaga', 'insurance'] as const;
export type DashboardKind = (typeof dashboardKinds)[number];
export const kindLabels: Record<DashboardKind, string> = {
  ceft: 'Remittances',
  bill: 'Bill Payments',
  echannelling: 'EChannelling',
  thyaga: 'Thyaga',
  insurance: 'Insurance',
};
/** The Type column of the All Transactions table. */
export const kindTypeNames: Record<DashboardKind, string> = {
  ceft: 'Remittance',
  bill: 'Bill Payment',
  echannelling: 'EChannelling',
  thyaga: 'Thyaga',
  insurance: 'Insurance',
};

/** Active users and beneficiaries are counted over this many days. */
export const ACTIVE_DAYS = 30;
/** The All Transactions table carries at most this many rows (the most recent of the period). */
export const TRANSACTION_TABLE_LIMIT = 500;
/** The Top Billers table: this many billers, by value. */
export const TOP_BILLERS_LIMIT = 10;

export const messages = {
  range: 'Choose a period: 7, 14, 30, 90, 365 or 0 (custom)',
  rangeWithAll: 'Choose a period: 1 (all), 7, 14, 30, 90, 365 or 0 (custom)',
  date: 'Enter a date as yyyy-MM-dd',
  dateTime: 'Enter a date-time as yyyy-MM-ddTHH:mm:ss',
  fromRequired: 'Choose a From date for a custom range',
  toRequired: 'Choose a To date for a custom range',
  toBeforeFrom: 'To cannot be before From',
  future: 'To cannot be later than today',
  chartRange: 'Choose YEARLY, MONTHLY or WEEKLY',
} as const;

function isRealDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

const dateOnly = z.string().regex(DATE_PATTERN, messages.date).refine(isRealDate, messages.date).refine(inDateBounds, dateBoundsError).meta(wireDate('day'));
const dateTime = z.string().regex(DATE_TIME_PATTERN, messages.dateTime).refine(isRealDate, messages.dateTime).refine(inDateBounds, dateBoundsError).meta(wireDate('date-time'));

function rangeNumber(allowed: readonly number[], message: string) {
  return z
    .number({ error: message })
    .int(message)
    .refine((v) => allowed.includes(v), message)
    .meta({ enum: [...allowed].sort((a, b) => a - b) });
}

/** The custom range's rule as the published document states it: with range 0, fromDate and toDate are both needed, not empty (To not before From is the server's). */
const customRangeFacts = {
  if: { properties: { range: { const: CUSTOM_RANGE } }, required: ['range'] },
  then: { required: ['fromDate', 'toDate'], properties: { fromDate: { minLength: 1 }, toDate: { minLength: 1 } } },
};
const periodDays = periodOptions.map((o) => o.value);

function customRule(v: { range: number; fromDate?: string; toDate?: string }, ctx: z.RefinementCtx) {
  if (v.range !== CUSTOM_RANGE) return;
  if (!v.fromDate) ctx.addIssue({ code: 'custom', path: ['fromDate'], message: messages.fromRequired });
  if (!v.toDate) ctx.addIssue({ code: 'custom', path: ['toDate'], message: messages.toRequired });
  if (v.fromDate && v.toDate && v.toDate.slice(0, 10) < v.fromDate.slice(0, 10)) {
    ctx.addIssue({ code: 'custom', path: ['toDate'], message: messages.toBeforeFrom });
  }
}

/** range, fromDate, toDate (yyyy-MM-dd; only read for a custom range, where both are needed). */
export const periodBody = z
  .strictObject({
    range: rangeNumber(periodDays, messages.range),
    fromDate: dateOnly.or(z.literal('')).optional(),
    toDate: dateOnly.or(z.literal('')).optional(),
  })
  .superRefine(customRule)
  .meta(customRangeFacts);
export type PeriodBody = z.input<typeof periodBody>;

/** The same with the extra period 1 (All) of the app-users-by-country table. */
export const periodWithAllBody = z
  .strictObject({
    range: rangeNumber([ALL_PERIOD.value, ...periodDays], messages.rangeWithAll),
    fromDate: dateOnly.or(z.literal('')).optional(),
    toDate: dateOnly.or(z.literal('')).optional(),
  })
  .superRefine(customRule)
  .meta(customRangeFacts);

/** range, fromDate with T00:00:00, toDate with T23:59:59 (the country-wise chart). */
export const periodDateTimeBody = z
  .strictObject({
    range: rangeNumber(periodDays, messages.range),
    fromDate: dateTime.or(z.literal('')).optional(),
    toDate: dateTime.or(z.literal('')).optional(),
  })
  .superRefine(customRule)
  .meta(customRangeFacts);

export const chartRangeBody = z.strictObject({ range: z.enum(chartRanges, { error: messages.chartRange }) });

/** yyyy-MM-dd of a UTC-midnight date. */
function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `day` plus `n` days (n may be negative), on the calendar (no time zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return isoDay(new Date(Date.UTC(y, m - 1, d + n)));
}

/**
 * The days a period covers, both included, given today's date; null for All. A custom range is
 * taken as sent (the server refuses one that ends after today before calling this).
 */
export function periodDaysOf(body: { range: number; fromDate?: string; toDate?: string }, today: string): { from: string; to: string } | null {
  if (body.range === ALL_PERIOD.value) return null;
  if (body.range === CUSTOM_RANGE) return { from: (body.fromDate ?? today).slice(0, 10), to: (body.toDate ?? today).slice(0, 10) };
  return { from: addDays(today, -(body.range - 1)), to: today };
}

// ---- replies ---------------------------------------------------------------------------------

const series = z.object({ name: z.string(), data: z.array(z.number()) });
export type Series = z.infer<typeof series>;

export const transactionTableRow = z.object({
  id: z.number(),
  /** Remittance, Bill Payment, EChannelling, Thyaga or Insurance. */
  type: z.string(),
  /** LKR. */
  amount: z.number(),
  /** ISO 8601 with offset. */
  initiated_time: z.string(),
});
export type TransactionTableRow = z.infer<typeof transactionTableRow>;

export const totalsData = z.object({
  /** Send-money (remittance) transactions, every status. */
  ceftTransactions: z.number(),
  billTransactions: z.number(),
  ecTransactions: z.number(),
  thyagaTransactions: z.number(),
  insuranceTransactions: z.number(),
  /** The four services of the strip together: remittances, bill payments, EChannelling, Thyaga. */
  totalTransactions: z.number(),
  appUsers: z.number(),
  /** LKR value of the successful remittances. */
  totalCeftValueLKR: z.number(),
  /** LKR value of the successful transactions of the four services of the strip. */
  totalValueLKR: z.number(),
});
export type TotalsData = z.infer<typeof totalsData>;

const periodCounts = z.object({ total: z.number(), today: z.number(), week: z.number(), month: z.number(), year: z.number() });
export type PeriodCounts = z.infer<typeof periodCounts>;

const valueBlock = z.object({
  /** USD value of the successful transactions of the period. */
  totalValue: z.number(),
  count: z.number(),
  failed: z.number(),
  refunded: z.number(),
});
export type ValueBlock = z.infer<typeof valueBlock>;
const ceftValueBlock = valueBlock.extend({ hold: z.number() });

export const chartPoint = z.object({
  /** USD value of the successful transactions of the year, month or day. */
  amount: z.number(),
  /** yyyy (YEARLY and MONTHLY points). */
  year: z.string().optional(),
  /** Short month name (MONTHLY points). */
  month: z.string().optional(),
  /** Short weekday name (WEEKLY points). */
  dayOfWeek: z.string().optional(),
  /** yyyy-MM-dd (WEEKLY points). */
  date: z.string().optional(),
});
export type ChartPoint = z.infer<typeof chartPoint>;

/** The label a chart shows for a point. */
export function pointLabel(p: ChartPoint): string {
  if (p.dayOfWeek) return p.dayOfWeek;
  if (p.month) return `${p.month} ${p.year ?? ''}`.trim();
  return p.year ?? '';
}

const countryCount = z.object({ country: z.string(), count: z.number() });
const billerAmount = z.object({ billerName: z.string(), totalAmount: z.number() });

export const remittanceMeasures = ['count', 'value'] as const;
export type RemittanceMeasure = (typeof remittanceMeasures)[number];

// ---- the app dashboard -------------------------------------------------------------------------

/** Whoever may see /dashboard (spec 000 §2): no auditor permission, or super-permission. */
const appDashboardAccess = { rule: 'appDashboard' } as const;

export const totalTransactionValues = defineCall({
  path: 'dashboard/totalTransactionValues',
  access: appDashboardAccess,
  summary: `The All Transactions table: the most recent ${TRANSACTION_TABLE_LIMIT} transactions of every kind initiated in the period (id, type, LKR amount), newest first, with how many the period holds.`,
  request: periodBody,
  data: z.object({ transactions: z.array(transactionTableRow), count: z.number(), from: z.string(), to: z.string() }),
});

export const overallTransactionCounts = defineCall({
  path: 'dashboard/overallTransactionCounts',
  access: appDashboardAccess,
  summary: 'All-time transaction counts by category (Remittances, Bill Payments, EChannelling, Thyaga, Insurance), every status.',
  request: emptyBody,
  data: z.object({ counts: z.array(z.number()), categories: z.array(z.string()) }),
});

export const appUsersByCountry = defineCall({
  path: 'dashboard/getAppUsersByCountry',
  access: appDashboardAccess,
  summary: 'App users by country (all registrations), most first.',
  request: emptyBody,
  data: z.object({ counts: z.array(z.number()), countries: z.array(z.string()) }),
});

export const currencyWiseTransactionValues = defineCall({
  path: 'dashboard/currencyWiseTransactionValues',
  access: appDashboardAccess,
  summary: 'All-time USD value of successful transactions by the currency the customer paid in, largest first.',
  request: emptyBody,
  data: z.object({ amounts: z.array(z.number()), currencies: z.array(z.string()) }),
});

export const totalTransactionsByMonth = defineCall({
  path: 'dashboard/getTotalTransactionsByMonth',
  access: appDashboardAccess,
  summary: 'Transactions per month over the last 12 months (this one included), one series per category, every status.',
  request: emptyBody,
  data: z.object({ transactions: z.array(series), monthNames: z.array(z.string()) }),
});

export const totalCountsAndValues = defineCall({
  path: 'dashboard/totalCountsAndValues',
  access: appDashboardAccess,
  summary:
    'The counts strip: all-time transaction counts per service (every status), app users, and the LKR value of successful transactions (remittances alone, and the four services of the strip together).',
  request: emptyBody,
  data: totalsData,
});

export const totalAppUsersByMonth = defineCall({
  path: 'dashboard/getTotalAppUsersByMonth',
  access: appDashboardAccess,
  summary: 'App-user registrations per month over the last 12 months (this one included).',
  request: emptyBody,
  data: z.object({ users: z.array(z.number()), monthNames: z.array(z.string()) }),
});

// ---- the audit dashboard -----------------------------------------------------------------------

const auditAccess = anyOf('auditor-dashboard-view', 'auditor-report-view');

export const activeUsers = defineCall({
  path: 'dashboard/getActiveUsers',
  access: auditAccess,
  summary: `App users with a transaction initiated in the last ${ACTIVE_DAYS} days, and beneficiaries that received a successful transfer in the last ${ACTIVE_DAYS} days.`,
  request: emptyBody,
  data: z.object({ activeUserCount: z.number(), activeBeneficiariesCount: z.number() }),
});

export const appUsersAndBeneficiariesCount = defineCall({
  path: 'dashboard/getAppUsersAndBeneficiariesCount',
  access: auditAccess,
  summary: 'App users and beneficiaries: all, and those added today, this week (from Monday), this month and this year.',
  request: emptyBody,
  data: z.object({ appUsersValues: periodCounts, beneficiariesValues: periodCounts }),
});

export const transactionValues = defineCall({
  path: 'dashboard/getTransactionValues',
  access: auditAccess,
  summary: 'Per service in the period: the number of transactions, the USD value of the successful ones, and the failed and refunded counts (remittances also hold).',
  request: periodBody,
  data: z.object({ ceft: ceftValueBlock, biller: valueBlock, thyaga: valueBlock, echanneling: valueBlock }),
});

const chartSummary = (what: string) => `USD value of successful ${what} per year (YEARLY), month (MONTHLY, last 12) or day (WEEKLY, last 7) for the View Chart modal.`;

export const ceftTransactionTableData = defineCall({
  path: 'dashboard/getCeftTransactionTableData',
  access: auditAccess,
  summary: chartSummary('remittances'),
  request: chartRangeBody,
  data: z.array(chartPoint),
});
export const billerTransactionTableData = defineCall({
  path: 'dashboard/getBillerTransactionTableData',
  access: auditAccess,
  summary: chartSummary('bill payments'),
  request: chartRangeBody,
  data: z.array(chartPoint),
});
export const thyagaTransactionTableData = defineCall({
  path: 'dashboard/getThyagaTransactionTableData',
  access: auditAccess,
  summary: chartSummary('Thyaga transactions'),
  request: chartRangeBody,
  data: z.array(chartPoint),
});
export const echTransactionTableData = defineCall({
  path: 'dashboard/getEchTransactionTableData',
  access: auditAccess,
  summary: chartSummary('EChannelling transactions'),
  request: chartRangeBody,
  data: z.array(chartPoint),
});

export const topUsers = defineCall({
  path: 'dashboard/TopUsers',
  access: auditAccess,
  summary: 'App users registered in the period (1 = all time) by country, most first.',
  request: periodWithAllBody,
  data: z.array(countryCount),
});

export const topBillers = defineCall({
  path: 'dashboard/getTopBillers',
  access: auditAccess,
  summary: `The ${TOP_BILLERS_LIMIT} billers with the largest USD value of successful bill payments in the period.`,
  request: periodBody,
  data: z.array(billerAmount),
});

export const allTransactionCount = defineCall({
  path: 'dashboard/AllTranCount',
  access: auditAccess,
  summary: 'Transactions per year, month (last 12) or day (last 7), every status: one series per service and their total.',
  request: chartRangeBody,
  data: z.object({ transactions: z.array(series), labels: z.array(z.string()) }),
});

export const countryWiseAppUserCount = defineCall({
  path: 'dashboard/CountryWiseAppUserCount',
  access: auditAccess,
  summary: 'App users registered in the period by country (custom: fromDate T00:00:00 to toDate T23:59:59), most first; full country names.',
  request: periodDateTimeBody,
  data: z.object({ counts: z.array(z.number()), countries: z.array(z.string()) }),
});

export const remittanceByYear = defineCall({
  path: 'dashboard/remittanceByYear',
  access: auditAccess,
  summary: 'Remittances per month of a year: the count (every status) or the USD value (successful), with the years that have remittances; without a year, the latest of them.',
  request: z.strictObject({
    year: z.number({ error: 'Choose a year' }).int('Choose a year').min(2000, 'Choose a year').max(2100, 'Choose a year').refine(inDateBounds, dateBoundsError).meta(wireDate('year')).optional(),
    measure: z.enum(remittanceMeasures, { error: 'Choose count or value' }),
  }),
  data: z.object({ year: z.number(), years: z.array(z.number()), measure: z.enum(remittanceMeasures), months: z.array(z.string()), values: z.array(z.number()) }),
});

export const appDashboardCalls = [
  totalTransactionValues,
  overallTransactionCounts,
  appUsersByCountry,
  currencyWiseTransactionValues,
  totalTransactionsByMonth,
  totalCountsAndValues,
  totalAppUsersByMonth,
] as const;

export const auditDashboardCalls = [
  activeUsers,
  appUsersAndBeneficiariesCount,
  transactionValues,
  ceftTransactionTableData,
  billerTransactionTableData,
  thyagaTransactionTableData,
  echTransactionTableData,
  topUsers,
  topBillers,
  allTransactionCount,
  countryWiseAppUserCount,
  remittanceByYear,
] as const;

export const dashboardCalls = [...appDashboardCalls, ...auditDashboardCalls] as const;
