/**
 * The transaction views' calls (spec 001 §7): two families of list calls (dashboard/... for the
 * auditor screens, Transaction/... for the operational ones), the count cards, and the send-money
 * actions (hold, manual fund transfer, void, refund).
 *
 * Dates on the wire: `from_date` / `to_date` are local date-times 'yyyy-MM-ddTHH:mm:ss' (the console
 * sends From with seconds 1 and To with seconds 0). The server compares them to the minute: the range
 * is from the start of From's minute to the end of To's minute, so the default 00:00:01 to 23:59:00
 * covers the whole day. Times in rows are ISO 8601 with an offset; a placeholder time before year
 * 1000 means "not happened" and the console shows '-'.
 *
 * The list replies: `transactions` holds the first page (the first 50 rows by id) of the filtered
 * rows, `filteredList` the filtered rows ordered by id and capped by `fetchCount`, `fields` the export
 * columns of the screen, `countries` the country filter's options. `totalAmount` is the USD value of
 * the successful transactions among all rows matching the filters, `filteredTotalAmount` the same
 * among `filteredList`; on CeftRefundedList they are LKR values of the refunded transactions and sit
 * inside `data`, as they do on the insurance call.
 */
import { z } from 'zod';
import { anyOf, defineCall, emptyBody, exportField, listFetchCount, listMatching, searchText, dateBoundsError, inDateBounds, MAX_ID, wireDate } from './contract';
import { parseLocal } from '../domain/dates';
import { statusFilterValues } from '../domain/transactionStatus';
import type { Permission } from '../domain/permissions';

// ---- request bodies --------------------------------------------------------------------------

export const LOCAL_DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

const localDateTime = z
  .string()
  .regex(LOCAL_DATE_TIME_PATTERN, 'Enter a local date-time as yyyy-MM-ddTHH:mm:ss')
  .refine((v) => parseLocal(v) !== null, 'Not a valid date-time')
  .refine(inDateBounds, dateBoundsError)
  .meta(wireDate('date-time'));

/** The minute a local date-time falls in (the range is compared to the minute). */
export function minuteOf(value: string): number {
  const d = parseLocal(value);
  return d ? Math.floor(d.getTime() / 60_000) : NaN;
}

export const TO_BEFORE_FROM_MESSAGE = 'To cannot be earlier than From';

function rangeRule(v: { from_date: string; to_date: string }, ctx: z.RefinementCtx) {
  const from = minuteOf(v.from_date);
  const to = minuteOf(v.to_date);
  if (!Number.isNaN(from) && !Number.isNaN(to) && to < from) ctx.addIssue({ code: 'custom', path: ['to_date'], message: TO_BEFORE_FROM_MESSAGE });
}

/** A country code of the countries list, or empty for All Countries (an unknown code gets 400 from the server). */
const countryCode = z
  .string()
  .regex(/^([A-Z]{2})?$/, 'Enter a two-letter country code, or nothing for All Countries')
  .default('');
const statusFilter = z.enum(statusFilterValues, { error: 'Choose All (empty), SUCCESS, PENDING or FAILED' }).default('');

const range = { from_date: localDateTime, to_date: localDateTime };
const common = { ...range, country_code: countryCode, data: searchText.default('') };

/** from_date, to_date, country_code, status, fetchCount, data (the send-money and bill auditor calls). */
export const listWithStatusBody = z.strictObject({ ...common, status: statusFilter, fetchCount: listFetchCount }).superRefine(rangeRule);
/** from_date, to_date, country_code, fetchCount, data. */
export const listBody = z.strictObject({ ...common, fetchCount: listFetchCount }).superRefine(rangeRule);
/** from_date, to_date, country_code, data: the auditor E-Channelling call has no fetch count (all rows of the range). */
export const listWithoutFetchCountBody = z.strictObject(common).superRefine(rangeRule);

