/**
 * Find by trace, ID or UID (src/api/finder.ts): one statement, a UNION ALL of one branch per service
 * the caller may view (src/domain/transactionFinder.ts), with no date range. Each branch matches the
 * value exactly, each way through its own index: the trace (unique index), the customer UID's newest
 * rows (migration 100's uid_newest index, read in order and stopped at the cap, so a customer with
 * 10,000 transactions costs what one with 20 does) and, for a whole number, the primary key; so the
 * cost does not grow with the table (scripts/bench-finder.ts measures it at 1,000,000 transactions).
 * Each branch returns its newest rows first, one more than the cap so the reply can say it was
 * truncated; the rows are JSON made by the database from the row schema's keys,
 * as the lists' are (./transactions/query.ts).
 */
import { findTransactions, FIND_MAX_ID, FIND_ROWS_PER_SERVICE, type FindData, type FindMatch } from '../../api/finder';
import { viewableFindServices, type FindService } from '../../domain/transactionFinder';
import type { Db } from '../db/db';
import { handle, type Handler } from '../http/handle';
import { HttpError } from '../http/httpError';
import { providerScopeOf } from '../providerScope';
import { joinsOf, keysOf, rowJson, type Sql } from './transactions/query';
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

/** The one statement of a lookup (columns service, matched_by, status, at, id, j); see the file comment. */
export function findSql(q: FindQuery): Sql {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const id = idOf(q.value);
  const text = q.by === 'id' ? undefined : p(q.value.toUpperCase());
  const idParam = id === undefined ? undefined : p(id);
  const provider = q.provider === undefined ? undefined : p(q.provider);
  const limit = p((q.limit ?? FIND_ROWS_PER_SERVICE) + 1);
  const branches = q.services.map((service) => {
    const table = transactionKindSpecs[service].table;
    const keys = keysOf(transactionKindSpecs[service].findRow);
    // each way of matching is its own indexed lookup: the id (primary key), the trace (unique index),
    // the UID's newest rows (uid_newest index, read in order and stopped at the cap)
    const ids: string[] = [];
    if (idParam) ids.push(`SELECT ${idParam}::integer AS id`);
    if (text) {
      ids.push(`SELECT id FROM ${table} WHERE trace = ${text}`);
      // the provider filter inside, so that an IPG bank user gets the newest of their own provider's
      const ownOnly = provider ? ` AND provider_bank_code = ${provider}` : '';
      ids.push(`SELECT * FROM (SELECT id FROM ${table} WHERE uid = ${text}${ownOnly} ORDER BY uid, initiated_time DESC, id DESC LIMIT ${limit}) u`);
    }
    if (ids.length === 0) ids.push('SELECT NULL::integer AS id WHERE false');
    const where = provider ? `WHERE t.provider_bank_code = ${provider}` : '';
    const matchedBy = `CASE ${idParam ? `WHEN t.id = ${idParam} THEN 'id' ` : ''}${text ? `WHEN t.trace = ${text} THEN 'trace' ` : ''}ELSE 'uid' END`;
    return `(SELECT '${service}' AS service, ${matchedBy} AS matched_by, t.status, t.initiated_time AS at, t.id, ${rowJson(keys)} AS j
  FROM (${ids.join(' UNION ')}) m JOIN ${table} t ON t.id = m.id ${joinsOf(keys)} ${where} ORDER BY t.initiated_time DESC, t.id DESC LIMIT ${limit})`;
  });
  if (branches.length === 0)
    return { sql: `SELECT NULL::text AS service, NULL::text AS matched_by, NULL::text AS status, NULL::timestamptz AS at, NULL::integer AS id, NULL::text AS j WHERE false`, params: [] };
  return { sql: branches.join('\nUNION ALL\n'), params };
}

interface FoundRow {
  service: FindService;
  matched_by: 'id' | 'trace' | 'uid';
  status: string;
  at: Date | string;
  id: number;
  j: string;
}

/** Runs a lookup: the matches newest first, whether a service had more. */
export async function findRows(db: Db, q: FindQuery): Promise<FindData> {
  const limit = q.limit ?? FIND_ROWS_PER_SERVICE;
  const s = findSql(q);
  const rows = await db.query<FoundRow>(s.sql, s.params);
  const perService = new Map<FindService, FoundRow[]>();
  for (const r of rows) perService.set(r.service, [...(perService.get(r.service) ?? []), r]);
  let truncated = false;
  const kept: FoundRow[] = [];
  for (const list of perService.values()) {
    if (list.length > limit) truncated = true;
    kept.push(...list.slice(0, limit));
  }
  const time = (r: FoundRow) => new Date(r.at).getTime();
  kept.sort((a, b) => time(b) - time(a) || q.services.indexOf(a.service) - q.services.indexOf(b.service) || b.id - a.id);
  const matches = kept.map((r) => ({ service: r.service, matchedBy: r.matched_by, status: r.status, row: JSON.parse(r.j) }) as FindMatch);
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
