/**
 * What a server export job reads: the rows of a list call, as that call selects them for the job's
 * owner (the same filters, the same permission and provider scope), in the list's order, in batches.
 * Two kinds of list:
 * - the transaction lists (the ones that grow to millions of rows): their own query builder. On a
 *   PostgreSQL server through a cursor on a connection of the job's own (a REPEATABLE READ READ ONLY
 *   snapshot: the count and the rows are of one moment, and the pool's other connections stay free for
 *   other calls); on the embedded database each batch an index range scan after the last row of the
 *   one before (no snapshot held between batches);
 * - every other list and report the console exports (users, app users, activity logs, settlement
 *   reports, segregation of duties): the list call's own handler, run as the job's owner (so its own
 *   permission, provider-scope and body checks apply), its reply read with the screen's own `rows`.
 */
import type { CallContract, ExportField } from '../../api/contract';
import { findCall } from '../../api/index';
import { serverExportCalls } from '../../api/exportJobs';
import type { ListFilters } from '../../api/transactions';
import { mayCall, refusalOf } from '../../domain/access';
import type { ItemFields } from '../../formats/cells';
import { exportFieldsFor, exportFieldsOf } from '../../definitions/exportFields';
import type { AnyListScreen } from '../../definitions/definitions';
import { screens } from '../../../screens/index';
import { describeIssues } from '../http/requestBody';
import { HttpError } from '../http/httpError';
import type { Ctx } from '../http/handle';
import { PreparedJson } from '../http/preparedJson';
import { assertMayAct } from '../auth/passwordChangeGate';
import type { Db, ReadSnapshot } from '../db/db';
import { countSql, keysOf as keysOfRow, pageSql, type ListRows } from '../db/keyset';
import { userList } from '../../api/users';
import { appUserList } from '../../api/appUsers';
import { activityReport, instantSettlementReport, mobileActivityReport, settlementReport } from '../../api/reports';
import { providerScopeOf } from '../providerScope';
import { exportableLists, type ExportableList } from '../areas/transactions/handlers';
import { transactionKindSpecs } from '../areas/transactions/kinds';
import { compactTimesOf, keysOf, listCountSql, listRowsAfterSql, listRowsLinesSql, resolveFilters, rowKindsOfKeys, unknownCountry, type ResolvedFilters } from '../areas/transactions/query';

/**
 * A list or report exported through its own handler: the call, the screen (columns, filters) and the
 * rows of its reply, the title and file name of its exports (a tab's, when the call is a tab's source).
 */
export interface HandledList {
  readonly contract: CallContract;
  readonly screen: AnyListScreen;
  readonly rows: (data: never) => unknown[];
  readonly exports: { readonly title: string; readonly fileBase: string };
}

/** Every list screen (and tab) with exports whose call is not a transaction list: exported through its handler. */
export const handledLists: readonly HandledList[] = (() => {
  const transactionPaths = new Set(exportableLists.map((l) => l.contract.path));
  const out = new Map<string, HandledList>();
  for (const screen of screens) {
    if (screen.kind !== 'list') continue;
    const list = screen as AnyListScreen;
    const sources = [{ source: list.source, exports: list.exports }, ...(list.tabs ?? []).map((t) => ({ source: t.source ?? list.source, exports: t.exports ?? list.exports }))];
    for (const { source, exports } of sources) {
      const contract = source.call as CallContract;
      if (!exports || transactionPaths.has(contract.path) || out.has(contract.path)) continue;
      out.set(contract.path, { contract, screen: list, rows: source.rows as (data: never) => unknown[], exports });
    }
  }
  return [...out.values()];
})();

/** A list a server export job can write: a transaction list (its own query) or a handled one (its handler). */
export type ServerExportable = { readonly kind: 'transactions'; readonly list: ExportableList } | { readonly kind: 'handled'; readonly list: HandledList };

{
  const ours = [...exportableLists.map((l) => l.contract.path), ...handledLists.map((l) => l.contract.path)].sort().join();
  if (ours !== [...serverExportCalls].sort().join()) throw new Error('The server export sources do not cover exactly serverExportCalls (src/api/exportJobs.ts)');
}

/** The title and file name of a list's exports, and its call. */
export const exportsOf = (target: ServerExportable) => target.list.exports;
export const contractOf = (target: ServerExportable): CallContract => target.list.contract;

/** The list a job names, or a 400 naming `call`. */
export function exportableListOf(path: string): ServerExportable {
  const wanted = path.toLowerCase();
  const list = exportableLists.find((l) => l.contract.path.toLowerCase() === wanted);
  if (list) return { kind: 'transactions', list };
  const handled = handledLists.find((l) => l.contract.path.toLowerCase() === wanted);
  if (handled) return { kind: 'handled', list: handled };
  const known = findCall(path);
  throw new HttpError(400, known ? `call: ${known.path} cannot be exported on the server` : `call: Unknown list call ${path}`);
}

