/**
 * Date and time conventions of the filter bars (spec 001 §2, 002 §4): values are wall-clock date-times
 * 'yyyy-MM-ddTHH:mm:ss' of the business time zone (./businessTime.ts: the server reads from_date and
 * to_date in it, and the console's default range is its day: businessTodayRange); the default range
 * is today 00:00:00 to 23:59:59, Clear resets to 00:00:01 to 23:59:59; From is sent with seconds 1
 * and To with seconds 0. The helpers here only compare and reshape such values.
 */

export const LOCAL_DATE_TIME = "yyyy-MM-dd'T'HH:mm:ss";
export const LOCAL_DATE = 'yyyy-MM-dd';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** A local Date as 'yyyy-MM-dd'. */
const localDay = (d: Date) => `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A local Date as 'yyyy-MM-ddTHH:mm'. */
const localMinute = (d: Date) => `${localDay(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

const LOCAL_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * What date-fns' parse with LOCAL_DATE_TIME accepts besides the usual shape: each number with fewer
 * digits (a year of 1 to 4, the others 1 or 2), and white space after the seconds.
 */
const LENIENT_PARTS = /^(\d{1,4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})\s*$/;

/**
 * A local date-time 'yyyy-MM-ddTHH:mm:ss' (or without the seconds) as a Date; null when it is no
 * such time. Read by hand (a list call reads its range about eight times; date-fns' parse costs ~50 µs
 * each and weighs ~8 KB in the console's first load) exactly as date-fns' parse with LOCAL_DATE_TIME
 * reads it, its leniencies included (tests/unit/dates.test.ts compares the two on every shape).
 */
export function parseLocal(value: string): Date | null {
  const m = LOCAL_PARTS.exec(value);
  if (m && Number(m[1]) >= 1000) {
    const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
    if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
    const date = new Date(y, mo - 1, d, h, mi, s);
    return date.getDate() === d ? date : null;
  }
  const l = LENIENT_PARTS.exec(value.length === 16 ? `${value}:00` : value);
  if (!l) return null;
  const [y, mo, d, h, mi, s] = l.slice(1, 7).map(Number);
  // date-fns has no year 0
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  // years below 100 are themselves (new Date(y, ...) would read them as 19yy)
  const date = new Date(2000, 0, 1);
  date.setFullYear(y, mo - 1, d);
  if (date.getDate() !== d) return null;
  date.setHours(h, mi, s, 0);
  return date;
}

/**
 * A wall-clock value 'yyyy-MM-ddTHH:mm[:ss]' as 'yyyy-MM-ddTHH:mm:ss', checked without any zone (a
 * business-zone wall clock that falls in a daylight-saving gap of the browser's zone is still itself);
 * null when it is no such date-time.
 */
export function wallClock(value: string): string | null {
  const m = LOCAL_PARTS.exec(value);
  if (!m || Number(m[1]) < 1000) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return value.length === 16 ? `${value}:00` : value;
}

/** The From value as sent: its seconds set to 1. */
export function wireFrom(value: string): string {
  const w = wallClock(value);
  if (w) return `${w.slice(0, 16)}:01`;
  const d = parseLocal(value);
  return d ? `${localMinute(d)}:01` : value;
}

/**
 * The To value as sent: its seconds set to 0. Given the range's From, a To in the same minute as From
 * (where seconds 0 would fall before From's seconds 1) is sent as that minute's last second instead:
 * To is never sent before From.
 */
export function wireTo(value: string, from?: string): string {
  const w = wallClock(value);
  const d = w ? null : parseLocal(value);
  const sent = w ? `${w.slice(0, 16)}:00` : d ? `${localMinute(d)}:00` : value;
  const minute = sent.slice(0, 16);
  // From goes with seconds 1: in its minute, To's seconds 0 would fall before it
  return from !== undefined && sent.length === 19 && wireFrom(from).slice(0, 16) === minute ? `${minute}:59` : sent;
}

/** Changing From to a later time than To moves To to equal From (wall clocks of one zone compare as they read). */
export function followFrom(from: string, to: string): string {
  const f = wallClock(from);
  const t = wallClock(to);
  if (f && t) return f > t ? from : to;
  const fd = parseLocal(from);
  const td = parseLocal(to);
  return fd && td && fd > td ? from : to;
}

/**
 * A picker value capped at `latest`, a wall-clock 'yyyy-MM-ddTHH:mm:ss' of the business time zone
 * (pickers cannot go into the future: From at the business zone's now, To at the end of its day).
 * Both are wall clocks of the same zone, so they compare as they read; the browser's own zone, whose
 * day may be another, takes no part.
 */
export function capAt(value: string, latest: string): string {
  const w = wallClock(value);
  return w && w > latest ? latest : value;
}

/**
 * The dates any call accepts (filters, report days, validity days, years): from 2000-01-01 to one year
 * after today. Outside that a date names nothing the system holds, and at the calendar's edge
 * (9999-12-31T23:59:59) the range arithmetic overflowed in the database (a 500 instead of a 400).
 */
export const EARLIEST_DAY = '2000-01-01';

/** The last accepted day: a year after `now` (local). */
export function latestDay(now: Date = new Date()): string {
  const next = new Date(now.getFullYear() + 1, now.getMonth(), now.getDate());
  // 29 February a year on is 28 February, as date-fns' addYears makes it
  if (next.getDate() !== now.getDate()) next.setDate(0);
  return localDay(next);
}

/**
 * Whether a date, date-time or year on the wire ('yyyy-MM-dd...', or a year as a number) lies within
 * the bounds. A value of another shape passes here: its own format check refuses it, with its own message.
 */
export function isWithinDateBounds(value: string | number, now: Date = new Date()): boolean {
  if (typeof value === 'number') return value >= Number(EARLIEST_DAY.slice(0, 4)) && value <= Number(latestDay(now).slice(0, 4));
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  return day === undefined || (day >= EARLIEST_DAY && day <= latestDay(now));
}

/** The refusal of a date outside the bounds (the server prefixes the field's name). */
export function dateBoundsMessage(now: Date = new Date()): string {
  return `Enter a date from ${EARLIEST_DAY} to ${latestDay(now)}`;
}
