/**
 * formatDateTime shows every time the server sends in the business time zone, never the browser's
 * (docs/business-time.md): checked against plain offset arithmetic for UTC and Asia/Colombo
 * (UTC+05:30, without summer time since 2006) and for America/New_York's changes of offset.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDateTime, formatDate } from '../../src/console/format';

/** The wall clock at a fixed offset, as 'yyyy-MM-dd HH:mm:ss'. */
const atOffset = (d: Date, minutes: number) => new Date(d.getTime() + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

describe('formatDateTime', () => {
  it('formats ISO text (Z or an offset; with or without milliseconds) in the business time zone', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2007-01-02T00:00:00Z'), max: new Date('2999-12-30T00:00:00Z'), noInvalidDate: true }), fc.constantFrom('Z', 'ms-Z', '+05:30', '-08:00'), (raw, form) => {
        const d = new Date(Math.floor(raw.getTime() / 1000) * 1000);
        const iso = d.toISOString();
        const text = form === 'Z' ? iso.replace(/\.\d{3}Z$/, 'Z') : form === 'ms-Z' ? iso : atOffset(d, form === '+05:30' ? 330 : -480).replace(' ', 'T') + form;
        expect(formatDateTime(text, 'UTC')).toBe(atOffset(d, 0));
        expect(formatDateTime(text, 'Asia/Colombo')).toBe(atOffset(d, 330));
      }),
      { numRuns: 500 },
    );
  });

  it("shows the issue's case on the business day, whatever the browser's zone: 22:18 UTC is 03:48 the next day in Colombo", () => {
    expect(formatDateTime('2026-11-19T22:18:00.000Z', 'Asia/Colombo')).toBe('2026-11-20 03:48:00');
    expect(formatDate('2026-11-19T22:18:00.000Z', 'Asia/Colombo')).toBe('2026-11-20');
    expect(formatDateTime('2026-11-19T22:18:00.000Z', 'UTC')).toBe('2026-11-19 22:18:00');
    // summer and winter time in New York
    expect(formatDateTime('2026-07-01T12:00:00Z', 'America/New_York')).toBe('2026-07-01 08:00:00');
    expect(formatDateTime('2026-12-01T12:00:00Z', 'America/New_York')).toBe('2026-12-01 07:00:00');
    // a calendar date is shown as it is
    expect(formatDate('2026-11-19', 'Asia/Colombo')).toBe('2026-11-19');
  });

  it('reads a time sent without an offset as the business wall clock (an advertisement valid 2026-11-22 00:00:01 to 2026-12-22 23:59:59)', () => {
    for (const zone of ['Asia/Colombo', 'UTC', 'America/New_York']) {
      expect(formatDateTime('2026-11-22T00:00:01', zone)).toBe('2026-11-22 00:00:01');
      expect(formatDateTime('2026-12-22T23:59:59', zone)).toBe('2026-12-22 23:59:59');
      expect(formatDateTime('2026-12-22T23:59:59.500', zone)).toBe('2026-12-22 23:59:59');
      expect(formatDate('2026-12-22T23:59:59', zone)).toBe('2026-12-22');
    }
    expect(formatDateTime('2026-02-30T10:00:00', 'Asia/Colombo')).toBe('-');
  });

  it("shows '-' for missing, unreadable and placeholder (before year 1000) times", () => {
    for (const v of [null, undefined, '', 'not a date', '0001-01-01T00:00:00.000Z', '0999-12-31T10:00:00Z', '2026-13-40T99:99:99Z']) expect(formatDateTime(v), String(v)).toBe('-');
    expect(formatDateTime(new Date(Date.UTC(2026, 10, 24, 9, 5, 7)), 'UTC')).toBe('2026-11-24 09:05:07');
  });
});
