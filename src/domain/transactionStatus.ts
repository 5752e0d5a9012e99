/**
 * Transaction statuses (spec 001 §4). Payment statuses are free text from the networks; only the
 * literal SUCCESS drives the rules. Every transaction also carries one overall status, derived from
 * its stages, which the count cards, the Send Money status filter and the daily roll-up count by.
 */

/** The literal payment status the rules read. */
export const SUCCESS = 'SUCCESS';

/** The overall status of a transaction. */
export const overallStatuses = ['SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD'] as const;
export type OverallStatus = (typeof overallStatuses)[number];

/** The Send Money status filter (spec 001 §2): All (empty), SUCCESS, PENDING, FAILED. */
export const statusFilterValues = ['', 'SUCCESS', 'PENDING', 'FAILED'] as const;

/** The five transaction kinds; also the `kind` of the daily roll-up. */
export const transactionKinds = ['ceft', 'bill', 'echannelling', 'thyaga', 'insurance'] as const;
export type TransactionKind = (typeof transactionKinds)[number];

/** The payout status a CEFT transfer has while an operator holds it. */
export const HOLD = 'HOLD';

/** The stages of a transaction that decide its overall status. */
export interface TransactionStages {
  /** The card payment through the IPG. */
  readonly card: string | null | undefined;
  /** The payout: CEFT transfer, bill payment, booking, Thyaga payment or insurance payment. */
  readonly payout: string | null | undefined;
  /** The IPG void of the card payment. */
  readonly void?: string | null;
  /** The IPG refund of the card payment (send money only). */
  readonly refund?: string | null;
}

/**
 * The overall status: REFUNDED once a void or refund of the card payment succeeded; HOLD while an
 * operator holds the payout; FAILED when the card payment or the payout failed; SUCCESS when both
 * succeeded; otherwise PENDING.
 */
export function overallStatusOf(s: TransactionStages): OverallStatus {
  if (s.void === SUCCESS || s.refund === SUCCESS) return 'REFUNDED';
  if (s.payout === HOLD) return 'HOLD';
  if (s.card === 'FAILED') return 'FAILED';
  if (s.card === SUCCESS && s.payout === SUCCESS) return 'SUCCESS';
  if (s.card === SUCCESS && s.payout === 'FAILED') return 'FAILED';
  return 'PENDING';
}
