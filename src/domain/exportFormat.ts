/**
 * Pure formatting helpers of the exports: no exceljs / jspdf in here, so screens may import them freely.
 */
import { format, isValid, parseISO } from 'date-fns';
import type { ExportField } from '../api/contract';
import { displayDateTime, offsetMinutesAt } from './businessTime';

export type ExportRow = Record<string, unknown>;
export type ExportCell = string | number;
export interface ExportTable {
  headers: string[];
  body: ExportCell[][];
}
/** Which file the table is meant for: DOUBLE cells stay numbers for 'xlsx', become '1,234.50' strings for 'pdf'. */
export type ExportTarget = 'xlsx' | 'pdf';

export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const FILE_STAMP_FORMAT = 'yyyy-MM-dd_HH-mm-ss';
/** Excel number format of DOUBLE cells. */
export const DOUBLE_NUM_FMT = '#,##0.00';
/** What a DATE cell shows when its value cannot be read as a date (or its year is below 1000). */
export const INVALID_DATE = '-';

const doubleFormatter = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  useGrouping: true,
});

/** 1234.5 → '1,234.50'; -0.001 → '0.00' (never '-0.00'). */
export function formatDouble(n: number): string {
  const s = doubleFormatter.format(n);
  return /^-0\.00$/.test(s) ? '0.00' : s;
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

/** `yyyy-MM-dd HH:mm:ss` of a valid date, local time (date-fns `format` is ten times slower per cell). */
function formatLocal(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** The ISO date-times servers send: '2026-11-19T00:02:55.000Z', '2026-11-19 00:02:55', '…+05:30'. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * The common ISO shapes read without date-fns (parseISO is the slow part of a 100,000-row export); null
 * when the text is another shape or its fields are out of range, so parseISO decides as before.
 */
function parseIsoFast(s: string): Date | null {
  const m = ISO_DATE_TIME.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const sec = m[6] ? Number(m[6]) : 0;
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return null;
  const zone = m[8];
  if (!zone) {
    const local = new Date(y, mo - 1, d, h, mi, sec, ms);
    // rolled over (31 November) or moved by a daylight-saving gap: parseISO decides
    if (local.getDate() !== d || local.getHours() !== h || local.getMinutes() !== mi) return null;
    return local;
  }
  const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  if (new Date(utc).getUTCDate() !== d) return null;
  if (zone === 'Z') return new Date(utc);
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const [oh, om] = [Number(digits.slice(0, 2)), digits.length > 2 ? Number(digits.slice(2)) : 0];
  if (oh > 23 || om > 59) return null;
  const offset = oh * 60 + om;
  return new Date(utc - sign * offset * 60_000);
}

/** Formats a date value as `yyyy-MM-dd HH:mm:ss` local time; '-' when unreadable or before year 1000. */
export function formatDateValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  let d: Date;
  if (value instanceof Date) d = value;
  else if (typeof value === 'number') d = new Date(value);
  else if (typeof value === 'string') {
    const s = value.trim();
    if (s === '') return '';
    d = parseIsoFast(s) ?? parseISO(s);
  } else return INVALID_DATE;
  if (!isValid(d) || d.getFullYear() < 1000) return INVALID_DATE;
  return formatLocal(d);
}

/** Offsets of a zone by quarter hour (every zone changes its offset on a quarter hour): Intl is slow per cell. */
const zoneOffsets = new Map<string, Map<number, number>>();

function wallTextIn(d: Date, zone: string): string {
  let offsets = zoneOffsets.get(zone);
  if (!offsets) zoneOffsets.set(zone, (offsets = new Map()));
  const quarter = Math.floor(d.getTime() / 900_000);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    offset = offsetMinutesAt(new Date(quarter * 900_000), zone);
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(quarter, offset);
  }
  const w = new Date(d.getTime() + offset * 60_000);
  return `${w.getUTCFullYear()}-${pad2(w.getUTCMonth() + 1)}-${pad2(w.getUTCDate())} ${pad2(w.getUTCHours())}:${pad2(w.getUTCMinutes())}:${pad2(w.getUTCSeconds())}`;
}

/**
 * formatDateValue, with instants (Dates, numbers, texts carrying Z or an offset) written in `zone`
 * (the business time zone, as the console shows times); a text without a zone is a wall-clock time
 * already and is written as it reads.
 */
