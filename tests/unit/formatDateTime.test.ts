/** formatDateTime's fast path for ISO text gives what date-fns gives, for every form the server or a form sends. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { format, parseISO } from 'date-fns';
import { formatDateTime } from '../../src/console/format';

const viaDateFns = (text: string) => format(parseISO(text), 'yyyy-MM-dd HH:mm:ss');

describe('formatDateTime', () => {
  it('formats ISO text (Z, offsets, local; with or without milliseconds) as date-fns does', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('2999-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom('Z', 'ms-Z', '+05:30', '-08:00', 'local', 'local-ms'),
        (d, form) => {
          const iso = d.toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ
          const text =
            form === 'Z' ? iso.replace(/\.\d{3}Z$/, 'Z') : form === 'ms-Z' ? iso : form === 'local' ? iso.slice(0, 19) : form === 'local-ms' ? iso.slice(0, 23) : iso.slice(0, 19) + form;
          expect(formatDateTime(text)).toBe(viaDateFns(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("shows '-' for missing, unreadable and placeholder (before year 1000) times", () => {
    for (const v of [null, undefined, '', 'not a date', '0001-01-01T00:00:00.000Z', '0999-12-31T10:00:00Z', '2026-13-40T99:99:99Z']) expect(formatDateTime(v), String(v)).toBe('-');
    expect(formatDateTime(new Date(2026, 10, 24, 9, 5, 7))).toBe('2026-11-24 09:05:07');
  });
});
