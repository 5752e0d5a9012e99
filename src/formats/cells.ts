/**
 * Pure formatting helpers of the exports: no exceljs / jspdf in here, so screens may import them freely.
 */
import { isValid, parseISO } from 'date-fns';
import type { ExportField } from '../api/contract';
import { businessDateTime, instantOf, timeZoneNote, wallClockOf } from '../domain/businessTime';

export type ExportRow = Record<string, unknown>;
export type ExportCell = string | number;
export interface ExportTable {
  headers: string[];
  body: ExportCell[][];
}
/**
 * Which file the table is meant for: DOUBLE cells stay numbers for 'xlsx' and 'csv', become '1,234.50'
 * strings for 'pdf'; DATE cells become Excel date numbers for 'xlsx' (shown with DATE_NUM_FMT), texts
 * 'yyyy-MM-dd HH:mm:ss' for 'csv' and 'pdf'.
 */
export type ExportTarget = 'xlsx' | 'pdf' | 'csv';

export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const FILE_STAMP_FORMAT = 'yyyy-MM-dd_HH-mm-ss';
/** Excel number format of DOUBLE cells (2 decimals, the default). */
export const DOUBLE_NUM_FMT = '#,##0.00';
/** Excel number format of DATE cells: the business zone's wall clock, as the other formats write it. */
export const DATE_NUM_FMT = 'yyyy-mm-dd hh:mm:ss';
/** The decimals of a DOUBLE cell when its field names none. */
export const DEFAULT_DECIMALS = 2;

/** Excel number format of DOUBLE cells with `decimals` decimals: '#,##0', '#,##0.0000'. */
export function doubleNumFmt(decimals: number): string {
  return decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
}

/** The Excel day 0 (1899-12-30, so that 1900-03-01 is day 61, as Excel counts), in UTC ms. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})$/;

/**
 * A wall clock 'yyyy-MM-dd HH:mm:ss' as an Excel date number (days since day 0, the time of day as the
 * fraction): the same wall clock in any spreadsheet program, whatever its zone. Undefined for any
 * other text (e.g. '-').
 */
export function excelDateOf(wall: string): number | undefined {
  const m = WALL.exec(wall);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return (Date.UTC(y, mo - 1, d, h, mi, s) - EXCEL_EPOCH_MS) / 86_400_000;
}
/** What a DATE cell shows when its value cannot be read as a date (or its year is below 1000). */
export const INVALID_DATE = '-';

const doubleFormatters = new Map<number, Intl.NumberFormat>();

/** 1234.5 → '1,234.50'; with 4 decimals 85.5057 → '85.5057'; -0.001 → '0.00' (never '-0.00'). */
export function formatDouble(n: number, decimals = DEFAULT_DECIMALS): string {
  let f = doubleFormatters.get(decimals);
  if (!f) doubleFormatters.set(decimals, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: true })));
  const s = f.format(n);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/** Characters a spreadsheet program may read as the start of a formula (or a DDE payload). */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** True when a text cell would be taken for a formula by a spreadsheet program. */
export function isFormulaLike(s: string): boolean {
  return s.length > 0 && FORMULA_TRIGGERS.has(s[0]);
}

/** Neutralises formula injection: a text starting with = + - @ TAB CR gets a leading single quote. */
export function neutralizeFormula(s: string): string {
  return isFormulaLike(s) ? `'${s}` : s;
}

