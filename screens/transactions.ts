/**
 * The transaction views (spec 001): send money (CEFT, with its Refunded tab and row actions), bill
 * payments, E-Channelling, Thyaga and insurance, in the operational variant (Reports menu,
 * Transaction/... calls) and the auditor variant (Audit Reports menu, dashboard/... calls). Each
 * report states only what is its own; the family (screens/transactionFamily.ts) supplies the rest.
 */
import { defineCountCards, defineListSource, type Column, type ConfirmSpec, type RowAction } from '../src/definitions/definitions';
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
import { canHoldFundTransfer, canManualFundTransfer, canRefundCardPayment, canVoidCardPayment } from '../src/domain/transactionGuards';
import {
  auditor,
  beneficiaryAmount,
  cardPaymentColumns,
  country,
  countCards,
  countedFilters,
  countedRequest,
  dateRange,
  emptyStatusRequest,
  fetchCountFilter,
  inData,
  ipgPanel,
  leadColumns,
  operational,
  rangeRequest,
  REFUNDED_ONLY_NOTE,
  searchText,
  sendMoneyStatus,
  statusRequest,
  SUCCESSFUL_ONLY_NOTE,
  timestampColumns,
  totalsFooter,
  transactionReport,
  voidColumns,
} from './transactionFamily';

// ---- send money (CEFT) -----------------------------------------------------------------------

/** The columns of send money before the bank column (the name, or the code for the auditor)... */
const ceftLeadColumns: readonly Column<CeftRow | CeftAuditRow>[] = [...leadColumns, { key: 'tran_type', header: 'Tran Type' }];

/** ...and after it. */
const ceftTailColumns: readonly Column<CeftRow | CeftAuditRow>[] = [
  { key: 'account_number', header: 'Account Number' },
  { key: 'currency_code', header: 'Currency' },
  { key: 'amount', header: 'Amount', kind: 'amount' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  ...cardPaymentColumns,
  ipgPanel('IPG Deduction Details', 'exchange_rate_final', beneficiaryAmount),
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
];

/** The confirmation every send-money action asks: 'Warning!', in the danger style. */
function warning<Row>(message: (row: Row) => string): ConfirmSpec<Row> {
  return { title: 'Warning!', danger: true, message };
}

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
        confirm: warning((row) => `Taking this action will hold the fund-transfer of the customer (Tran ID - ${row.id}). Do you want to continue?`),
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
        confirm: warning(
          (row) =>
            `Taking this action will start a manual fund transferring for this transaction (Tran ID - ${row.id}). If you not sure funds are available, please do not take this action. Are you sure to take this action?`,
        ),
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
        confirm: warning((row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`),
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
        confirm: warning((row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`),
        success: (row, data) => sentForApprovalMessage(data) ?? `Transaction refunded successfully: Id - ${row.id}`,
        failure: 'Transaction refund failed!',
      },
    },
  ];
}

const ceft = { title: 'Send Money Transactions', menu: { label: 'Send Money', order: 10 }, fileBase: 'ceftTransactions', countCards: defineCountCards(ceftCount, countCards) };

