/**
 * The guards of the send-money row actions (spec 001 §4). The console calls them to show a button;
 * the server calls the same functions, inside the database transaction that holds the row lock,
 * before it lets an action reach the payment network. Each `...Refusal` says why an action is not
 * allowed (or undefined when it is); each `can...` is the named predicate a definition's `when` uses.
 */
import { isSameBusinessDay } from './businessTime';
import { hasPermission } from './permissions';
import { SUCCESS } from './transactionStatus';

/** Hold is not allowed at 100 or more CEFT tries (spec 001 §9). */
export const MAX_CEFT_TRIES_FOR_HOLD = 100;

/** The fields of a send-money transaction the guards read (times as ISO text on the wire, Dates in the server). */
export interface CeftActionRow {
  readonly card_payment_status: string | null;
  readonly card_payment_time: string | Date | null;
  readonly ceft_payment_status: string | null;
  readonly ceft_try_count: number;
  readonly refund_requested: boolean;
  readonly ipg_void_status: string | null;
  readonly ipg_refund_status: string | null;
}

/** Who asks: only the permissions matter here. */
export interface ActingUser {
  readonly permissions: readonly string[];
}

export interface CeftGuardContext {
  readonly row: CeftActionRow;
  readonly user: ActingUser;
  /**
   * The business time zone (src/domain/businessTime.ts): "paid today" is judged in it, by the server
   * and the console alike, never in the zone of the server process or of the browser.
   */
  readonly timeZone: string;
}

/** Why the fund transfer cannot be touched any more (a successful void, refund or CEFT payment), or undefined. */
function settledReason(row: CeftActionRow): string | undefined {
  if (row.ipg_void_status === SUCCESS) return 'The card payment of this transaction has been voided';
  if (row.ipg_refund_status === SUCCESS) return 'The card payment of this transaction has been refunded';
  if (row.ceft_payment_status === SUCCESS) return 'The fund transfer of this transaction has already succeeded';
  if (row.card_payment_status !== SUCCESS) return 'The card payment of this transaction has not succeeded';
  return undefined;
}

/** Why a hold is refused, or undefined when it is allowed. */
export function holdRefusal(row: CeftActionRow, user: ActingUser): string | undefined {
  if (!hasPermission(user.permissions, 'transaction-hold')) return 'You do not have the permission transaction-hold';
  const settled = settledReason(row);
  if (settled) return settled;
  if (row.ceft_try_count >= MAX_CEFT_TRIES_FOR_HOLD) return `Hold is not allowed after ${MAX_CEFT_TRIES_FOR_HOLD} or more CEFT tries`;
  return undefined;
}

/**
 * Hold fund transfer: the card payment succeeded, no void, refund or CEFT payment has succeeded, the
 * CEFT transfer was tried fewer than 100 times, and the user holds transaction-hold.
 */
export function canHoldFundTransfer({ row, user }: CeftGuardContext): boolean {
  return holdRefusal(row, user) === undefined;
}

/** Why a manual fund transfer is refused, or undefined when it is allowed. */
export function manualFundTransferRefusal(row: CeftActionRow, user: ActingUser): string | undefined {
  if (!hasPermission(user.permissions, 'transaction-retry')) return 'You do not have the permission transaction-retry';
  return settledReason(row);
}

/**
 * Manual fund transfer: the card payment succeeded and no void, refund or CEFT payment has succeeded
 * (no limit on tries), and the user holds transaction-retry.
 */
export function canManualFundTransfer({ row, user }: CeftGuardContext): boolean {
  return manualFundTransferRefusal(row, user) === undefined;
}

/** Why a void or refund is refused, or undefined when it is allowed. */
export function voidOrRefundRefusal(row: CeftActionRow, user: ActingUser): string | undefined {
  if (!hasPermission(user.permissions, 'transaction-refund')) return 'You do not have the permission transaction-refund';
  if (row.ipg_void_status === SUCCESS) return 'The card payment of this transaction has been voided';
  if (row.ipg_refund_status === SUCCESS) return 'The card payment of this transaction has been refunded';
  // money moves at most once: a beneficiary who was paid keeps the money, so the customer's card payment stays
  if (row.ceft_payment_status === SUCCESS) return 'The fund transfer of this transaction has already succeeded';
  if (!row.refund_requested) return 'No refund has been requested for this transaction';
  return undefined;
}

/**
 * Void or refund: neither a void nor a refund of the card payment nor the CEFT fund transfer has
 * succeeded (money moves at most once per transaction: docs/security.md "Money"), a refund was
 * requested, and the user holds transaction-refund.
 */
export function canVoidOrRefund({ row, user }: CeftGuardContext): boolean {
  return voidOrRefundRefusal(row, user) === undefined;
}

/** The card payment time as a Date, or null when missing, unreadable or a placeholder before year 1000. */
function cardPaymentDate(value: string | Date | null): Date | null {
  if (value === null) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1000 ? null : d;
}

/**
 * The button reads Void when the card payment happened today, the business day of `now` in the
 * business time zone, otherwise Refund. The server and the console both call this with the same zone,
 * so the console offers exactly the action the server accepts.
 */
export function isVoidRatherThanRefund(row: Pick<CeftActionRow, 'card_payment_time'>, timeZone: string, now: Date = new Date()): boolean {
  const paid = cardPaymentDate(row.card_payment_time);
  return paid !== null && isSameBusinessDay(paid, now, timeZone);
}

/** Why a void is refused (a refund is allowed but the card payment was not made today), or undefined. */
export function voidRefusal(row: CeftActionRow, user: ActingUser, timeZone: string, now: Date = new Date()): string | undefined {
  const refused = voidOrRefundRefusal(row, user);
  if (refused) return refused;
  if (!isVoidRatherThanRefund(row, timeZone, now)) return 'The card payment was not made today: refund it instead';
  return undefined;
}

/** Why a refund is refused (a void is allowed but the card payment was made today: void it), or undefined. */
export function refundRefusal(row: CeftActionRow, user: ActingUser, timeZone: string, now: Date = new Date()): string | undefined {
  const refused = voidOrRefundRefusal(row, user);
  if (refused) return refused;
  if (isVoidRatherThanRefund(row, timeZone, now)) return 'The card payment was made today: void it instead';
  return undefined;
}

/** Void: a void or refund is allowed and the card payment happened today (business day). */
export function canVoidCardPayment({ row, user, timeZone }: CeftGuardContext): boolean {
  return voidRefusal(row, user, timeZone) === undefined;
}

/** Refund: a void or refund is allowed and the card payment happened before today (business day). */
export function canRefundCardPayment({ row, user, timeZone }: CeftGuardContext): boolean {
  return refundRefusal(row, user, timeZone) === undefined;
}
