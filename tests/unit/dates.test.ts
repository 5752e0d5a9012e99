import fc from 'fast-check';
import { isValid, parse } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { capAt, followFrom, LOCAL_DATE_TIME, parseLocal, wallClock, wireFrom, wireTo } from '../../src/domain/dates';
import { businessDateTime, businessTodayRange } from '../../src/domain/businessTime';

/** What parseLocal answered before its hand-written path: date-fns alone. */
function reference(value: string): Date | null {
  const d = parse(value.length === 16 ? `${value}:00` : value, LOCAL_DATE_TIME, new Date());
  return isValid(d) ? d : null;
}

const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((a) => a.join(''));
/** Date-time shaped strings with any digits: invalid months, days past the month's end, hour 24, second 60, leap days. */
const shaped = fc
  .tuple(
    fc.oneof(digits(4), fc.constantFrom('2024', '2025', '2026', '2000', '1900', '0999', '0000')),
    fc.oneof(digits(2), fc.constantFrom('01', '02', '12', '13', '00')),
    fc.oneof(digits(2), fc.constantFrom('28', '29', '30', '31', '32', '00')),
    fc.oneof(digits(2), fc.constantFrom('00', '23', '24')),
    fc.oneof(digits(2), fc.constantFrom('00', '59', '60')),
    fc.option(fc.oneof(digits(2), fc.constantFrom('00', '01', '59', '60')), { nil: undefined }),
  )
  .map(([y, mo, d, h, mi, s]) => `${y}-${mo}-${d}T${h}:${mi}${s === undefined ? '' : `:${s}`}`);

describe('parseLocal', () => {
  it('agrees with date-fns on every date-time shaped string', () => {
    fc.assert(
      fc.property(shaped, (value) => {
        expect(parseLocal(value)?.getTime() ?? null).toBe(reference(value)?.getTime() ?? null);
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with date-fns on shorter numbers and trailing space', () => {
    const upTo = (n: number) => fc.integer({ min: 1, max: n }).chain((k) => digits(k));
    fc.assert(
      fc.property(upTo(4), upTo(2), upTo(2), upTo(2), upTo(2), upTo(2), fc.constantFrom('', ' ', '  ', '\t', 'x', ' x'), (y, mo, d, h, mi, s, tail) => {
        const value = `${y}-${mo}-${d}T${h}:${mi}:${s}${tail}`;
        expect(parseLocal(value)?.getTime() ?? null).toBe(reference(value)?.getTime() ?? null);
      }),
      { numRuns: 5000 },
    );
    for (const v of ['0999-02-29T00:00:00', '0000-02-29T00:00:00', '0100-02-29T00:00:00', '0050-06-15T10:20:30', '2026-1-5T1:2:3', '2026-11-24T09:05:01 ', '-2026-11-24T09:05:01']) {
      expect(parseLocal(v)?.getTime() ?? null, v).toBe(reference(v)?.getTime() ?? null);
    }
  });

  it('agrees with date-fns on other text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 22 }), (value) => {
        expect(parseLocal(value)?.getTime() ?? null).toBe(reference(value)?.getTime() ?? null);
      }),
    );
  });

  it('reads the filter bar values and refuses impossible ones', () => {
    expect(parseLocal('2026-11-24T09:05:01')).toEqual(new Date(2026, 10, 24, 9, 5, 1));
    expect(parseLocal('2024-02-29T23:59')).toEqual(new Date(2024, 1, 29, 23, 59, 0));
    expect(parseLocal('2026-02-29T00:00:00')).toBeNull();
    expect(parseLocal('2026-04-31T00:00:00')).toBeNull();
    expect(parseLocal('2026-11-24T24:00:00')).toBeNull();
    expect(parseLocal('2026-11-24 09:05:01')).toBeNull();
    // times a daylight-saving change skips or repeats in some zones (run with TZ=America/New_York, Europe/London)
    for (const v of ['2026-03-08T02:30:00', '2026-11-01T01:30:00', '2026-03-29T01:30:00', '2026-10-25T01:30:00']) {
      expect(parseLocal(v)?.getTime()).toBe(reference(v)?.getTime());
    }
  });
});

