/**
 * The transaction views (spec 001): send money (CEFT, with its Refunded tab and row actions), bill
 * payments, E-Channelling, Thyaga and insurance, in the operational variant (Reports menu,
 * Transaction/... calls) and the auditor variant (Audit Reports menu, dashboard/... calls). Each
 * report states only what is its own; the family (screens/transactionFamily.ts) supplies the rest.
 */
import { defineCountCards, type Column, type RowAction } from '../src/definitions/definitions';
import {
  billAuditList,
  billCount,
  billList,
  ceftAuditList,
  ceftCount,
  ceftHold,
  ceftHoldLimits,
  ceftHoldMessages,
  ceftList,
  ceftManualFundTransfer,
  ceftRefund,
  ceftRefundedAuditList,
  ceftVoid,
  eChannellingAuditList,
  eChannellingCount,
  eChannellingList,
  insuranceList,
  sentForApprovalMessage,
  thyagaAuditList,
  thyagaCount,
  thyagaList,
} from '../src/api/transactions';
import type { BillRow, CeftAuditRow, CeftRow, EChannellingRow, InsuranceRow, ThyagaRow } from '../src/api/transactions';
import { canHoldFundTransfer, canManualFundTransfer, canRefundCardPayment, canVoidCardPayment } from '../src/domain/transactionGuards';
import {
  auditor,
  cardPaymentColumns,
  country,
  countCards,
  countedFilters,
  countedRequest,
  dataFooter,
  dateRange,
  deductionPanel,
  emptyStatusRequest,
  fetchCountFilter,
  idColumns,
  ipgPanel,
  leadColumns,
  moneyColumns,
  operational,
  paged,
  rangeRequest,
  REFUNDED_ONLY_NOTE,
  reportPair,
  reversalColumns,
  reversalStateColumns,
  searchText,
  sendMoneyStatus,
  statusRequest,
  stepColumns,
  SUCCESSFUL_ONLY_NOTE,
  timestampColumns,
  transactionReport,
  voidColumns,
  warningAction,
} from './transactionFamily';

// ---- send money (CEFT) -----------------------------------------------------------------------

/** The columns of send money before the bank column (the name, or the code for the auditor)... */
const ceftLeadColumns: readonly Column<CeftRow | CeftAuditRow>[] = [...leadColumns, { key: 'tran_type', header: 'Tran Type' }];

/** ...and after it. */
const ceftTailColumns: readonly Column<CeftRow | CeftAuditRow>[] = [
  ...moneyColumns,
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
  ...cardPaymentColumns,
  deductionPanel('exchange_rate_final'),
  ...stepColumns('ceft_payment', 'CEFT Payment'),
  { key: 'ceft_transaction_id', header: 'CEFT Transaction ID' },
  { key: 'ceft_try_count', header: 'CEFT Try Count', kind: 'integer' },
  { key: 'refund_requested', header: 'Refund Requested', kind: 'yesNo' },
  ...voidColumns,
  ...reversalColumns('refund', 'Refund'),
  { key: 'status', header: 'Status', kind: 'paymentStatus' },
  ...timestampColumns,
];

/**
 * The row actions of send money, with their guards (src/domain/transactionGuards.ts), the texts of spec
 * 001 §8, and what each is `about` (its summary and confirm verb: src/domain/moneyActionSummary.ts). Hold asks for an
 * optional reason, sent as the call's description.
 */
