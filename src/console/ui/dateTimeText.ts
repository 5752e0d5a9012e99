/**
 * The text of a date-time filter field: what a person types or pastes, read as a wall-clock
 * 'yyyy-MM-ddTHH:mm:ss' (the format the filter bar sends), or why it is not one yet.
 *
 * Accepted: 'yyyy-MM-dd HH:mm:ss', the same with a 'T', without the seconds, with '/' or '.' between
 * the date's parts, or the fourteen (or twelve) digits alone. Anything shorter is 'incomplete' (still
 * being typed: no message, nothing applied); a complete shape naming no such day or time is 'invalid'.
 */
export type DateTimeText = { state: 'empty' } | { state: 'incomplete' } | { state: 'invalid'; message: string } | { state: 'complete'; value: string };

/** The message of a text that is no date-time, or not yet a whole one when it is committed. */
export const DATE_TIME_FORMAT_MESSAGE = 'Enter a date and time as yyyy-MM-dd HH:mm:ss';

const SHAPE = /^(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})(?:[ T]+|(?=\d))(\d{2}):?(\d{2})(?::?(\d{2}))?$/;

/** The display form of a wire value: 'yyyy-MM-ddTHH:mm:ss' → 'yyyy-MM-dd HH:mm:ss'. */
export function displayOf(value: string): string {
  return value.replace('T', ' ');
}

export function readDateTimeText(text: string): DateTimeText {
  const t = text.trim();
  if (t === '') return { state: 'empty' };
  const m = SHAPE.exec(t);
  if (!m) return /^[\d\s\-/.:T]*$/.test(t) && t.replace(/\D/g, '').length < 12 ? { state: 'incomplete' } : { state: 'invalid', message: DATE_TIME_FORMAT_MESSAGE };
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate() || year < 1000) return { state: 'invalid', message: `There is no date ${date}` };
  if (hour > 23 || minute > 59 || second > 59) return { state: 'invalid', message: `There is no time ${m[4]}:${m[5]}:${String(second).padStart(2, '0')}` };
  return { state: 'complete', value: `${date}T${m[4]}:${m[5]}:${String(second).padStart(2, '0')}` };
}