export type ListFilters = {
  from_date: string;
  to_date: string;
  country_code: string;
  data: string;
  status?: (typeof statusFilterValues)[number];
  fetchCount?: number;
};

// ---- rows ------------------------------------------------------------------------------------

const time = z.string().nullable();
const money = z.number().nullable();
const text = z.string().nullable();

const commonFields = {
  id: z.number(),
  trace: z.string(),
  uid: z.string(),
  country: z.string(),
  currency_code: z.string(),
  amount: z.number(),
  initiated_time: z.string(),
  card_payment_time: time,
  card_payment_status: text,
  card_payment_description: text,
  ipg_transaction_id: text,
  created_at: z.string(),
  updated_at: z.string(),
};

/** IPG deduction details of the non-CEFT kinds (exchange_rate_lkr). */
const ipgDeductions = {
  exchange_rate_lkr: money,
  ipg_rate: money,
  ipg_commission: money,
  bank_charge: money,
  refund_commission: money,
  beneficiary_received_amount_lkr: money,
};

const voidFields = {
  ipg_void_payment_time: time,
  ipg_void_status: text,
  ipg_void_tran_id: text,
  ipg_void_description: text,
  ipg_void_code: text,
  ipg_void_message: text,
};

const ceftFields = {
  ...commonFields,
  account_number: z.string(),
  tran_type: z.string(),
  exchange_rate_final: money,
  ipg_rate: money,
  ipg_commission: money,
  bank_charge: money,
  refund_commission: money,
  beneficiary_received_amount_lkr: money,
  ceft_payment_time: time,
  ceft_payment_status: text,
  ceft_payment_description: text,
  ceft_transaction_id: text,
  ceft_try_count: z.number(),
  refund_requested: z.boolean(),
  ...voidFields,
  ipg_refund_payment_time: time,
  ipg_refund_status: text,
  ipg_refund_tran_id: text,
  ipg_refund_description: text,
  ipg_refund_code: text,
  ipg_refund_message: text,
  /** The overall status: SUCCESS, PENDING, FAILED, REFUNDED or HOLD. */
  status: z.string(),
};

/** A send-money row on the operational screen (bank name). */
export const ceftRow = z.object({ ...ceftFields, bank_name: z.string() });
export type CeftRow = z.infer<typeof ceftRow>;
/** A send-money row on the auditor screen (bank code). */
export const ceftAuditRow = z.object({ ...ceftFields, bank_code: z.string() });
export type CeftAuditRow = z.infer<typeof ceftAuditRow>;

export const billRow = z.object({
  ...commonFields,
  account_number: z.string(),
  biller_code: z.string(),
  ...ipgDeductions,
  bill_payment_time: time,
  bill_payment_status: text,
  bill_payment_description: text,
  ...voidFields,
});
export type BillRow = z.infer<typeof billRow>;

const { beneficiary_received_amount_lkr: _notForEChannelling, ...ecDeductions } = ipgDeductions;
export const eChannellingRow = z.object({
  ...commonFields,
  ec_transaction_id: text,
  patient_name: z.string(),
  patient_mobile: z.string(),
  hospital_name: z.string(),
  doctor_name: z.string(),
  appointment_day: z.string(),
  /** yyyy-MM-dd */
  appointment_date: z.string(),
  /** HH:mm */
  start_time: z.string(),
  doctor_charge_lkr: z.number(),
  hospital_charge_lkr: z.number(),
  itg_amount: z.number(),
  ec_charge_lkr: z.number(),
  total_lkr: z.number(),
  ...ecDeductions,
  ec_booking_time: time,
  ec_booking_status: text,
  ec_booking_description: text,
  ...voidFields,
});
export type EChannellingRow = z.infer<typeof eChannellingRow>;

