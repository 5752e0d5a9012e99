/** Valid sample bodies of the transaction views' calls (see samples.ts). */
const range = { from_date: '2026-01-01T00:00:01', to_date: '2026-01-31T23:59:00', country_code: 'AE', data: '' };

export const transactionSamples: Record<string, unknown> = {
  'dashboard/CeftCount': {},
  'dashboard/BillCount': {},
  'dashboard/E-ChannellingCount': {},
  'dashboard/ThayagaCount': {},
  'dashboard/CeftList': { ...range, status: '', fetchCount: 10 },
  'dashboard/CeftRefundedList': { ...range, status: '', fetchCount: 10 },
  'dashboard/BillList': { ...range, status: '', fetchCount: 10 },
  'dashboard/E-ChannellingList': range,
  'dashboard/ThayagaList': { ...range, fetchCount: 25 },
  'Transaction/get-ceftTransaction': { ...range, status: 'SUCCESS', fetchCount: 10 },
  'Transaction/billTransactions': { ...range, fetchCount: 10 },
  'Transaction/thyagaTransactions': { ...range, fetchCount: 10 },
  'Transaction/echannellingTransactions': { ...range, fetchCount: 10 },
  'Transaction/insuranceTransactions': { ...range, fetchCount: 10 },
  'Transaction/ceft/void': { transactionID: 1 },
  'Transaction/ceft/refund': { transactionID: 1 },
  'Transaction/ceft/manualFundTransfer': { trace: '260101100000001' },
  'Transaction/ceft/hold': { id: 1, description: '' },
  'Transaction/find': { value: '1', service: 'ceft', by: 'any' },
};
