/**
 * The From and To fields of a filter bar's date-time range, as pure functions of what they show.
 *
 * Typing never changes a field's text: the rules apply when the entry is committed (the field loses the
 * focus, Enter, a day or a preset picked in the calendar, Search), and the committed value is what the
 * field then shows, so the field always shows what Search sends. The rules, in order (spec 001 §2, §5;
 * ../../domain/dates.ts):
 * - neither end may be later than now: From is capped at the business zone's now, To at the end of its
 *   day (capAt); a date before EARLIEST_DAY names nothing the system holds and is refused;
 * - From is sent with seconds 01 (wireFrom);
 * - To cannot be earlier than From: a To before From becomes From (followFrom);
 * - To is sent with seconds 00, or 59 when it falls in From's minute (wireTo), so To is never before From.
 * A text that is no date-time (incomplete, impossible, empty) keeps its text, gets its message and blocks
 * Search; the other field's value is still committed.
 */
import { addDays, endOfMonth, format, parse, startOfMonth, subMonths } from 'date-fns';
import { capAt, dateBoundsMessage, EARLIEST_DAY, followFrom, LOCAL_DATE, wireFrom, wireTo } from '../../domain/dates';
import { DATE_TIME_FORMAT_MESSAGE, displayOf, readDateTimeText } from './dateTimeText';

export { DATE_TIME_FORMAT_MESSAGE };

export type RangeEnd = 'from' | 'to';

/** One field: the text it shows and its message (null when it has none). */
export interface FieldEntry {
  text: string;
  message: string | null;
}

/** Both fields of a range, as shown. */
export interface RangeEntry {
  from: FieldEntry;
  to: FieldEntry;
}

/** The latest values the fields accept: wall clocks 'yyyy-MM-ddTHH:mm:ss' of the business time zone. */
export interface RangeLimits {
  /** The business zone's now. */
  latestFrom: string;
  /** The end of the business day. */
  latestTo: string;
  /** For the message of a date out of bounds (it names the last accepted day). */
  now?: Date;
}

/** A commit: the fields as they now show, and the values to send (null for a field whose text is refused). */
export interface RangeCommit extends RangeEntry {
  value: { from: string | null; to: string | null };
}

/** A field's text read as a date-time, or why it is none. */
function readField(text: string, now: Date | undefined): { value: string } | { message: string } {
  const read = readDateTimeText(text);
  if (read.state === 'complete') return read.value.slice(0, 10) < EARLIEST_DAY ? { message: dateBoundsMessage(now) } : { value: read.value };
  if (read.state === 'invalid') return { message: read.message };
  return { message: DATE_TIME_FORMAT_MESSAGE };
}

/**
 * Commits a range. `which` says which field is committed ('both' for Search): a refused text in it gets its
 * message; the other field is committed too when its text is a date-time (To follows From), and otherwise
 * keeps its text and the message it had (it is not being committed: a half-typed To gets no message because
 * From lost the focus).
 */
export function commitDateRange(entry: RangeEntry, which: RangeEnd | 'both', limits: RangeLimits): RangeCommit {
  const f = readField(entry.from.text, limits.now);
  const t = readField(entry.to.text, limits.now);
  const from = 'value' in f ? wireFrom(capAt(f.value, limits.latestFrom)) : null;
  let to: string | null = null;
  if ('value' in t) {
    const capped = capAt(t.value, limits.latestTo);
    to = from === null ? wireTo(capped) : wireTo(followFrom(from, capped), from);
  }
  const field = (end: RangeEnd, value: string | null, read: { value: string } | { message: string }): FieldEntry => {
    if (value !== null) return { text: displayOf(value), message: null };
    const committed = which === 'both' || which === end;
    return { text: entry[end].text, message: committed && 'message' in read ? read.message : entry[end].message };
  };
  return { from: field('from', from, f), to: field('to', to, t), value: { from, to } };
}

/** The fields of a range of values (wire form 'yyyy-MM-ddTHH:mm:ss'), committed: what they show and send. */
export function rangeEntryOf(values: { from: string; to: string }, limits: RangeLimits): RangeCommit {
  return commitDateRange({ from: { text: displayOf(values.from), message: null }, to: { text: displayOf(values.to), message: null } }, 'both', limits);
}

/**
 * A field's text as it is typed: never rewritten. A whole date-time that names no such day or time says so
 * at once; anything else (still being typed, as '2026-12-05 00:00:0' is, or a date-time) has no message
 * until it is committed.
 */
export function typeIntoRange(entry: RangeEntry, end: RangeEnd, text: string): RangeEntry {
  const read = readDateTimeText(text);
  return { ...entry, [end]: { text, message: read.state === 'invalid' && read.message !== DATE_TIME_FORMAT_MESSAGE ? read.message : null } };
}

/** Whether the range may be searched: no field has a message. */
export function isRangeSearchable(commit: RangeCommit): boolean {
  return commit.value.from !== null && commit.value.to !== null && commit.from.message === null && commit.to.message === null;
}

export type RangePreset = 'today' | 'yesterday' | 'last7Days' | 'thisMonth' | 'lastMonth';

/** The calendar's presets; Today is the filter bars' default range. */
export const RANGE_PRESETS: readonly { id: RangePreset; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'last7Days', label: 'Last 7 days' },
  { id: 'thisMonth', label: 'This month' },
  { id: 'lastMonth', label: 'Last month' },
];

const dayOf = (d: Date) => format(d, LOCAL_DATE);
const dateOf = (day: string) => parse(day, LOCAL_DATE, new Date(2000, 0, 1));

/** Whole days from `fromDay` 00:00:00 to `toDay` 23:59:59 (in either order), as values before the rules apply. */
export function wholeDays(fromDay: string, toDay: string): { from: string; to: string } {
  const [a, b] = fromDay <= toDay ? [fromDay, toDay] : [toDay, fromDay];
  return { from: `${a}T00:00:00`, to: `${b}T23:59:59` };
}

/**
 * A preset's whole days, `today` being the business day 'yyyy-MM-dd': Today (the default range, today
 * 00:00:00 to 23:59:59), Yesterday, Last 7 days (today and the six days before), This month (its first day
 * to today), Last month (its first to its last day).
 */
export function presetRange(preset: RangePreset, today: string): { from: string; to: string } {
  const d = dateOf(today);
  switch (preset) {
    case 'today':
      return wholeDays(today, today);
    case 'yesterday': {
      const y = dayOf(addDays(d, -1));
      return wholeDays(y, y);
    }
    case 'last7Days':
      return wholeDays(dayOf(addDays(d, -6)), today);
    case 'thisMonth':
      return wholeDays(dayOf(startOfMonth(d)), today);
    case 'lastMonth': {
      const m = subMonths(d, 1);
      return wholeDays(dayOf(startOfMonth(m)), dayOf(endOfMonth(m)));
    }
  }
}