// Control characters other than TAB, LF and CR are not allowed in XML 1.0 (they would corrupt the xlsx).
// eslint-disable-next-line no-control-regex
const XML_INVALID_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** A text as an export cell: stripped of characters no file can carry, then neutralised. */
export function safeText(s: string): string {
  return neutralizeFormula(s.replace(XML_INVALID_CHARS, ''));
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * Every date and time of an export is read in the business time zone (docs/business-time.md),
 * never in the zone of the browser or worker that builds the file. Intl is slow per cell (a
 * 1,000,000-row export has millions of date cells), so the zone's offset is kept per UTC day when it is
 * the same at both ends of the day (no zone has changed its offset twice within one day since 1970),
 * else per quarter hour of the day (every zone's changes since 1970 fall on a quarter hour, checked at
 * both ends of the quarter); a quarter with a change in it, and an instant before 1970, asks Intl each
 * time.
 */
const DAY_MS = 86_400_000;
const QUARTER_MS = 900_000;
/** Per zone: per UTC day, its offset in seconds, or per quarter hour (a day with a change in it). */
const offsetsByZone = new Map<string, Map<number, number | Map<number, number | null>>>();

/** The zone's offset from UTC in seconds at an instant (ms), exact (Intl). */
function offsetSecondsAt(t: number, zone: string): number {
  const w = wallClockOf(new Date(t), zone);
  return (Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(t / 1000) * 1000) / 1000;
}

function zoneOffsetSeconds(t: number, zone: string): number {
  if (t < 0) return offsetSecondsAt(t, zone);
  let byDay = offsetsByZone.get(zone);
  if (!byDay) offsetsByZone.set(zone, (byDay = new Map()));
  const day = Math.floor(t / DAY_MS);
  let o = byDay.get(day);
  if (o === undefined) {
    const start = offsetSecondsAt(day * DAY_MS, zone);
    o = start === offsetSecondsAt(day * DAY_MS + DAY_MS - 1000, zone) ? start : new Map();
    // ~100 years of days
    if (byDay.size > 40_000) byDay.clear();
    byDay.set(day, o);
  }
  if (typeof o === 'number') return o;
  const q = Math.floor(t / QUARTER_MS);
  let inQuarter = o.get(q);
  if (inQuarter === undefined) {
    const start = offsetSecondsAt(q * QUARTER_MS, zone);
    inQuarter = start === offsetSecondsAt(q * QUARTER_MS + QUARTER_MS - 1000, zone) ? start : null;
    o.set(q, inQuarter);
  }
  return inQuarter ?? offsetSecondsAt(t, zone);
}

/** The last day formatted: its number (days since 1970 on the zone's wall clock) and 'yyyy-MM-dd ' (or null: a year before 1000). */
let lastDay = NaN;
let lastDayText: string | null = null;

/** `yyyy-MM-dd HH:mm:ss` of an instant in the zone; null when its year there is before 1000. */
function formatInZone(t: number, zone: string): string | null {
  const wall = Math.floor(t / 1000) * 1000 + zoneOffsetSeconds(t, zone) * 1000;
  const day = Math.floor(wall / DAY_MS);
  if (day !== lastDay) {
    const w = new Date(day * DAY_MS);
    const y = w.getUTCFullYear();
    lastDayText = y < 1000 ? null : `${y}-${pad2(w.getUTCMonth() + 1)}-${pad2(w.getUTCDate())} `;
    lastDay = day;
  }
  if (lastDayText === null) return null;
  const secondOfDay = (wall - day * DAY_MS) / 1000;
  const h = Math.floor(secondOfDay / 3600);
  const rest = secondOfDay - h * 3600;
  const mi = Math.floor(rest / 60);
  return `${lastDayText}${pad2(h)}:${pad2(mi)}:${pad2(rest - mi * 60)}`;
}

/**
 * The instant of a wall-clock time in the zone (a date-time sent without an offset is the business
 * zone's wall clock); a time the clocks skip or repeat is read as instantOf reads it.
 */
function instantInZone(y: number, mo: number, d: number, h: number, mi: number, sec: number, ms: number, zone: string): number | null {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, sec);
  const first = asUtc - zoneOffsetSeconds(asUtc, zone) * 1000;
  const second = asUtc - zoneOffsetSeconds(first, zone) * 1000;
  if (first === second) return first + ms;
  const wall = `${String(y).padStart(4, '0')}-${pad2(mo)}-${pad2(d)}T${pad2(h)}:${pad2(mi)}:${pad2(sec)}`;
  const t = instantOf(wall, zone);
  return t ? t.getTime() + ms : null;
}

