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
import { countriesSql, countsSql, keysOf, kinds, listSql, resolveFilters, TOTAL_AMOUNT, TOTAL_STATUS, toWire, totalSql } from './transactionsQuery';
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
  readonly rows: Record<string, unknown>[];
  readonly firstPage: Record<string, unknown>[];
  readonly fields: ExportField[];
  readonly countries: { code: string; name: string }[];
  readonly totalAmount: number;
  readonly filteredTotalAmount: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Runs a list: rows, totals, export fields and the country options. */
export async function runList(db: Db, spec: ListSpec, body: ListFilters): Promise<ListResult> {
  const kind = kinds[spec.kind];
  const filters = await resolveFilters(db, body, spec.refunded ? 'REFUNDED' : undefined);
  const amountColumn = spec.refunded ? 'amount_lkr' : 'amount_usd';
  const totalStatus = spec.refunded ? 'REFUNDED' : SUCCESS;
  const list = listSql(kind, keysOf(spec.row), filters, amountColumn);
  const total = totalSql(kind, filters, totalStatus, amountColumn);
  const [raw, totals, countries] = await Promise.all([
    db.query<Record<string, unknown>>(list.sql, list.params),
    db.one<{ total: number }>(total.sql, total.params),
    db.query<{ code: string; name: string }>(countriesSql.sql, countriesSql.params),
  ]);
  let filtered = 0;
  for (const r of raw) if (r[TOTAL_STATUS] === totalStatus) filtered += Number(r[TOTAL_AMOUNT]);
  const rows = raw.map(toWire);
  return {
    rows,
    firstPage: [...rows].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, FIRST_PAGE),
    fields: exportFieldsOf(spec.screen),
    countries,
    totalAmount: round2(Number(totals?.total ?? 0)),
    filteredTotalAmount: round2(filtered),
  };
}

/** The count cards of one kind, from the daily roll-up. */
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

// Rows are typed by the contracts; the query layer works on plain records, checked again by the
// reply schema when the reply is sent.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRows = any[];

/** A list whose totals sit at the top level. */
function topLevelList(contract: Parameters<typeof handle>[0], spec: ListSpec): Handler {
  return handle(contract, async (ctx, body) => {
    const r = await runList(ctx.db, spec, body as ListFilters);
    return {
      data: { transactions: r.firstPage as AnyRows, filteredList: r.rows as AnyRows, fields: r.fields, countries: r.countries },
      top: { totalAmount: r.totalAmount, filteredTotalAmount: r.filteredTotalAmount },
    };
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
    return {
      data: {
        transactions: r.firstPage as AnyRows,
        filteredList: r.rows as AnyRows,
        fields: r.fields,
        countries: r.countries,
        totalAmount: r.totalAmount,
        filteredTotalAmount: r.filteredTotalAmount,
      },
    };
  }),
  topLevelList(billAuditList, { kind: 'bill', row: billRow, screen: billAuditScreen }),
  topLevelList(eChannellingAuditList, { kind: 'echannelling', row: eChannellingRow, screen: eChannellingAuditScreen }),
  topLevelList(thyagaAuditList, { kind: 'thyaga', row: thyagaRow, screen: thyagaAuditScreen }),

  topLevelList(ceftList, { kind: 'ceft', row: ceftRow, screen: ceftScreen }),
  topLevelList(billList, { kind: 'bill', row: billRow, screen: billScreen }),
  topLevelList(thyagaList, { kind: 'thyaga', row: thyagaRow, screen: thyagaScreen }),
  topLevelList(eChannellingList, { kind: 'echannelling', row: eChannellingRow, screen: eChannellingScreen }),
  handle(insuranceList, async (ctx, body) => {
    const r = await runList(ctx.db, { kind: 'insurance', row: insuranceRow, screen: insuranceScreen }, body);
    return {
      data: { filteredList: r.rows as AnyRows, fields: r.fields, countries: r.countries, totalAmount: r.totalAmount, filteredTotalAmount: r.filteredTotalAmount },
    };
  }),

  ...transactionActionHandlers,
];
