/**
 * Where a call's record ids come from, for the published document's OpenAPI `links`: a reply of the
 * `from` call names the values (JSON pointers into its body, `$response.body#/...`) that the `to`
 * call's body fields take. A client or a fuzzer that follows them reaches real records (e.g. a list's
 * first bank opened for edit, the inbox's oldest request decided) instead of guessing ids.
 */
export interface CallLink {
  readonly from: string;
  readonly to: string;
  /** Body field of `to` -> JSON pointer into the `from` reply body (a list of them: an array of those values). */
  readonly body: Readonly<Record<string, string | readonly string[]>>;
}

const first = (list: string, field: string) => `/data/${list}/0/${field}`;

function masterData(area: string, list: string, edit = true): CallLink[] {
  return [
    ...(edit ? [{ from: `${area}/list`, to: `${area}/get-for-edit`, body: { id: first(list, 'id') } }] : []),
    { from: `${area}/list`, to: `${area}/approve`, body: { changeRequestID: first('changeRequests', 'changeRequestId') } },
  ];
}

/** A get-for-edit's record to its edit: the fields an edit must keep or take from the record. */
const edits: CallLink[] = [
  { from: 'bank/get-for-edit', to: 'bank/edit', body: { id: '/data/bank/id', bank_code: '/data/bank/bank_code' } },
  { from: 'role/get-for-edit', to: 'role/edit', body: { id: '/data/role/id', user_type: '/data/role/user_type', user_level: '/data/role/user_level' } },
  {
    from: 'user/get-for-edit',
    to: 'user/edit',
    body: { id: '/data/customUser/id', type: '/data/customUser/user_type', username: '/data/customUser/username', role: '/data/customUser/role', branch_code: '/data/customUser/branch_code' },
  },
  {
    from: 'advertisement/get-for-edit',
    to: 'advertisement/edit',
    body: {
      id: '/data/advertisement/id',
      countries: '/data/advertisement/countries',
      images: '/data/advertisement/images',
      valid_from: '/data/advertisement/valid_from',
      valid_to: '/data/advertisement/valid_to',
    },
  },
];

export const callLinks: readonly CallLink[] = [
  ...edits,
  ...masterData('bank', 'banks'),
  ...masterData('advertisement', 'advertisements'),
  ...masterData('role', 'roles'),
  ...masterData('user', 'users'),
  ...masterData('appVersion', 'list', false),
  ...masterData('IPGProvider', 'providers', false),
  ...masterData('AppUser', 'appUsers', false),
  { from: 'AppUser/list', to: 'AppUser/disable', body: { id: first('appUsers', 'id') } },
  { from: 'AppUser/list', to: 'AppUser/hold', body: { id: first('appUsers', 'id') } },
  { from: 'IPGProvider/list', to: 'IPGProvider/disable', body: { id: first('providers', 'id') } },
  { from: 'IPGProvider/list', to: 'IPGProvider/currency/list', body: { provider_bank_code: first('providers', 'provider_bank_code') } },
  { from: 'IPGProvider/currency/list', to: 'IPGProvider/currency/approve', body: { changeRequestID: first('changeRequests', 'changeRequestId') } },
  { from: 'advertisement/initial-create-data', to: 'advertisement/create', body: { countries: [first('countries', 'code')] } },
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