/** The ISO date-times servers send: '2026-11-19T00:02:55.000Z', '2026-11-19 00:02:55', '…+05:30'. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** The end of a time that names its own offset (parseISO reads it as that instant; without one, as a wall clock). */
const OFFSET_AT_END = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
const hasOffset = (s: string) => {
  const time = s.split(/[T ]/)[1];
  return time !== undefined && OFFSET_AT_END.test(time);
};

/**
 * The common ISO shapes read without date-fns (parseISO is the slow part of a 100,000-row export), as
 * an instant (ms); a text without an offset is a wall clock in the zone. Null when the text is another
 * shape or its fields are out of range, so parseISO decides as before.
 */
function parseIsoFast(s: string, zone: string): number | null {
  if (s.length === 24) {
    const t = parseUtcMillis(s);
    if (t !== null) return t;
  }
  const m = ISO_DATE_TIME.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const sec = m[6] ? Number(m[6]) : 0;
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  // rolled over (31 November): parseISO decides
  if (new Date(utc).getUTCDate() !== d) return null;
  const offset = m[8];
  if (!offset) return instantInZone(y, mo, d, h, mi, sec, ms, zone);
  if (offset === 'Z') return utc;
  const sign = offset[0] === '-' ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const [oh, om] = [Number(digits.slice(0, 2)), digits.length > 2 ? Number(digits.slice(2)) : 0];
  if (oh > 23 || om > 59) return null;
  return utc - sign * (oh * 60 + om) * 60_000;
}

/** The value of the digit at `i`, or NaN. */
function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/**
 * The shape the database's JSON gives a time, `yyyy-MM-ddTHH:mm:ss.sssZ`, read without a regular
 * expression (most of an export's date cells); null for anything else or out of range (the general
 * reading then decides, with the same result).
 */
