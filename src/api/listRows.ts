/**
 * The compact form of the transaction list replies: a client that sends `x-list-rows: arrays2` with a
 * list call gets, instead of `data.filteredList`, the row schema's keys once (`filteredListKeys`) and
 * each row as an array of its values in that order (`filteredListRows`, one row per line); the reply
 * carries the same header. A client that does not send it gets the documented reply, unchanged.
 * Written by src/server/areas/transactions.ts, read by src/console/compactRows.ts.
 */
export const LIST_ROWS_HEADER = 'x-list-rows';
/**
 * The compact form's version 2: its times are the UTC wall clock (LIST_ROWS_TIMES). Version 1
 * (`arrays`, times in the documented text) is no longer sent: a console loaded before the change (an
 * open tab) that asks for it gets the documented reply, which it reads as well, never times it would
 * take for the business zone's.
 */
export const LIST_ROWS_ARRAYS = 'arrays2';

/**
 * The member of a compact reply that lists the places (in `filteredListKeys`' order) of the values
 * that are times. The compact form sends a time as the UTC wall clock without a zone, as PostgreSQL
 * writes a timestamp in JSON ("2026-08-28T13:48:10.812", 0 to 6 digits of fraction): a third of the
 * database's work on a 100,000-row list went into formatting the documented text instead. A reader
 * makes each such value the documented text with `isoOfUtcWallClock`.
 */
export const LIST_ROWS_TIMES = 'filteredListTimes';

/**
 * The documented time text ("2026-08-28T13:48:10.812Z": milliseconds, then Z) of a UTC wall-clock
 * time in PostgreSQL's JSON form: the fraction cut or padded to three digits (the documented text
 * truncates microseconds, as PostgreSQL's to_char MS does). Any other value is returned as it is.
 */
export function isoOfUtcWallClock(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const n = value.length;
  if (n === 23) return `${value}Z`;
  if (n === 19) return `${value}.000Z`;
  if (n > 19 && value.charCodeAt(19) === 46 /* . */) return n > 23 ? `${value.slice(0, 23)}Z` : `${value}${'000'.slice(n - 20)}Z`;
  return value;
}

/**
 * The documented rows of a compact reply's arrays: objects of `keys`, the times (places `times`) in
 * their documented text. For readers that have the whole text (tests, scripts); the console reads
 * the rows as they stream in (src/console/compactRows.ts).
 */
export function rowsOfArrays(keys: readonly string[], times: readonly number[] | undefined, arrays: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  const isTime = new Set(times ?? []);
  return arrays.map((values) => Object.fromEntries(keys.map((k, i) => [k, isTime.has(i) ? isoOfUtcWallClock(values[i]) : values[i]])));
}
