/**
 * What a server export job reads: the rows of a list call, as that call's handler selects them for
 * the job's owner (the same filters, the same query builder, the owner's provider scope), read in
 * batches in the list's order, each batch an index range scan after the last row of the one before
 * (no connection or snapshot is held between batches, on PGlite as on PostgreSQL).
 */
import type { ExportField } from '../../api/contract';
import { findCall } from '../../api/index';
import { serverExportCalls } from '../../api/exportJobs';
import type { ListFilters } from '../../api/transactions';
import { mayCall, refusalOf } from '../../domain/access';
import type { ItemFields } from '../../domain/exportFormat';
import { exportFieldsOf } from '../../console/exportFields';
import type { AnyListScreen } from '../../console/definitions';
import { describeIssues } from '../http/requestBody';
import { HttpError } from '../http/httpError';
import type { Db } from '../db/db';
import { providerScopeOf } from '../providerScope';
import { exportableLists, type ExportableList } from '../areas/transactions/handlers';
import { keysOf, kinds, listCountSql, listRowsAfterSql, resolveFilters, unknownCountry, type ResolvedFilters } from '../areas/transactions/query';

{
  const ours = exportableLists.map((l) => l.contract.path).sort().join();
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
}

/**
 * The rows of `list` under `body` for the user (whose provider scope applies): counted, then read in
 * batches. A 400 naming country_code for an unknown country, as the list call answers.
 */
export async function openListSource(db: Db, list: ExportableList, body: ListFilters, user: { id: number; permissions: readonly string[] }, zone: string): Promise<ListSource> {
  const provider = await providerScopeOf(db, user);
  const { spec } = list;
  const filters: ResolvedFilters = resolveFilters(body, zone, spec.refunded ? 'REFUNDED' : undefined, provider);
  const kind = kinds[spec.kind];
  if (filters.country) {
    const known = await db.one('SELECT 1 FROM countries WHERE code = $1', [filters.country]);
    if (!known) throw unknownCountry(filters.country);
  }
  const count = listCountSql(kind, filters);
  const total = Number((await db.one<{ n: number }>(count.sql, count.params))?.n ?? 0);
  const keys = keysOf(spec.row);
  const fields = exportFieldsOf(spec.screen);
  return {
    fields,
    itemFields: itemFieldsOfScreen(spec.screen.columns, fields),
    total,
    async *batches(batchRows) {
      let after: { at: string; id: number } | null = null;
      let left = Math.min(total, filters.fetchCount);
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
  };
}
