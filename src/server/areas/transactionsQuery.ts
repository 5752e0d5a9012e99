/**
 * The SQL of the transaction lists and counts, shared by the handlers and by the bench
 * (scripts/bench-api.ts), which runs the very same statements directly to compare.
 *
 * A list selects only the columns of the call's row schema (plus the status and amount its totals
 * need), filters by the initiated-time range, country, overall status and a prefix of the search
 * columns, and returns the first `fetchCount` rows in the order they were initiated. The totals
 * query sums the same filter without the cap.
 */
import type { z } from 'zod';
import type { TransactionKind } from '../../domain/transactionStatus';
import type { Db } from '../db/db';
import { HttpError } from '../http/httpError';
import { minuteOf, type ListFilters } from '../../api/transactions';
import { parseLocal } from '../../domain/dates';
import { localDay } from './transactionsStats';

export interface KindSpec {
  readonly kind: TransactionKind;
  readonly table: string;
  /** Columns the search text matches by prefix. */
  readonly search: readonly string[];
}

export const kinds: Record<TransactionKind, KindSpec> = {
  ceft: { kind: 'ceft', table: 'ceft_transactions', search: ['uid', 'trace', 'account_number'] },
  bill: { kind: 'bill', table: 'bill_transactions', search: ['uid', 'trace', 'account_number'] },
  echannelling: { kind: 'echannelling', table: 'echannelling_transactions', search: ['uid', 'trace'] },
  thyaga: { kind: 'thyaga', table: 'thyaga_transactions', search: ['uid', 'trace'] },
  insurance: { kind: 'insurance', table: 'insurance_transactions', search: ['uid'] },
};

/** Row keys that are not a column of the same name. */
const expressions: Record<string, string> = {
  bank_name: 'coalesce(b.bank_name, t.bank_code)',
  appointment_date: `to_char(t.appointment_date, 'YYYY-MM-DD')`,
  dependants: `coalesce((SELECT json_agg(json_build_object('id', d.id, 'title', d.title, 'name', d.name, 'nic_number', d.nic_number,
      'relation_type', d.relation_type, 'mobile_number', d.mobile_number, 'email', d.email) ORDER BY d.id)
    FROM insurance_dependants d WHERE d.insurance_transaction_id = t.id), '[]'::json)`,
};

/**
 * The timestamp columns, sent as ISO text made by the database: placeholder times before year 1000
 * ('not happened') would be misread by JavaScript's date parsing (year 1 becomes 2001).
 */
export const timeColumns = new Set([
  'initiated_time', 'card_payment_time', 'created_at', 'updated_at', 'ipg_void_payment_time', 'ipg_refund_payment_time', 'ceft_payment_time',
  'bill_payment_time', 'ec_booking_time', 'thyaga_payment_time', 'send_at', 'insurance_payment_time',
]);

const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const joins: Record<string, string> = {
  bank_name: 'LEFT JOIN banks b ON b.bank_code = t.bank_code',
};

/** The filters of a list call, checked and in the database's terms. */
export interface ResolvedFilters {
  /** Start of From's minute (inclusive). */
  readonly from: Date;
  /** End of To's minute (exclusive). */
  readonly toExclusive: Date;
  readonly country: string;
  /** Overall statuses the rows must have (empty: any). */
  readonly statuses: readonly string[];
  /** The search text, upper-cased (customer ids and traces are stored upper-case). */
  readonly text: string;
  readonly fetchCount: number;
}

/** All rows of the range: the fetch count of the calls without one. */
export const ALL_ROWS = 99_999_999;

/** Turns a checked request body into filters; an unknown country is a 400 naming country_code. */
export async function resolveFilters(db: Db, body: ListFilters, onlyStatus?: string): Promise<ResolvedFilters> {
  const from = parseLocal(body.from_date);
  const to = parseLocal(body.to_date);
  if (!from || !to) throw new HttpError(400, 'from_date: Not a valid date-time');
  if (body.country_code && !(await db.one('SELECT 1 FROM countries WHERE code = $1', [body.country_code]))) {
    throw new HttpError(400, `country_code: Unknown country '${body.country_code}'`);
  }
  const statuses = [body.status, onlyStatus].filter((s): s is string => !!s);
  return {
    from: new Date(minuteOf(body.from_date) * 60_000),
    toExclusive: new Date((minuteOf(body.to_date) + 1) * 60_000),
    country: body.country_code,
    // two different statuses required at once match nothing: keep both, the SQL ANDs them
    statuses,
    text: body.data.trim().toUpperCase(),
    fetchCount: body.fetchCount ?? ALL_ROWS,
  };
}

export interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** `x` as a LIKE prefix pattern: its wildcards escaped, then '%'. */
export function prefixPattern(x: string): string {
  return `${x.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function whereOf(spec: KindSpec, f: ResolvedFilters): { where: string; params: unknown[] } {
  const params: unknown[] = [f.from, f.toExclusive];
  const parts = ['t.initiated_time >= $1', 't.initiated_time < $2'];
  if (f.country) {
    params.push(f.country);
    parts.push(`t.country = $${params.length}`);
  }
  for (const s of f.statuses) {
    params.push(s);
    parts.push(`t.status = $${params.length}`);
  }
  if (f.text) {
    params.push(prefixPattern(f.text));
    const n = params.length;
    parts.push(`(${spec.search.map((c) => `t.${c} LIKE $${n}`).join(' OR ')})`);
  }
  return { where: parts.join(' AND '), params };
}

/** The internal columns a list adds for its totals (removed before the reply). */
export const TOTAL_STATUS = '__status';
export const TOTAL_AMOUNT = '__amount';

/** The rows of a list: the row schema's columns, filtered, in initiated order, capped. */
export function listSql(spec: KindSpec, keys: readonly string[], f: ResolvedFilters, amountColumn: 'amount_usd' | 'amount_lkr'): Sql {
  const { where, params } = whereOf(spec, f);
  const select = keys.map((k) => (expressions[k] ? `${expressions[k]} AS ${k}` : timeColumns.has(k) ? `${isoText(`t.${k}`)} AS ${k}` : `t.${k}`));
  select.push(`t.status AS ${TOTAL_STATUS}`, `t.${amountColumn} AS ${TOTAL_AMOUNT}`);
  const join = keys.flatMap((k) => (joins[k] ? [joins[k]] : [])).join(' ');
  params.push(f.fetchCount);
  return {
    sql: `SELECT ${select.join(', ')} FROM ${spec.table} t ${join} WHERE ${where} ORDER BY t.initiated_time, t.id LIMIT $${params.length}`,
    params,
  };
}

const isMidnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;

/** The local days a range covers when it is made of whole days and nothing filters by text; else undefined. */
export function wholeDaysOf(f: ResolvedFilters): { first: string; last: string } | undefined {
  if (f.text || !isMidnight(f.from) || !isMidnight(f.toExclusive) || f.toExclusive <= f.from) return undefined;
  return { first: localDay(f.from), last: localDay(new Date(f.toExclusive.getTime() - 1)) };
}

/**
 * The total of the rows with `status` among all rows matching the filters (no cap). A range of whole
 * days without search text (the default filter is one) is summed from the daily roll-up; any other
 * range from the transactions.
 */
export function totalSql(spec: KindSpec, f: ResolvedFilters, status: string, amountColumn: 'amount_usd' | 'amount_lkr'): Sql {
  const days = wholeDaysOf(f);
  if (days) {
    const params: unknown[] = [spec.kind, days.first, days.last, status];
    const parts = ['s.kind = $1', 's.day >= $2::date', 's.day <= $3::date', 's.status = $4'];
    if (f.country) {
      params.push(f.country);
      parts.push(`s.country = $${params.length}`);
    }
    for (const st of f.statuses) {
      params.push(st);
      parts.push(`s.status = $${params.length}`);
    }
    return { sql: `SELECT coalesce(sum(s.${amountColumn}), 0) AS total FROM transaction_daily_stats s WHERE ${parts.join(' AND ')}`, params };
  }
  const { where, params } = whereOf(spec, f);
  params.push(status);
  return {
    sql: `SELECT coalesce(sum(t.${amountColumn}), 0) AS total FROM ${spec.table} t WHERE ${where} AND t.status = $${params.length}`,
    params,
  };
}

/** The counts by overall status of one kind, from the daily roll-up. */
export function countsSql(kind: TransactionKind): Sql {
  return {
    sql: 'SELECT status, sum(count) AS count FROM transaction_daily_stats WHERE kind = $1 GROUP BY status',
    params: [kind],
  };
}

/** The country filter's options. */
export const countriesSql: Sql = { sql: 'SELECT code, name FROM countries ORDER BY name', params: [] };

/** A database row as the wire carries it: Dates as ISO text, the totals' helper columns removed. */
export function toWire(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === TOTAL_STATUS || k === TOTAL_AMOUNT) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** The keys of a row schema (the columns a list selects). */
export function keysOf(row: z.ZodObject): string[] {
  return Object.keys(row.shape);
}
