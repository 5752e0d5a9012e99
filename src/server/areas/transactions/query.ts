/**
 * The SQL of the transaction lists and counts, shared by the handlers and by the bench
 * (scripts/bench-api.ts), which runs the very same statement directly to compare.
 *
 * A list call is one statement (`listReplySql`): it selects only the columns of the call's row
 * schema, filters by the initiated-time range, country, overall status and a prefix of the search
 * columns, keeps the first `fetchCount` rows in the order they were initiated, and returns, as JSON
 * text built by the database, those rows, the first page (the first 50 by id), the total of the
 * filter without the cap (from the daily roll-up when the range is whole days without search text),
 * the total of the capped rows, the country options, and whether the country filter is a known
 * country. The server pastes these texts into the reply (see ./handlers.ts): no row objects are
 * made in Node, no reply parse or stringify of the rows, so 100,000 rows cost what the database
 * takes to write them plus the compression.
 */
import type { z } from 'zod';
import type { TransactionKind } from '../../../domain/transactionStatus';
import { HttpError } from '../../http/httpError';
import type { ListFilters } from '../../../api/transactions';
import { madeOnce } from '../../madeOnce';
import { businessDateTime, instantOf } from '../../../domain/businessTime';
import { localDay } from './stats';
import { transactionKindSpecs, type TransactionKindSpec } from './kinds';

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
  'initiated_time',
  'card_payment_time',
  'created_at',
  'updated_at',
  'ipg_void_payment_time',
  'ipg_refund_payment_time',
  'ceft_payment_time',
  'bill_payment_time',
  'ec_booking_time',
  'thyaga_payment_time',
  'send_at',
  'insurance_payment_time',
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
  /**
   * The acquiring provider the caller is limited to (an IPG bank user: src/server/providerScope.ts),
   * or undefined for every provider. Served by the (provider_bank_code, initiated_time) index.
   */
  readonly provider?: string;
  /** The business time zone the range's wall-clock values were read in (the roll-up's days are in it too). */
  readonly zone: string;
}

/** All rows of the range: the fetch count of the calls without one. */
export const ALL_ROWS = 99_999_999;

/**
 * Turns a checked request body into filters. from_date and to_date are wall-clock times of the
 * business time zone `zone` (BUSINESS_TIME_ZONE), whatever the zone of the server process or of the
 * caller: a filter for one business day returns the rows the console shows on that day. The country
 * code is checked by the list statement itself (`country_known`), saving a round trip; an unknown one
 * is a 400 naming country_code.
 */
export function resolveFilters(body: ListFilters, zone: string, onlyStatus?: string, provider?: string): ResolvedFilters {
  const from = instantOf(body.from_date, zone);
  const to = instantOf(body.to_date, zone);
  if (!from) throw new HttpError(400, 'from_date: Not a valid date-time');
  if (!to) throw new HttpError(400, 'to_date: Not a valid date-time');
  const statuses = [body.status, onlyStatus].filter((s): s is string => !!s);
  return {
    // the start of From's minute, the end of To's minute
    from: new Date(Math.floor(from.getTime() / 60_000) * 60_000),
    toExclusive: new Date((Math.floor(to.getTime() / 60_000) + 1) * 60_000),
    zone,
    country: body.country_code,
    // two different statuses required at once match nothing: keep both, the SQL ANDs them
    statuses,
    text: body.data.trim().toUpperCase(),
    fetchCount: body.fetchCount ?? ALL_ROWS,
    provider,
  };
}

export function unknownCountry(code: string): HttpError {
  return new HttpError(400, `country_code: Unknown country '${code}'`);
}

export interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** `x` as a LIKE prefix pattern: its wildcards escaped, then '%'. */
export function prefixPattern(x: string): string {
  return `${x.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A statement's parameter list: `p(value)` adds a value and gives its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  p(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function whereOf(spec: TransactionKindSpec, f: ResolvedFilters, ps: Params): string {
  const parts = [`t.initiated_time >= ${ps.p(f.from)}`, `t.initiated_time < ${ps.p(f.toExclusive)}`];
  if (f.provider !== undefined) parts.push(`t.provider_bank_code = ${ps.p(f.provider)}`);
  if (f.country) parts.push(`t.country = ${ps.p(f.country)}`);
  for (const s of f.statuses) parts.push(`t.status = ${ps.p(s)}`);
  if (f.text) {
    const pattern = ps.p(prefixPattern(f.text));
    parts.push(`(${spec.search.map((c) => `t.${c} LIKE ${pattern}`).join(' OR ')})`);
  }
  return parts.join(' AND ');
}

const isMidnight = (d: Date, zone: string) => d.getMilliseconds() === 0 && businessDateTime(d, zone).endsWith('T00:00:00');

/**
 * The business days a range covers when it is made of whole days and nothing filters by text or
 * provider (the roll-up has no provider); else undefined.
 */
export function wholeDaysOf(f: ResolvedFilters): { first: string; last: string } | undefined {
  if (f.text || f.provider !== undefined || !isMidnight(f.from, f.zone) || !isMidnight(f.toExclusive, f.zone) || f.toExclusive <= f.from) return undefined;
  return { first: localDay(f.from, f.zone), last: localDay(new Date(f.toExclusive.getTime() - 1), f.zone) };
}

/**
 * The total of the rows with `status` among all rows matching the filters (no cap), as a scalar
 * subquery. A range of whole days without search text (the default filter is one) is summed from the
 * daily roll-up; any other range from the transactions.
 */
function totalSubquery(spec: TransactionKindSpec, f: ResolvedFilters, status: string, amountColumn: 'amount_usd' | 'amount_lkr', ps: Params): string {
  const days = wholeDaysOf(f);
  if (days) {
    const parts = [`s.kind = ${ps.p(spec.kind)}`, `s.day >= ${ps.p(days.first)}::date`, `s.day <= ${ps.p(days.last)}::date`, `s.status = ${ps.p(status)}`];
    if (f.country) parts.push(`s.country = ${ps.p(f.country)}`);
    for (const st of f.statuses) parts.push(`s.status = ${ps.p(st)}`);
    return `SELECT coalesce(sum(s.${amountColumn}), 0) FROM transaction_daily_stats s WHERE ${parts.join(' AND ')}`;
  }
  const where = whereOf(spec, f, ps);
  return `SELECT coalesce(sum(t.${amountColumn}), 0) FROM ${spec.table} t WHERE ${where} AND t.status = ${ps.p(status)}`;
}

/**
 * How many rows match the filters without the fetch count cap, as a scalar subquery: from the daily
 * roll-up for a range of whole days without search text or provider (the default filter is one, and
 * the count cards read the same roll-up), else a count(*) with the list's own WHERE.
 */
function matchingSubquery(spec: TransactionKindSpec, f: ResolvedFilters, ps: Params): string {
  const days = wholeDaysOf(f);
  if (days) {
    const parts = [`s.kind = ${ps.p(spec.kind)}`, `s.day >= ${ps.p(days.first)}::date`, `s.day <= ${ps.p(days.last)}::date`];
    if (f.country) parts.push(`s.country = ${ps.p(f.country)}`);
    for (const st of f.statuses) parts.push(`s.status = ${ps.p(st)}`);
    return `SELECT coalesce(sum(s.count), 0) FROM transaction_daily_stats s WHERE ${parts.join(' AND ')}`;
  }
  return `SELECT count(*) FROM ${spec.table} t WHERE ${whereOf(spec, f, ps)}`;
}

/**
 * The `matching` column: the capped rows' count when the cap was not reached (then every matching
 * row is there, no further read), else the count of the filter without the cap.
 */
function matchingColumn(spec: TransactionKindSpec, f: ResolvedFilters, ps: Params, capped: string, limit: string): string {
  return `CASE WHEN (SELECT count(*) FROM ${capped}) < ${limit}::bigint THEN (SELECT count(*) FROM ${capped}) ELSE (${matchingSubquery(spec, f, ps)}) END AS matching`;
}

/**
 * The JSON of one row, compact, in the row schema's key order: a row of exactly those columns as JSON.
 * Made once per key list (keysOf gives one array per row schema), as are the joins: a list call would
 * otherwise make them anew from ~45 keys.
 */
const valueOf = (k: string) => expressions[k] ?? (timeColumns.has(k) ? isoText(`t.${k}`) : `t.${k}`);

export const rowJson = madeOnce((keys: readonly string[]) => {
  return `(SELECT row_to_json(x)::text FROM (SELECT ${keys.map((k) => `${valueOf(k)} AS ${k}`).join(', ')}) x)`;
});

/**
 * The compact form of a row (what a client asking for `x-list-rows: arrays2` gets, see
 * ./transactions.ts): its values as one JSON array in the order of `keys`, the same values as
 * `rowJson` but the times, which are the UTC wall clock without the zone (PostgreSQL's JSON text of a
 * timestamp: formatting the documented text was a third of the statement's time; the reader makes
 * it, see `compactTimesOf`). Nested JSON values go through jsonb, whose text has no line breaks (json_agg's has), so
 * that each row of a compact reply is exactly one line.
 */
export const rowArrayJson = madeOnce((keys: readonly string[]) => {
  return `json_build_array(${keys.map((k) => (expressions[k]?.includes('json_') ? `(${expressions[k]})::jsonb` : isCompactTime(k) ? `t.${k} AT TIME ZONE 'UTC'` : valueOf(k))).join(', ')})::text`;
});

/** A time column, sent in the compact form as the UTC wall clock (src/api/listRows.ts LIST_ROWS_TIMES). */
const isCompactTime = (k: string) => !expressions[k] && timeColumns.has(k);

/** The places of the times among `keys` in the compact form (the reply's `filteredListTimes`). */
export const compactTimesOf = madeOnce((keys: readonly string[]): readonly number[] => Object.freeze(keys.flatMap((k, i) => (isCompactTime(k) ? [i] : []))));

/** The rows of a list as JSON: objects (the documented reply) or arrays of values in the keys' order (the compact reply). */
export type RowForm = 'objects' | 'arrays';

/** The text between two rows: the compact form puts each row on a line of its own. */
export const rowSeparator = (form: RowForm) => (form === 'arrays' ? ',\n' : ',');

const rowExpression = (keys: readonly string[], form: RowForm) => (form === 'arrays' ? rowArrayJson(keys) : rowJson(keys));

export interface ListReplyOptions {
  /** The row schema's keys: exactly the columns selected. */
  readonly keys: readonly string[];
  readonly amountColumn: 'amount_usd' | 'amount_lkr';
  /** The status whose amounts the totals sum. */
  readonly totalStatus: string;
  /** Rows of the first page (0: the call has none). */
  readonly firstPage: number;
}

/** What `listReplySql` returns (one row). */
export interface ListReplyRow {
  /** The rows' JSON objects joined by commas (no brackets); NULL when asked for at most some and there are more. */
  rows: string | null;
  /** The first page's JSON objects joined by commas (no brackets). */
  first_page: string;
  total: number;
  filtered_total: number;
  /** The country options, a JSON array. */
  countries: string;
  country_known: boolean;
  /** How many rows match the filters without the fetch count (a bigint: text from node-postgres). */
  matching: number | string;
}

/** The joins the row JSON of `keys` needs. */
export const joinsOf = madeOnce((keys: readonly string[]) => keys.flatMap((k) => (joins[k] ? [joins[k]] : [])).join(' '));

/** The totals, the country options and whether the country is known: the columns every list reply statement ends with. */
function replyTailColumns(spec: TransactionKindSpec, f: ResolvedFilters, o: ListReplyOptions, ps: Params, capped: string): string {
  const status = ps.p(o.totalStatus);
  const total = totalSubquery(spec, f, o.totalStatus, o.amountColumn, ps);
  const countryKnown = f.country ? `EXISTS (SELECT 1 FROM countries WHERE code = ${ps.p(f.country)})` : 'true';
  return `(${total}) AS total,
       (SELECT coalesce(sum(amount), 0) FROM ${capped} WHERE status = ${status}) AS filtered_total,
       (SELECT coalesce(json_agg(json_build_object('code', code, 'name', name) ORDER BY name), '[]')::text FROM countries) AS countries,
       ${countryKnown} AS country_known`;
}

/** The first page's rows as JSON text joined by commas, in id order, from `rows(limit)` (columns `id`, `j`); '' when the call has none. */
function firstPageColumn(o: ListReplyOptions, ps: Params, rows: (limit: string) => string): string {
  if (o.firstPage <= 0) return `''`;
  return `(SELECT coalesce(string_agg(j, ',' ORDER BY id), '') FROM (${rows(ps.p(o.firstPage))}) f)`;
}

/** The one statement of a list call; see the file comment. */
export function listReplySql(spec: TransactionKindSpec, f: ResolvedFilters, o: ListReplyOptions, most?: number, form: RowForm = 'objects'): Sql {
  const ps = new Params();
  const where = whereOf(spec, f, ps);
  // with `most`: at most one row more than that is read, and `rows` is NULL when there are more
  const limit = ps.p(most === undefined ? f.fetchCount : Math.min(f.fetchCount, most + 1));
  // the first page is always objects (the compact form changes the rows of `filteredList` only)
  const firstPage = firstPageColumn(o, ps, (limit) => `SELECT j, id FROM r ORDER BY id LIMIT ${limit}`);
  const rows = form === 'arrays' ? `(SELECT coalesce(string_agg(a, E',\\n' ORDER BY at, id), '') FROM r)` : `(SELECT coalesce(string_agg(j, ',' ORDER BY at, id), '') FROM r)`;
  const compact = form === 'arrays' ? `, ${rowArrayJson(o.keys)} AS a` : '';
  // with `most`, the rows are counted first (an index range of at most most + 1 entries): when there
  // are more, the call streams them instead and this statement writes no row's JSON (the rows CTE is
  // empty, a one-time filter), which would be thrown away
  const over = most === undefined ? '' : ps.p(most);
  const counted = most === undefined ? '' : `n AS MATERIALIZED (SELECT count(*) AS c FROM (SELECT 1 FROM ${spec.table} t WHERE ${where} LIMIT ${limit}) x),\n`;
  const fits = most === undefined ? '' : ` AND (SELECT c FROM n) <= ${over}`;
  return {
    sql: `WITH ${counted}r AS MATERIALIZED (
  SELECT t.id, t.initiated_time AS at, t.status, t.${o.amountColumn} AS amount, ${rowJson(o.keys)} AS j${compact}
    FROM ${spec.table} t ${joinsOf(o.keys)} WHERE ${where}${fits} ORDER BY t.initiated_time, t.id LIMIT ${limit})
SELECT ${most === undefined ? rows : `CASE WHEN (SELECT c FROM n) > ${over} THEN NULL ELSE ${rows} END`} AS rows,
       ${firstPage} AS first_page,
       ${matchingColumn(spec, f, ps, 'r', limit)},
       ${replyTailColumns(spec, f, o, ps, 'r')}`,
    params: ps.values,
  };
}

/** What `listHeadSql` returns (one row): a list reply without its rows. */
export type ListHeadRow = Omit<ListReplyRow, 'rows'> & { row_count: number };

/**
 * A large list in two statements, so that its rows can be sent as the database writes them: this one
 * gives everything but the rows (the first page, the totals, how many rows, the countries) from the
 * capped rows' ids, statuses and amounts; `listRowsSql` gives the rows, read through a cursor in the
 * same snapshot (see src/server/db/db.ts `ReadSnapshot`).
 */
export function listHeadSql(spec: TransactionKindSpec, f: ResolvedFilters, o: ListReplyOptions): Sql {
  const ps = new Params();
  const where = whereOf(spec, f, ps);
  const limit = ps.p(f.fetchCount);
  const firstPage = firstPageColumn(o, ps, (limit) => `SELECT t.id, ${rowJson(o.keys)} AS j FROM ${spec.table} t ${joinsOf(o.keys)} WHERE t.id IN (SELECT id FROM c ORDER BY id LIMIT ${limit})`);
  return {
    sql: `WITH c AS MATERIALIZED (
  SELECT t.id, t.status, t.${o.amountColumn} AS amount FROM ${spec.table} t WHERE ${where} ORDER BY t.initiated_time, t.id LIMIT ${limit})
SELECT ${firstPage} AS first_page,
       (SELECT count(*) FROM c) AS row_count,
       ${matchingColumn(spec, f, ps, 'c', limit)},
       ${replyTailColumns(spec, f, o, ps, 'c')}`,
    params: ps.values,
  };
}

/** A row key's value as COPY writes it in a lines reply (src/api/listRows.ts LIST_ROWS_LINES): a time as the UTC wall clock, else as in the JSON. */
const lineValueOf = (k: string) => (isCompactTime(k) ? `t.${k} AT TIME ZONE 'UTC'` : valueOf(k));

/** Unwraps nullable, optional and default to the type underneath. */
function baseTypeOf(schema: z.ZodType): string {
  let def = (schema as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
  while ((def.type === 'nullable' || def.type === 'optional' || def.type === 'default') && def.innerType) {
    def = (def.innerType as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
  }
  return def.type;
}

/**
 * What each value of a row schema is in a lines reply (src/api/listRows.ts `ListRowKind`), in its keys'
 * order: from the row schema's own types, the times from the time columns.
 */
export const rowKindsOf = madeOnce((row: z.ZodObject): string =>
  Object.entries(row.shape)
    .map(([k, schema]) => {
      if (isCompactTime(k)) return 't';
      const type = baseTypeOf(schema as z.ZodType);
      return type === 'number' ? 'n' : type === 'boolean' ? 'b' : type === 'string' || type === 'enum' || type === 'literal' ? 's' : 'j';
    })
    .join(''),
);

/** The kinds of some of a row schema's keys (a server export of some columns), in their order. */
export function rowKindsOfKeys(row: z.ZodObject, keys: readonly string[]): string {
  const all = keysOf(row);
  const kinds = rowKindsOf(row);
  return keys.map((k) => kinds[all.indexOf(k)] ?? 's').join('');
}

/**
 * The rows of a list in the order they were initiated, as plain values in the keys' order, for COPY
 * (a lines reply: PostgreSQL writes the text, the server passes it on; see `ReadSnapshot.copyText`).
 */
export function listRowsLinesSql(spec: TransactionKindSpec, f: ResolvedFilters, keys: readonly string[]): Sql {
  const ps = new Params();
  const where = whereOf(spec, f, ps);
  return {
    sql: `SELECT ${keys.map(lineValueOf).join(', ')} FROM ${spec.table} t ${joinsOf(keys)} WHERE ${where} ORDER BY t.initiated_time, t.id LIMIT ${ps.p(f.fetchCount)}`,
    params: ps.values,
  };
}

/** The rows of a list in the order they were initiated, each as its JSON text (column `j`, an object or with `form` 'arrays' an array); see `listHeadSql`. */
export function listRowsSql(spec: TransactionKindSpec, f: ResolvedFilters, keys: readonly string[], form: RowForm = 'objects'): Sql {
  const ps = new Params();
  const where = whereOf(spec, f, ps);
  return {
    sql: `SELECT ${rowExpression(keys, form)} AS j FROM ${spec.table} t ${joinsOf(keys)} WHERE ${where} ORDER BY t.initiated_time, t.id LIMIT ${ps.p(f.fetchCount)}`,
    params: ps.values,
  };
}

/**
 * The counts by overall status of one kind, from the monthly roll-up; for a caller limited to one
 * provider, counted from that provider's rows (the roll-up has no provider).
 */
export function countsSql(kind: TransactionKind, provider?: string): Sql {
  if (provider !== undefined) {
    return { sql: `SELECT status, count(*) AS count FROM ${transactionKindSpecs[kind].table} WHERE provider_bank_code = $1 GROUP BY status`, params: [provider] };
  }
  return {
    sql: 'SELECT status, sum(count) AS count FROM transaction_monthly_stats WHERE kind = $1 GROUP BY status',
    params: [kind],
  };
}

/** The keys of a row schema (the columns a list selects). */
/** The row schema's keys, in order: the columns a list selects (one array per schema, so what is made of it can be kept). */
export const keysOf = madeOnce((row: z.ZodObject): readonly string[] => Object.freeze(Object.keys(row.shape)));

/** How many rows a list has under its filters and fetch count (a server export job's total). */
export function listCountSql(spec: TransactionKindSpec, f: ResolvedFilters): Sql {
  const ps = new Params();
  const where = whereOf(spec, f, ps);
  return { sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${spec.table} t WHERE ${where} LIMIT ${ps.p(f.fetchCount)}) c`, params: ps.values };
}