function parseUtcMillis(s: string): number | null {
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.' || s[23] !== 'Z') return null;
  const y = digitAt(s, 0) * 1000 + digitAt(s, 1) * 100 + digitAt(s, 2) * 10 + digitAt(s, 3);
  const mo = digitAt(s, 5) * 10 + digitAt(s, 6);
  const d = digitAt(s, 8) * 10 + digitAt(s, 9);
  const h = digitAt(s, 11) * 10 + digitAt(s, 12);
  const mi = digitAt(s, 14) * 10 + digitAt(s, 15);
  const sec = digitAt(s, 17) * 10 + digitAt(s, 18);
  const ms = digitAt(s, 20) * 100 + digitAt(s, 21) * 10 + digitAt(s, 22);
  // NaN (a non-digit) fails every comparison
  if (!(y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0)) return null;
  // 31 November, 29 February of a common year
  if (d > 28 && d > daysInMonth(y, mo)) return null;
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function daysInMonth(y: number, mo: number): number {
  return mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : DAYS_IN_MONTH[mo - 1]!;
}

/** Any other ISO text date-fns reads (a date alone, week dates, …): its own offset, else a wall clock in the zone. */
function parseIsoSlow(s: string, zone: string): number | null {
  const d = parseISO(s);
  if (!isValid(d)) return null;
  if (hasOffset(s)) return d.getTime();
  // before year 1000: a placeholder, never a date (and Date.UTC would read years 0-99 as 19xx)
  if (d.getFullYear() < 1000) return null;
  // parseISO gave the wall clock in the local zone's fields: read them in the business zone instead
  return instantInZone(d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds(), zone);
}

/**
 * Formats a date value as `yyyy-MM-dd HH:mm:ss` in the business time zone `zone`; '-' when unreadable
 * or before year 1000. An instant (Date, epoch ms, ISO text with Z or an offset) is shown in the zone;
 * an ISO text without an offset is taken as the zone's wall clock.
 */
export function formatDateValue(value: unknown, zone: string): string {
  if (value === null || value === undefined) return '';
  let t: number | null;
  if (value instanceof Date) t = value.getTime();
  else if (typeof value === 'number') t = value;
  else if (typeof value === 'string') {
    const s = value.trim();
    if (s === '') return '';
    t = parseIsoFast(s, zone) ?? parseIsoSlow(s, zone);
  } else return INVALID_DATE;
  if (t === null || !Number.isFinite(t) || Math.abs(t) > 8.64e15) return INVALID_DATE;
  // a placeholder ('0001-01-01T00:00:00Z'), never a date: and Intl names years before 1 by their era
  if (new Date(t).getUTCFullYear() < 1000) return INVALID_DATE;
  return formatInZone(t, zone) ?? INVALID_DATE;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const MAX_DEPTH = 6;

/** One value on one line: arrays joined with ', ', objects as 'key: value' pairs (nested ones in parentheses). */
function formatInline(v: unknown, depth: number, zone: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return formatDateValue(v, zone);
  if (typeof v !== 'object') return ''; // functions, symbols
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(v)) {
    return v
      .map((x) => (isPlainObject(x) ? `(${formatObject(x, depth + 1, zone)})` : formatInline(x, depth + 1, zone)))
      .filter((s) => s !== '')
      .join(', ');
  }
  if (isPlainObject(v)) return formatObject(v, depth + 1, zone);
  // class instances with their own text form (Decimal, URL, …)
  const s = String(v);
  return s === '[object Object]' ? formatObject(v as Record<string, unknown>, depth + 1, zone) : s;
}

function formatObject(o: Record<string, unknown>, depth: number, zone: string): string {
  return Object.entries(o)
    .filter(([, x]) => x !== null && x !== undefined && typeof x !== 'function')
    .map(([k, x]) => {
      const inner = isPlainObject(x) ? `(${formatInline(x, depth, zone)})` : formatInline(x, depth, zone);
      return `${k}: ${inner}`;
    })
    .join(', ');
}

/**
 * Any value as display text: null/undefined → '', arrays → joined with ', ', objects → 'key: value' pairs
 * joined with ', ', arrays of objects → one line per object.
 */
export function formatValue(v: unknown, zone: string): string {
  if (Array.isArray(v) && v.some(isPlainObject)) {
    return v
      .map((x) => (isPlainObject(x) ? formatObject(x, 1, zone) : formatInline(x, 1, zone)))
      .filter((s) => s !== '')
      .join('\n');
  }
  return formatInline(v, 0, zone);
}

/** A finite number from a number / numeric string / bigint, else undefined. */
function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) return undefined;
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const TRUE_TEXT = new Set(['true', 'yes', 'y', '1']);
const FALSE_TEXT = new Set(['false', 'no', 'n', '0']);

function toBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE_TEXT.has(s)) return true;
    if (FALSE_TEXT.has(s)) return false;
  }
  return undefined;
}

/** The item fields of a 'list' column: its items become one text line each, 'Label: value, …'. */
export type ItemFields = readonly { readonly key: string; readonly label: string }[];

/** A 'list' column's items as the exports show them: one line per item, labelled by its item fields. */
export function listItemsText(items: readonly unknown[], itemFields: ItemFields): string {
  return items
    .map((item) => {
      const o = (item ?? {}) as Record<string, unknown>;
      return itemFields.map((f) => `${f.label}: ${o[f.key] === null || o[f.key] === undefined ? '' : String(o[f.key])}`).join(', ');
    })
    .join('\n');
}

