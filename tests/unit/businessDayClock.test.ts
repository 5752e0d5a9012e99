/**
 * The Void or Refund button follows the business day's midnight without a reload: the rows' actions
 * subscribe to a day clock that wakes at the business zone's midnight (one timer for all of them),
 * and the guards then read the new "today".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBusinessTimeZone } from '@/console/businessTime';
import { currentBusinessDay, msToNextBusinessMidnight, subscribeBusinessDay } from '@/console/businessDay';
import { visibleActions } from '@/console/views/RowActions';
import { ceftScreen } from '@screens/transactions';

// 23:59:00 in Colombo (UTC+05:30) on 2026-12-06
const BEFORE_MIDNIGHT = new Date('2026-12-06T18:29:00Z');

describe('the business day clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: BEFORE_MIDNIGHT });
    setBusinessTimeZone('Asia/Colombo');
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('knows the time to the business zone midnight', () => {
    expect(msToNextBusinessMidnight(BEFORE_MIDNIGHT, 'Asia/Colombo')).toBe(60_000);
    expect(msToNextBusinessMidnight(BEFORE_MIDNIGHT, 'UTC')).toBe((5 * 60 + 31) * 60_000);
  });

  it('tells its subscribers once, at midnight, and not before', () => {
    const told = vi.fn();
    const stop = subscribeBusinessDay(told);
    expect(currentBusinessDay()).toBe('2026-12-06');
    vi.advanceTimersByTime(59_000);
    expect(told).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(told).toHaveBeenCalledTimes(1);
    expect(currentBusinessDay()).toBe('2026-12-07');
    // the next day: nothing until its own midnight
    vi.advanceTimersByTime(23 * 3_600_000);
    expect(told).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3_600_000);
    expect(told).toHaveBeenCalledTimes(2);
    stop();
    vi.advanceTimersByTime(48 * 3_600_000);
    expect(told).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a row's Void becomes Refund when its day ends", () => {
    const user = { username: 'maker', permissions: ['transaction-refund'] };
    // paid at 10:00 Colombo on 2026-12-06, a refund requested, nothing moved yet
    const row = {
      id: 1,
      card_payment_status: 'SUCCESS',
      card_payment_time: '2026-12-06T04:30:00Z',
      ceft_payment_status: 'FAILED',
      ceft_try_count: 3,
      refund_requested: true,
      ipg_void_status: null,
      ipg_refund_status: null,
    };
    const labels = () => visibleActions(ceftScreen.rowActions ?? [], row as never, user).map((a) => (typeof a.label === 'string' ? a.label : a.label(row as never)));
    const told = vi.fn(() => labels());
    const stop = subscribeBusinessDay(told);
    expect(labels()).toEqual(['Void']);
    vi.advanceTimersByTime(61_000);
    expect(told).toHaveBeenCalledTimes(1);
    expect(told.mock.results[0].value).toEqual(['Refund']);
    stop();
  });
});
