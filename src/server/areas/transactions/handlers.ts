/**
 * The transaction views' calls: the lists of both families, the count cards and (in
 * ./actions.ts) the send-money actions. An IPG bank user's lists and counts hold their own
 * provider's transactions only (../providerScope.ts), filtered in the queries.
 */
import type { z } from 'zod';
import type { CallContract } from '../../../api/contract';
import {
  billAuditList,
  billCount,
  billList,
  ceftAuditList,
  ceftAuditRow,
  ceftCount,
  ceftList,
  ceftRefundedAuditList,
  ceftRow,
  billRow,
  eChannellingAuditList,
  eChannellingCount,
  eChannellingList,
  eChannellingRow,
  insuranceList,
  insuranceRow,
  thyagaAuditList,
  thyagaCount,
  thyagaList,
  thyagaRow,
  type ListFilters,
} from '../../../api/transactions';
import { exportFieldsOf } from '../../../definitions/exportFields';
import type { AnyListScreen } from '../../../definitions/definitions';
import { SUCCESS, type TransactionKind } from '../../../domain/transactionStatus';
import {
  billAuditScreen,
  billScreen,
  ceftAuditScreen,
  ceftScreen,
  eChannellingAuditScreen,
  eChannellingScreen,
  insuranceScreen,
  thyagaAuditScreen,
  thyagaScreen,
} from '../../../../screens/transactions';
import { madeOnce } from '../../madeOnce';
import { openReadSnapshot, type Db } from '../../db/db';
import { handle, type Ctx, type Handler } from '../../http/handle';
import { PreparedJson } from '../../http/preparedJson';
import {
  compactTimesOf,
  countsSql,
  keysOf,
  listHeadSql,
  listReplySql,
  listRowsLinesSql,
  listRowsSql,
  resolveFilters,
  rowKindsOf,
  rowSeparator,
  unknownCountry,
  type ListHeadRow,
  type ListReplyRow,
  type RowForm,
} from './query';
import { transactionActionHandlers } from './actions';
import { transactionKindSpecs } from './kinds';
import { providerScopeOf } from '../../providerScope';
import { LIST_ROWS_ARRAYS, LIST_ROWS_COUNT, LIST_ROWS_HEADER, LIST_ROWS_KINDS, LIST_ROWS_LINES, LIST_ROWS_TIMES, listRowForms } from '../../../api/listRows';

/**
 * The form of a list reply's rows: the documented objects, the compact arrays (`x-list-rows: arrays2`)
 * or, for a list streamed from PostgreSQL, the lines of COPY text (`x-list-rows: lines3`, see
 * src/api/listRows.ts); a client that asks for lines gets the arrays when its list is not streamed
 * from PostgreSQL.
 */
export type ReplyForm = RowForm | 'lines';

/** How many rows `transactions` (the first page) carries. */
export const FIRST_PAGE = 50;

export interface ListSpec {
  readonly kind: TransactionKind;
  readonly row: z.ZodObject;
  readonly screen: AnyListScreen;
  /** The refunded tab: only REFUNDED rows, totals of the refunds in LKR. */
  readonly refunded?: boolean;
}

export interface ListResult {
  /**
   * The rows' JSON objects joined by commas: one text, or texts of batches read as they are sent (a
   * large list). In the compact form, JSON arrays instead, each on a line of its own (see `listData`).
   */
  readonly rows: string | AsyncIterable<string> | AsyncIterable<Buffer>;
  readonly form: ReplyForm;
  /** A lines reply's: what each value is (src/api/listRows.ts ListRowKind) and how many rows follow. */
  readonly lines?: { readonly kinds: string; readonly rowCount: number };
  /** The row schema's keys: the order of the values of a compact row. */
  readonly keys: readonly string[];
  /** Ends the read of the rows (a large list holds a database connection until its rows are sent). */
  readonly release: () => Promise<void>;
  /** The first page's JSON objects joined by commas. */
  readonly firstPage: string;
  /** The export fields, a JSON array. */
  readonly fields: string;
  /** The country options, a JSON array. */
  readonly countries: string;
  readonly totalAmount: number;
  readonly filteredTotalAmount: number;
  /** How many rows match the filters without the fetch count (the reply's top-level `matching`). */
  readonly matching: number;
}

/**
 * Lists of more rows than this are streamed: the first page, totals and countries first, then the
 * rows as the database writes them (a 100,000-row list starts arriving at once instead of after
 * seconds). Smaller lists are one statement, one round trip. LIST_STREAM_ABOVE_ROWS sets another
 * limit (a positive integer; the tests use a small one to stream small lists).
 */
