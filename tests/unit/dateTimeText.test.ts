/** The filter bars' date-time text: what is complete, what is still being typed, what names no real time. */
import { describe, expect, it } from 'vitest';
import { displayOf, readDateTimeText } from '../../src/console/ui/dateTimeText';

describe('readDateTimeText', () => {
  it.each([
    ['2026-11-20 00:00:01', '2026-11-20T00:00:01'],
    ['2026-11-20T00:00:01', '2026-11-20T00:00:01'],
    [' 2026-11-20 13:45 ', '2026-11-20T13:45:00'],
    ['2026/11/20 23:59:59', '2026-11-20T23:59:59'],
    ['20261120000001', '2026-11-20T00:00:01'],
    ['2024-02-29 12:00:00', '2024-02-29T12:00:00'],
  ])('%s is complete: %s', (text, value) => {
    expect(readDateTimeText(text)).toEqual({ state: 'complete', value });
  });

  it.each(['2', '2026', '2026-1', '2026-11-20', '2026-11-20 0', '2026-11-20 00:0'])('%s is still being typed (no message)', (text) => {
    expect(readDateTimeText(text)).toEqual({ state: 'incomplete' });
  });

  it.each([
    ['2026-02-30 10:00:00', 'There is no date 2026-02-30'],
    ['2025-02-29 10:00:00', 'There is no date 2025-02-29'],
    ['2026-13-01 10:00:00', 'There is no date 2026-13-01'],
    ['2026-04-31 00:00:00', 'There is no date 2026-04-31'],
    ['2026-11-20 24:00:00', 'There is no time 24:00:00'],
    ['2026-11-20 10:60:00', 'There is no time 10:60:00'],
    ['0026-11-20 10:00:00', 'There is no date 0026-11-20'],
    ['20 Nov 2026', 'Enter a date and time as yyyy-MM-dd HH:mm:ss'],
    ['2026-11-20 00:00:01x', 'Enter a date and time as yyyy-MM-dd HH:mm:ss'],
  ])('%s is refused: %s', (text, message) => {
    expect(readDateTimeText(text)).toEqual({ state: 'invalid', message });
  });

  it('empty is empty, and the display form puts a space for the T', () => {
    expect(readDateTimeText('  ')).toEqual({ state: 'empty' });
    expect(displayOf('2026-11-20T00:00:01')).toBe('2026-11-20 00:00:01');
  });
});