export function formatDateValueIn(value: unknown, zone: string): string {
  if (value === null || value === undefined) return '';
  let d: Date | null = null;
  if (value instanceof Date) d = value;
  else if (typeof value === 'number') d = new Date(value);
  else if (typeof value === 'string') {
    const s = value.trim();
    const m = ISO_DATE_TIME.exec(s);
    if (!m || !m[8]) return formatDateValue(value);
    d = parseIsoFast(s) ?? parseISO(s);
  } else return INVALID_DATE;
  if (!isValid(d) || d.getUTCFullYear() < 1000) return INVALID_DATE;
  return wallTextIn(d, zone);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const MAX_DEPTH = 6;

/** One value on one line: arrays joined with ', ', objects as 'key: value' pairs (nested ones in parentheses). */
function formatInline(v: unknown, depth: number): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return formatDateValue(v);
  if (typeof v !== 'object') return ''; // functions, symbols
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(v)) {
    return v
      .map((x) => (isPlainObject(x) ? `(${formatObject(x, depth + 1)})` : formatInline(x, depth + 1)))
      .filter((s) => s !== '')
      .join(', ');
  }
  if (isPlainObject(v)) return formatObject(v, depth + 1);
  // class instances with their own text form (Decimal, URL, …)
  const s = String(v);
  return s === '[object Object]' ? formatObject(v as Record<string, unknown>, depth + 1) : s;
}

function formatObject(o: Record<string, unknown>, depth: number): string {
  return Object.entries(o)
    .filter(([, x]) => x !== null && x !== undefined && typeof x !== 'function')
    .map(([k, x]) => {
      const inner = isPlainObject(x) ? `(${formatInline(x, depth)})` : formatInline(x, depth);
      return `${k}: ${inner}`;
    })
    .join(', ');
}

/**
 * Any value as display text: null/undefined → '', arrays → joined with ', ', objects → 'key: value' pairs
 * joined with ', ', arrays of objects → one line per object.
 */
export function formatValue(v: unknown): string {
  if (Array.isArray(v) && v.some(isPlainObject)) {
    return v
      .map((x) => (isPlainObject(x) ? formatObject(x, 1) : formatInline(x, 1)))
      .filter((s) => s !== '')
      .join('\n');
  }
  return formatInline(v, 0);
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
/** `zone`: DATE cells' instants are written in it (formatDateValueIn); absent, in local time. */
export function formatCell(field: ExportField, value: unknown, target: ExportTarget = 'xlsx', zone?: string): ExportCell {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'DOUBLE': {
      const n = toNumber(value);
      if (n !== undefined) return target === 'pdf' ? formatDouble(n) : n;
      break;
    }
    case 'INTEGER': {
      const n = toNumber(value);
      if (n !== undefined) return n;
      break;
    }
    case 'DATE':
      // our own placeholder '-' is not data and is not a formula: left as is
      if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return zone ? formatDateValueIn(value, zone) : formatDateValue(value);
      break;
    case 'BOOLEAN': {
      const b = toBoolean(value);
      if (b !== undefined) return b ? 'Yes' : 'No';
      break;
    }
    case 'STRING':
      break;
  }
  return safeText(formatValue(value));
}

/**
 * Pure: the table as the export will show it — header row plus formatted string/number cells, in `fields`
 * order. With the default target 'xlsx' DOUBLE and INTEGER cells are numbers; with 'pdf' DOUBLE cells are
 * strings with 2 decimals and thousands separators ('1,234.50').
 */
export function toExportTable(fields: ExportField[], rows: ExportRow[], target: ExportTarget = 'xlsx'): ExportTable {
  return {
    headers: fields.map((f) => safeText(f.header)),
    body: rows.map((row) => fields.map((f) => formatCell(f, row?.[f.dataKey], target))),
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
  /** Optional 'Duration' line: the filter range shown in the export, e.g. '2026-11-22 00:00:01 to 2026-11-22 23:59:59'. When absent the line reads 'Duration: -'. */
  duration?: string;
  /**
   * The IANA zone `now` is written in (the server's export jobs: the business time zone, whatever the
   * server process's zone). Absent: the local time of the runtime (the browser's exports).
   */
  zone?: string;
}

/** `now` as `yyyy-MM-dd HH:mm:ss`, in ctx.zone when given, else local time. */
function nowText(ctx: ExportContext): string {
  return ctx.zone ? displayDateTime(ctx.now, ctx.zone) : format(ctx.now, DATE_TIME_FORMAT);
}

/** `${fileBase}_${yyyy-MM-dd_HH-mm-ss}.${ext}`; characters no file system accepts become '_'. */
export function exportFileName(ctx: ExportContext, ext: 'xlsx' | 'pdf' | 'csv'): string {
  // eslint-disable-next-line no-control-regex
  const base = ctx.fileBase.replace(/[\\/:*?"<>|\u0000-\u001F]/g, '_').trim() || 'export';
  const stamp = ctx.zone ? nowText(ctx).replace(' ', '_').replace(/:/g, '-') : format(ctx.now, FILE_STAMP_FORMAT);
  return `${base}_${stamp}.${ext}`;
}

/** The three lines above the table: title, 'On {date} by {username}', 'Duration: {duration}'. */
export function headerLines(ctx: ExportContext): [title: string, byLine: string, durationLine: string] {
  const duration = ctx.duration?.trim() ? ctx.duration.trim() : '-';
  return [ctx.title, `On ${nowText(ctx)} by ${ctx.username}`, `Duration: ${duration}`];
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
