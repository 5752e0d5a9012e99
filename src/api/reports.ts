/**
 * Report calls (spec 002 §7): the activity log, the mobile users' activity log, the settlement reports
 * (see docs/settlement.md), and the export log every screen's Excel and PDF download writes to.
 */
import { z } from 'zod';
import { anyOf, defineCall, exportField, listFetchCount, listMatching, searchText, dateBoundsError, inDateBounds, wireDate } from './contract';
import { parseLocal } from '../domain/dates';
import { reportMessages } from '../domain/reports';

/** A local date-time 'yyyy-MM-ddTHH:mm:ss' (seconds optional), read in the server's time zone. */
export const localDateTime = z
  .string()
  .max(19)
  .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) && parseLocal(v) !== null, reportMessages.invalidDateTime)
  .refine(inDateBounds, dateBoundsError)
  .meta(wireDate('date-time-or-minute'));

/** A date 'yyyy-MM-dd'. */
export const localDate = z
  .string()
  .max(10)
  .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseLocal(`${v}T00:00:00`) !== null, reportMessages.invalidDate)
  .refine(inDateBounds, dateBoundsError)
  .meta(wireDate('day'));

function toNotBeforeFrom(v: { from: string; to: string }, ctx: z.RefinementCtx) {
  const from = parseLocal(v.from);
  const to = parseLocal(v.to);
  if (from && to && to.getTime() < Math.floor(from.getTime() / 60_000) * 60_000) ctx.addIssue({ code: 'custom', path: ['to'], message: reportMessages.toBeforeFrom });
}

const rangeNote = 'from and to are read at minute precision: from the start of the minute of from to the end of the minute of to';

// ---- activity log -------------------------------------------------------------------------------

export const activityLogRow = z.object({
  id: z.number(),
  level: z.string(),
  type: z.string(),
  user: z.string(),
  description: z.string(),
  created_at: z.string(),
});
export type ActivityLogRow = z.infer<typeof activityLogRow>;

export const activityReport = defineCall({
  path: 'report/get-activity-report',
  access: anyOf('activity-log-report-view'),
  summary: `The server's activity log (sign-ins, change requests, decisions, actions, exports) in a range, optionally of one username (contains, case-insensitive), latest first, up to fetchCount; ${rangeNote}.`,
  request: z
    .strictObject({
      from: localDateTime,
      to: localDateTime,
      fetchCount: listFetchCount,
      username: z.string().max(30, reportMessages.usernameTooLong).default(''),
    })
    .superRefine(toNotBeforeFrom),
  data: z.object({ logs: z.array(activityLogRow), filteredList: z.array(activityLogRow), fields: z.array(exportField) }),
  top: listMatching,
});

// ---- mobile users' activity log -----------------------------------------------------------------

export const mobileActivityRow = z.object({
  id: z.number(),
  mobile_user_name: z.string(),
  mobile_user_email: z.string(),
  device_name: z.string(),
  event_description: z.string(),
  created_at: z.string(),
});
export type MobileActivityRow = z.infer<typeof mobileActivityRow>;

export const mobileActivityReport = defineCall({
  path: 'Report/get-mobile-activity-report',
  access: anyOf('activity-log-report-view'),
  summary: `Mobile app users' events in a range, optionally of users whose name, email or phone number contains searchParameter, latest first, up to fetchCount; ${rangeNote}.`,
  request: z
    .strictObject({
      from: localDateTime,
      to: localDateTime,
      fetchCount: listFetchCount,
      searchParameter: searchText.default(''),
    })
    .superRefine(toNotBeforeFrom),
  data: z.object({ filteredList: z.array(mobileActivityRow), fields: z.array(exportField) }),
  top: listMatching,
});

// ---- settlement reports -------------------------------------------------------------------------