export function ceftRowActions<Row extends CeftRow | CeftAuditRow>(): RowAction<Row>[] {
  return [
    warningAction<Row>('hold', 'Hold', 'transaction-hold', canHoldFundTransfer, ceftHold, {
      body: (row, input) => ({ id: row.id, description: input.comment }),
      warning: (row) => `Taking this action will hold the fund-transfer of the customer (Tran ID - ${row.id}). Do you want to continue?`,
      about: 'hold',
      input: { label: 'Reason (optional)', maxLength: ceftHoldLimits.description, tooLongMessage: ceftHoldMessages.descriptionTooLong },
      success: (row) => `Transaction hold successful: Id - ${row.id}`,
      failure: 'Transaction hold failed!',
    }),
    warningAction<Row>('manualFundTransfer', 'Manual Fund Transfer', 'transaction-retry', canManualFundTransfer, ceftManualFundTransfer, {
      body: (row) => ({ trace: row.trace }),
      warning: (row) =>
        `Taking this action will start a manual fund transferring for this transaction (Tran ID - ${row.id}). If you not sure funds are available, please do not take this action. Are you sure to take this action?`,
      about: 'manualFundTransfer',
      success: (row, data) => sentForApprovalMessage(data) ?? `Fund transfer successful: Id - ${row.id}`,
      failure: 'Fund transfer failed!',
    }),
    warningAction<Row>('void', 'Void', 'transaction-refund', canVoidCardPayment, ceftVoid, {
      body: (row) => ({ transactionID: row.id }),
      warning: (row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`,
      about: 'void',
      success: (row, data) => sentForApprovalMessage(data) ?? `Transaction voided successfully: Id - ${row.id}`,
      failure: 'Transaction void failed!',
    }),
    warningAction<Row>('refund', 'Refund', 'transaction-refund', canRefundCardPayment, ceftRefund, {
      body: (row) => ({ transactionID: row.id }),
      warning: (row) => `Taking this action will refund the card payment of the customer (Tran ID - ${row.id}). Do you want to continue?`,
      about: 'refund',
      success: (row, data) => sentForApprovalMessage(data) ?? `Transaction refunded successfully: Id - ${row.id}`,
      failure: 'Transaction refund failed!',
    }),
  ];
}

const ceft = { title: 'Send Money Transactions', menu: { label: 'Send Money', order: 10 }, countCards: defineCountCards(ceftCount, countCards) };

export const ceftScreen = transactionReport<CeftRow>()(operational('send-money-report-view'), {
  ...ceft,
  id: 'transactions.ceft',
  source: paged<CeftRow>()(ceftList, statusRequest),
  filters: [...countedFilters('UID/NIC/Trace/Account Number'), sendMoneyStatus],
  tabs: [{ id: 'all', label: 'All' }],
  columns: [...ceftLeadColumns, { key: 'bank_name', header: 'Bank' }, ...ceftTailColumns],
  rowActions: ceftRowActions<CeftRow>(),
});

export const ceftAuditScreen = transactionReport<CeftAuditRow>()(auditor, {
  ...ceft,
  id: 'transactions.ceft.audit',
  route: '/AllCeftTransactions',
  source: paged<CeftAuditRow>()(ceftAuditList, emptyStatusRequest),
  filters: countedFilters('NIC/Passport/Trace/Account Number'),
  tabs: [
    { id: 'all', label: 'All' },
    {
      id: 'refunded',
      label: 'Refunded',
      source: paged<CeftAuditRow>()(ceftRefundedAuditList, emptyStatusRequest),
      footer: dataFooter('LKR', REFUNDED_ONLY_NOTE),
      rowActions: false,
      exports: { fileBase: 'ceftTransactions', title: 'Refunded Send Money Transactions' },
    },
  ],
  columns: [...ceftLeadColumns, { key: 'bank_code', header: 'Bank Code' }, ...ceftTailColumns],
  rowActions: ceftRowActions<CeftAuditRow>(),
});

// ---- bill payments ---------------------------------------------------------------------------

export const [billScreen, billAuditScreen] = reportPair<BillRow>()(
  {
    id: 'transactions.bill',
    title: 'Bill Payments',
    menu: { order: 11 },
    countCards: defineCountCards(billCount, countCards),
    columns: [
      ...leadColumns,
      { key: 'biller_code', header: 'Biller Code' },
      ...moneyColumns,
      { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
      ...cardPaymentColumns,
      deductionPanel('exchange_rate_lkr'),
      ...stepColumns('bill_payment', 'Bill Payment'),
      ...voidColumns,
      ...timestampColumns,
    ],
  },
  { permission: 'bill-payment-report-view', list: billList, request: countedRequest, filters: countedFilters('UID/NIC/Trace') },
  { route: '/AuditerBillPayments', list: billAuditList, request: emptyStatusRequest, filters: countedFilters('NIC/Passport/Trace/Account Number') },
);

// ---- E-Channelling ---------------------------------------------------------------------------

export const [eChannellingScreen, eChannellingAuditScreen] = reportPair<EChannellingRow>()(
  {
    id: 'transactions.eChannelling',
    title: 'E-Channelling',
    menu: { order: 13 },
    countCards: defineCountCards(eChannellingCount, countCards),
    columns: [
      ...idColumns,
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
      ...stepColumns('ec_booking', 'Booking'),
      ...voidColumns,
      ...timestampColumns,
    ],
  },
  { permission: 'echannelling-report-view', list: eChannellingList, request: countedRequest, filters: countedFilters('NIC/Passport/Trace') },
  { route: '/AuditerEChanneling', list: eChannellingAuditList, request: rangeRequest, filters: [dateRange, country, searchText('NIC/Passport/Trace')] },
);

// ---- Thyaga ----------------------------------------------------------------------------------

export const [thyagaScreen, thyagaAuditScreen] = reportPair<ThyagaRow>()(
  {
    id: 'transactions.thyaga',
    title: 'Thyaga',
    menu: { order: 12 },
    countCards: defineCountCards(thyagaCount, countCards),
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
      ...moneyColumns,
      ...cardPaymentColumns,
      deductionPanel('exchange_rate_lkr'),
      ...stepColumns('thyaga_payment', 'Thyaga Payment'),
      ...voidColumns,
      ...timestampColumns,
    ],
  },
  { permission: 'thyaga-report-view', list: thyagaList, request: countedRequest, filters: countedFilters('NIC/Passport/Trace') },
  { route: '/AuditerThyaga', list: thyagaAuditList, request: countedRequest, filters: countedFilters('NIC/Passport/Trace') },
);

// ---- insurance -------------------------------------------------------------------------------

export const insuranceScreen = transactionReport<InsuranceRow>()(operational('insurance-report-view'), {
  id: 'transactions.insurance',
  title: 'Insurance',
  menu: { order: 14 },
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
        { key: 'exchange_rate_lkr', label: 'Exchange Rate (LKR)', kind: 'rate' },
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
    ...reversalStateColumns('void', 'Void'),
    ...timestampColumns,
  ],
  footer: dataFooter('USD', SUCCESSFUL_ONLY_NOTE),
});

/** Every transaction screen, in menu order. */
export const transactionScreens = [ceftScreen, billScreen, thyagaScreen, eChannellingScreen, insuranceScreen, ceftAuditScreen, billAuditScreen, thyagaAuditScreen, eChannellingAuditScreen] as const;
