/**
 * A list's rows as one query that a list call reads a page of and a server export reads whole, batch
 * by batch (src/server/exportJobs/sources.ts): through a cursor on a PostgreSQL server, or, on the
 * embedded database, each batch the rows after the last one of the batch before (keyset paging on the
 * list's order, which ends with a unique column). The same SQL for both, so an export holds exactly
 * the rows the list shows.
 */

/** A column of the list's order, as the query's output names it, and its type (the text of the last row's value is cast back to it). */
export interface KeyColumn {
  readonly column: string;
  readonly type: 'bigint' | 'integer' | 'timestamptz';
}

export interface RowsQuery {
  /** `SELECT ... FROM ... WHERE ...` without ORDER BY or LIMIT; its output has the key columns. */
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The list's order, all in one direction; the last column unique. */
  readonly keys: readonly KeyColumn[];
  readonly descending: boolean;
  /** At most this many rows (the list's fetch count). */
  readonly limit: number;
}

/** The prefix of the key columns' text in a page's rows (`after` reads them back). */
const KEY = 'keyset_';

/**
 * The statement of up to `limit` rows of `q` in its order, after the row whose key values (as text,
 * from `keysOf`) are `after`. With `after` or `withKeys`, each row also carries its key values as text.
 */
export function pageSql(q: RowsQuery, limit: number, after?: readonly string[] | null, withKeys = false): { sql: string; params: unknown[] } {
  const params = [...q.params];
  const at = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const cols = q.keys.map((k) => `page.${k.column}`);
  const where = after ? `WHERE (${cols.join(', ')}) ${q.descending ? '<' : '>'} (${q.keys.map((k, i) => `${at(after[i])}::${k.type}`).join(', ')})` : '';
  const keyText = after || withKeys ? `, ${q.keys.map((k, i) => `page.${k.column}::text AS ${KEY}${i}`).join(', ')}` : '';
  const order = cols.map((c) => `${c}${q.descending ? ' DESC' : ''}`).join(', ');
  return { sql: `SELECT page.*${keyText} FROM (${q.sql}) page ${where} ORDER BY ${order} LIMIT ${at(limit)}`, params };
}

/** The key values of a row read with keys (pageSql's `after` or `withKeys`), for the next page. */
export function keysOf(q: RowsQuery, row: Record<string, unknown>): string[] {
  return q.keys.map((_, i) => String(row[`${KEY}${i}`]));
}

/** How many rows `q` has, at most its limit. */
export function countSql(q: RowsQuery): { sql: string; params: unknown[] } {
  return { sql: `SELECT count(*) AS n FROM (${q.sql} LIMIT $${q.params.length + 1}) page`, params: [...q.params, q.limit] };
}

/**
 * How a list call selects its rows, shared by its handler and its server export: the query for the
 * caller and body (refusing as the call does: a 400 naming the field, a 403), and a row of the reply
 * made from a row of the query.
 */
export interface ListRows<Body, Row, C> {
  query(ctx: C, body: Body): Promise<RowsQuery>;
  toRow(row: Row, ctx: C): unknown;
}