export const settlementRow = z.object({
  id: z.number(),
  tran_date: z.string(),
  batch_date: z.string(),
  currency_code: z.string(),
  account_number: z.string(),
  fc_amount: z.number(),
  fc_commission: z.number(),
  fc_net_amount: z.number(),
  fc_rate: z.number(),
  lkr_amount: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SettlementRow = z.infer<typeof settlementRow>;

const settlementReply = z.object({
  transactions: z.array(settlementRow),
  filteredList: z.array(settlementRow),
  fields: z.array(exportField),
  /** Whether every active IPG provider's rates were approved today. */
  hasRatesUpdated: z.boolean(),
  /** What the page lists about the rates: one line per provider, and currencies that cannot be settled. */
  messages: z.array(z.string()),
});

const settlementSummary =
  "Rows of the batch generated on `date` (one row per currency and account of the settled send-money transactions), with whether today's rates were approved and messages about them; an IPG bank user sees the rows of their own provider only.";

export const settlementReport = defineCall({
  path: 'report/get-settlement-report',
  access: anyOf('settlement-report-view'),
  summary: `The Scheduled Settlement Report. ${settlementSummary} Up to fetchCount rows.`,
  request: z.strictObject({ date: localDate, fetchCount: listFetchCount }),
  data: settlementReply,
  top: listMatching,
});

export const instantSettlementReport = defineCall({
  path: 'Report/get-instant-settlement-report',
  access: anyOf('settlement-report-view'),
  summary: `The Instant Settlement Report. ${settlementSummary}`,
  request: z.strictObject({ date: localDate }),
  data: settlementReply,
});

const generateBody = z.strictObject({
  /**
   * Optional (spec 002 §7 documents an empty body). Absent or true: when today's rates are not approved
   * yet the rates approved earlier are used and the batch records it (the console asks first). False: the
   * caller did not confirm, so the call is refused (422) rather than settle at earlier rates.
   */
  useYesterdaysRates: z.boolean().optional(),
});
const generateReply = z.object({
  message: z.string(),
  batchId: z.number(),
  rows: z.number(),
  transactions: z.number(),
  /** Today's rates were not approved: the batch settled at the rates approved earlier (recorded on the batch). */
  usedEarlierRates: z.boolean(),
});
const generateSummary =
  "for today: settles every successful send-money transaction not settled before, exactly once, one row per currency, account and acquiring provider (the transaction's provider_bank_code) at that provider's settlement rate; needs settlement-report-generate (an IPG bank user is refused: a batch settles every provider); 409 when today's batch exists, 422 code 36865 'No pending Send Money transactions', when today's rates are not approved the earlier approved rates are used and the batch records it (usedEarlierRates), unless useYesterdaysRates is false (422).";

export const generateSettlement = defineCall({
  path: 'report/generate-settlement-report',
  answers: [403, 409, 422],
  access: anyOf('settlement-report-generate'),
  summary: `Generates the scheduled settlement batch ${generateSummary}`,
  request: generateBody,
  data: generateReply,
});

export const generateInstantSettlement = defineCall({
  path: 'report/generate-instant-settlement-report',
  answers: [403, 409, 422],
  access: anyOf('settlement-report-generate'),
  summary: `Generates the instant settlement batch ${generateSummary}`,
  request: generateBody,
  data: generateReply,
});

// ---- the export log -----------------------------------------------------------------------------

export const logExport = defineCall({
  path: 'report/log-export',
  answers: [403],
  access: 'authenticated',
  summary: "Writes an EXPORT row to the activity log when a screen's Excel or PDF is downloaded (exports are built in the browser); 403 unless the caller may open that screen.",
  request: z.strictObject({
    screen: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: "The screen's id (its route), e.g. users.", examples: ['users'] }),
    fileName: z.string().min(1).max(200),
    rows: z.number().int().min(0).max(100_000_000),
  }),
  data: z.object({ message: z.string() }),
});

export const reportCalls = [activityReport, mobileActivityReport, settlementReport, instantSettlementReport, generateSettlement, generateInstantSettlement, logExport] as const;
