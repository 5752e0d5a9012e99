/**
 * Find by trace, ID or UID (src/api/finder.ts), over the five services the caller may view
 * (src/domain/transactionFinder.ts) and all dates, in two statements:
 *
 * 1. the matches, from the directory `transaction_traces` (migration 170: one row per transaction with
 *    its kind, trace, id, initiated_time, uid and provider, kept by triggers): a UNION ALL of one branch
 *    per service, each matching the value exactly through its own index: the trace (primary key), the
 *    id, and the customer UID's newest rows (read in order and stopped at the cap, so a customer with
 *    10,000 transactions costs what one with 20 does); each branch gives its newest rows first, one
 *    more than the cap so the reply can say it was truncated;
 * 2. those rows from the transaction tables, by id and initiated_time, so that the planner reads (and
 *    plans) only the month partitions that hold them (migration 140); the rows are JSON made by the
 *    database from the row schema's keys, as the lists' are (./transactions/query.ts).
 *
 * The directory is what keeps the cost flat with history: the tables are partitioned by month, and a
 * lookup that names no time would plan and probe every partition of all five (scripts/bench-finder.ts
 * measures it at 1,000,000 transactions and more).
 */
import { findTransactions, FIND_MAX_ID, FIND_ROWS_PER_SERVICE, type FindData, type FindMatch } from '../../api/finder';
import { viewableFindServices, type FindService } from '../../domain/transactionFinder';
import type { Db } from '../db/db';
import { handle, type Handler } from '../http/handle';
import { HttpError } from '../http/httpError';
import { providerScopeOf } from '../providerScope';
import { joinsOf, keysOf, Params, rowJson, type Sql } from './transactions/query';
import { transactionKindSpecs } from './transactions/kinds';

export interface FindQuery {
  /** The value as typed (trimmed); traces and UIDs are stored upper-case, so it is compared upper-cased. */
  readonly value: string;
  readonly services: readonly FindService[];
  /** 'id': match the row id only. */
  readonly by: 'any' | 'id';
  /** The provider the caller is limited to (an IPG bank user), or undefined. */
  readonly provider?: string;
  /** Rows per service at most. */
  readonly limit?: number;
}

/** The value as a row id, or undefined when it cannot be one. */
export function idOf(value: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= FIND_MAX_ID ? n : undefined;
}

/**
 * Statement 1 of a lookup (see the file comment): the matches from the directory, newest first per
 * service, at most the cap plus one each; columns service, matched_by, id, at (initiated_time as text,
 * exact to the microsecond, for statement 2).
 */
export function findSql(q: FindQuery): Sql {
  const ps = new Params();
  const p = (v: unknown) => ps.p(v);
  const id = idOf(q.value);
  const text = q.by === 'id' ? undefined : p(q.value.toUpperCase());
  const idParam = id === undefined ? undefined : p(id);
  const provider = q.provider === undefined ? undefined : p(q.provider);
  const limit = p((q.limit ?? FIND_ROWS_PER_SERVICE) + 1);
  const branches = q.services.map((service) => {
    const kind = p(service);
    // each way of matching is its own indexed lookup: the id, the trace (primary key), the UID's newest
    // rows (read in order and stopped at the cap; the provider filter inside, so that an IPG bank user
    // gets the newest of their own provider's)
    const ways: string[] = [];
    const cols = 'id, trace, initiated_time, provider_bank_code';
    if (idParam) ways.push(`SELECT ${cols} FROM transaction_traces WHERE kind = ${kind} AND id = ${idParam}`);
    if (text) {
      ways.push(`SELECT ${cols} FROM transaction_traces WHERE kind = ${kind} AND trace = ${text}`);
      const ownOnly = provider ? ` AND provider_bank_code = ${provider}` : '';
      ways.push(`SELECT * FROM (SELECT ${cols} FROM transaction_traces WHERE kind = ${kind} AND uid = ${text}${ownOnly} ORDER BY kind, uid, initiated_time DESC, id DESC LIMIT ${limit}) u`);
    }
    if (ways.length === 0) return undefined;
    const where = provider ? `WHERE d.provider_bank_code = ${provider}` : '';
    const matchedBy = `CASE ${idParam ? `WHEN d.id = ${idParam} THEN 'id' ` : ''}${text ? `WHEN d.trace = ${text} THEN 'trace' ` : ''}ELSE 'uid' END`;
    return `(SELECT '${service}' AS service, ${matchedBy} AS matched_by, d.id, d.initiated_time::text AS at
  FROM (${ways.join(' UNION ')}) d ${where} ORDER BY d.initiated_time DESC, d.id DESC LIMIT ${limit})`;
  });
  const used = branches.filter((b): b is string => b !== undefined);
  if (used.length === 0) return { sql: `SELECT NULL::text AS service, NULL::text AS matched_by, NULL::integer AS id, NULL::text AS at WHERE false`, params: [] };
  return { sql: used.join('\nUNION ALL\n'), params: ps.values };
}

