/**
 * The default payment network: a simulator that answers as the IPG and the CEFT switch do, so the
 * console runs without external networks. Outcomes follow the networks' own rules (a void only on
 * the day of the card payment, a refund only within 180 days, a transfer only to a plausible account
 * number, a hold only of a transfer not yet in a clearing cycle) and, beyond those, fail at a
 * configurable rate with the codes and messages the networks use. Outcomes are a pure function of the
 * request, so a test that fixes the failure rate at 0 or 1 knows what it gets.
 */
import { DEFAULT_BUSINESS_TIME_ZONE, isSameBusinessDay } from '../../domain/businessTime';
import { appendFileSync } from 'node:fs';
import type { CardReversalRequest, HoldRequest, NetworkResult, PaymentNetwork, TransferRequest } from './network';

export interface SimulatorOptions {
  /** The share of operations the network declines for its own reasons, 0..1 (default 0.08). */
  readonly failureRate?: number;
  /** Milliseconds each operation takes (default 0). */
  readonly latencyMs?: number;
  /**
   * A file the simulator appends one JSON line to per operation it answers ({ op, reference, key, ok,
   * transactionId, at }): the network's own record of what it paid, voided, refunded and held, which
   * a test compares with the database (every server process on one file: lines are appended whole).
   */
  readonly logFile?: string;
}

/** One line of the simulator's log (SimulatorOptions.logFile). */
export interface SimulatorLogEntry {
  readonly op: 'void' | 'refund' | 'transfer' | 'hold';
  readonly reference: string;
  readonly key: string | null;
  readonly ok: boolean;
  readonly transactionId: string | null;
  readonly at: string;
}

/** FNV-1a with murmur3's final mix, as a number in [0, 1): the simulator's dice, the same for the same text. */
export function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}

/** A reference number of `digits` digits derived from the text. */
function referenceOf(prefix: string, text: string, digits: number): string {
  let out = '';
  for (let i = 0; out.length < digits; i++) out += String(Math.floor(unitHash(`${text}#${i}`) * 1e9)).padStart(9, '0');
  return prefix + out.slice(0, digits);
}

const CARD_DECLINES = [
  { code: '05', message: 'Do not honour' },
  { code: '91', message: 'Issuer or switch inoperative' },
  { code: '96', message: 'System malfunction' },
] as const;

const TRANSFER_FAILURES = [
  { code: '51', message: 'Insufficient funds in settlement account' },
  { code: '91', message: 'Beneficiary bank unavailable' },
  { code: '68', message: 'Response received too late from LankaPay' },
  { code: '14', message: 'Beneficiary account closed' },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const REFUND_WINDOW_DAYS = 180;

export function createSimulator(options: SimulatorOptions = {}): PaymentNetwork {
  const failureRate = Math.min(1, Math.max(0, options.failureRate ?? 0.08));
  const latency = Math.max(0, options.latencyMs ?? 0);
  const wait = () => (latency > 0 ? new Promise<void>((r) => setTimeout(r, latency)) : Promise.resolve());
  const declines = (key: string) => failureRate > 0 && unitHash(key) < failureRate;
  const logged = (op: SimulatorLogEntry['op'], request: { reference: string; idempotencyKey?: string }, result: NetworkResult): NetworkResult => {
    if (options.logFile) {
      const entry: SimulatorLogEntry = { op, reference: request.reference, key: request.idempotencyKey ?? null, ok: result.ok, transactionId: result.transactionId, at: result.time.toISOString() };
      appendFileSync(options.logFile, `${JSON.stringify(entry)}\n`);
    }
    return result;
  };

  const failed = (now: Date, code: string, message: string, description = message): NetworkResult => ({
    ok: false,
    status: 'FAILED',
    time: now,
    transactionId: null,
    code,
    message,
    description,
  });

  async function reverse(kind: 'void' | 'refund', r: CardReversalRequest, now: Date): Promise<NetworkResult> {
    await wait();
    const key = `${kind}|${r.reference}|${now.getTime()}`;
    if (!r.ipgTransactionId || !r.cardPaymentTime || r.cardPaymentTime.getFullYear() < 1000) {
      return failed(now, '25', 'Original card payment not found at the IPG');
    }
    const sameDay = isSameBusinessDay(r.cardPaymentTime, now, r.businessTimeZone ?? DEFAULT_BUSINESS_TIME_ZONE);
    if (kind === 'void' && !sameDay) return failed(now, '12', 'Invalid transaction: the card payment is already settled, refund it instead');
    if (kind === 'refund' && now.getTime() - r.cardPaymentTime.getTime() > REFUND_WINDOW_DAYS * DAY_MS) {
      return failed(now, '57', `Refund not permitted: the card payment is older than ${REFUND_WINDOW_DAYS} days`);
    }
    if (declines(key)) {
      const d = CARD_DECLINES[Math.floor(unitHash(`${key}|why`) * CARD_DECLINES.length)];
      return failed(now, d.code, d.message, `${kind === 'void' ? 'Void' : 'Refund'} declined by the IPG: ${d.message}`);
    }
    return {
      ok: true,
      status: 'SUCCESS',
      time: now,
      transactionId: referenceOf(kind === 'void' ? 'VD' : 'RF', key, 10),
      code: '00',
      message: 'Approved',
      description: kind === 'void' ? 'Card payment voided' : `Card payment refunded (${r.refundCommission ?? 0}% commission retained)`,
    };
  }

  return {
    name: 'simulator',
    voidCardPayment: async (r, now) => logged('void', r, await reverse('void', r, now)),
    refundCardPayment: async (r, now) => logged('refund', r, await reverse('refund', r, now)),
    transferFunds: async (r, now) => logged('transfer', r, await transferFunds(r, now)),
    holdTransfer: async (r, now) => logged('hold', r, await holdTransfer(r, now)),
  };

  async function transferFunds(r: TransferRequest, now: Date): Promise<NetworkResult> {
    await wait();
    const key = `transfer|${r.reference}|${r.attempt}`;
    if (!/^\d{6,16}$/.test(r.accountNumber)) return failed(now, '52', 'Invalid beneficiary account number', 'Fund transfer rejected: invalid beneficiary account number');
    if (!/^\d{4}$/.test(r.bankCode)) return failed(now, '15', 'Unknown beneficiary bank', 'Fund transfer rejected: unknown beneficiary bank');
    if (r.amountLkr <= 0) return failed(now, '13', 'Invalid amount', 'Fund transfer rejected: invalid amount');
    if (declines(key)) {
      const f = TRANSFER_FAILURES[Math.floor(unitHash(`${key}|why`) * TRANSFER_FAILURES.length)];
      return failed(now, f.code, f.message, `Fund transfer failed: ${f.message}`);
    }
    return { ok: true, status: 'SUCCESS', time: now, transactionId: referenceOf('CEFT', key, 12), code: '00', message: 'Approved', description: 'Fund transfer completed' };
  }

  async function holdTransfer(r: HoldRequest, now: Date): Promise<NetworkResult> {
    await wait();
    const key = `hold|${r.reference}|${now.getTime()}`;
    if (declines(key)) return failed(now, '94', 'Transfer already submitted to the clearing cycle', 'Hold refused: the transfer is already in the clearing cycle');
    return { ok: true, status: 'HOLD', time: now, transactionId: null, code: '00', message: 'Transfer held', description: r.reason ? `Held: ${r.reason}` : 'Held by an operator' };
  }
}
