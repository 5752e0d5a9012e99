/**
 * The transaction views (spec 001): send money (CEFT, with its Refunded tab and row actions), bill
 * payments, E-Channelling, Thyaga and insurance, in the operational variant (Reports menu,
 * Transaction/... calls) and the auditor variant (Audit Reports menu, dashboard/... calls). The
 * variants differ in data, not in code.
 */
import { defineListScreen, defineListSource, type FilterDef, type FilterValues, type RowAction, type TotalsFooter, type WholeReply } from '../src/definitions/definitions';
import {
  billAuditList,
  billCount,
  billList,
  ceftAuditList,
  ceftCount,
  ceftHold,
  ceftList,
  ceftManualFundTransfer,
  ceftRefund,
  ceftRefundedAuditList,
  ceftVoid,
  sentForApprovalMessage,
  eChannellingAuditList,
  eChannellingCount,
  eChannellingList,
  insuranceList,
  thyagaAuditList,
  thyagaCount,
  thyagaList,
  type BillRow,
  type CeftAuditRow,
  type CeftRow,
  type EChannellingRow,
  type InsuranceRow,
  type ThyagaRow,
} from '../src/api/transactions';
import { canSeeAuditorReports } from '../src/domain/access';
import { wireFrom, wireTo } from '../src/domain/dates';
import { canHoldFundTransfer, canManualFundTransfer, canRefundCardPayment, canVoidCardPayment } from '../src/domain/transactionGuards';
import { statusFilterValues } from '../src/domain/transactionStatus';
import { limits } from '../src/domain/validation';

// ---- filters ---------------------------------------------------------------------------------

/** The country filter's options: the countries that come with the list's reply. */
export function countryOptions(data: unknown) {
  const countries = (data as { countries?: { code: string; name: string }[] } | undefined)?.countries ?? [];
  return countries.map((c) => ({ value: c.code, label: c.name }));
}

const dateRange: FilterDef = { kind: 'dateTimeRange', from: 'from_date', to: 'to_date' };
const country: FilterDef = { kind: 'dataSelect', key: 'country_code', label: 'Country', allLabel: 'All Countries', options: countryOptions };
const fetchCountFilter: FilterDef = { kind: 'fetchCount', key: 'fetchCount' };
const searchText = (label: string): FilterDef => ({ kind: 'text', key: 'data', label, maxLength: limits.searchText });
const sendMoneyStatus: FilterDef = {
  kind: 'select',
  key: 'status',
  label: 'Status',
  options: [
    { value: '', label: 'All' },
    { value: 'SUCCESS', label: 'SUCCESS' },
    { value: 'PENDING', label: 'PENDING' },
    { value: 'FAILED', label: 'FAILED' },
  ],
};

/** The range as sent (From with seconds 1, To with seconds 0), the country and the search text. */
export function rangeRequest(f: FilterValues) {
  return { from_date: wireFrom(String(f.from_date ?? '')), to_date: wireTo(String(f.to_date ?? '')), country_code: String(f.country_code ?? ''), data: String(f.data ?? '') };
}

/** The range request with the fetch count. */
export function countedRequest(f: FilterValues) {
  return { ...rangeRequest(f), fetchCount: Number(f.fetchCount ?? 10) };
}

/** The Send Money status filter's value as sent (anything unknown is All). */
export function statusOf(f: FilterValues): (typeof statusFilterValues)[number] {
  return statusFilterValues.find((s) => s === f.status) ?? '';
}

/** The counted request with the status filter's value. */
export function statusRequest(f: FilterValues) {
  return { ...countedRequest(f), status: statusOf(f) };
}

/** The counted request with an empty status (the auditor screens have no status filter). */
export function emptyStatusRequest(f: FilterValues) {
  return { ...countedRequest(f), status: '' as const };
}

// ---- count cards and footers -----------------------------------------------------------------

const countCards = [
  { label: 'Success', key: 'completeTranCount', tone: 'green' },
  { label: 'Pending', key: 'pendingTranCount', tone: 'yellow' },
  { label: 'Failed', key: 'failedTranCount', tone: 'red' },
  { label: 'Refunded', key: 'refundTranCount', tone: 'blue' },
] as const;

