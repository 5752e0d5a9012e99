import { describe, expect, it } from 'vitest';
import { dateBoundsMessage, isWithinDateBounds, latestDay } from '../../src/domain/dates';

describe('the date bounds (2000-01-01 .. today + 1 year)', () => {
  const now = new Date(2026, 10, 24, 17, 0, 0);
  it('accepts the bounds and refuses just outside them, for dates, date-times and years', () => {
    expect(latestDay(now)).toBe('2027-11-24');
    // a year after 29 February is 28 February; the last day of a year is followed into the next
    expect(latestDay(new Date(2028, 1, 29, 12))).toBe('2029-02-28');
    expect(latestDay(new Date(2026, 11, 31, 23, 59))).toBe('2027-12-31');
    expect(isWithinDateBounds('2000-01-01', now)).toBe(true);
    expect(isWithinDateBounds('2000-01-01T00:00:00', now)).toBe(true);
    expect(isWithinDateBounds('1999-12-31T23:59:59', now)).toBe(false);
    expect(isWithinDateBounds('2027-11-24T23:59:59', now)).toBe(true);
    expect(isWithinDateBounds('2027-11-25', now)).toBe(false);
    expect(isWithinDateBounds('9999-12-31T23:59:59', now)).toBe(false);
    expect(isWithinDateBounds('0001-01-01', now)).toBe(false);
    expect(isWithinDateBounds(2027, now)).toBe(true);
    expect(isWithinDateBounds(2028, now)).toBe(false);
    expect(isWithinDateBounds(1999, now)).toBe(false);
  });
  it('leaves values of another shape to their own format check (no second message)', () => {
    expect(isWithinDateBounds('', now)).toBe(true);
    expect(isWithinDateBounds('yesterday', now)).toBe(true);
  });
  it('says the range', () => {
    expect(dateBoundsMessage(now)).toBe('Enter a date from 2000-01-01 to 2027-11-24');
  });
});
