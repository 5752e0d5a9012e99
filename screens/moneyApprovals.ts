/**
 * Large money actions waiting for a second person (src/server/moneyApprovals.ts): the voids, refunds
 * and manual fund transfers above MONEY_ACTION_APPROVAL_ABOVE_USD, those the user may decide, with the
 * approval panel: a table of them with their amounts, for those who work through money actions. The
 * same requests are in the approvals inbox (/approvals, area Transaction), decided by the same call's
 * function (src/server/moneyApprovals.ts decideMoneyApproval). Shown only while the setting is on.
 */
import { defineListScreen } from '../src/definitions/definitions';
import { defineRecord } from '../src/definitions/records';
import { moneyApprovalApprove, moneyApprovalList, type MoneyApprovalRow } from '../src/api/controls';

/** A transaction as a money action request shows it (the action itself is the request's operation). */
export const moneyRecord = defineRecord({
  type: 'Transaction',
  fields: [
    { kind: 'text', name: 'id', key: 'id', header: 'Transaction ID' },
    { kind: 'text', name: 'trace', key: 'trace', header: 'Trace' },
    { kind: 'amount', name: 'amount', key: 'amount', header: 'Amount', currency: { key: 'currency_code' } },
    { kind: 'amount', name: 'amount_usd', key: 'amount_usd', header: 'Amount (USD)', currency: { fixed: 'USD' } },
    { kind: 'text', name: 'account_number', key: 'account_number', header: 'Beneficiary Account' },
    { kind: 'text', name: 'status', key: 'status', header: 'Status' },
  ],
});

export const moneyApprovalsScreen = defineListScreen<MoneyApprovalRow>()({
  kind: 'list',
  id: 'moneyApprovals',
  route: '/transactions/money-approvals',
  title: 'Money Action Approvals',
  breadcrumb: [{ label: 'Money Action Approvals' }],
  // only while MONEY_ACTION_APPROVAL_ABOVE_USD is set (the console learns it from config): no entry, no route otherwise
  access: { anyOf: [], withSetting: { setting: 'moneyActionApproval', anyOf: ['transaction-refund', 'transaction-retry'] } },
  menu: { section: 'Main', label: 'Money Action Approvals', order: 30 },
  source: { call: moneyApprovalList, request: () => ({}), rows: (d) => d.requests, changeRequests: (d) => d.changeRequests },
  rowKey: 'changeRequestId',
  defaultSort: { key: 'changeRequestId', desc: false },
  pinnedColumns: ['changeRequestId', 'trace'],
  columns: [
    { key: 'changeRequestId', header: 'Request ID', kind: 'integer' },
    { key: 'transactionId', header: 'Transaction ID', kind: 'integer' },
    { key: 'trace', header: 'Trace' },
    { key: 'action', header: 'Action' },
    { key: 'currency', header: 'Currency' },
    { key: 'amount', header: 'Amount', kind: 'amount' },
    { key: 'amountUsd', header: 'Amount (USD)', kind: 'amount' },
    { key: 'requestedBy', header: 'Requested By' },
    { key: 'requestedTime', header: 'Requested At', kind: 'datetime' },
  ],
  emptyMessage: 'No money actions are waiting for approval.',
  changeRequests: { permission: 'transaction-refund', alsoPermissions: ['transaction-retry'], approve: moneyApprovalApprove, entity: 'Transaction' },
});
