/**
 * Where a call's record ids come from, for the published document's OpenAPI `links`: a reply of the
 * `from` call names the values (JSON pointers into its body, `$response.body#/...`) that the `to`
 * call's body fields take. A client or a fuzzer that follows them reaches real records (e.g. a list's
 * first bank opened for edit, the inbox's oldest request decided) instead of guessing ids.
 */
export interface CallLink {
  readonly from: string;
  readonly to: string;
  /** Body field of `to` -> JSON pointer into the `from` reply body. */
  readonly body: Readonly<Record<string, string>>;
}

const first = (list: string, field: string) => `/data/${list}/0/${field}`;

function masterData(area: string, list: string, edit = true): CallLink[] {
  return [
    ...(edit ? [{ from: `${area}/list`, to: `${area}/get-for-edit`, body: { id: first(list, 'id') } }] : []),
    ...(edit && area !== 'role' ? [{ from: `${area}/list`, to: `${area}/edit`, body: { id: first(list, 'id') } }] : []),
    { from: `${area}/list`, to: `${area}/approve`, body: { changeRequestID: first('changeRequests', 'changeRequestId') } },
  ];
}

export const callLinks: readonly CallLink[] = [
  ...masterData('bank', 'banks'),
  ...masterData('advertisement', 'advertisements'),
  ...masterData('role', 'roles'),
  { from: 'role/list', to: 'role/edit', body: { id: first('roles', 'id'), user_type: first('roles', 'user_type'), user_level: first('roles', 'user_level') } },
  ...masterData('user', 'users'),
  ...masterData('appVersion', 'list', false),
  ...masterData('IPGProvider', 'providers', false),
  ...masterData('AppUser', 'appUsers', false),
  { from: 'AppUser/list', to: 'AppUser/disable', body: { id: first('appUsers', 'id') } },
  { from: 'AppUser/list', to: 'AppUser/hold', body: { id: first('appUsers', 'id') } },
  { from: 'IPGProvider/list', to: 'IPGProvider/disable', body: { id: first('providers', 'id') } },
  { from: 'IPGProvider/list', to: 'IPGProvider/currency/list', body: { provider_bank_code: first('providers', 'provider_bank_code') } },
  { from: 'IPGProvider/currency/list', to: 'IPGProvider/currency/approve', body: { changeRequestID: first('changeRequests', 'changeRequestId') } },
  { from: 'role/initial-create-data', to: 'role/create', body: { user_level: first('userLevels', 'id') } },
  { from: 'user/initial-create-data', to: 'user/create', body: { role: first('roleList', 'roleId'), branch_code: first('branchList', 'code') } },
  { from: 'user/list', to: 'user/unlock', body: { id: first('users', 'id') } },
  { from: 'changeRequest/inbox', to: 'changeRequest/decide', body: { changeRequestID: first('requests', 'changeRequestId') } },
  { from: 'changeRequest/inbox', to: 'changeRequest/history', body: { changeRequestID: first('requests', 'changeRequestId') } },
  { from: 'changeRequest/mine', to: 'changeRequest/withdraw', body: { changeRequestID: first('requests', 'changeRequestId') } },
  { from: 'bank/create', to: 'changeRequest/withdraw', body: { changeRequestID: '/data/changeRequestId' } },
  { from: 'export/start-job', to: 'export/job-status', body: { jobId: '/data/id' } },
  { from: 'export/start-job', to: 'export/cancel-job', body: { jobId: '/data/id' } },
  { from: 'export/my-job', to: 'export/download-link', body: { jobId: '/data/job/id' } },
  { from: 'Transaction/get-ceftTransaction', to: 'Transaction/ceft/hold', body: { id: first('transactions', 'id') } },
  { from: 'Transaction/get-ceftTransaction', to: 'Transaction/ceft/refund', body: { transactionID: first('transactions', 'id') } },
  { from: 'Transaction/get-ceftTransaction', to: 'Transaction/ceft/void', body: { transactionID: first('transactions', 'id') } },
  { from: 'Transaction/get-ceftTransaction', to: 'Transaction/ceft/manualFundTransfer', body: { trace: first('transactions', 'trace') } },
  { from: 'transaction/money-approval/list', to: 'transaction/money-approval/approve', body: { changeRequestID: first('requests', 'changeRequestId') } },
  { from: 'kyc/get-all', to: 'kyc/update-status', body: { kycId: first('kycList', 'kycId') } },
];