export const thyagaRow = z.object({
  ...commonFields,
  account_number: z.string(),
  mobile_number: z.string(),
  receiver_name: z.string(),
  sender_name: z.string(),
  send_later: z.boolean(),
  send_at: time,
  via_email: z.boolean(),
  via_sms: z.boolean(),
  ...ipgDeductions,
  thyaga_payment_time: time,
  thyaga_payment_status: text,
  thyaga_payment_description: text,
  ...voidFields,
});
export type ThyagaRow = z.infer<typeof thyagaRow>;

export const insuranceDependant = z.object({
  id: z.number(),
  title: z.string(),
  name: z.string(),
  nic_number: z.string(),
  relation_type: z.string(),
  mobile_number: z.string(),
  email: z.string(),
});

export const insuranceRow = z.object({
  id: z.number(),
  uid: z.string(),
  trace: z.string(),
  nic: z.string(),
  email: z.string(),
  dependants: z.array(insuranceDependant),
  country: z.string(),
  cover_package: z.string(),
  plan_no: z.string(),
  currency_code: z.string(),
  /** The plan's price, USD. */
  insurance_package_price: z.number(),
  /** The total charged, USD. */
  amount: z.number(),
  initiated_time: z.string(),
  card_payment_time: time,
  card_payment_status: text,
  card_payment_description: text,
  ipg_transaction_id: text,
  exchange_rate_lkr: money,
  ipg_rate: money,
  ipg_commission_lkr: money,
  bank_charge_lkr: money,
  /** The amount reserved for the insurer, LKR. */
  insurer_reserved_amount_lkr: money,
  insurance_payment_time: time,
  insurance_payment_status: text,
  insurance_payment_description: text,
  insurance_transaction_id: text,
  ipg_void_payment_time: time,
  ipg_void_status: text,
  created_at: z.string(),
  updated_at: z.string(),
});
export type InsuranceRow = z.infer<typeof insuranceRow>;

// ---- replies ---------------------------------------------------------------------------------

export const countryOption = z.object({ code: z.string(), name: z.string() });

function listData<R extends z.ZodType>(row: R) {
  return z.object({ transactions: z.array(row), filteredList: z.array(row), fields: z.array(exportField), countries: z.array(countryOption) });
}

/** The totals at the top level of a list reply. */
export const listTotals = z.object({ totalAmount: z.number(), filteredTotalAmount: z.number() });
/** The top level of the lists whose totals sit there: the totals and how many rows match without the cap. */
export const listTop = listTotals.extend(listMatching.shape);

export const countsData = z.object({
  completeTranCount: z.number(),
  pendingTranCount: z.number(),
  failedTranCount: z.number(),
  refundTranCount: z.number(),
});
export const ceftCountsData = countsData.extend({ holdTranCount: z.number() });

export const actionReply = z.object({ message: z.string() });
/**
 * A void, refund or manual fund transfer's reply: `changeRequestId` is there when the action did not
 * run but waits for a second person's approval (MONEY_ACTION_APPROVAL_ABOVE_USD); `message` says so.
 */
export const moneyActionReply = z.object({ message: z.string(), changeRequestId: z.number().optional() });

/** The server's "sent for approval" message when a money action's reply says it waits for approval, else undefined. */
export function sentForApprovalMessage(data: unknown): string | undefined {
  const d = data as { message?: unknown; changeRequestId?: unknown } | null | undefined;
  return typeof d?.changeRequestId === 'number' && typeof d.message === 'string' ? d.message : undefined;
}

// ---- count cards -----------------------------------------------------------------------------

const countSummary = (what: string) => `All-time ${what} counts by status for the count cards: SUCCESS (complete), PENDING, FAILED and REFUNDED, read from the daily roll-up.`;

/** Count calls serve the count cards of both variants: the auditor's and the operational screen's view permission. */
function countAccess(view: Permission) {
  return anyOf('auditor-report-view', view);
}