/** The request body checked with the list call's own schema (defaults applied), or a 400 naming the field. */
export function listBodyOf(target: ServerExportable, body: unknown): Record<string, unknown> {
  const parsed = target.list.contract.request.safeParse(body);
  if (!parsed.success) throw new HttpError(400, `body: ${describeIssues(parsed.error)}`);
  return parsed.data as Record<string, unknown>;
}

/** A 403 unless the user may make the list call (the call's own access rule, and the password-change gate). */
export function assertMayList(target: ServerExportable, user: Ctx['user']): void {
  const { contract } = target.list;
  assertMayAct(user, contract.path);
  if (!mayCall(contract.access, user.permissions)) throw new HttpError(403, refusalOf(contract.access));
}

/** Per field, the item fields of a 'list' column (its items become labelled lines), else null. */
export function itemFieldsOfScreen(columns: AnyListScreen['columns'], fields: readonly ExportField[]): (ItemFields | null)[] {
  return fields.map((f) => {
    const c = columns.find((col) => col.key === f.dataKey && col.kind === 'list' && col.itemFields && col.itemFields.length > 0);
    return c?.itemFields ? c.itemFields.map(({ key, label }) => ({ key, label })) : null;
  });
}

/**
 * The Duration line of the export, as the console's exports write it (src/console/listController.ts
 * durationOf): a transaction list's date range; else the screen's first date-time range or date filter
 * read from the body; else none ('-').
 */
export function durationOfBody(target: ServerExportable, body: Record<string, unknown>): string | undefined {
  if (target.kind === 'transactions') {
    const f = body as unknown as ListFilters;
    return `${f.from_date.replace('T', ' ')} to ${f.to_date.replace('T', ' ')}`;
  }
  for (const f of target.list.screen.filters ?? []) {
    if (f.kind === 'dateTimeRange') return `${String(body[f.from]).replace('T', ' ')} to ${String(body[f.to]).replace('T', ' ')}`;
    if (f.kind === 'date') return String(body[f.key]);
  }
  return undefined;
}

/** A batch of rows: JSON arrays' texts, or bytes of COPY text (whose lines may end in a later batch) and how many lines end in them. */
export type RowsBatch = { readonly texts: readonly string[]; readonly rows: number } | { readonly lines: Buffer; readonly rows: number };

/** How many line breaks `bytes` holds: the rows whose line ends in it. */
function lineEnds(bytes: Buffer): number {
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}

/** Bytes of COPY text gathered into batches of about `batchRows` rows (and at least one chunk). */
async function* linesInBatches(chunks: AsyncIterable<Buffer>, batchRows: number): AsyncGenerator<RowsBatch> {
  let held: Buffer[] = [];
  let rows = 0;
  for await (const chunk of chunks) {
    held.push(chunk);
    rows += lineEnds(chunk);
    if (rows >= batchRows) {
      yield { lines: Buffer.concat(held), rows };
      held = [];
      rows = 0;
    }
  }
  if (held.length > 0) yield { lines: Buffer.concat(held), rows };
}

export interface ListSource {
  readonly fields: ExportField[];
  readonly itemFields: (ItemFields | null)[];
  /** How many rows there are (at most the fetch count). */
  readonly total: number;
  /** Per field, the place of its value in a row's array (-1: the rows have no such value). */
  readonly at: readonly number[];
  /** The places in a row's array of the times sent as the UTC wall clock (src/api/listRows.ts), made into the documented text when read. */
  readonly times: readonly number[];
  /**
   * With lines: what each value of a row is (src/api/listRows.ts ListRowKind), the rows' batches being
   * bytes of COPY text.
   */
  readonly kinds?: string;
  /**
   * The rows in the list's order, in batches, each as the text of a JSON array of its values (as the
   * database sends them: parsed and formatted in the job's own thread, ./formatThread.ts), or (a list
   * read from PostgreSQL) bytes of COPY text as the database sends them, a line per row.
   */
  batches(batchRows: number): AsyncGenerator<RowsBatch, void, undefined>;
  /** Gives back the connection the rows are read on (when they are read through a cursor); call once done. */
  close(): Promise<void>;
}

/**
 * The rows of the list under `body` for the context's user, counted, then read in batches: a
 * transaction list through its query (on `readDb`), any other list through its handler run with `ctx`
 * (the job's owner). Refusals are the list call's own (a 400 naming the field, a 403).
 */
export async function openSource(target: ServerExportable, body: Record<string, unknown>, ctx: Ctx, columns?: readonly string[] | null): Promise<ListSource> {
  if (target.kind === 'transactions') return openListSource(ctx.readDb, target.list, body as unknown as ListFilters, ctx.user, ctx.businessTimeZone, columns);
  return openHandledSource(target.list, body, ctx, columns);
}

