/**
 * The business time zone (docs/business-time.md): a remittance business runs on one business
 * day, so "today", the filters' from_date/to_date, the Void/Refund rule, the dashboards' periods and
 * buckets, the settlement batch date and every displayed time are read in ONE IANA zone
 * (BUSINESS_TIME_ZONE, default Asia/Colombo), never in the zone of the server process or of the
 * browser (which differ: a row paid at 22:18 UTC is 03:48 the next day in Colombo).
 *
 * Pure functions over `Intl.DateTimeFormat` (no dependency; one formatter per zone, kept): the server
 * and the console call the same ones.
 */

export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Colombo';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `zone` is an IANA time zone name this runtime knows (e.g. Asia/Colombo, UTC). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.trim() !== zone) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in the zone. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

export function wallClockOf(instant: Date, zone: string): WallClock {
  const parts = formatterOf(zone).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour') % 24, minute: n('minute'), second: n('second') };
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad4 = (n: number) => String(n).padStart(4, '0');

/** The zone's offset from UTC at an instant, in minutes (Colombo: +330). */
export function offsetMinutesAt(instant: Date, zone: string): number {
  const w = wallClockOf(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The business day of an instant: 'yyyy-MM-dd' in the zone. */
export function businessDay(instant: Date, zone: string): string {
  const w = wallClockOf(instant, zone);
  return `${pad4(w.year)}-${pad2(w.month)}-${pad2(w.day)}`;
}

/** An instant as the zone's wall clock 'yyyy-MM-ddTHH:mm:ss' (the filter bars' value shape). */
export function businessDateTime(instant: Date, zone: string): string {
  const w = wallClockOf(instant, zone);
  return `${pad4(w.year)}-${pad2(w.month)}-${pad2(w.day)}T${pad2(w.hour)}:${pad2(w.minute)}:${pad2(w.second)}`;
}

/** An instant for display: 'yyyy-MM-dd HH:mm:ss' in the zone. */
export function displayDateTime(instant: Date, zone: string): string {
  return businessDateTime(instant, zone).replace('T', ' ');
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The instant of a wall-clock time in the zone: 'yyyy-MM-dd', 'yyyy-MM-ddTHH:mm' or
 * 'yyyy-MM-ddTHH:mm:ss'; null when it is no such date-time. A time the clocks skip (a DST gap) is
 * read with the offset before the gap; a time that happens twice, as its first occurrence.
 */
export function instantOf(wall: string, zone: string): Date | null {
  const m = WALL.exec(wall);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(asUtc).getUTCDate() !== d) return null;
  // the offset at the guess, then at the corrected instant (two steps settle every real zone)
  let t = asUtc - offsetMinutesAt(new Date(asUtc), zone) * 60_000;
  const second = asUtc - offsetMinutesAt(new Date(t), zone) * 60_000;
  if (second !== t) {
    const earlier = Math.min(t, second);
    // the first occurrence whose wall clock is the one asked for; in a gap, the earlier reading
    t = businessDateTime(new Date(earlier), zone) === `${m[1]}-${m[2]}-${m[3]}T${pad2(h)}:${pad2(mi)}:${pad2(s)}` ? earlier : Math.max(t, second);
  }
  return new Date(t);
}

/** The instant the business day starts (its 00:00:00 in the zone). */
export function startOfBusinessDay(day: string, zone: string): Date {
  const d = instantOf(day, zone);
  if (!d) throw new Error(`Not a day: ${day}`);
  return d;
}

/** The calendar day after `day` ('yyyy-MM-dd'), zone-free. */
export function nextDay(day: string, days = 1): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad4(t.getUTCFullYear())}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`;
}

/** The day of the week of a calendar day (0 = Sunday), zone-free. */
export function dayOfWeek(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The filter bars' default range (spec 001 §2): the business day of `now`, 00:00:00 (00:00:01 after
 * Clear) to 23:59:59, as wall-clock values in the zone.
 */
export function businessTodayRange(now: Date, zone: string, afterClear = false): { from: string; to: string } {
  const day = businessDay(now, zone);
  return { from: `${day}T00:00:${afterClear ? '01' : '00'}`, to: `${day}T23:59:59` };
}

/** Whether two instants fall on the same business day. */
export function isSameBusinessDay(a: Date, b: Date, zone: string): boolean {
  return businessDay(a, zone) === businessDay(b, zone);
}

/** The zone's offset as 'UTC+05:30' at an instant. */
export function utcOffsetLabel(instant: Date, zone: string): string {
  const o = offsetMinutesAt(instant, zone);
  const a = Math.abs(o);
  return `UTC${o < 0 ? '-' : '+'}${pad2(Math.floor(a / 60))}:${pad2(a % 60)}`;
}

/** The note naming the zone once on a page: 'Times in Asia/Colombo (UTC+05:30)'. */
export function timeZoneNote(zone: string, now: Date = new Date()): string {
  return `Times in ${zone} (${utcOffsetLabel(now, zone)})`;
}
