/**
 * Date and time conventions of the filter bars (spec 001 §2, 002 §4): values are local date-times
 * 'yyyy-MM-ddTHH:mm:ss'; the default range is today 00:00:00 to 23:59:59, Clear resets to
 * 00:00:01 to 23:59:59; From is sent with seconds 1 and To with seconds 0.
 */
import { format, isValid, parse } from 'date-fns';

export const LOCAL_DATE_TIME = "yyyy-MM-dd'T'HH:mm:ss";
export const LOCAL_DATE = 'yyyy-MM-dd';

export function parseLocal(value: string): Date | null {
  const d = parse(value.length === 16 ? `${value}:00` : value, LOCAL_DATE_TIME, new Date());
  return isValid(d) ? d : null;
}

export function todayRange(now: Date, afterClear = false): { from: string; to: string } {
  const day = format(now, LOCAL_DATE);
  return { from: `${day}T00:00:${afterClear ? '01' : '00'}`, to: `${day}T23:59:59` };
}

/** The From value as sent: its seconds set to 1. */
export function wireFrom(value: string): string {
  const d = parseLocal(value);
  return d ? `${format(d, "yyyy-MM-dd'T'HH:mm")}:01` : value;
}

/** The To value as sent: its seconds set to 0. */
export function wireTo(value: string): string {
  const d = parseLocal(value);
  return d ? `${format(d, "yyyy-MM-dd'T'HH:mm")}:00` : value;
}

/** Changing From to a later time than To moves To to equal From. */
export function followFrom(from: string, to: string): string {
  const f = parseLocal(from);
  const t = parseLocal(to);
  return f && t && f > t ? from : to;
}

/** A picker value capped at `now` (pickers cannot go into the future). */
export function capAtNow(value: string, now: Date): string {
  const d = parseLocal(value);
  return d && d > now ? format(now, LOCAL_DATE_TIME) : value;
}