export const SUCCESSFUL_ONLY_NOTE = 'Displaying only the total value of successful transactions.';
/** The Refunded tab's totals are of the refunded transactions (status REFUNDED), in LKR: not of successful ones. */
export const REFUNDED_ONLY_NOTE = 'Displaying only the total value of refunded transactions, in LKR.';

/** Names a function made by a factory after the call that made it (`topLevel('totalAmount')`), as the specs show it. */
function madeBy<F extends (...args: never[]) => unknown>(call: string, fn: F): F {
  return Object.defineProperty(fn, 'name', { value: call });
}

/** A number at the top level of the reply. */
export function topLevel(key: string) {
  return madeBy(`topLevel('${key}')`, (reply: WholeReply) => (typeof reply[key] === 'number' ? (reply[key] as number) : undefined));
}

/** A number inside the reply's data. */
export function inData(key: string) {
  return madeBy(`inData('${key}')`, (reply: WholeReply) => {
    const v = (reply.data as Record<string, unknown> | undefined)?.[key];
    return typeof v === 'number' ? v : undefined;
  });
}

/** Totals at the top level, in USD. */
const usdFooter: TotalsFooter = {
  items: [
    { label: 'Filtered Amount', currency: 'USD', value: topLevel('filteredTotalAmount') },
    { label: 'Total Amount', currency: 'USD', value: topLevel('totalAmount') },
  ],
  note: SUCCESSFUL_ONLY_NOTE,
};

/** Totals inside data, in USD (insurance). */
const usdFooterInData: TotalsFooter = {
  items: [
    { label: 'Filtered Amount', currency: 'USD', value: inData('filteredTotalAmount') },
    { label: 'Total Amount', currency: 'USD', value: inData('totalAmount') },
  ],
  note: SUCCESSFUL_ONLY_NOTE,
};

/** The refunded tab: totals inside data, in LKR. */
const lkrFooterInData: TotalsFooter = {
  items: [
    { label: 'Filtered Amount', currency: 'LKR', value: inData('filteredTotalAmount') },
    { label: 'Total Amount', currency: 'LKR', value: inData('totalAmount') },
  ],
  note: REFUNDED_ONLY_NOTE,
};

// ---- columns shared by several kinds ---------------------------------------------------------

const cardPaymentColumns = [
  { key: 'card_payment_time', header: 'Card Payment Time', kind: 'datetime' },
  { key: 'card_payment_status', header: 'Card Payment Status', kind: 'paymentStatus' },
  { key: 'card_payment_description', header: 'Card Payment Description' },
  { key: 'ipg_transaction_id', header: 'IPG Transaction ID' },
] as const;

/** The IPG deduction details of bill payments and Thyaga. */
const ipgDeductionPanel = [
  { key: 'exchange_rate_lkr', label: 'Exchange Rate (LKR)', kind: 'amount' },
  { key: 'ipg_rate', label: 'IPG Rate (%)', kind: 'amount' },
  { key: 'ipg_commission', label: 'IPG Commission', kind: 'amount' },
  { key: 'bank_charge', label: 'Bank Charge', kind: 'amount' },
  { key: 'refund_commission', label: 'Refund Commission (%)', kind: 'amount' },
  { key: 'beneficiary_received_amount_lkr', label: 'Beneficiary Received Amount (LKR)', kind: 'amount' },
] as const;

const voidColumns = [
  { key: 'ipg_void_payment_time', header: 'IPG Void Payment Time', kind: 'datetime' },
  { key: 'ipg_void_status', header: 'IPG Void Status', kind: 'paymentStatus' },
  {
    key: 'ipg_void_tran_id',
    header: 'Void Details',
    panel: [
      { key: 'ipg_void_tran_id', label: 'Void Tran ID' },
      { key: 'ipg_void_description', label: 'Void Description' },
      { key: 'ipg_void_code', label: 'Void Code' },
      { key: 'ipg_void_message', label: 'Void Message' },
    ],
  },
] as const;