/** The fields of `columns` (data keys), in that order; all of them when absent. A 400 naming `columns` for an unknown or repeated one. */
export function pickFields(fields: readonly ExportField[], columns?: readonly string[] | null): ExportField[] {
  if (!columns) return [...fields];
  const seen = new Set<string>();
  return columns.map((key) => {
    const f = fields.find((x) => x.dataKey === key);
    if (!f) throw new HttpError(400, `columns: ${key} is not a column of this list (its columns: ${fields.map((x) => x.dataKey).join(', ')})`);
    if (seen.has(key)) throw new HttpError(400, `columns: ${key} is named twice`);
    seen.add(key);
    return f;
  });
}

/**
 * The query of each list (but the transaction lists) that selects its rows for its handler too
 * (src/server/db/keyset.ts), by call path. Imported when first used: the handlers' modules import this
 * one (through the export job handlers).
 */
async function listRowsOf(path: string): Promise<ListRows<never, never, Ctx> | undefined> {
  const [{ userListRows }, { appUserListRows }, { activityRows, mobileActivityRows }, { settlementReportRows, instantSettlementReportRows }] = await Promise.all([
    import('../areas/users'),
    import('../areas/appUsers'),
    import('../areas/reports'),
    import('../areas/settlement'),
  ]);
  const byPath: Record<string, ListRows<never, never, Ctx>> = {
    [userList.path]: userListRows as ListRows<never, never, Ctx>,
    [appUserList.path]: appUserListRows as ListRows<never, never, Ctx>,
    [activityReport.path]: activityRows as ListRows<never, never, Ctx>,
    [mobileActivityReport.path]: mobileActivityRows as ListRows<never, never, Ctx>,
    [settlementReport.path]: settlementReportRows as ListRows<never, never, Ctx>,
    [instantSettlementReport.path]: instantSettlementReportRows as ListRows<never, never, Ctx>,
  };
  return byPath[path];
}

/**
 * A handled list's rows: from its query (the handler's own) through a cursor or page by page when it
 * has one, else (a report its handler computes: segregation of duties, bounded by the roles, users
 * and decisions) from its handler's reply.
 */
async function openHandledSource(list: HandledList, body: Record<string, unknown>, ctx: Ctx, columns?: readonly string[] | null): Promise<ListSource> {
  const rowsOf = await listRowsOf(list.contract.path);
  if (rowsOf) return openQuerySource(list, rowsOf, body, ctx, columns);
  return openReplySource(list, body, ctx, columns);
}

/**
 * The rows of a list's query for the context's user: counted, then read in batches of the rows'
 * values, never the whole list at once: on a PostgreSQL server through a cursor in one REPEATABLE
 * READ snapshot (on the read replica while it is well, as the transaction lists), on the embedded
 * database each batch the rows after the last one of the batch before (keyset, in the list's order).
 */
