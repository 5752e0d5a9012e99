/**
 * The send-money guards (spec 001 §4) over a table of transaction states, and the overall status the
 * counts and filters use.
 */
import { describe, expect, it } from 'vitest';
import {
  canHoldFundTransfer,
  canManualFundTransfer,
  canRefundCardPayment,
  canVoidCardPayment,
  canVoidOrRefund,
  holdRefusal,
  isVoidRatherThanRefund,
  refundRefusal,
  voidRefusal,
  type CeftActionRow,
} from '../../src/domain/transactionGuards';
import { overallStatusOf } from '../../src/domain/transactionStatus';

/** These cases are written in the test process's own zone; the business zone is then that zone. */
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const now = new Date(2026, 10, 22, 15, 30, 0);
const todayMorning = new Date(2026, 10, 22, 0, 5, 0).toISOString();
const yesterdayEvening = new Date(2026, 10, 21, 23, 55, 0).toISOString();

/** A paid transaction whose transfer has not gone through yet. */
const base: CeftActionRow = {
  card_payment_status: 'SUCCESS',
  card_payment_time: yesterdayEvening,
  ceft_payment_status: 'PENDING',
  ceft_try_count: 0,
  refund_requested: false,
  ipg_void_status: null,
  ipg_refund_status: null,
};

const everyAction = { permissions: ['transaction-hold', 'transaction-retry', 'transaction-refund'] };
const superUser = { permissions: ['super-permission'] };
const nobody = { permissions: ['send-money-report-view'] };

type Case = [description: string, change: Partial<CeftActionRow>, hold: boolean, manual: boolean, voidOrRefund: boolean];

const cases: Case[] = [
  ['paid, transfer pending', {}, true, true, false],
  ['paid, transfer pending, refund requested', { refund_requested: true }, true, true, true],
  ['paid, transfer failed', { ceft_payment_status: 'FAILED', ceft_try_count: 3 }, true, true, false],
  ['paid, transfer held', { ceft_payment_status: 'HOLD' }, true, true, false],
  ['paid, no transfer status yet', { ceft_payment_status: null }, true, true, false],
  ['transfer succeeded', { ceft_payment_status: 'SUCCESS', ceft_try_count: 1 }, false, false, false],
  // money moves at most once: a paid-out transfer is neither voided nor refunded (an older rule allowed it)
  ['transfer succeeded, refund requested', { ceft_payment_status: 'SUCCESS', refund_requested: true }, false, false, false],
  ['card payment failed', { card_payment_status: 'FAILED' }, false, false, false],
  ['card payment pending', { card_payment_status: 'PENDING' }, false, false, false],
  ['card payment status lower-case success (only the literal SUCCESS counts)', { card_payment_status: 'success' }, false, false, false],
  ['voided', { ipg_void_status: 'SUCCESS', refund_requested: true }, false, false, false],
  ['void failed, refund requested', { ipg_void_status: 'FAILED', refund_requested: true }, true, true, true],
  ['refunded', { ipg_refund_status: 'SUCCESS', refund_requested: true }, false, false, false],
  ['refund failed, refund requested', { ipg_refund_status: 'FAILED', refund_requested: true }, true, true, true],
  ['99 CEFT tries', { ceft_payment_status: 'FAILED', ceft_try_count: 99 }, true, true, false],
  ['100 CEFT tries', { ceft_payment_status: 'FAILED', ceft_try_count: 100 }, false, true, false],
  ['140 CEFT tries, refund requested', { ceft_payment_status: 'FAILED', ceft_try_count: 140, refund_requested: true }, false, true, true],
];

describe('send-money guards over transaction states', () => {
  it.each(cases)('%s', (_d, change, hold, manual, voidOrRefund) => {
    const row = { ...base, ...change };
    expect(canHoldFundTransfer({ row, user: everyAction, timeZone: zone }), 'hold').toBe(hold);
    expect(canManualFundTransfer({ row, user: everyAction, timeZone: zone }), 'manual fund transfer').toBe(manual);
    expect(canVoidOrRefund({ row, user: everyAction, timeZone: zone }), 'void or refund').toBe(voidOrRefund);
    // super-permission holds every action permission
    expect(canHoldFundTransfer({ row, user: superUser, timeZone: zone })).toBe(hold);
    expect(canManualFundTransfer({ row, user: superUser, timeZone: zone })).toBe(manual);
    expect(canVoidOrRefund({ row, user: superUser, timeZone: zone })).toBe(voidOrRefund);
    // without the permissions nothing is allowed
    expect(canHoldFundTransfer({ row, user: nobody, timeZone: zone })).toBe(false);
    expect(canManualFundTransfer({ row, user: nobody, timeZone: zone })).toBe(false);
    expect(canVoidOrRefund({ row, user: nobody, timeZone: zone })).toBe(false);
  });

  it('asks for each action its own permission', () => {
    const row = { ...base, refund_requested: true };
    expect(canHoldFundTransfer({ row, user: { permissions: ['transaction-retry', 'transaction-refund'] }, timeZone: zone })).toBe(false);
    expect(canHoldFundTransfer({ row, user: { permissions: ['transaction-hold'] }, timeZone: zone })).toBe(true);
    expect(canManualFundTransfer({ row, user: { permissions: ['transaction-hold', 'transaction-refund'] }, timeZone: zone })).toBe(false);
    expect(canManualFundTransfer({ row, user: { permissions: ['transaction-retry'] }, timeZone: zone })).toBe(true);
    expect(canVoidOrRefund({ row, user: { permissions: ['transaction-hold', 'transaction-retry'] }, timeZone: zone })).toBe(false);
    expect(canVoidOrRefund({ row, user: { permissions: ['transaction-refund'] }, timeZone: zone })).toBe(true);
  });

  it('says why an action is refused', () => {
    expect(holdRefusal({ ...base, ceft_try_count: 100 }, everyAction)).toBe('Hold is not allowed after 100 or more CEFT tries');
    expect(holdRefusal({ ...base, ceft_payment_status: 'SUCCESS' }, everyAction)).toBe('The fund transfer of this transaction has already succeeded');
    expect(holdRefusal(base, nobody)).toBe('You do not have the permission transaction-hold');
    expect(voidRefusal(base, everyAction, zone, now)).toBe('No refund has been requested for this transaction');
    expect(holdRefusal(base, everyAction)).toBeUndefined();
  });
});