const timestampColumns = [
  { key: 'created_at', header: 'Created At', kind: 'datetime' },
  { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
] as const;

// ---- send money (CEFT) -----------------------------------------------------------------------

/** The columns before the bank column. */
const ceftLeadColumns = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
  { key: 'uid', header: 'UID/NIC' },
  { key: 'country', header: 'Country' },
  { key: 'tran_type', header: 'Tran Type' },
] as const;

const ceftTailColumns = [
  { key: 'account_number', header: 'Account Number' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  ...cardPaymentColumns,
  {
    key: 'exchange_rate_final',
    header: 'IPG Deduction Details',
    panel: [
      { key: 'exchange_rate_final', label: 'Exchange Rate (LKR)', kind: 'amount' },
      { key: 'ipg_rate', label: 'IPG Rate (%)', kind: 'amount' },
      { key: 'ipg_commission', label: 'IPG Commission', kind: 'amount' },
      { key: 'bank_charge', label: 'Bank Charge', kind: 'amount' },
      { key: 'refund_commission', label: 'Refund Commission (%)', kind: 'amount' },
      { key: 'beneficiary_received_amount_lkr', label: 'Beneficiary Received Amount (LKR)', kind: 'amount' },
    ],
  },
  { key: 'ceft_payment_time', header: 'CEFT Payment Time', kind: 'datetime' },
  { key: 'ceft_payment_status', header: 'CEFT Payment Status', kind: 'paymentStatus' },
  { key: 'ceft_payment_description', header: 'CEFT Payment Description' },
  { key: 'ceft_transaction_id', header: 'CEFT Transaction ID' },
  { key: 'ceft_try_count', header: 'CEFT Try Count', kind: 'integer' },
  { key: 'refund_requested', header: 'Refund Requested', kind: 'yesNo' },
  ...voidColumns,
  { key: 'ipg_refund_payment_time', header: 'IPG Refund Payment Time', kind: 'datetime' },
  { key: 'ipg_refund_status', header: 'IPG Refund Status', kind: 'paymentStatus' },
  {
    key: 'ipg_refund_tran_id',
    header: 'Refund Details',
    panel: [
      { key: 'ipg_refund_tran_id', label: 'Refund Tran ID' },
      { key: 'ipg_refund_description', label: 'Refund Description' },
      { key: 'ipg_refund_code', label: 'Refund Code' },
      { key: 'ipg_refund_message', label: 'Refund Message' },
    ],
  },
  { key: 'status', header: 'Status', kind: 'paymentStatus' },
  ...timestampColumns,
] as const;

/** The row actions of send money, with their guards (src/domain/transactionGuards.ts) and the texts of spec 001 §8. */
export function ceftRowActions<Row extends CeftRow | CeftAuditRow>(): RowAction<Row>[] {
  return [
    {
      id: 'hold',
      label: 'Hold',
      permission: 'transaction-hold',
      when: canHoldFundTransfer,
      run: {
        kind: 'call',
        call: ceftHold,
        body: (row) => ({ id: row.id, description: '' }),
        confirm: {
          title: 'Warning!',
          danger: true,
          message: (row) => `Taking this action will hold the fund-transfer of the customer (Tran ID - ${row.id}). Do you want to continue?`,
        },
        success: (row) => `Transaction hold successful: Id - ${row.id}`,
        failure: 'Transaction hold failed!',
      },
    },
    {
      id: 'manualFundTransfer',
      label: 'Manual Fund Transfer',
      permission: 'transaction-retry',
      when: canManualFundTransfer,
      run: {
        kind: 'call',
        call: ceftManualFundTransfer,
        body: (row) => ({ trace: row.trace }),
        confirm: {
          title: 'Warning!',
          danger: true,
          message: (row) =>
            `Taking this action will start a manual fund transferring for this transaction (Tran ID - ${row.id}). If you not sure funds are available, please do not take this action. Are you sure to take this action?`,
        },
        success: (row, data) => sentForApprovalMessage(data) ?? `Fund transfer successful: Id - ${row.id}`,
        failure: 'Fund transfer failed!',
      },
    },
    {
      id: 'void',
      label: 'Void',
      permission: 'transaction-refund',
      when: canVoidCardPayment,
      run: {
        kind: 'call',
        call: ceftVoid,
        body: (row) => ({ transactionID: row.id }),
        confirm: {
          title: 'Warning!',
          danger: true,
          message: (row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`,
        },
        success: (row, data) => sentForApprovalMessage(data) ?? `Transaction voided successfully: Id - ${row.id}`,
        failure: 'Transaction void failed!',
      },
    },
    {
      id: 'refund',
      label: 'Refund',
      permission: 'transaction-refund',
      when: canRefundCardPayment,
      run: {
        kind: 'call',
        call: ceftRefund,
        body: (row) => ({ transactionID: row.id }),
        confirm: {
          title: 'Warning!',
          danger: true,
          message: (row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`,
        },
        success: (row, data) => sentForApprovalMessage(data) ?? `Transaction refunded successfully: Id - ${row.id}`,
        failure: 'Transaction refund failed!',
      },
    },
  ];
}

export const ceftScreen = defineListScreen<CeftRow>()({
  kind: 'list',
  id: 'transactions.ceft',
  pinnedColumns: ['id', 'trace'],
  route: '/transaction/ceft',
  title: 'Send Money Transactions',
  breadcrumb: [{ label: 'Reports' }, { label: 'Send Money Transactions' }],
  access: { anyOf: ['send-money-report-view'] },
  menu: { section: 'Reports', label: 'Send Money', order: 10 },
  source: { call: ceftList, request: statusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('UID/NIC/Trace/Account Number'), sendMoneyStatus],
  clearButton: true,
  countCards: { call: ceftCount, cards: countCards },
  tabs: [{ id: 'all', label: 'All' }],
  columns: [...ceftLeadColumns, { key: 'bank_name', header: 'Bank' }, ...ceftTailColumns],
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  rowActions: ceftRowActions<CeftRow>(),
  footer: usdFooter,
  exports: { fileBase: 'ceftTransactions', title: 'Send Money Transactions' },
  emptyMessage: 'No transactions found.',
});

export const ceftAuditScreen = defineListScreen<CeftAuditRow>()({
  kind: 'list',
  id: 'transactions.ceft.audit',
  pinnedColumns: ['id', 'trace'],
  route: '/AllCeftTransactions',
  title: 'Send Money Transactions',
  breadcrumb: [{ label: 'Audit Reports' }, { label: 'Send Money Transactions' }],
  access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] },
  menu: { section: 'Audit Reports', label: 'Send Money', order: 10 },
  source: { call: ceftAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('NIC/Passport/Trace/Account Number')],
  clearButton: true,
  countCards: { call: ceftCount, cards: countCards },
  tabs: [
    { id: 'all', label: 'All' },
    {
      id: 'refunded',
      label: 'Refunded',
      source: defineListSource<CeftAuditRow>()({ call: ceftRefundedAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions }),
      footer: lkrFooterInData,
      rowActions: false,
      exports: { fileBase: 'ceftTransactions', title: 'Refunded Send Money Transactions' },
    },
  ],
  columns: [...ceftLeadColumns, { key: 'bank_code', header: 'Bank Code' }, ...ceftTailColumns],
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  rowActions: ceftRowActions<CeftAuditRow>(),
  footer: usdFooter,
  exports: { fileBase: 'ceftTransactions', title: 'Send Money Transactions' },
  emptyMessage: 'No transactions found.',
});

