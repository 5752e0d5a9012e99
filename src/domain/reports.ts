/** Report texts and constants (spec 002 §5, §8, §9), shared by the console and the server. */
import { businessDay } from './businessTime';

export const reportMessages = {
  invalidDateTime: 'Please enter a valid date and time',
  invalidDate: 'Please enter a valid date',
  toBeforeFrom: 'To cannot be before From',
  usernameTooLong: 'Username can have at most 30 characters',
  /** 422 with code 36865. */
  noPendingSendMoney: 'No pending Send Money transactions',
  settlementGenerated: 'Settlement report generated successfully',
  settlementFailed: 'Settlement report generation failed',
  instantSettlementFailed: 'Instant Settlement report generation failed',
  ratesNotUpdated: "Today's Currency Rates has not been updated yet!",
  useYesterdaysRates: "Today's currency rates have not been approved yet, so yesterday's settlement rates will be used. Do you want to continue?",
  onlyToday: 'A settlement report can be generated only for today',
  alreadyGenerated: 'The settlement report for today has already been generated',
} as const;

/** The business code of "no pending Send Money transactions" (HTTP 422). */
export const NO_PENDING_SEND_MONEY_CODE = 36865;

/** Page size of the settlement, activity and user activity reports. */
export const REPORT_PAGE_SIZE = 50;

/** The settlement list's reply, as the predicates below read it. */
interface SettlementReplyView {
  readonly data: unknown;
}
function ratesUpdated(reply: SettlementReplyView | undefined): boolean {
  return (reply?.data as { hasRatesUpdated?: boolean } | undefined)?.hasRatesUpdated !== false;
}
/**
 * Generate Report is offered only for today's date and only when the report has no rows. Today is the
 * business day (the business time zone, as the server dates the batch), not the browser's.
 */
export function canGenerateSettlement({
  filters,
  reply,
  rows,
  now,
  timeZone,
}: {
  filters: Record<string, string | number>;
  reply: SettlementReplyView | undefined;
  rows: readonly unknown[];
  now: Date;
  timeZone: string;
}): boolean {
  return reply !== undefined && String(filters.date) === businessDay(now, timeZone) && rows.length === 0;
}

/** Generating asks first when today's currency rates are not updated (yesterday's will be used). */
export function settlementNeedsRateConfirmation({ reply }: { reply: SettlementReplyView | undefined }): boolean {
  return !ratesUpdated(reply);
}

/** The rate messages the settlement reply lists. */
export function settlementMessages(reply: SettlementReplyView | undefined): readonly string[] {
  const m = (reply?.data as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(m) ? m.map(String) : [];
}

/** The warning heading when today's rates are not updated. */
export function settlementRatesAlert(reply: SettlementReplyView): string | undefined {
  return ratesUpdated(reply) ? undefined : reportMessages.ratesNotUpdated;
}

/** The settlement generation failure toast: 422 with code 36865 names the reason. */
export function settlementFailure(instant: boolean) {
  return ({ statusCode, code }: { statusCode: number; code?: number }): string =>
    statusCode === 422 && code === NO_PENDING_SEND_MONEY_CODE ? reportMessages.noPendingSendMoney : instant ? reportMessages.instantSettlementFailed : reportMessages.settlementFailed;
}