/**
 * One batch of a list's rows in the list's order (initiated time, then id), each as its JSON text
 * (column `j`: an object, or with `form` 'arrays' the compact form, its values in the order of `keys`)
 * with its place in that order (`at`: the initiated time as text, exact to the microsecond, and
 * `id`): the rows after `after`, at most `limit` of them. A server export job reads a list this way
 * (in the compact form: less for the database to build and for the job to parse), batch after batch,
 * each an index range scan, holding no connection or snapshot between batches
 * (src/server/exportJobs/sources.ts).
 */
export function listRowsAfterSql(spec: TransactionKindSpec, f: ResolvedFilters, keys: readonly string[], after: { at: string; id: number } | null, limit: number, form: RowForm = 'objects'): Sql {
  const ps = new Params();
  let where = whereOf(spec, f, ps);
  if (after) where += ` AND (t.initiated_time, t.id) > (${ps.p(after.at)}::timestamptz, ${ps.p(after.id)})`;
  return {
    sql: `SELECT t.initiated_time::text AS at, t.id, ${rowExpression(keys, form)} AS j FROM ${spec.table} t ${joinsOf(keys)} WHERE ${where} ORDER BY t.initiated_time, t.id LIMIT ${ps.p(limit)}`,
    params: ps.values,
  };
}