// ---- bill payments ---------------------------------------------------------------------------

const billColumns = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
  { key: 'uid', header: 'UID/NIC' },
  { key: 'country', header: 'Country' },
  { key: 'biller_code', header: 'Biller Code' },
  { key: 'account_number', header: 'Account Number' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  ...cardPaymentColumns,
  { key: 'exchange_rate_lkr', header: 'IPG Deduction Details', panel: ipgDeductionPanel },
  { key: 'bill_payment_time', header: 'Bill Payment Time', kind: 'datetime' },
  { key: 'bill_payment_status', header: 'Bill Payment Status', kind: 'paymentStatus' },
  { key: 'bill_payment_description', header: 'Bill Payment Description' },
  ...voidColumns,
  ...timestampColumns,
] as const;

export const billScreen = defineListScreen<BillRow>()({
  kind: 'list',
  id: 'transactions.bill',
  pinnedColumns: ['id', 'trace'],
  route: '/transaction/bill',
  title: 'Bill Payments',
  breadcrumb: [{ label: 'Reports' }, { label: 'Bill Payments' }],
  access: { anyOf: ['bill-payment-report-view'] },
  menu: { section: 'Reports', label: 'Bill Payments', order: 11 },
  source: { call: billList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('UID/NIC/Trace')],
  clearButton: true,
  countCards: { call: billCount, cards: countCards },
  columns: billColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'billTransactions', title: 'Bill Payments' },
  emptyMessage: 'No transactions found.',
});

