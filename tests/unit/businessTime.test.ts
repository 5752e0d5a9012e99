/**
 * The business time zone's pure functions (src/domain/businessTime.ts) and the start-up check of
 * BUSINESS_TIME_ZONE; run in a process zone (UTC) other than the business zones they are asked about.
 */
process.env.TZ = 'UTC';

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { businessDateTime, businessDay, businessTodayRange, dayOfWeek, instantOf, isValidTimeZone, nextDay, timeZoneNote } from '../../src/domain/businessTime';
import { isVoidRatherThanRefund } from '../../src/domain/transactionGuards';
import { readBusinessTimeZone, StartupRefusal } from '../../src/server/environment';
import { defaultFilterValues } from '../../src/console/views/FilterBar';
import { ceftScreen } from '../../screens/transactions';

describe('business day and wall clock', () => {
  it("reads the issue's case on the next day in Colombo, on the same day in UTC", () => {
    const paid = new Date('2026-11-19T22:18:00Z');
    expect(businessDay(paid, 'Asia/Colombo')).toBe('2026-11-20');
    expect(businessDateTime(paid, 'Asia/Colombo')).toBe('2026-11-20T03:48:00');
    expect(businessDay(paid, 'UTC')).toBe('2026-11-19');
  });

  it('turns a wall-clock time in the zone into its instant and back, DST included', () => {
    expect(instantOf('2026-11-20T00:00:00', 'Asia/Colombo')!.toISOString()).toBe('2026-11-19T18:30:00.000Z');
    expect(instantOf('2026-11-20', 'UTC')!.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(instantOf('2026-07-01T00:00', 'America/New_York')!.toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(instantOf('2026-12-01T00:00:00', 'America/New_York')!.toISOString()).toBe('2026-12-01T05:00:00.000Z');
    // the hour the clocks skip reads with the offset before it; the hour that repeats, its first time
    expect(instantOf('2026-03-08T02:30:00', 'America/New_York')!.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(instantOf('2026-11-01T01:30:00', 'America/New_York')!.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    for (const bad of ['2026-02-30T00:00:00', '2026-13-01T00:00:00', 'x', '2026-01-01T24:00:00', '0999-01-01T00:00:00']) expect(instantOf(bad, 'UTC'), bad).toBeNull();
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom('Asia/Colombo', 'UTC', 'Asia/Kolkata', 'Australia/Lord_Howe'),
        (raw, zone) => {
          const d = new Date(Math.floor(raw.getTime() / 1000) * 1000);
          const wall = businessDateTime(d, zone);
          expect(businessDateTime(instantOf(wall, zone)!, zone)).toBe(wall);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts calendar days without a zone', () => {
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('2024-03-01', -1)).toBe('2024-02-29');
    expect(dayOfWeek('2026-11-24')).toBe(2);
  });

  it("gives today's default range of the business day, not the process's", () => {
    const now = new Date('2026-11-19T20:00:00Z'); // 01:30 on the 20th in Colombo
    expect(businessTodayRange(now, 'Asia/Colombo')).toEqual({ from: '2026-11-20T00:00:00', to: '2026-11-20T23:59:59' });
    expect(businessTodayRange(now, 'Asia/Colombo', true).from).toBe('2026-11-20T00:00:01');
    expect(businessTodayRange(now, 'America/New_York').from).toBe('2026-11-19T00:00:00');
    expect(defaultFilterValues(ceftScreen.filters!, now, false, 'Asia/Colombo')).toMatchObject({ from_date: '2026-11-20T00:00:00', to_date: '2026-11-20T23:59:59' });
    expect(defaultFilterValues(ceftScreen.filters!, now, true, 'UTC')).toMatchObject({ from_date: '2026-11-19T00:00:01', to_date: '2026-11-19T23:59:59' });
  });

  it('names the zone with its offset', () => {
    expect(timeZoneNote('Asia/Colombo', new Date('2026-11-20T00:00:00Z'))).toBe('Times in Asia/Colombo (UTC+05:30)');
    expect(timeZoneNote('America/New_York', new Date('2026-12-01T00:00:00Z'))).toBe('Times in America/New_York (UTC-05:00)');
  });

  it('judges Void against Refund on the business day', () => {
    const row = { card_payment_time: '2026-11-19T22:18:00.000Z' };
    const now = new Date('2026-11-20T00:30:00Z');
    expect(isVoidRatherThanRefund(row, 'Asia/Colombo', now)).toBe(true);
    expect(isVoidRatherThanRefund(row, 'UTC', now)).toBe(false);
  });
});

describe('BUSINESS_TIME_ZONE', () => {
  it('defaults to Asia/Colombo and accepts IANA names', () => {
    expect(readBusinessTimeZone({})).toBe('Asia/Colombo');
    expect(readBusinessTimeZone({ BUSINESS_TIME_ZONE: '' })).toBe('Asia/Colombo');
    expect(readBusinessTimeZone({ BUSINESS_TIME_ZONE: 'America/New_York' })).toBe('America/New_York');
    expect(readBusinessTimeZone({ BUSINESS_TIME_ZONE: 'UTC' })).toBe('UTC');
  });

  it('refuses to start with a zone the runtime does not know, saying what it wants', () => {
    for (const bad of ['Mars/Olympus', 'Colombo', '+05:30x', 'Asia/Colombo; DROP']) {
      expect(isValidTimeZone(bad), bad).toBe(false);
      expect(() => readBusinessTimeZone({ BUSINESS_TIME_ZONE: bad })).toThrow(StartupRefusal);
    }
    expect(() => readBusinessTimeZone({ BUSINESS_TIME_ZONE: 'Mars/Olympus' })).toThrow('BUSINESS_TIME_ZONE: "Mars/Olympus" is not an IANA time zone name');
  });
});
