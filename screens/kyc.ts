/** KYC User Information (spec 002 §2): the list of KYC records; Review opens the KYC review modal. */
import { fetchCountOf } from '../src/api/contract';
import { defineListScreen, type FilterValues } from '../src/definitions/definitions';
import { kycList, type KycRow } from '../src/api/kyc';
import { kycMessages } from '../src/domain/kyc';
import { limits } from '../src/domain/validation';

const kycFilterStates: readonly ('PENDING' | 'APPROVED')[] = ['PENDING', 'APPROVED'];

/** The KYC status filter's value as sent: PENDING or APPROVED, anything else All (''). */
export function kycStatusOf(f: FilterValues): '' | 'PENDING' | 'APPROVED' {
  return kycFilterStates.find((s) => s === f.kycStatus) ?? '';
}

export const kycScreen = defineListScreen<KycRow>()({
  kind: 'list',
  id: 'kyc',
  pinnedColumns: ['kycId', 'uid'],
  route: '/kyc',
  title: 'KYC User Information',
  breadcrumb: [{ label: 'KYC User Information' }],
  access: { anyOf: ['kyc-view'] },
  menu: { section: 'Main', label: 'KYC', order: 20 },
  rowKey: 'kycId',
  source: {
    call: kycList,
    request: (f) => ({
      data: String(f.data ?? ''),
      kycStatus: kycStatusOf(f),
      fetchCount: fetchCountOf(f.fetchCount),
    }),
    rows: (d) => d.kycList,
  },
  filters: [
    { kind: 'text', key: 'data', label: 'UID/Email/Contact Number', maxLength: limits.searchText },
    {
      kind: 'select',
      key: 'kycStatus',
      label: 'KYC Status',
      options: [
        { value: 'PENDING', label: 'Pending' },
        { value: 'APPROVED', label: 'Approved' },
        { value: '', label: 'All' },
      ],
    },
    { kind: 'fetchCount', key: 'fetchCount' },
  ],
  columns: [
    { key: 'kycId', header: 'ID', kind: 'integer' },
    { key: 'first_name', header: 'First Name' },
    { key: 'last_name', header: 'Last Name' },
    { key: 'uid_type', header: 'UID Type' },
    { key: 'uid', header: 'UID' },
    { key: 'phone_no', header: 'Contact Number' },
    { key: 'email', header: 'Email' },
    { key: 'status', header: 'KYC Status', kind: 'approval' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 10,
  defaultSort: { key: 'kycId', desc: true },
  emptyMessage: kycMessages.empty,
  rowActions: [{ id: 'review', label: 'Review', permission: 'kyc-view', run: { kind: 'modal', modal: 'kycReview' } }],
});
