/** IPG providers (spec 002 §2 "IPG Providers list"). */
import { defineListScreen } from '../src/definitions/definitions';
import { defineRecord, statusDisplay } from '../src/definitions/records';
import { providerApprove, providerDisable, providerList, type ProviderRow } from '../src/api/providers';
import { isLocked, isUnlocked } from '../src/domain/guards';

/** 'Deactivate' for an active record, 'Activate' for an inactive one. */
export function activateLabel(row: { disabled: number }): string {
  return row.disabled === 0 ? 'Deactivate' : 'Activate';
}

/** A provider as its change requests (activate/deactivate) show it. */
export const providerRecord = defineRecord({
  type: 'IPG Provider',
  fields: [
    { kind: 'text', name: 'provider_bank_code', key: 'provider_bank_code', header: 'Provider Bank Code' },
    { kind: 'text', name: 'provider_bank_name', key: 'provider_bank_name', header: 'Provider Bank Name' },
    { kind: 'image', name: 'provider_logo', key: 'provider_logo', header: 'Provider Bank Logo' },
    statusDisplay,
  ],
});

export const providersScreen = defineListScreen<ProviderRow>()({
  kind: 'list',
  id: 'providers',
  pinnedColumns: ['id', 'provider_bank_code'],
  route: '/provider',
  title: 'IPG Providers',
  breadcrumb: [{ label: 'IPG Providers' }],
  access: { anyOf: ['ipg-provider-view'] },
  menu: { section: 'Administrator', label: 'IPG Providers', order: 40 },
  source: { call: providerList, request: () => ({}), rows: (d) => d.providers, changeRequests: (d) => d.changeRequests },
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'provider_bank_code', header: 'Provider Bank Code' },
    { key: 'provider_bank_name', header: 'Provider Bank Name' },
    { key: 'provider_logo', header: 'Provider Bank Logo', kind: 'image', sortable: false },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 5,
  changeRequests: { permission: 'ipg-provider-approve', approve: providerApprove, entity: 'IPG Provider' },
  lockedWhen: isLocked,
  rowActions: [
    {
      id: 'currencies',
      label: 'Currencies',
      permission: 'ipg-provider-currency-view',
      showWhenLocked: true,
      run: { kind: 'navigate', to: (row) => `/ipgProviderCurrencies/${row.provider_bank_code}` },
    },
    {
      id: 'activate',
      label: activateLabel,
      permission: 'ipg-provider-edit',
      when: isUnlocked,
      run: {
        kind: 'call',
        call: providerDisable,
        body: (row) => ({ id: row.id, disable: row.disabled === 0 }),
        confirm: { title: 'Warning!', message: (row) => `Do you want to ${activateLabel(row).toLowerCase()} ${row.provider_bank_name}? The change is sent for approval.` },
        success: () => 'IPG Provider sent for approval',
        failure: 'IPG Provider disable failed',
        serverMessage: false,
      },
    },
  ],
});
