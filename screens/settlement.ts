/**
 * The Scheduled and the Instant Settlement Report (spec 002 §2, §4, §8; README "Settlement").
 *
 * Each is a list definition with a toolbar action (Generate Report) and notices (the rate messages),
 * rendered by the generic list view (src/definitions/toolbar.ts).
 */
import type { Column } from '../src/definitions/definitions';
import { defineListScreen } from '../src/definitions/definitions';
import type { ToolbarAction, ToolbarListScreen } from '../src/definitions/toolbar';
import { generateInstantSettlement, generateSettlement, instantSettlementReport, settlementReport, type SettlementRow } from '../src/api/reports';
import { canGenerateSettlement, REPORT_PAGE_SIZE, reportMessages, settlementFailure, settlementMessages, settlementNeedsRateConfirmation, settlementRatesAlert } from '../src/domain/reports';
import { fetchCountOf, type CallContract } from '../src/api/contract';

const settlementColumns: readonly Column<SettlementRow>[] = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'tran_date', header: 'Tran Date' },
  { key: 'batch_date', header: 'Batch Date' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'account_number', header: 'Account Number' },
  { key: 'fc_amount', header: 'FC Amount', kind: 'amount' },
  { key: 'fc_commission', header: 'FC Commission', kind: 'amount' },
  { key: 'fc_net_amount', header: 'FC Net Amount', kind: 'amount' },
  { key: 'fc_rate', header: 'Rate', kind: 'rate' },
  { key: 'lkr_amount', header: 'LKR Amount', kind: 'amount' },
  { key: 'created_at', header: 'Created At', kind: 'datetime' },
  { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
];

function generateAction(call: CallContract, instant: boolean): ToolbarAction {
  return {
    id: 'generate',
    label: 'Generate Report',
    busyLabel: 'Generating…',
    permission: 'settlement-report-generate',
    when: canGenerateSettlement,
    call,
    body: ({ confirmed }) => ({ useYesterdaysRates: confirmed }),
    confirm: {
      when: settlementNeedsRateConfirmation,
      title: reportMessages.ratesNotUpdated,
      message: reportMessages.useYesterdaysRates,
      lines: ({ reply }) => settlementMessages(reply),
      confirmLabel: 'Continue',
    },
    success: reportMessages.settlementGenerated,
    failure: settlementFailure(instant),
  };
}

const notices = { alert: settlementRatesAlert, lines: settlementMessages };

export const settlementScreen: ToolbarListScreen<SettlementRow> = {
  ...defineListScreen<SettlementRow>()({
    kind: 'list',
    id: 'settlementReport',
    pinnedColumns: ['id'],
    route: '/settlementReport',
    title: 'Scheduled Settlement Report',
    breadcrumb: [{ label: 'Scheduled Settlement Report' }],
    access: { anyOf: ['settlement-report-view'] },
    source: {
      call: settlementReport,
      request: (f) => ({ date: String(f.date), fetchCount: fetchCountOf(f.fetchCount) }),
      rows: (d) => d.transactions,
    },
    filters: [
      { kind: 'date', key: 'date', label: 'Date' },
      { kind: 'fetchCount', key: 'fetchCount' },
    ],
    columns: settlementColumns,
    pageSize: REPORT_PAGE_SIZE,
    emptyMessage: 'No settlement records found.',
    exports: { fileBase: 'Scheduled_Settlement_Report', title: 'Scheduled Settlement Report' },
    menu: { section: 'Reports', label: 'Settlement Report', order: 80 },
  }),
  toolbarActions: [generateAction(generateSettlement, false)],
  notices,
};

export const instantSettlementScreen: ToolbarListScreen<SettlementRow> = {
  ...defineListScreen<SettlementRow>()({
    kind: 'list',
    id: 'instantSettlementReport',
    pinnedColumns: ['id'],
    route: '/instantSettlementReport',
    title: 'Instant Settlement Report',
    breadcrumb: [{ label: 'Instant Settlement Report' }],
    access: { anyOf: ['settlement-report-view'] },
    source: {
      call: instantSettlementReport,
      request: (f) => ({ date: String(f.date) }),
      rows: (d) => d.transactions,
    },
    filters: [{ kind: 'date', key: 'date', label: 'Date' }],
    columns: settlementColumns,
    pageSize: REPORT_PAGE_SIZE,
    emptyMessage: 'No settlement records found.',
    exports: { fileBase: 'Instant_Settlement_Report', title: 'Instant Settlement Report' },
    menu: { section: 'Reports', label: 'Instant Settlement Report', order: 81 },
  }),
  toolbarActions: [generateAction(generateInstantSettlement, true)],
  notices,
};
