/**
 * The payment networks the send-money actions reach: the card payment gateway (IPG: void and refund
 * of the card payment) and the CEFT switch (fund transfer, hold of a queued transfer). The actions
 * call this interface only; the default implementation is a simulator (./simulator.ts); a real
 * adapter is plugged in by configuration (./index.ts, PAYMENT_ADAPTER).
 *
 * An adapter never throws for a declined or failed operation: it answers `ok: false` with the
 * network's code and message, as a real network replies. It throws only when it cannot reach the
 * network at all; the action then changes nothing and the caller gets a 502.
 */

/** What a network answers: its status, time, reference and texts, as the transaction records them. */
export interface NetworkResult {
  readonly ok: boolean;
  /** The status the transaction records: SUCCESS or FAILED (HOLD for an accepted hold). */
  readonly status: 'SUCCESS' | 'FAILED' | 'HOLD';
  /** When the network processed it. */
  readonly time: Date;
  /** The network's reference for the operation (void/refund tran id, CEFT transaction id), when it gave one. */
  readonly transactionId: string | null;
  /** The network's response code ('00' approved). */
  readonly code: string;
  /** The network's message, e.g. 'Approved' or 'Insufficient funds in settlement account'. */
  readonly message: string;
  /** A description for the console's columns. */
  readonly description: string;
}

/** A void or refund of a card payment taken through the IPG. */
export interface CardReversalRequest {
  /** Our trace of the transaction. */
  readonly reference: string;
  /**
   * The same for every retry of one attempt (the transaction, the action and the state of the row it
   * started from). A network that honours it acts once per key and answers a repeated key with its first
   * answer, so an attempt whose outcome the server lost (it stopped before recording it) is not made twice.
   * The actions always send it; optional for callers that are not retrying (tests of an adapter).
   */
  readonly idempotencyKey?: string;
  readonly ipgTransactionId: string | null;
  readonly amount: number;
  readonly currency: string;
  readonly cardPaymentTime: Date | null;
  /**
   * The business time zone (BUSINESS_TIME_ZONE) whose day the card payment settles at the end of:
   * a void is possible on the business day of the payment only. Optional for adapter tests (the
   * default business zone then).
   */
  readonly businessTimeZone?: string;
  /** The refund commission (%) kept by the service on a refund. */
  readonly refundCommission: number | null;
}

/** A CEFT fund transfer to a beneficiary's account at a Sri Lankan bank. */
export interface TransferRequest {
  readonly reference: string;
  /** See CardReversalRequest.idempotencyKey. */
  readonly idempotencyKey?: string;
  readonly bankCode: string;
  readonly accountNumber: string;
  readonly amountLkr: number;
  /** 1 for the first try. */
  readonly attempt: number;
}

/** A hold of a transfer that has not been paid out yet. */
export interface HoldRequest {
  readonly reference: string;
  /** See CardReversalRequest.idempotencyKey. */
  readonly idempotencyKey?: string;
  readonly reason: string;
}

export interface PaymentNetwork {
  /** A name for logs ('simulator', or the real adapter's). */
  readonly name: string;
  /** Voids a card payment made today (before the IPG settles the day's batch). */
  voidCardPayment(request: CardReversalRequest, now: Date): Promise<NetworkResult>;
  /** Refunds a settled card payment. */
  refundCardPayment(request: CardReversalRequest, now: Date): Promise<NetworkResult>;
  /** Sends the money to the beneficiary's account through CEFT. */
  transferFunds(request: TransferRequest, now: Date): Promise<NetworkResult>;
  /** Stops a queued transfer from being paid out. */
  holdTransfer(request: HoldRequest, now: Date): Promise<NetworkResult>;
}
