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
 * The compact form's version 3, for the lists whose rows are streamed from PostgreSQL: the reply is
 * the compact reply's JSON document on its first line, with `filteredListRows` empty and two more
 * members, `filteredListKinds` (what each value is, `ListRowKind`, in the keys' order) and
 * `filteredListRowCount` (how many rows follow); then each row on a line of its own, in PostgreSQL's
 * COPY text format (values separated by tabs, `\N` for null, a backslash before a tab, line break,
 * carriage return or backslash of a value, times as the UTC wall clock `2026-08-28 13:48:10.812`),
 * as the database writes it: the server passes the bytes on without reading them. A console asks
 * for it with `x-list-rows: lines3, arrays2`; a server that streams a list from PostgreSQL answers
 * with it (the reply's `x-list-rows: lines3`, content type text/plain), any other list with the
 * compact form version 2 (`x-list-rows: arrays2`). Read by src/console/compactRows.ts `LinesListParser`.
 */
export const LIST_ROWS_LINES = 'lines3';

/** The member of a lines reply that says what each value is (a string of `ListRowKind`s, one per key). */
export const LIST_ROWS_KINDS = 'filteredListKinds';
/** The member of a lines reply that says how many rows follow the document (a reply cut short is refused). */
export const LIST_ROWS_COUNT = 'filteredListRowCount';

/**
 * What a value of a lines reply is: `n` a number, `b` a boolean (`t`/`f`), `t` a time (UTC wall clock,
 * made into the documented text), `s` a text, `j` a JSON value (an array of dependants, say).
 */
export type ListRowKind = 'n' | 'b' | 't' | 's' | 'j';

const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A value of PostgreSQL's COPY text format with its backslash escapes undone. */
export function unescapeCopyText(text: string): string {
  return text.indexOf('\\') < 0 ? text : text.replace(/\\(.)/gs, (_, c: string) => COPY_ESCAPES[c] ?? c);
}

/** COPY's text of a null. */
export const COPY_NULL = '\\N';

/**
 * A value of a line of COPY text (a lines reply, a server export job's rows) as the documented reply
 * has it, by its kind: a number, a boolean, a time's documented text, a JSON value, a text; null for `\N`.
 */
export function copyTextValue(kind: ListRowKind, text: string): unknown {
  if (text === COPY_NULL) return null;
  switch (kind) {
    case 'n':
      return Number(text);
    case 'b':
      return text === 't';
    case 't':
      return isoOfUtcWallClock(text);
    case 'j':
      return JSON.parse(unescapeCopyText(text)) as unknown;
    default:
      return unescapeCopyText(text);
  }
}

/** The forms a client asks for with the header's value (a comma-separated list). */
export function listRowForms(header: string | undefined): { lines: boolean; arrays: boolean } {
  const asked = (header ?? '').split(',').map((v) => v.trim());
  return { lines: asked.includes(LIST_ROWS_LINES), arrays: asked.includes(LIST_ROWS_ARRAYS) };
}

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
 * time in PostgreSQL's JSON form (or its COPY text form, a space for the T): the fraction cut or padded to three digits (the documented text
 * truncates microseconds, as PostgreSQL's to_char MS does). Any other value is returned as it is.
 */
export function isoOfUtcWallClock(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  // COPY's text ("2026-08-28 13:48:10.812") has a space where JSON's has the T
  const value = text.charCodeAt(10) === 32 ? `${text.slice(0, 10)}T${text.slice(11)}` : text;
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