export async function openQuerySource(list: HandledList, rowsOf: ListRows<never, never, Ctx>, body: Record<string, unknown>, ctx: Ctx, columns?: readonly string[] | null): Promise<ListSource> {
  const q = await rowsOf.query(ctx, body as never);
  const fields = pickFields(exportFieldsOf(list.screen), columns);
  const db = ctx.readDb;
  const snapshot: ReadSnapshot | undefined = db.readSnapshot ? await db.readSnapshot() : undefined;
  try {
    const count = countSql(q);
    const total = Number((await (snapshot ?? db).one<{ n: number | string }>(count.sql, count.params))?.n ?? 0);
    const keys = fields.map((f) => f.dataKey);
    const texts = (rows: Record<string, unknown>[]) =>
      rows.map((r) => {
        const row = rowsOf.toRow(r as never, ctx) as Record<string, unknown>;
        return JSON.stringify(keys.map((k) => row[k] ?? null));
      });
    return {
      fields,
      itemFields: itemFieldsOfScreen(list.screen.columns, fields),
      total,
      at: fields.map((_, c) => c),
      times: [],
      async *batches(batchRows) {
        if (total <= 0) return;
        if (snapshot) {
          const page = pageSql(q, total);
          for await (const rows of snapshot.batches<Record<string, unknown>>(page.sql, page.params, batchRows)) yield { texts: texts(rows), rows: rows.length };
          return;
        }
        let after: string[] | null = null;
        let left = total;
        while (left > 0) {
          const page = pageSql(q, Math.min(batchRows, left), after, true);
          const rows = await db.query<Record<string, unknown>>(page.sql, page.params);
          if (rows.length === 0) return;
          after = keysOfRow(q, rows[rows.length - 1]!);
          left -= rows.length;
          yield { texts: texts(rows), rows: rows.length };
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

/** A report's reply through its own handler, run as `ctx.user`; its rows sliced into batches. */
async function openReplySource(list: HandledList, body: Record<string, unknown>, ctx: Ctx, columns?: readonly string[] | null): Promise<ListSource> {
  // imported when first used: the handlers' module imports this one (through the export job handlers)
  const { allHandlers } = await import('../areas/index');
  const handler = allHandlers.find((h) => h.contract === list.contract);
  if (!handler) throw new Error(`${list.contract.path}: no handler`);
  const result = await handler.run(ctx, body);
  if (result.data instanceof PreparedJson) throw new Error(`${list.contract.path}: a prepared reply cannot be exported through its handler`);
  const parsed = list.contract.data.safeParse(result.data);
  if (!parsed.success) throw new Error(`Reply of ${list.contract.path} does not match its contract: ${describeIssues(parsed.error)}`);
  const data: unknown = parsed.data;
  let rows: unknown[] | undefined = list.rows(data as never);
  const fields = pickFields(exportFieldsFor(list.screen, data), columns);
  return {
    fields,
    itemFields: itemFieldsOfScreen(list.screen.columns, fields),
    total: rows.length,
    at: fields.map((_, c) => c),
    times: [],
    async *batches(batchRows) {
      const all = rows ?? [];
      const keys = fields.map((f) => f.dataKey);
      for (let i = 0; i < all.length; i += batchRows) {
        const texts = (all.slice(i, i + batchRows) as Record<string, unknown>[]).map((row) => JSON.stringify(keys.map((k) => row?.[k] ?? null)));
        yield { texts, rows: texts.length };
      }
    },
    close: async () => {
      rows = undefined;
    },
  };
}

/** The row keys of some fields, in their order: one array per key list and column choice (the SQL is made once per key array). */
const columnKeys = new Map<string, readonly string[]>();
function keysOfColumns(all: readonly string[], fields: readonly ExportField[]): readonly string[] {
  const keys = fields.map((f) => f.dataKey).filter((k) => all.includes(k));
  const id = `${all.join()}|${keys.join()}`;
  let made = columnKeys.get(id);
  if (!made) {
    if (columnKeys.size > 100) columnKeys.clear();
    columnKeys.set(id, (made = Object.freeze(keys)));
  }
  return made;
}

/**
 * The rows of `list` under `body` for the user (whose provider scope applies): counted, then read in
 * batches. A 400 naming country_code for an unknown country, as the list call answers.
 */
export async function openListSource(
  db: Db,
  list: ExportableList,
  body: ListFilters,
  user: { id: number; permissions: readonly string[] },
  zone: string,
  columns?: readonly string[] | null,
): Promise<ListSource> {
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
    const fields = pickFields(exportFieldsOf(spec.screen), columns);
    // the row schema's keys, or with some columns only theirs (less for the database to build and the job to read)
    const keys = columns ? keysOfColumns(keysOf(spec.row), fields) : keysOf(spec.row);
    const wanted = Math.min(total, filters.fetchCount);
    const shape = {
      fields,
      itemFields: itemFieldsOfScreen(spec.screen.columns, fields),
      total,
      // each row's values in the order of the keys
      at: fields.map((f) => keys.indexOf(f.dataKey)),
      times: compactTimesOf(keys),
      close: async () => {
        await snapshot?.release();
      },
    };
    // from PostgreSQL, the rows' plain values as COPY text, passed to the job's thread unread
    const copyText = snapshot?.copyText?.bind(snapshot);
    if (copyText) {
      const q = listRowsLinesSql(kind, filters, keys);
      return {
        ...shape,
        kinds: rowKindsOfKeys(spec.row, keys),
        async *batches(batchRows) {
          if (wanted > 0) yield* linesInBatches(copyText(q.sql, q.params), batchRows);
        },
      };
    }

    return {
      ...shape,
      // the rows come in the compact form: arrays of the row schema's values
      async *batches(batchRows) {
        if (wanted <= 0) return;
        if (snapshot) {
          // one statement, read through the cursor batch by batch
          const q = listRowsAfterSql(kind, filters, keys, null, wanted, 'arrays');
          for await (const rows of snapshot.batches<{ j: string }>(q.sql, q.params, batchRows)) yield { texts: rows.map((r) => r.j), rows: rows.length };
          return;
        }
        let after: { at: string; id: number } | null = null;
        let left = wanted;
        while (left > 0) {
          const q = listRowsAfterSql(kind, filters, keys, after, Math.min(batchRows, left), 'arrays');
          const rows = await db.query<{ at: string; id: number; j: string }>(q.sql, q.params);
          if (rows.length === 0) return;
          const last = rows[rows.length - 1]!;
          after = { at: last.at, id: last.id };
          left -= rows.length;
          yield { texts: rows.map((r) => r.j), rows: rows.length };
        }
      },
    };
  } catch (err) {
    await snapshot?.release();
    throw err;
  }
}