export const ceftScreen = transactionReport<CeftRow>()(operational('send-money-report-view'), {
  ...ceft,
  id: 'transactions.ceft',
  route: '/transaction/ceft',
  source: { call: ceftList, request: statusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [...countedFilters('UID/NIC/Trace/Account Number'), sendMoneyStatus],
  tabs: [{ id: 'all', label: 'All' }],
  columns: [...ceftLeadColumns, { key: 'bank_name', header: 'Bank' }, ...ceftTailColumns],
  rowActions: ceftRowActions<CeftRow>(),
});

export const ceftAuditScreen = transactionReport<CeftAuditRow>()(auditor, {
  ...ceft,
  id: 'transactions.ceft.audit',
  route: '/AllCeftTransactions',
  source: { call: ceftAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: countedFilters('NIC/Passport/Trace/Account Number'),
  tabs: [
    { id: 'all', label: 'All' },
    {
      id: 'refunded',
      label: 'Refunded',
      source: defineListSource<CeftAuditRow>()({ call: ceftRefundedAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions }),
      footer: totalsFooter(inData, 'LKR', REFUNDED_ONLY_NOTE),
      rowActions: false,
      exports: { fileBase: 'ceftTransactions', title: 'Refunded Send Money Transactions' },
    },
  ],
  columns: [...ceftLeadColumns, { key: 'bank_code', header: 'Bank Code' }, ...ceftTailColumns],
  rowActions: ceftRowActions<CeftAuditRow>(),
});

// ---- bill payments ---------------------------------------------------------------------------

const bill = {
  title: 'Bill Payments',
  menu: { order: 11 },
  fileBase: 'billTransactions',
  countCards: defineCountCards(billCount, countCards),
  columns: [
    ...leadColumns,
    { key: 'biller_code', header: 'Biller Code' },
    { key: 'account_number', header: 'Account Number' },
    { key: 'currency_code', header: 'Currency' },
    { key: 'amount', header: 'Amount', kind: 'amount' },
    { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
    ...cardPaymentColumns,
    ipgPanel('IPG Deduction Details', 'exchange_rate_lkr', beneficiaryAmount),
    { key: 'bill_payment_time', header: 'Bill Payment Time', kind: 'datetime' },
    { key: 'bill_payment_status', header: 'Bill Payment Status', kind: 'paymentStatus' },
    { key: 'bill_payment_description', header: 'Bill Payment Description' },
    ...voidColumns,
    ...timestampColumns,
  ] satisfies Column<BillRow>[],
};

export const billScreen = transactionReport<BillRow>()(operational('bill-payment-report-view'), {
  ...bill,
  id: 'transactions.bill',
  route: '/transaction/bill',
  source: { call: billList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: countedFilters('UID/NIC/Trace'),
});

export const billAuditScreen = transactionReport<BillRow>()(auditor, {
  ...bill,
  id: 'transactions.bill.audit',
  route: '/AuditerBillPayments',
  source: { call: billAuditList, request: emptyStatusRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: countedFilters('NIC/Passport/Trace/Account Number'),
});

// ---- E-Channelling ---------------------------------------------------------------------------

const eChannelling = {
  title: 'E-Channelling',
  menu: { order: 13 },
  fileBase: 'echannellingTransactions',
  countCards: defineCountCards(eChannellingCount, countCards),
  columns: [
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
    ipgPanel('IPG Details', 'exchange_rate_lkr'),
    { key: 'ec_booking_time', header: 'Booking Time', kind: 'datetime' },
    { key: 'ec_booking_status', header: 'Booking Status', kind: 'paymentStatus' },
    { key: 'ec_booking_description', header: 'Booking Description' },
    ...voidColumns,
    ...timestampColumns,
  ] satisfies Column<EChannellingRow>[],
};

export const eChannellingScreen = transactionReport<EChannellingRow>()(operational('echannelling-report-view'), {
  ...eChannelling,
  id: 'transactions.eChannelling',
  route: '/transaction/eChannelling',
  source: { call: eChannellingList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: countedFilters('NIC/Passport/Trace'),
});

export const eChannellingAuditScreen = transactionReport<EChannellingRow>()(auditor, {
  ...eChannelling,
  id: 'transactions.eChannelling.audit',
  route: '/AuditerEChanneling',
  source: { call: eChannellingAuditList, request: rangeRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
  filters: [dateRange, country, searchText('NIC/Passport/Trace')],
});

// ---- Thyaga ----------------------------------------------------------------------------------

const thyaga = {
  title: 'Thyaga',
  menu: { order: 12 },
  fileBase: 'thyagaTransactions',
  countCards: defineCountCards(thyagaCount, countCards),
  filters: countedFilters('NIC/Passport/Trace'),
  columns: [
    ...leadColumns,
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
    ipgPanel('IPG Deduction Details', 'exchange_rate_lkr', beneficiaryAmount),
    { key: 'thyaga_payment_time', header: 'Thyaga Payment Time', kind: 'datetime' },
    { key: 'thyaga_payment_status', header: 'Thyaga Payment Status', kind: 'paymentStatus' },
    { key: 'thyaga_payment_description', header: 'Thyaga Payment Description' },
    ...voidColumns,
    ...timestampColumns,
  ] satisfies Column<ThyagaRow>[],
};

export const thyagaScreen = transactionReport<ThyagaRow>()(operational('thyaga-report-view'), {
  ...thyaga,
  id: 'transactions.thyaga',
  route: '/transaction/thyaga',
  source: { call: thyagaList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
});

export const thyagaAuditScreen = transactionReport<ThyagaRow>()(auditor, {
  ...thyaga,
  id: 'transactions.thyaga.audit',
  route: '/AuditerThyaga',
  source: { call: thyagaAuditList, request: countedRequest, rows: (d) => d.filteredList, firstPage: (d) => d.transactions },
});

// ---- insurance -------------------------------------------------------------------------------

export const insuranceScreen = transactionReport<InsuranceRow>()(operational('insurance-report-view'), {
  id: 'transactions.insurance',
  route: '/transaction/insurance',
  title: 'Insurance',
  menu: { order: 14 },
  fileBase: 'insuranceTransactions',
  source: { call: insuranceList, request: countedRequest, rows: (d) => d.filteredList },
  filters: [dateRange, country, searchText('User UID'), fetchCountFilter],
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
    ...timestampColumns,
  ],
  footer: totalsFooter(inData, 'USD', SUCCESSFUL_ONLY_NOTE),
});

/** Every transaction screen, in menu order. */
export const transactionScreens = [ceftScreen, billScreen, thyagaScreen, eChannellingScreen, insuranceScreen, ceftAuditScreen, billAuditScreen, thyagaAuditScreen, eChannellingAuditScreen] as const;