export const STREAM_ABOVE_ROWS = 5_000;

export function streamAboveRows(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.LIST_STREAM_ABOVE_ROWS);
  return Number.isInteger(n) && n > 0 ? n : STREAM_ABOVE_ROWS;
}
/** Rows per FETCH of a streamed list (about 2.5 MB of JSON). */
const STREAM_BATCH_ROWS = 2_000;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A screen's export fields as JSON, made once (the screen definitions do not change). */
const fieldsJsonOf = madeOnce((screen: AnyListScreen) => JSON.stringify(exportFieldsOf(screen)));

/**
 * Runs a list (query.ts): one statement giving the rows and the first page as JSON text,
 * the totals and the countries; or, when there are more than STREAM_ABOVE_ROWS rows, the same
 * without the rows in a read-only snapshot, whose rows are then read through a cursor as they are sent.
 */
export async function runList(db: Db, spec: ListSpec, body: ListFilters, zone: string, firstPage = FIRST_PAGE, provider?: string, asked: ReplyForm = 'objects'): Promise<ListResult> {
  // the JSON form of the rows, when they are not lines
  const form: RowForm = asked === 'objects' ? 'objects' : 'arrays';
  const filters = resolveFilters(body, zone, spec.refunded ? 'REFUNDED' : undefined, provider);
  const options = {
    keys: keysOf(spec.row),
    amountColumn: spec.refunded ? ('amount_lkr' as const) : ('amount_usd' as const),
    totalStatus: spec.refunded ? 'REFUNDED' : SUCCESS,
    firstPage,
  };
  const rest = (r: Omit<ListReplyRow, 'rows'>) => {
    if (!r.country_known) throw unknownCountry(filters.country);
    return {
      firstPage: r.first_page,
      fields: fieldsJsonOf(spec.screen),
      countries: r.countries,
      totalAmount: round2(Number(r.total)),
      filteredTotalAmount: round2(Number(r.filtered_total)),
      matching: Number(r.matching),
      form,
      keys: options.keys,
    };
  };
  // one statement, for up to streamAbove rows: the whole list when the cap allows no more, or when
  // the cap allows more (fetch count All) but the filters match no more (most such searches)
  const streamAbove = streamAboveRows();
  const q = listReplySql(transactionKindSpecs[spec.kind], filters, options, filters.fetchCount <= streamAbove ? undefined : streamAbove, form);
  const whole = (await db.one<ListReplyRow>(q.sql, q.params))!;
  if (whole.rows !== null) return { ...rest(whole), rows: whole.rows, release: async () => {} };
  // more rows than that: streamed
  const snapshot = await openReadSnapshot(db);
  try {
    const head = listHeadSql(transactionKindSpecs[spec.kind], filters, options);
    const r = (await snapshot.one<ListHeadRow>(head.sql, head.params))!;
    const result = rest(r);
    if (asked === 'lines' && snapshot.copyText) {
      const copyText = snapshot.copyText.bind(snapshot);
      const linesSql = listRowsLinesSql(transactionKindSpecs[spec.kind], filters, options.keys);
      const rowCount = Number(r.row_count);
      async function* lines(): AsyncGenerator<Buffer> {
        if (rowCount > 0) yield* copyText(linesSql.sql, linesSql.params);
      }
      return { ...result, form: 'lines', lines: { kinds: rowKindsOf(spec.row), rowCount }, rows: lines(), release: () => snapshot.release() };
    }
    const rowsSql = listRowsSql(transactionKindSpecs[spec.kind], filters, options.keys, form);
    const separator = rowSeparator(form);
    async function* rows(): AsyncGenerator<string> {
      if (Number(r.row_count) === 0) return;
      for await (const batch of snapshot.batches<{ j: string }>(rowsSql.sql, rowsSql.params, STREAM_BATCH_ROWS)) {
        // batches are joined by ',' when sent: a compact batch starts on a line of its own
        yield form === 'arrays' ? `\n${batch.map((b) => b.j).join(separator)}` : batch.map((b) => b.j).join(separator);
      }
    }
    return { ...result, rows: rows(), release: () => snapshot.release() };
  } catch (err) {
    await snapshot.release();
    throw err;
  }
}