export const billAuditScreen = defineListScreen<BillRow>()({
  kind: 'list',
  id: 'transactions.bill.audit',
  pinnedColumns: ['id', 'trace'],
  route: '/AuditerBillPayments',
  title: 'Bill Payments',
  breadcrumb: [{ label: 'Audit Reports' }, { label: 'Bill Payments' }],
  access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] },
  menu: { section: 'Audit Reports', label: 'Bill Payments', order: 11 },
  source: { call: billAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('NIC/Passport/Trace/Account Number')],
  clearButton: true,
  countCards: { call: billCount, cards: countCards },
  columns: billColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'billTransactions', title: 'Bill Payments' },
  emptyMessage: 'No transactions found.',
});

// ---- E-Channelling ---------------------------------------------------------------------------

const eChannellingColumns = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
  { key: 'ec_transaction_id', header: 'Echannelling Reference' },
  { key: 'country', header: 'Country' },
  { key: 'uid', header: 'UID/NIC' },
  { key: 'patient_name', header: 'Patient Name' },
  { key: 'patient_mobile', header: 'Patient Mobile' },
  { key: 'hospital_name', header: 'Hospital' },
  { key: 'doctor_name', header: 'Doctor' },
  { key: 'appointment_day', header: 'Appointment Day' },
  { key: 'appointment_date', header: 'Appointment Date' },
  { key: 'start_time', header: 'Start Time' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'doctor_charge_lkr', header: 'Doctor Charge (LKR)', kind: 'amount', zeroAsDash: true },
  { key: 'hospital_charge_lkr', header: 'Hospital Charge (LKR)', kind: 'amount', zeroAsDash: true },
  { key: 'itg_amount', header: 'Integrated Hospital Charge (LKR)', kind: 'amount', zeroAsDash: true },
  { key: 'ec_charge_lkr', header: 'EChannelling Charge (LKR)', kind: 'amount', zeroAsDash: true },
  { key: 'total_lkr', header: 'Total (LKR)', kind: 'amount', zeroAsDash: true },
  ...cardPaymentColumns,
  {
    key: 'exchange_rate_lkr',
    header: 'IPG Details',
    panel: [
      { key: 'exchange_rate_lkr', label: 'Exchange Rate (LKR)', kind: 'amount' },
      { key: 'ipg_rate', label: 'IPG Rate (%)', kind: 'amount' },
      { key: 'ipg_commission', label: 'IPG Commission', kind: 'amount' },
      { key: 'bank_charge', label: 'Bank Charge', kind: 'amount' },
      { key: 'refund_commission', label: 'Refund Commission (%)', kind: 'amount' },
    ],
  },
  { key: 'ec_booking_time', header: 'Booking Time', kind: 'datetime' },
  { key: 'ec_booking_status', header: 'Booking Status', kind: 'paymentStatus' },
  { key: 'ec_booking_description', header: 'Booking Description' },
  ...voidColumns,
  ...timestampColumns,
] as const;