/** One cell of the export as it will be shown. Texts coming from the data are formula-neutralised. */
export function formatCell(field: ExportField, value: unknown, target: ExportTarget, zone: string): ExportCell {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'DOUBLE': {
      const n = toNumber(value);
      if (n !== undefined) return target === 'pdf' ? formatDouble(n, field.decimals) : n;
      break;
    }
    case 'INTEGER': {
      const n = toNumber(value);
      if (n !== undefined) return n;
      break;
    }
    case 'DATE':
      // our own placeholder '-' is not data and is not a formula: left as is
      if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) {
        const text = formatDateValue(value, zone);
        return target === 'xlsx' ? (excelDateOf(text) ?? text) : text;
      }
      break;
    case 'BOOLEAN': {
      const b = toBoolean(value);
      if (b !== undefined) return b ? 'Yes' : 'No';
      break;
    }
    case 'STRING':
      break;
  }
  return safeText(formatValue(value, zone));
}

/**
 * Pure: the table as the export will show it — header row plus formatted string/number cells, in `fields`
 * order. With the default target 'xlsx' DOUBLE and INTEGER cells are numbers; with 'pdf' DOUBLE cells are
 * strings with 2 decimals and thousands separators ('1,234.50').
 */
export function toExportTable(fields: ExportField[], rows: ExportRow[], target: ExportTarget, zone: string): ExportTable {
  return {
    headers: fields.map((f) => safeText(f.header)),
    body: rows.map((row) => fields.map((f) => formatCell(f, row?.[f.dataKey], target, zone))),
  };
}

export interface ExportContext {
  /** e.g. 'Users' */
  title: string;
  /** e.g. 'Users' → file name `${fileBase}_${yyyy-MM-dd_HH-mm-ss}.xlsx`/.pdf (stamped with `now`) */
  fileBase: string;
  /** the signed-in user → the line 'On {date} by {username}' */
  username: string;
  now: Date;
  /**
   * The business time zone (an IANA name, docs/business-time.md): the 'On' line, the file name's
   * stamp and every DATE cell are read in it, never in the browser's zone; the 'On' line names it.
   */
  timeZone: string;
  /** Optional 'Duration' line: the filter range shown in the export, e.g. '2026-11-22 00:00:01 to 2026-11-22 23:59:59'. When absent the line reads 'Duration: -'. */
  duration?: string;
}

/** `${fileBase}_${yyyy-MM-dd_HH-mm-ss}.${ext}`; characters no file system accepts become '_'. */
export function exportFileName(ctx: ExportContext, ext: 'xlsx' | 'pdf' | 'csv'): string {
  // eslint-disable-next-line no-control-regex
  const base = ctx.fileBase.replace(/[\\/:*?"<>|\u0000-\u001F]/g, '_').trim() || 'export';
  return `${base}_${fileStamp(ctx)}.${ext}`;
}

/** `now` as the file name's stamp, `yyyy-MM-dd_HH-mm-ss` in the business time zone. */
export function fileStamp(ctx: Pick<ExportContext, 'now' | 'timeZone'>): string {
  return businessDateTime(ctx.now, ctx.timeZone).replace('T', '_').replace(/:/g, '-');
}

/**
 * The three lines above the table: title, 'On {date} by {username}. Times in {zone} (UTC±hh:mm)' (the
 * zone named once, as the page names it: the Duration and every DATE cell are in it too), and
 * 'Duration: {duration}'.
 */
export function headerLines(ctx: ExportContext): [title: string, byLine: string, durationLine: string] {
  const duration = ctx.duration?.trim() ? ctx.duration.trim() : '-';
  const on = businessDateTime(ctx.now, ctx.timeZone).replace('T', ' ');
  return [ctx.title, `On ${on} by ${ctx.username}. ${timeZoneNote(ctx.timeZone, ctx.now)}`, `Duration: ${duration}`];
}

/** A worksheet name Excel accepts: no []:*?/\ , no leading/trailing apostrophe, at most 31 characters. */
export function sheetName(title: string): string {
  const cleaned = title
    // eslint-disable-next-line no-control-regex
    .replace(/[[\]:*?/\\\u0000-\u001F]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 31)
    .replace(/^'+|'+$/g, '')
    .trim();
  return cleaned || 'Sheet1';
}
