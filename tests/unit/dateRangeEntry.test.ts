/**
 * The filter bars' From and To fields as pure functions: typing never rewrites a field, a commit shows what
 * Search sends (From at second 01, To at second 00 or in From's minute 59, To not before From, neither
 * later than allowed), and a text that is no date-time keeps its text, says why and blocks Search.
 */
import { describe, expect, it } from 'vitest';
import {
  commitDateRange,
  DATE_TIME_FORMAT_MESSAGE,
  isRangeSearchable,
  presetRange,
  rangeEntryOf,
  typeIntoRange,
  wholeDays,
  type RangeEntry,
  type RangeLimits,
} from '../../src/console/ui/dateRangeEntry';
import { wireFrom, wireTo } from '../../src/domain/dates';

/** The business zone's now is 2026-12-07 15:42:30; To may reach the end of that day. */
const limits: RangeLimits = { latestFrom: '2026-12-07T15:42:30', latestTo: '2026-12-07T23:59:59', now: new Date(2026, 11, 7, 15, 42, 30) };
const entry = (from: string, to: string): RangeEntry => ({ from: { text: from, message: null }, to: { text: to, message: null } });
/** What Search would send for a committed range: the screens' request mappings. */
const sent = (v: { from: string | null; to: string | null }) => ({ from: wireFrom(v.from!), to: wireTo(v.to!, v.from!) });
const shown = (text: string) => text.replace(' ', 'T');

describe('typing into a field', () => {
  it('never rewrites the text, key by key, even when To reads before From', () => {
    let e = entry('2026-12-05 10:30:01', '2026-12-05 23:59:00');
    e = typeIntoRange(e, 'to', '');
    let typed = '';
    for (const key of '2026-12-05 00:00:00') {
      typed += key;
      e = typeIntoRange(e, 'to', typed);
      expect(e.to.text).toBe(typed);
      expect(e.to.message).toBeNull();
      expect(e.from.text).toBe('2026-12-05 10:30:01');
    }
  });

  it('says at once when a whole shape names no such day, and keeps the text', () => {
    const e = typeIntoRange(entry('2026-12-01 00:00:01', '2026-12-05 23:59:00'), 'from', '2026-02-30 10:00:00');
    expect(e.from).toEqual({ text: '2026-02-30 10:00:00', message: 'There is no date 2026-02-30' });
  });
});