export const ceftCount = defineCall({
  path: 'dashboard/CeftCount',
  access: countAccess('send-money-report-view'),
  summary: `${countSummary('send-money')} Also HOLD (not displayed).`,
  request: emptyBody,
  data: ceftCountsData,
});
export const billCount = defineCall({
  path: 'dashboard/BillCount',
  access: countAccess('bill-payment-report-view'),
  summary: countSummary('bill-payment'),
  request: emptyBody,
  data: countsData,
});
export const eChannellingCount = defineCall({
  path: 'dashboard/E-ChannellingCount',
  access: countAccess('echannelling-report-view'),
  summary: countSummary('E-Channelling'),
  request: emptyBody,
  data: countsData,
});
export const thyagaCount = defineCall({
  path: 'dashboard/ThayagaCount',
  access: countAccess('thyaga-report-view'),
  summary: countSummary('Thyaga'),
  request: emptyBody,
  data: countsData,
});

// ---- auditor lists ---------------------------------------------------------------------------

const filterSummary = 'Filtered by the date range (initiated time), country, search text';

export const ceftAuditList = defineCall({
  path: 'dashboard/CeftList',
  access: anyOf('auditor-report-view'),
  summary: `Send-money transactions for the auditor. ${filterSummary} (NIC/passport, trace or account number prefix) and status; capped by fetchCount.`,
  request: listWithStatusBody,
  data: listData(ceftAuditRow),
  top: listTop,
});
export const ceftRefundedAuditList = defineCall({
  path: 'dashboard/CeftRefundedList',
  access: anyOf('auditor-report-view'),
  summary: `Refunded send-money transactions (void or refund succeeded) for the auditor, with LKR totals inside data. ${filterSummary}; capped by fetchCount.`,
  request: listWithStatusBody,
  data: listData(ceftAuditRow).extend(listTotals.shape),
  top: listMatching,
});
export const billAuditList = defineCall({
  path: 'dashboard/BillList',
  access: anyOf('auditor-report-view'),
  summary: `Bill payments for the auditor. ${filterSummary} (NIC/passport, trace or account number prefix) and status; capped by fetchCount.`,
  request: listWithStatusBody,
  data: listData(billRow),
  top: listTop,
});
export const eChannellingAuditList = defineCall({
  path: 'dashboard/E-ChannellingList',
  access: anyOf('auditor-report-view'),
  summary: `E-Channelling transactions for the auditor. ${filterSummary} (NIC/passport or trace prefix); every row of the range.`,
  request: listWithoutFetchCountBody,
  data: listData(eChannellingRow),
  top: listTop,
});
export const thyagaAuditList = defineCall({
  path: 'dashboard/ThayagaList',
  access: anyOf('auditor-report-view'),
  summary: `Thyaga transactions for the auditor. ${filterSummary} (NIC/passport or trace prefix); capped by fetchCount.`,
  request: listBody,
  data: listData(thyagaRow),
  top: listTop,
});

// ---- operational lists -----------------------------------------------------------------------

export const ceftList = defineCall({
  path: 'Transaction/get-ceftTransaction',
  access: anyOf('send-money-report-view'),
  summary: `Send-money transactions. ${filterSummary} (UID/NIC, trace or account number prefix) and status; capped by fetchCount.`,
  request: listWithStatusBody,
  data: listData(ceftRow),
  top: listTop,
});
export const billList = defineCall({
  path: 'Transaction/billTransactions',
  access: anyOf('bill-payment-report-view'),
  summary: `Bill payments. ${filterSummary} (UID/NIC, trace or account number prefix); capped by fetchCount.`,
  request: listBody,
  data: listData(billRow),
  top: listTop,
});
export const thyagaList = defineCall({
  path: 'Transaction/thyagaTransactions',
  access: anyOf('thyaga-report-view'),
  summary: `Thyaga transactions. ${filterSummary} (NIC/passport or trace prefix); capped by fetchCount.`,
  request: listBody,
  data: listData(thyagaRow),
  top: listTop,
});
export const eChannellingList = defineCall({
  path: 'Transaction/echannellingTransactions',
  access: anyOf('echannelling-report-view'),
  summary: `E-Channelling transactions. ${filterSummary} (NIC/passport or trace prefix); capped by fetchCount.`,
  request: listBody,
  data: listData(eChannellingRow),
  top: listTop,
});
export const insuranceList = defineCall({
  path: 'Transaction/insuranceTransactions',
  access: anyOf('insurance-report-view'),
  summary: `Insurance transactions with their dependants. ${filterSummary} (user UID prefix); capped by fetchCount; totals inside data.`,
  request: listBody,
  data: z.object({
    filteredList: z.array(insuranceRow),
    fields: z.array(exportField),
    countries: z.array(countryOption),
    totalAmount: z.number(),
    filteredTotalAmount: z.number(),
  }),
  top: listMatching,
});