/**
 * The `data` of a list reply as JSON text: the first page, the export fields and the countries (and
 * the totals, for the lists that carry them inside) come before `filteredList`, so a console reading
 * the reply as it streams has all of them once the rows begin.
 *
 * The compact form (form 'arrays', for a client that sends `x-list-rows: arrays2`, src/api/listRows.ts: the console) has,
 * instead of `filteredList`, the row schema's keys once (`filteredListKeys`), the places of the times
 * among them (`filteredListTimes`: those values are the UTC wall clock, src/api/listRows.ts) and then
 * `filteredListRows`: each row as a JSON array of its values in that order, one row per line (a
 * line break before each row and before the closing bracket), so that a reader can cut the text at
 * line breaks and parse whole rows. Every other member is as documented.
 */
export function listData(r: ListResult, withFirstPage: boolean, totalsInside: boolean): PreparedJson {
  let head = '{';
  if (withFirstPage) head += `"transactions":[${r.firstPage}],`;
  head += `"fields":${r.fields},"countries":${r.countries}`;
  if (totalsInside) head += `,"totalAmount":${JSON.stringify(r.totalAmount)},"filteredTotalAmount":${JSON.stringify(r.filteredTotalAmount)}`;
  if (r.lines) {
    // the document whole on the first line, the rows on the lines after it, as the database wrote them
    head += `,${COMPACT_KEYS}:${JSON.stringify(r.keys)},${COMPACT_TIMES}:${JSON.stringify(compactTimesOf(r.keys))},${COMPACT_KINDS}:${JSON.stringify(r.lines.kinds)},${COMPACT_COUNT}:${r.lines.rowCount},${COMPACT_ROWS}:[]}`;
    return PreparedJson.streamed({ head, parts: r.rows as AsyncIterable<Buffer>, tail: '', release: r.release, lines: true });
  }
  const compact = r.form === 'arrays';
  head += compact ? `,${COMPACT_KEYS}:${JSON.stringify(r.keys)},${COMPACT_TIMES}:${JSON.stringify(compactTimesOf(r.keys))},${COMPACT_ROWS}:[` : ',"filteredList":[';
  const tail = compact ? '\n]}' : ']}';
  if (typeof r.rows === 'string') return PreparedJson.of(`${head}${compact && r.rows ? `\n${r.rows}` : r.rows}${tail}`);
  return PreparedJson.streamed({ head, parts: r.rows as AsyncIterable<string>, tail, release: r.release });
}

/** The members of a compact list reply (see `listData`), as JSON keys. */
const COMPACT_KEYS = '"filteredListKeys"';
const COMPACT_ROWS = '"filteredListRows"';
const COMPACT_TIMES = JSON.stringify(LIST_ROWS_TIMES);
const COMPACT_KINDS = JSON.stringify(LIST_ROWS_KINDS);
const COMPACT_COUNT = JSON.stringify(LIST_ROWS_COUNT);

/** The count cards of one kind, from the monthly roll-up (of the provider's rows, for a caller limited to one). */
export async function countsOf(db: Db, kind: TransactionKind, provider?: string) {
  const q = countsSql(kind, provider);
  const rows = await db.query<{ status: string; count: number }>(q.sql, q.params);
  const by = (s: string) => Number(rows.find((r) => r.status === s)?.count ?? 0);
  return {
    completeTranCount: by('SUCCESS'),
    pendingTranCount: by('PENDING'),
    failedTranCount: by('FAILED'),
    refundTranCount: by('REFUNDED'),
    holdTranCount: by('HOLD'),
  };
}

// The list replies' data are JSON text built by the database from the row schema's keys (see
// query.ts), sent as they are; tests/api/transactions.test.ts parses them with the contracts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyData = any;

/** The form of the rows the caller asked for: a compact one only when it sent `x-list-rows` with `arrays2` (and `lines3`). */
function rowFormOf(ctx: Ctx): ReplyForm {
  ctx.client.setHeader('vary', LIST_ROWS_HEADER);
  const asked = listRowForms(ctx.client.header?.(LIST_ROWS_HEADER));
  // lines only for a client that also reads the arrays, which the lists not streamed from PostgreSQL send
  return asked.arrays ? (asked.lines ? 'lines' : 'arrays') : 'objects';
}

/** Runs a list in the form its caller asked for; the reply says which form it carries (a server that does not know the header sends the documented one). */
async function listFor(ctx: Ctx, spec: ListSpec, body: ListFilters, firstPage: number): Promise<ListResult> {
  const r = await runList(ctx.readDb, spec, body, ctx.businessTimeZone, firstPage, await providerScopeOf(ctx.db, ctx.user), rowFormOf(ctx));
  if (r.form !== 'objects') ctx.client.setHeader(LIST_ROWS_HEADER, r.form === 'lines' ? LIST_ROWS_LINES : LIST_ROWS_ARRAYS);
  return r;
}