describe('void or refund: by the day of the card payment', () => {
  it('reads Void when the card payment happened today, else Refund', () => {
    expect(isVoidRatherThanRefund({ card_payment_time: todayMorning }, zone, now)).toBe(true);
    expect(isVoidRatherThanRefund({ card_payment_time: new Date(2026, 10, 22, 23, 59, 59) }, zone, now)).toBe(true);
    expect(isVoidRatherThanRefund({ card_payment_time: yesterdayEvening }, zone, now)).toBe(false);
    expect(isVoidRatherThanRefund({ card_payment_time: new Date(2025, 10, 22, 10, 0, 0).toISOString() }, zone, now)).toBe(false);
  });

  it('never reads Void for a missing or placeholder card payment time', () => {
    expect(isVoidRatherThanRefund({ card_payment_time: null }, zone, now)).toBe(false);
    expect(isVoidRatherThanRefund({ card_payment_time: '0001-01-01T00:00:00.000Z' }, zone, now)).toBe(false);
    expect(isVoidRatherThanRefund({ card_payment_time: 'not a time' }, zone, now)).toBe(false);
  });

  it('shows exactly one of Void and Refund when a void or refund is allowed', () => {
    const paidToday = { ...base, refund_requested: true, card_payment_time: new Date().toISOString() };
    const paidEarlier = { ...base, refund_requested: true, card_payment_time: new Date(Date.now() - 3 * 86_400_000).toISOString() };
    expect([canVoidCardPayment({ row: paidToday, user: everyAction, timeZone: zone }), canRefundCardPayment({ row: paidToday, user: everyAction, timeZone: zone })]).toEqual([true, false]);
    expect([canVoidCardPayment({ row: paidEarlier, user: everyAction, timeZone: zone }), canRefundCardPayment({ row: paidEarlier, user: everyAction, timeZone: zone })]).toEqual([false, true]);
    const notRequested = { ...paidToday, refund_requested: false };
    expect([canVoidCardPayment({ row: notRequested, user: everyAction, timeZone: zone }), canRefundCardPayment({ row: notRequested, user: everyAction, timeZone: zone })]).toEqual([false, false]);
  });

  it('refuses the wrong one of the two on the server, naming the right one', () => {
    const row = { ...base, refund_requested: true, card_payment_time: todayMorning };
    expect(voidRefusal(row, everyAction, zone, now)).toBeUndefined();
    expect(refundRefusal(row, everyAction, zone, now)).toBe('The card payment was made today: void it instead');
    const older = { ...row, card_payment_time: yesterdayEvening };
    expect(refundRefusal(older, everyAction, zone, now)).toBeUndefined();
    expect(voidRefusal(older, everyAction, zone, now)).toBe('The card payment was not made today: refund it instead');
  });
});

describe('overall status', () => {
  it.each([
    [{ card: 'SUCCESS', payout: 'SUCCESS' }, 'SUCCESS'],
    [{ card: 'SUCCESS', payout: 'PENDING' }, 'PENDING'],
    [{ card: 'SUCCESS', payout: null }, 'PENDING'],
    [{ card: 'PENDING', payout: null }, 'PENDING'],
    [{ card: 'FAILED', payout: null }, 'FAILED'],
    [{ card: 'SUCCESS', payout: 'FAILED' }, 'FAILED'],
    [{ card: 'SUCCESS', payout: 'HOLD' }, 'HOLD'],
    [{ card: 'SUCCESS', payout: 'FAILED', void: 'SUCCESS' }, 'REFUNDED'],
    [{ card: 'SUCCESS', payout: 'HOLD', refund: 'SUCCESS' }, 'REFUNDED'],
    [{ card: 'SUCCESS', payout: 'FAILED', refund: 'FAILED' }, 'FAILED'],
  ] as const)('%o is %s', (stages, status) => {
    expect(overallStatusOf(stages)).toBe(status);
  });
});