// ---- send-money actions ----------------------------------------------------------------------

const transactionId = z.number({ error: 'Enter the transaction id' }).int().positive().max(MAX_ID);

export const ceftVoid = defineCall({
  path: 'Transaction/ceft/void',
  answers: [404, 409, 422, 502],
  access: anyOf('transaction-refund'),
  summary:
    'Void the card payment of a send-money transaction paid today (guard canVoidCardPayment); a repeated request replays the first reply; above MONEY_ACTION_APPROVAL_ABOVE_USD it is sent for approval instead (changeRequestId).',
  request: z.strictObject({ transactionID: transactionId }),
  data: moneyActionReply,
});
export const ceftRefund = defineCall({
  path: 'Transaction/ceft/refund',
  answers: [404, 409, 422, 502],
  access: anyOf('transaction-refund'),
  summary:
    'Refund the card payment of a send-money transaction paid before today (guard canRefundCardPayment); a repeated request replays the first reply; above MONEY_ACTION_APPROVAL_ABOVE_USD it is sent for approval instead (changeRequestId).',
  request: z.strictObject({ transactionID: transactionId }),
  data: moneyActionReply,
});
export const ceftManualFundTransfer = defineCall({
  path: 'Transaction/ceft/manualFundTransfer',
  answers: [404, 409, 422, 502],
  access: anyOf('transaction-retry'),
  summary:
    'Start a manual CEFT fund transfer of a send-money transaction, by trace (guard canManualFundTransfer); a repeated request replays the first reply; above MONEY_ACTION_APPROVAL_ABOVE_USD it is sent for approval instead (changeRequestId).',
  request: z.strictObject({ trace: z.string().min(1, 'Enter the trace').max(40) }),
  data: moneyActionReply,
});
/** The hold's reason (the call's `description`): optional, at most this long, kept on the row and in the activity log. */
export const ceftHoldLimits = { description: 200 } as const;
export const ceftHoldMessages = { descriptionTooLong: `Hold reason can have at most ${ceftHoldLimits.description} characters` } as const;

export const ceftHold = defineCall({
  path: 'Transaction/ceft/hold',
  answers: [404, 409, 422, 502],
  access: anyOf('transaction-hold'),
  summary:
    'Hold the fund transfer of a send-money transaction (guard canHoldFundTransfer); the description is the optional reason (trimmed; blank is none), kept in the CEFT payment description and the activity log; a repeated request replays the first reply.',
  request: z.strictObject({ id: transactionId, description: z.string().max(ceftHoldLimits.description, ceftHoldMessages.descriptionTooLong).default('') }),
  data: actionReply,
});

export const transactionCalls = [
  ceftCount,
  billCount,
  eChannellingCount,
  thyagaCount,
  ceftAuditList,
  ceftRefundedAuditList,
  billAuditList,
  eChannellingAuditList,
  thyagaAuditList,
  ceftList,
  billList,
  thyagaList,
  eChannellingList,
  insuranceList,
  ceftVoid,
  ceftRefund,
  ceftManualFundTransfer,
  ceftHold,
] as const;
