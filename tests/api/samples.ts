/**
 * A valid request body for every call of the contract (tests assert that each one parses), so that
 * tests iterating over the contract can send something acceptable, then break it.
 */
import { kycReportsSamples } from './samplesKycReports';
import { masterDataSamples } from './samplesMasterData';
import { transactionSamples } from './samplesTransactions';
import { exportJobSamples } from './samplesExportJobs';

export const sampleBodies: Record<string, unknown> = {
  ...kycReportsSamples,
  ...masterDataSamples,
  ...transactionSamples,
  ...exportJobSamples,
  'auth/login': { username: 'admin', password: 'Demo@Pass1' },
  'auth/token': {},
  'auth/logout': {},
  'user/list': { data: '', fetchCount: 10 },
  'user/initial-create-data': {},
  'user/create': {
    type: 'BACKEND',
    name: 'Sample User',
    email: 'sample.user@remit.lk',
    contact: '0770000001',
    username: 'sample_user',
    branch_code: 'HO',
    role: 2,
    password: 'Sample@Pass12',
    disabled: 0,
  },
  'user/get-for-edit': { id: 5 },
  'user/edit': {
    id: 5,
    type: 'BACKEND',
    name: 'Nimal Perera',
    email: 'nimal.perera@remit.lk',
    contact: '0770000002',
    username: 'nimal_perera',
    branch_code: 'CMBFORT',
    role: 2,
    disabled: 1,
  },
  'user/change-password': { username: 'maker', password: 'Sample@Pass12' },
  'user/reset-password': { username: 'admin', old_password: 'Demo@Pass1', new_password: 'Sample@Pass12' },
  'user/approve': { changeRequestID: 1, actionTaken: 'approve' },
  'user/unlock': { id: 5 },
  'role/list': {},
  'role/initial-create-data': {},
  'role/create': { role_name: 'Sample Role', user_type: 'BACKEND', user_level: 1, permissions: ['user-view', 'user-approve'], disabled: 0 },
  'role/get-for-edit': { id: 2 },
  'role/edit': { id: 4, role_name: 'Auditor', user_type: 'BACKEND', user_level: 2, permissions: ['user-view', 'super-permission'], disabled: 0 },
  'role/approve': { changeRequestID: 1, actionTaken: 'approve' },
  // dashboards
  'dashboard/totalTransactionValues': { range: 7 },
  'dashboard/overallTransactionCounts': {},
  'dashboard/getAppUsersByCountry': {},
  'dashboard/currencyWiseTransactionValues': {},
  'dashboard/getTotalTransactionsByMonth': {},
  'dashboard/totalCountsAndValues': {},
  'dashboard/getTotalAppUsersByMonth': {},
  'dashboard/getActiveUsers': {},
  'dashboard/getAppUsersAndBeneficiariesCount': {},
  'dashboard/getTransactionValues': { range: 30, fromDate: '', toDate: '' },
  'dashboard/getCeftTransactionTableData': { range: 'MONTHLY' },
  'dashboard/getBillerTransactionTableData': { range: 'YEARLY' },
  'dashboard/getThyagaTransactionTableData': { range: 'WEEKLY' },
  'dashboard/getEchTransactionTableData': { range: 'MONTHLY' },
  'dashboard/TopUsers': { range: 1 },
  'dashboard/getTopBillers': { range: 365 },
  'dashboard/AllTranCount': { range: 'WEEKLY' },
  'dashboard/CountryWiseAppUserCount': { range: 0, fromDate: '2026-01-01T00:00:00', toDate: '2026-01-31T23:59:59' },
  'dashboard/remittanceByYear': { year: 2026, measure: 'count' },
  config: {},
  'changeRequest/mine': { status: 'PENDING' },
  'changeRequest/withdraw': { changeRequestID: 1 },
  'changeRequest/inbox': { type: 'User', requestedBy: 'maker', minAgeHours: 0 },
  'changeRequest/counts': {},
  'changeRequest/decide': { changeRequestID: 1, actionTaken: 'approve', comment: 'Checked' },
  'changeRequest/decide-many': { changeRequestIDs: [1, 2], actionTaken: 'approve', comment: 'Checked' },
  'changeRequest/history': { changeRequestID: 1 },
  'report/verify-activity-log': {},
  'transaction/money-approval/list': {},
  'transaction/money-approval/approve': { changeRequestID: 999999, actionTaken: 'reject' },
  'report/segregation-of-duties': { threshold: 0.5, days: 90 },
};

export function sampleBody(path: string): unknown {
  if (!(path in sampleBodies)) throw new Error(`tests/api/samples.ts has no sample body for ${path}: add one`);
  return structuredClone(sampleBodies[path]);
}
