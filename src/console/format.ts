/** Cell formatting shared by tables and exports: pure functions. */
import { isValid, parseISO } from 'date-fns';
import { businessDay, displayDateTime, instantOf } from '../domain/businessTime';
import { businessTimeZone } from './businessTime';
import { cellKindOf } from '../definitions/cellKinds';

/** Amounts: 2 decimals with thousands separators (src/domain/amounts.ts, which the dialogs' summaries use too). */
export { formatAmount } from '../domain/amounts';

/** A date-time the native parser reads as ISO 8601 does: with seconds, at most milliseconds, Z or an offset (else local time). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;

/** Date-times in local format; '-' for missing, unreadable, or a year before 1000 (placeholder times). */
const rateFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: cellKindOf('rate').decimals, maximumFractionDigits: cellKindOf('rate').decimals });

/** Rates: 4 decimals (the rate kind's, as the exports write them) with thousands separators. */
export function formatRate(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || value === '' || Number.isNaN(n)) return '-';
  return rateFormat.format(n);
}

/** A date-time without an offset ('2026-11-22T00:00:01', a space for the T, optional fraction): a wall clock. */
const ZONELESS_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/;

/**
 * The instant a time on the wire names. With Z or an offset, that instant; without one (the server
 * sends some business times as local wall clocks, e.g. an advertisement's validity), the wall clock in
 * the business zone, never in the browser's zone or UTC; other ISO text as date-fns reads it.
 */
function wireInstant(text: string, zone: string): Date {
  if (ISO_DATE_TIME.test(text) && /(Z|[+-]\d{2}:\d{2})$/.test(text)) return new Date(text);
  const wall = ZONELESS_DATE_TIME.exec(text);
  if (wall) return instantOf(`${wall[1]}T${wall[2]}`, zone) ?? new Date(Number.NaN);
  return parseISO(text);
}

/**
 * Date-times in the business time zone (docs/business-time.md; the shell names the zone once),
 * never the browser's; '-' for missing, unreadable, or a year before 1000 (placeholder times).
 */
export function formatDateTime(value: unknown, zone: string = businessTimeZone()): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = value instanceof Date ? value : wireInstant(String(value), zone);
  if (!isValid(d) || d.getUTCFullYear() < 1000) return '-';
  return displayDateTime(d, zone);
}

/** A date ('yyyy-MM-dd' as sent: a calendar date, shown as it is) or the business day of a date-time. */
export function formatDate(value: unknown, zone: string = businessTimeZone()): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value >= '1000' ? value : '-';
  const d = value instanceof Date ? value : wireInstant(String(value), zone);
  if (!isValid(d) || d.getUTCFullYear() < 1000) return '-';
  return businessDay(d, zone);
}

/** A comparable key for sorting a cell: numbers as numbers, dates as epoch ms, the rest as lower-case text. */
export function sortKeyOf(value: unknown, kind: string | undefined): number | string {
  const sortAs = cellKindOf(kind).sortAs;
  if (value === null || value === undefined) return sortAs === 'text' ? '' : -Infinity;
  if (sortAs === 'number') {
    const n = Number(value);
    return Number.isNaN(n) ? -Infinity : n;
  }
  if (sortAs === 'time') {
    const t = Date.parse(String(value));
    return Number.isNaN(t) ? -Infinity : t;
  }
  if (Array.isArray(value)) return value.join(', ').toLowerCase();
  if (typeof value === 'number') return value;
  return String(value).toLowerCase();
}