/** A match of statement 1. */
export interface FoundKey {
  readonly service: FindService;
  readonly matched_by: 'id' | 'trace' | 'uid';
  readonly id: number;
  readonly at: string;
}

/**
 * Statement 2 of a lookup: the rows of the matches, one branch per service that has any, each reading
 * only the month partitions of its rows' times (columns service, id, status, at, j).
 */
export function findRowsSql(keys: readonly FoundKey[], provider?: string): Sql {
  const ps = new Params();
  const p = (v: unknown) => ps.p(v);
  const services = [...new Set(keys.map((k) => k.service))];
  const branches = services.map((service) => {
    const mine = keys.filter((k) => k.service === service);
    const table = transactionKindSpecs[service].table;
    const cols = keysOf(transactionKindSpecs[service].findRow);
    // array literals, as the other array parameters are passed (the times as PostgreSQL printed them)
    const ids = p(`{${mine.map((k) => Number(k.id)).join(',')}}`);
    const times = p(`{${mine.map((k) => `"${k.at}"`).join(',')}}`);
    const own = provider === undefined ? '' : ` AND t.provider_bank_code = ${p(provider)}`;
    return `SELECT '${service}' AS service, t.id, t.status, t.initiated_time AS at, ${rowJson(cols)} AS j
  FROM ${table} t ${joinsOf(cols)} WHERE t.id = ANY (${ids}::integer[]) AND t.initiated_time = ANY (${times}::timestamptz[])${own}`;
  });
  return { sql: branches.join('\nUNION ALL\n'), params: ps.values };
}

interface FoundRow {
  service: FindService;
  id: number;
  status: string;
  at: Date | string;
  j: string;
}

/** Runs a lookup: the matches newest first, whether a service had more. */
export async function findRows(db: Db, q: FindQuery): Promise<FindData> {
  const limit = q.limit ?? FIND_ROWS_PER_SERVICE;
  const s = findSql(q);
  const found = await db.query<FoundKey>(s.sql, s.params);
  const perService = new Map<FindService, FoundKey[]>();
  for (const k of found) perService.set(k.service, [...(perService.get(k.service) ?? []), k]);
  let truncated = false;
  const kept: FoundKey[] = [];
  for (const list of perService.values()) {
    if (list.length > limit) truncated = true;
    kept.push(...list.slice(0, limit));
  }
  if (kept.length === 0) return { matches: [], searched: [...q.services], truncated };
  const r = findRowsSql(kept, q.provider);
  const rows = await db.query<FoundRow>(r.sql, r.params);
  const matchedBy = new Map(kept.map((k) => [`${k.service}:${k.id}`, k.matched_by]));
  const time = (row: FoundRow) => new Date(row.at).getTime();
  // a row the directory named but the table no longer has (deleted in between) is left out
  const shown = rows.filter((row) => matchedBy.has(`${row.service}:${row.id}`));
  shown.sort((a, b) => time(b) - time(a) || q.services.indexOf(a.service) - q.services.indexOf(b.service) || b.id - a.id);
  const matches = shown.map((row) => ({ service: row.service, matchedBy: matchedBy.get(`${row.service}:${row.id}`), status: row.status, row: JSON.parse(row.j) }) as FindMatch);
  return { matches, searched: [...q.services], truncated };
}

export const finderHandlers: readonly Handler[] = [
  handle(findTransactions, async (ctx, body) => {
    const viewable = viewableFindServices(ctx.user.permissions);
    if (body.service && !viewable.includes(body.service)) throw new HttpError(403, `Forbidden: you may not view ${body.service} transactions`);
    if (body.by === 'id' && idOf(body.value) === undefined) throw new HttpError(400, 'value: An ID is a whole number from 1 to 2147483647');
    const services = body.service ? [body.service] : viewable;
    const provider = await providerScopeOf(ctx.db, ctx.user);
    return { data: await findRows(ctx.readDb, { value: body.value, services, by: body.by, provider }) };
  }),
];