/** A list whose totals sit at the top level. */
function topLevelList(contract: Parameters<typeof handle>[0], spec: ListSpec): Handler {
  return handle(contract, async (ctx, body) => {
    const r = await listFor(ctx, spec, body as ListFilters, FIRST_PAGE);
    return { data: listData(r, true, false) as AnyData, top: { totalAmount: r.totalAmount, filteredTotalAmount: r.filteredTotalAmount, matching: r.matching } };
  });
}

/**
 * The lists a server export job can write (src/server/exportJobs/): each call with the list spec its
 * handler runs (the same query, scope and columns) and the title and file name of its exports.
 */
export interface ExportableList {
  readonly contract: CallContract;
  readonly spec: ListSpec;
  readonly exports: { readonly title: string; readonly fileBase: string };
}

const refundedTab = ceftAuditScreen.tabs?.find((t) => t.id === 'refunded');

function exportable(contract: CallContract, spec: ListSpec, exports = spec.screen.exports): ExportableList {
  if (!exports) throw new Error(`${contract.path}: the screen has no exports`);
  return { contract, spec, exports };
}

/** Each list call's rows: one spec, for its handler below and for the server's export jobs. */
const specs = {
  ceftAudit: { kind: 'ceft', row: ceftAuditRow, screen: ceftAuditScreen },
  ceftRefundedAudit: { kind: 'ceft', row: ceftAuditRow, screen: ceftAuditScreen, refunded: true },
  billAudit: { kind: 'bill', row: billRow, screen: billAuditScreen },
  eChannellingAudit: { kind: 'echannelling', row: eChannellingRow, screen: eChannellingAuditScreen },
  thyagaAudit: { kind: 'thyaga', row: thyagaRow, screen: thyagaAuditScreen },
  ceft: { kind: 'ceft', row: ceftRow, screen: ceftScreen },
  bill: { kind: 'bill', row: billRow, screen: billScreen },
  thyaga: { kind: 'thyaga', row: thyagaRow, screen: thyagaScreen },
  eChannelling: { kind: 'echannelling', row: eChannellingRow, screen: eChannellingScreen },
  insurance: { kind: 'insurance', row: insuranceRow, screen: insuranceScreen },
} as const satisfies Record<string, ListSpec>;

export const exportableLists: readonly ExportableList[] = [
  exportable(ceftAuditList, specs.ceftAudit),
  exportable(ceftRefundedAuditList, specs.ceftRefundedAudit, refundedTab?.exports),
  exportable(billAuditList, specs.billAudit),
  exportable(eChannellingAuditList, specs.eChannellingAudit),
  exportable(thyagaAuditList, specs.thyagaAudit),
  exportable(ceftList, specs.ceft),
  exportable(billList, specs.bill),
  exportable(thyagaList, specs.thyaga),
  exportable(eChannellingList, specs.eChannelling),
  exportable(insuranceList, specs.insurance),
];

export const transactionHandlers: readonly Handler[] = [
  handle(ceftCount, async (ctx) => ({ data: await countsOf(ctx.readDb, 'ceft', await providerScopeOf(ctx.db, ctx.user)) })),
  handle(billCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.readDb, 'bill', await providerScopeOf(ctx.db, ctx.user));
    return { data: counts };
  }),
  handle(eChannellingCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.readDb, 'echannelling', await providerScopeOf(ctx.db, ctx.user));
    return { data: counts };
  }),
  handle(thyagaCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.readDb, 'thyaga', await providerScopeOf(ctx.db, ctx.user));
    return { data: counts };
  }),

  topLevelList(ceftAuditList, specs.ceftAudit),
  handle(ceftRefundedAuditList, async (ctx, body) => {
    const r = await listFor(ctx, specs.ceftRefundedAudit, body, FIRST_PAGE);
    return { data: listData(r, true, true) as AnyData, top: { matching: r.matching } };
  }),
  topLevelList(billAuditList, specs.billAudit),
  topLevelList(eChannellingAuditList, specs.eChannellingAudit),
  topLevelList(thyagaAuditList, specs.thyagaAudit),

  topLevelList(ceftList, specs.ceft),
  topLevelList(billList, specs.bill),
  topLevelList(thyagaList, specs.thyaga),
  topLevelList(eChannellingList, specs.eChannelling),
  handle(insuranceList, async (ctx, body) => {
    const r = await listFor(ctx, specs.insurance, body, 0);
    return { data: listData(r, false, true) as AnyData, top: { matching: r.matching } };
  }),

  ...transactionActionHandlers,
];
