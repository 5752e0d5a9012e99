/** Cell formatting shared by tables and exports: pure functions. */
import { format, isValid, parseISO } from 'date-fns';

const amountFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Amounts: 2 decimals with thousands separators. */
export function formatAmount(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || value === '' || Number.isNaN(n)) return '-';
  return amountFormat.format(n);
}

/** A date-time the native parser reads as ISO 8601 does: with seconds, at most milliseconds, Z or an offset (else local time). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Date-times in local format; '-' for missing, unreadable, or a year before 1000 (placeholder times). */
const rateFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** Rates: 4 decimals with thousands separators. */
export function formatRate(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === null || value === undefined || value === '' || Number.isNaN(n)) return '-';
  return rateFormat.format(n);
}

export function formatDateTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) {
    // the server's ISO text: the native parser and plain padding, some 20 times faster than date-fns
    // (a page of 50 transactions has hundreds of these cells)
    const d = new Date(value);
    if (Number.isNaN(d.getTime()) || d.getFullYear() < 1000) return '-';
    return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  }
  const d = value instanceof Date ? value : parseISO(String(value));
  if (!isValid(d) || d.getFullYear() < 1000) return '-';
  return format(d, 'yyyy-MM-dd HH:mm:ss');
}

export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = value instanceof Date ? value : parseISO(String(value));
  if (!isValid(d) || d.getFullYear() < 1000) return '-';
  return format(d, 'yyyy-MM-dd');
}

/** A comparable key for sorting a cell: numbers as numbers, dates as epoch ms, the rest as lower-case text. */
export function sortKeyOf(value: unknown, kind: string | undefined): number | string {
  if (value === null || value === undefined) return kind === 'integer' || kind === 'amount' || kind === 'rate' || kind === 'datetime' ? -Infinity : '';
  if (kind === 'integer' || kind === 'amount' || kind === 'rate') {
    const n = Number(value);
    return Number.isNaN(n) ? -Infinity : n;
  }
  if (kind === 'datetime') {
    const t = Date.parse(String(value));
    return Number.isNaN(t) ? -Infinity : t;
  }
  if (Array.isArray(value)) return value.join(', ').toLowerCase();
  if (typeof value === 'number') return value;
  return String(value).toLowerCase();
}
