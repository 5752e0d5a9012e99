/**
 * The transaction views' calls: the lists of both families, the count cards and (in
 * ./transactionsActions.ts) the send-money actions.
 */
import type { z } from 'zod';
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
} from '../../api/transactions';
import type { ExportField } from '../../api/contract';
import { exportFieldsOf } from '../../console/exportFields';
import type { AnyListScreen } from '../../console/definitions';
import { SUCCESS, type TransactionKind } from '../../domain/transactionStatus';
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
} from '../../../screens/transactions';
import type { Db } from '../db/db';
import { handle, type Handler } from '../http/handle';
import { PreparedJson } from '../http/preparedJson';
import { countsSql, keysOf, kinds, listReplySql, resolveFilters, unknownCountry, type ListReplyRow } from './transactionsQuery';
import { transactionActionHandlers } from './transactionsActions';

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
  /** The rows' JSON objects joined by commas. */
  readonly rows: string;
  /** The first page's JSON objects joined by commas. */
  readonly firstPage: string;
  readonly fields: ExportField[];
  /** The country options, a JSON array. */
  readonly countries: string;
  readonly totalAmount: number;
  readonly filteredTotalAmount: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Runs a list: one statement (transactionsQuery.ts) gives the rows and the first page as JSON text, the totals and the countries. */
export async function runList(db: Db, spec: ListSpec, body: ListFilters, firstPage = FIRST_PAGE): Promise<ListResult> {
  const filters = resolveFilters(body, spec.refunded ? 'REFUNDED' : undefined);
  const q = listReplySql(kinds[spec.kind], filters, {
    keys: keysOf(spec.row),
    amountColumn: spec.refunded ? 'amount_lkr' : 'amount_usd',
    totalStatus: spec.refunded ? 'REFUNDED' : SUCCESS,
    firstPage,
  });
  const r = (await db.one<ListReplyRow>(q.sql, q.params))!;
  if (!r.country_known) throw unknownCountry(filters.country);
  return {
    rows: r.rows,
    firstPage: r.first_page,
    fields: exportFieldsOf(spec.screen),
    countries: r.countries,
    totalAmount: round2(Number(r.total)),
    filteredTotalAmount: round2(Number(r.filtered_total)),
  };
}

/** The `data` of a list reply, in the contract's key order, as JSON text. */
function listData(r: ListResult, withFirstPage: boolean, totalsInside: boolean): PreparedJson {
  let text = '{';
  if (withFirstPage) text += `"transactions":[${r.firstPage}],`;
  text += `"filteredList":[${r.rows}],"fields":${JSON.stringify(r.fields)},"countries":${r.countries}`;
  if (totalsInside) text += `,"totalAmount":${JSON.stringify(r.totalAmount)},"filteredTotalAmount":${JSON.stringify(r.filteredTotalAmount)}`;
  return new PreparedJson(`${text}}`);
}

/** The count cards of one kind, from the monthly roll-up. */
export async function countsOf(db: Db, kind: TransactionKind) {
  const q = countsSql(kind);
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
// transactionsQuery.ts), sent as they are; tests/api/transactions.test.ts parses them with the contracts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyData = any;

/** A list whose totals sit at the top level. */
function topLevelList(contract: Parameters<typeof handle>[0], spec: ListSpec): Handler {
  return handle(contract, async (ctx, body) => {
    const r = await runList(ctx.db, spec, body as ListFilters);
    return { data: listData(r, true, false) as AnyData, top: { totalAmount: r.totalAmount, filteredTotalAmount: r.filteredTotalAmount } };
  });
}

export const transactionHandlers: readonly Handler[] = [
  handle(ceftCount, async (ctx) => ({ data: await countsOf(ctx.db, 'ceft') })),
  handle(billCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.db, 'bill');
    return { data: counts };
  }),
  handle(eChannellingCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.db, 'echannelling');
    return { data: counts };
  }),
  handle(thyagaCount, async (ctx) => {
    const { holdTranCount: _hold, ...counts } = await countsOf(ctx.db, 'thyaga');
    return { data: counts };
  }),

  topLevelList(ceftAuditList, { kind: 'ceft', row: ceftAuditRow, screen: ceftAuditScreen }),
  handle(ceftRefundedAuditList, async (ctx, body) => {
    const r = await runList(ctx.db, { kind: 'ceft', row: ceftAuditRow, screen: ceftAuditScreen, refunded: true }, body);
    return { data: listData(r, true, true) as AnyData };
  }),
  topLevelList(billAuditList, { kind: 'bill', row: billRow, screen: billAuditScreen }),
  topLevelList(eChannellingAuditList, { kind: 'echannelling', row: eChannellingRow, screen: eChannellingAuditScreen }),
  topLevelList(thyagaAuditList, { kind: 'thyaga', row: thyagaRow, screen: thyagaAuditScreen }),

  topLevelList(ceftList, { kind: 'ceft', row: ceftRow, screen: ceftScreen }),
  topLevelList(billList, { kind: 'bill', row: billRow, screen: billScreen }),
  topLevelList(thyagaList, { kind: 'thyaga', row: thyagaRow, screen: thyagaScreen }),
  topLevelList(eChannellingList, { kind: 'echannelling', row: eChannellingRow, screen: eChannellingScreen }),
  handle(insuranceList, async (ctx, body) => {
    const r = await runList(ctx.db, { kind: 'insurance', row: insuranceRow, screen: insuranceScreen }, body, 0);
    return { data: listData(r, false, true) as AnyData };
  }),

  ...transactionActionHandlers,
];
