/**
 * What a server export job reads: the rows of a list call, as that call's handler selects them for
 * the job's owner (the same filters, the same query builder, the owner's provider scope), in the list's
 * order, in batches. On a PostgreSQL server through a cursor on a connection of the job's own (a
 * REPEATABLE READ READ ONLY snapshot: the count and the rows are of one moment, and the pool's other
 * connections stay free for other calls); on the embedded database each batch an index range scan
 * after the last row of the one before (no snapshot held between batches).
 */
import type { ExportField } from '../../api/contract';
import { findCall } from '../../api/index';
import { serverExportCalls } from '../../api/exportJobs';
import type { ListFilters } from '../../api/transactions';
import { mayCall, refusalOf } from '../../domain/access';
import type { ItemFields } from '../../domain/exportFormat';
import { exportFieldsOf } from '../../definitions/exportFields';
import type { AnyListScreen } from '../../definitions/definitions';
import { describeIssues } from '../http/requestBody';
import { HttpError } from '../http/httpError';
import type { Db, ReadSnapshot } from '../db/db';
import { providerScopeOf } from '../providerScope';
import { exportableLists, type ExportableList } from '../areas/transactions/handlers';
import { transactionKindSpecs } from '../areas/transactions/kinds';
import { keysOf, listCountSql, listRowsAfterSql, resolveFilters, unknownCountry, type ResolvedFilters } from '../areas/transactions/query';

{
  const ours = exportableLists
    .map((l) => l.contract.path)
    .sort()
    .join();
  if (ours !== [...serverExportCalls].sort().join()) throw new Error('The server export sources do not cover exactly serverExportCalls (src/api/exportJobs.ts)');
}

/** The list a job names, or a 400 naming `call`. */
export function exportableListOf(path: string): ExportableList {
  const wanted = path.toLowerCase();
  const list = exportableLists.find((l) => l.contract.path.toLowerCase() === wanted);
  if (list) return list;
  const known = findCall(path);
  throw new HttpError(400, known ? `call: ${known.path} cannot be exported on the server` : `call: Unknown list call ${path}`);
}

/** The request body checked with the list call's own schema (defaults applied), or a 400 naming the field. */
export function listBodyOf(list: ExportableList, body: unknown): ListFilters {
  const parsed = list.contract.request.safeParse(body);
  if (!parsed.success) throw new HttpError(400, `body: ${describeIssues(parsed.error)}`);
  return parsed.data as ListFilters;
}

/** A 403 unless the user may make the list call (the call's own access rule). */
export function assertMayList(list: ExportableList, permissions: readonly string[]): void {
  if (!mayCall(list.contract.access, permissions)) throw new HttpError(403, refusalOf(list.contract.access));
}

/** Per field, the item fields of a 'list' column (its items become labelled lines), else null. */
export function itemFieldsOfScreen(columns: AnyListScreen['columns'], fields: readonly ExportField[]): (ItemFields | null)[] {
  return fields.map((f) => {
    const c = columns.find((col) => col.key === f.dataKey && col.kind === 'list' && col.itemFields && col.itemFields.length > 0);
    return c?.itemFields ? c.itemFields.map(({ key, label }) => ({ key, label })) : null;
  });
}

/** The Duration line of the export: the list's date range, as the console's exports write it. */
export function durationOfBody(body: ListFilters): string {
  return `${body.from_date.replace('T', ' ')} to ${body.to_date.replace('T', ' ')}`;
}

export interface ListSource {
  readonly fields: ExportField[];
  readonly itemFields: (ItemFields | null)[];
  /** How many rows there are (at most the fetch count). */
  readonly total: number;
  /** The rows' objects in the list's order, in batches. */
  batches(batchRows: number): AsyncGenerator<Record<string, unknown>[], void, undefined>;
  /** Gives back the connection the rows are read on (when they are read through a cursor); call once done. */
  close(): Promise<void>;
}

/**
 * The rows of `list` under `body` for the user (whose provider scope applies): counted, then read in
 * batches. A 400 naming country_code for an unknown country, as the list call answers.
 */
export async function openListSource(db: Db, list: ExportableList, body: ListFilters, user: { id: number; permissions: readonly string[] }, zone: string): Promise<ListSource> {
  const provider = await providerScopeOf(db, user);
  const { spec } = list;
  const filters: ResolvedFilters = resolveFilters(body, zone, spec.refunded ? 'REFUNDED' : undefined, provider);
  const kind = transactionKindSpecs[spec.kind];
  if (filters.country) {
    const known = await db.one('SELECT 1 FROM countries WHERE code = $1', [filters.country]);
    if (!known) throw unknownCountry(filters.country);
  }
  const snapshot: ReadSnapshot | undefined = db.readSnapshot ? await db.readSnapshot() : undefined;
  try {
    const count = listCountSql(kind, filters);
    const total = Number((await (snapshot ?? db).one<{ n: number }>(count.sql, count.params))?.n ?? 0);
    const keys = keysOf(spec.row);
    const fields = exportFieldsOf(spec.screen);
    const wanted = Math.min(total, filters.fetchCount);
    return {
      fields,
      itemFields: itemFieldsOfScreen(spec.screen.columns, fields),
      total,
      async *batches(batchRows) {
        if (wanted <= 0) return;
        if (snapshot) {
          // one statement, read through the cursor batch by batch
          const q = listRowsAfterSql(kind, filters, keys, null, wanted);
          for await (const rows of snapshot.batches<{ j: string }>(q.sql, q.params, batchRows)) yield rows.map((r) => JSON.parse(r.j) as Record<string, unknown>);
          return;
        }
        let after: { at: string; id: number } | null = null;
        let left = wanted;
        while (left > 0) {
          const q = listRowsAfterSql(kind, filters, keys, after, Math.min(batchRows, left));
          const rows = await db.query<{ at: string; id: number; j: string }>(q.sql, q.params);
          if (rows.length === 0) return;
          const last = rows[rows.length - 1]!;
          after = { at: last.at, id: last.id };
          left -= rows.length;
          yield rows.map((r) => JSON.parse(r.j) as Record<string, unknown>);
        }
      },
      close: async () => {
        await snapshot?.release();
      },
    };
  } catch (err) {
    await snapshot?.release();
    throw err;
  }
}