describe('committing a range', () => {
  it('a To before From becomes From, in From’s minute at second 59, and the field shows it', () => {
    const c = commitDateRange(entry('2026-12-05 10:30:01', '2026-12-05 00:00:00'), 'to', limits);
    expect(c.to).toEqual({ text: '2026-12-05 10:30:59', message: null });
    expect(c.value).toEqual({ from: '2026-12-05T10:30:01', to: '2026-12-05T10:30:59' });
    expect(sent(c.value)).toEqual({ from: shown(c.from.text), to: shown(c.to.text) });
  });

  it('From moved later than To moves To with it', () => {
    const c = commitDateRange(entry('2026-12-06 08:15:00', '2026-12-05 23:59:00'), 'from', limits);
    expect([c.from.text, c.to.text]).toEqual(['2026-12-06 08:15:01', '2026-12-06 08:15:59']);
  });

  it('a pasted value a rule changes shows the changed value (From at second 01, To at second 00)', () => {
    const c = commitDateRange(entry('2026-11-21T08:30:00', '2026-11-22T17:45:33'), 'both', limits);
    expect([c.from.text, c.to.text]).toEqual(['2026-11-21 08:30:01', '2026-11-22 17:45:00']);
    expect(sent(c.value)).toEqual({ from: shown(c.from.text), to: shown(c.to.text) });
  });

  it('a future From is taken as now, a future To as the end of today', () => {
    const c = commitDateRange(entry('2027-01-10 09:00:00', '2027-01-11 09:00:00'), 'both', limits);
    expect([c.from.text, c.to.text]).toEqual(['2026-12-07 15:42:01', '2026-12-07 23:59:00']);
    expect(isRangeSearchable(c)).toBe(true);
  });

  it('accepts the other shapes a person types and shows them in the one form', () => {
    expect(commitDateRange(entry('20261201 0930', '2026/12/02 18:00'), 'both', limits).value).toEqual({ from: '2026-12-01T09:30:01', to: '2026-12-02T18:00:00' });
  });

  it.each([
    ['2026-12-0', DATE_TIME_FORMAT_MESSAGE],
    ['', DATE_TIME_FORMAT_MESSAGE],
    ['yesterday', DATE_TIME_FORMAT_MESSAGE],
    ['2026-02-30 10:00:00', 'There is no date 2026-02-30'],
    ['2026-12-01 24:00:00', 'There is no time 24:00:00'],
    ['1999-12-31 10:00:00', 'Enter a date from 2000-01-01 to 2027-12-07'],
  ])('%j keeps its text, gets its message and blocks Search', (text, message) => {
    const c = commitDateRange(entry('2026-12-01 00:00:01', text), 'both', limits);
    expect(c.to).toEqual({ text, message });
    expect(c.value.to).toBeNull();
    expect(isRangeSearchable(c)).toBe(false);
  });

  it('a refused From still lets To be committed, and blocks Search', () => {
    const c = commitDateRange(entry('2026-13-01 00:00:00', '2026-12-02 12:00:30'), 'both', limits);
    expect(c.from.message).toBe('There is no date 2026-13-01');
    expect(c.to).toEqual({ text: '2026-12-02 12:00:00', message: null });
    expect(isRangeSearchable(c)).toBe(false);
  });

  it('leaving From gives no message to a To still being typed; Search does', () => {
    const e = entry('2026-12-01 00:00:01', '2026-12-0');
    expect(commitDateRange(e, 'from', limits).to).toEqual({ text: '2026-12-0', message: null });
    expect(commitDateRange(e, 'to', limits).to.message).toBe(DATE_TIME_FORMAT_MESSAGE);
    expect(commitDateRange(e, 'both', limits).to.message).toBe(DATE_TIME_FORMAT_MESSAGE);
  });

  it('a committed range commits to itself (what is shown is what is sent, again and again)', () => {
    for (const [from, to] of [
      ['2026-12-05 10:30:01', '2026-12-05 10:30:59'],
      ['2026-12-01 00:00:01', '2026-12-07 23:59:00'],
    ]) {
      const c = commitDateRange(entry(from, to), 'both', limits);
      expect([c.from.text, c.to.text]).toEqual([from, to]);
    }
  });

  it('the default range (today 00:00:00 to 23:59:59) shows as it is sent', () => {
    const c = rangeEntryOf({ from: '2026-12-07T00:00:00', to: '2026-12-07T23:59:59' }, limits);
    expect([c.from.text, c.to.text]).toEqual(['2026-12-07 00:00:01', '2026-12-07 23:59:00']);
    expect(sent(c.value)).toEqual({ from: '2026-12-07T00:00:01', to: '2026-12-07T23:59:00' });
  });
});

describe('the calendar’s presets and days', () => {
  it.each([
    ['today', '2026-12-07', '2026-12-07'],
    ['yesterday', '2026-12-06', '2026-12-06'],
    ['last7Days', '2026-12-01', '2026-12-07'],
    ['thisMonth', '2026-12-01', '2026-12-07'],
    ['lastMonth', '2026-11-01', '2026-11-30'],
  ] as const)('%s is %s to %s, whole days', (preset, first, last) => {
    expect(presetRange(preset, '2026-12-07')).toEqual({ from: `${first}T00:00:00`, to: `${last}T23:59:59` });
  });

  it('crosses years and short months', () => {
    expect(presetRange('lastMonth', '2026-01-15')).toEqual({ from: '2025-12-01T00:00:00', to: '2025-12-31T23:59:59' });
    expect(presetRange('lastMonth', '2024-03-31')).toEqual({ from: '2024-02-01T00:00:00', to: '2024-02-29T23:59:59' });
    expect(presetRange('yesterday', '2026-01-01')).toEqual({ from: '2025-12-31T00:00:00', to: '2025-12-31T23:59:59' });
    expect(presetRange('last7Days', '2026-03-03')).toEqual({ from: '2026-02-25T00:00:00', to: '2026-03-03T23:59:59' });
  });

  it('two days picked in either order make one range', () => {
    expect(wholeDays('2026-12-05', '2026-12-02')).toEqual({ from: '2026-12-02T00:00:00', to: '2026-12-05T23:59:59' });
  });
});