describe("the filter bar caps and reshapes business-zone wall clocks, whatever the browser's zone", () => {
  /** Runs `run` with the process (the browser) in `zone`. */
  function inZone(zone: string, run: () => void) {
    const saved = process.env.TZ;
    process.env.TZ = zone;
    try {
      run();
    } finally {
      process.env.TZ = saved;
    }
  }

  it("To may reach the end of the business day even where the browser's day is the day before", () => {
    // 23:19 UTC on the 24th: 04:49 on the 25th in Colombo, 15:19 on the 24th in Los Angeles
    const now = new Date('2026-11-24T23:19:02Z');
    inZone('America/Los_Angeles', () => {
      const latestTo = businessTodayRange(now, 'Asia/Colombo').to;
      const latestFrom = businessDateTime(now, 'Asia/Colombo');
      expect(latestTo).toBe('2026-11-25T23:59:59');
      expect(capAt('2026-11-25T04:49:02', latestTo)).toBe('2026-11-25T04:49:02');
      expect(capAt('2026-11-25T12:00', latestTo)).toBe('2026-11-25T12:00');
      expect(capAt('2026-11-26T00:00:00', latestTo)).toBe('2026-11-25T23:59:59');
      expect(capAt('2026-11-25T04:00:00', latestFrom)).toBe('2026-11-25T04:00:00');
      expect(capAt('2026-11-25T05:00:00', latestFrom)).toBe('2026-11-25T04:49:02');
      // not a value yet: left as typed
      expect(capAt('2026-11-2', latestTo)).toBe('2026-11-2');
    });
  });

  it("a business-zone time in the browser's daylight-saving gap is itself, sent and compared as it reads", () => {
    inZone('America/New_York', () => {
      expect(wallClock('2026-03-08T02:30')).toBe('2026-03-08T02:30:00');
      expect(wallClock('2026-02-29T02:30')).toBeNull();
      expect(wireFrom('2026-03-08T02:30:45')).toBe('2026-03-08T02:30:01');
      expect(wireTo('2026-03-08T02:30:45')).toBe('2026-03-08T02:30:00');
      expect(followFrom('2026-03-08T02:40:00', '2026-03-08T02:35:00')).toBe('2026-03-08T02:40:00');
      expect(followFrom('2026-03-08T02:30:00', '2026-03-08T03:10:00')).toBe('2026-03-08T03:10:00');
    });
  });
});

describe('To is never sent before From', () => {
  it('a To in the same minute as From is sent as the last second of that minute; other To values keep seconds 0', () => {
    expect(wireFrom('2026-12-06T10:15:30')).toBe('2026-12-06T10:15:01');
    expect(wireTo('2026-12-06T10:15:45', '2026-12-06T10:15:30')).toBe('2026-12-06T10:15:59');
    expect(wireTo('2026-12-06T10:15:00', '2026-12-06T10:15:00')).toBe('2026-12-06T10:15:59');
    expect(wireTo('2026-12-06T10:16:45', '2026-12-06T10:15:30')).toBe('2026-12-06T10:16:00');
    expect(wireTo('2026-12-06T23:59:59', '2026-12-06T00:00:00')).toBe('2026-12-06T23:59:00');
    // without From, or with no value to compare, as before
    expect(wireTo('2026-12-06T10:15:45')).toBe('2026-12-06T10:15:00');
    expect(wireTo('2026-12-06T10:15:45', '')).toBe('2026-12-06T10:15:00');
  });
  it('every report screen sends From <= To for a range within one minute', async () => {
    const { screens } = await import('../../screens');
    const ranged = screens.filter((s) => s.kind === 'list' && s.filters?.some((f) => f.kind === 'dateTimeRange'));
    expect(ranged.length).toBeGreaterThan(5);
    for (const s of ranged) {
      if (s.kind !== 'list') continue;
      const range = s.filters!.find((f) => f.kind === 'dateTimeRange')!;
      if (range.kind !== 'dateTimeRange') continue;
      const body = s.source.request({ [range.from]: '2026-12-06T10:15:20', [range.to]: '2026-12-06T10:15:40', fetchCount: 10 }) as Record<string, string>;
      expect(body[range.from] <= body[range.to], `${s.id}: ${body[range.from]} .. ${body[range.to]}`).toBe(true);
    }
  });
});