export const eChannellingScreen = defineListScreen<EChannellingRow>()({
  kind: 'list',
  id: 'transactions.eChannelling',
  pinnedColumns: ['id', 'trace'],
  route: '/transaction/eChannelling',
  title: 'E-Channelling',
  breadcrumb: [{ label: 'Reports' }, { label: 'E-Channelling' }],
  access: { anyOf: ['echannelling-report-view'] },
  menu: { section: 'Reports', label: 'E-Channelling', order: 13 },
  source: { call: eChannellingList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('NIC/Passport/Trace')],
  clearButton: true,
  countCards: { call: eChannellingCount, cards: countCards },
  columns: eChannellingColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'echannellingTransactions', title: 'E-Channelling' },
  emptyMessage: 'No transactions found.',
});

export const eChannellingAuditScreen = defineListScreen<EChannellingRow>()({
  kind: 'list',
  id: 'transactions.eChannelling.audit',
  pinnedColumns: ['id', 'trace'],
  route: '/AuditerEChanneling',
  title: 'E-Channelling',
  breadcrumb: [{ label: 'Audit Reports' }, { label: 'E-Channelling' }],
  access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] },
  menu: { section: 'Audit Reports', label: 'E-Channelling', order: 13 },
  source: { call: eChannellingAuditList, request: rangeRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, searchText('NIC/Passport/Trace')],
  clearButton: true,
  countCards: { call: eChannellingCount, cards: countCards },
  columns: eChannellingColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'echannellingTransactions', title: 'E-Channelling' },
  emptyMessage: 'No transactions found.',
});

// ---- Thyaga ----------------------------------------------------------------------------------

const thyagaColumns = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'trace', header: 'Trace' },
  { key: 'uid', header: 'UID/NIC' },
  { key: 'country', header: 'Country' },
  { key: 'mobile_number', header: 'Receiver Phone' },
  { key: 'receiver_name', header: 'Receiver Name' },
  { key: 'send_later', header: 'Send Later', kind: 'yesNo' },
  { key: 'send_at', header: 'Send At', kind: 'datetime' },
  { key: 'sender_name', header: 'Sender Name' },
  { key: 'via_email', header: 'Via Email', kind: 'yesNo' },
  { key: 'via_sms', header: 'Via SMS', kind: 'yesNo' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  { key: 'account_number', header: 'Account Number' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  ...cardPaymentColumns,
  { key: 'exchange_rate_lkr', header: 'IPG Deduction Details', panel: ipgDeductionPanel },
  { key: 'thyaga_payment_time', header: 'Thyaga Payment Time', kind: 'datetime' },
  { key: 'thyaga_payment_status', header: 'Thyaga Payment Status', kind: 'paymentStatus' },
  { key: 'thyaga_payment_description', header: 'Thyaga Payment Description' },
  ...voidColumns,
  ...timestampColumns,
] as const;

export const thyagaScreen = defineListScreen<ThyagaRow>()({
  kind: 'list',
  id: 'transactions.thyaga',
  pinnedColumns: ['id', 'trace'],
  route: '/transaction/thyaga',
  title: 'Thyaga',
  breadcrumb: [{ label: 'Reports' }, { label: 'Thyaga' }],
  access: { anyOf: ['thyaga-report-view'] },
  menu: { section: 'Reports', label: 'Thyaga', order: 12 },
  source: { call: thyagaList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('NIC/Passport/Trace')],
  clearButton: true,
  countCards: { call: thyagaCount, cards: countCards },
  columns: thyagaColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'thyagaTransactions', title: 'Thyaga' },
  emptyMessage: 'No transactions found.',
});

export const thyagaAuditScreen = defineListScreen<ThyagaRow>()({
  kind: 'list',
  id: 'transactions.thyaga.audit',
  pinnedColumns: ['id', 'trace'],
  route: '/AuditerThyaga',
  title: 'Thyaga',
  breadcrumb: [{ label: 'Audit Reports' }, { label: 'Thyaga' }],
  access: { rule: canSeeAuditorReports, permissions: ['auditor-report-view'] },
  menu: { section: 'Audit Reports', label: 'Thyaga', order: 12 },
  source: { call: thyagaAuditList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, fetchCountFilter, searchText('NIC/Passport/Trace')],
  clearButton: true,
  countCards: { call: thyagaCount, cards: countCards },
  columns: thyagaColumns,
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooter,
  exports: { fileBase: 'thyagaTransactions', title: 'Thyaga' },
  emptyMessage: 'No transactions found.',
});

// ---- insurance -------------------------------------------------------------------------------

export const insuranceScreen = defineListScreen<InsuranceRow>()({
  kind: 'list',
  id: 'transactions.insurance',
  pinnedColumns: ['id', 'trace'],
  route: '/transaction/insurance',
  title: 'Insurance',
  breadcrumb: [{ label: 'Reports' }, { label: 'Insurance' }],
  access: { anyOf: ['insurance-report-view'] },
  menu: { section: 'Reports', label: 'Insurance', order: 14 },
  source: { call: insuranceList, request: countedRequest, rows: (d) => d.filteredList },
  filters: [dateRange, country, searchText('User UID'), fetchCountFilter],
  clearButton: true,
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'uid', header: 'UID No' },
    { key: 'trace', header: 'Trace Number' },
    { key: 'nic', header: 'UID/NIC' },
    { key: 'email', header: 'Email' },
    {
      key: 'dependants',
      header: 'Dependents Detail',
      kind: 'list',
      itemFields: [
        { key: 'title', label: 'Title' },
        { key: 'nic_number', label: 'NIC Number' },
        { key: 'relation_type', label: 'Relation Type' },
        { key: 'mobile_number', label: 'Mobile Number' },
        { key: 'email', label: 'Email' },
        { key: 'name', label: 'Name' },
      ],
    },
    { key: 'country', header: 'Country' },
    { key: 'cover_package', header: 'Cover Package' },
    { key: 'plan_no', header: 'Plan No' },
    { key: 'currency_code', header: 'Currency Code' },
    { key: 'insurance_package_price', header: 'Plan Amount (USD)', kind: 'amount' },
    { key: 'amount', header: 'Total Amount (USD)', kind: 'amount' },
    { key: 'initiated_time', header: 'Tran Initiated Time', kind: 'datetime' },
    ...cardPaymentColumns,
    {
      key: 'exchange_rate_lkr',
      header: 'IPG Details',
      panel: [
        { key: 'exchange_rate_lkr', label: 'Exchange Rate (LKR)', kind: 'amount' },
        { key: 'ipg_rate', label: 'IPG Rate (%)', kind: 'amount' },
        { key: 'ipg_commission_lkr', label: 'IPG Commission (LKR)', kind: 'amount' },
        { key: 'bank_charge_lkr', label: 'Bank Charge (LKR)', kind: 'amount' },
        { key: 'insurer_reserved_amount_lkr', label: 'Reserved Amount for the Insurer (LKR)', kind: 'amount' },
      ],
    },
    { key: 'insurance_payment_time', header: 'Insurance Payment Time', kind: 'datetime' },
    { key: 'insurance_payment_status', header: 'Status', kind: 'paymentStatus' },
    { key: 'insurance_payment_description', header: 'Description' },
    { key: 'insurance_transaction_id', header: 'Transaction ID' },
    { key: 'ipg_void_payment_time', header: 'IPG Void Payment Time', kind: 'datetime' },
    { key: 'ipg_void_status', header: 'IPG Void Status', kind: 'paymentStatus' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 50,
  defaultSort: { key: 'id', desc: false },
  footer: usdFooterInData,
  exports: { fileBase: 'insuranceTransactions', title: 'Insurance' },
  emptyMessage: 'No transactions found.',
});

/** Every transaction screen, in menu order. */
export const transactionScreens = [
  ceftScreen,
  billScreen,
  thyagaScreen,
  eChannellingScreen,
  insuranceScreen,
  ceftAuditScreen,
  billAuditScreen,
  thyagaAuditScreen,
  eChannellingAuditScreen,
] as const;
