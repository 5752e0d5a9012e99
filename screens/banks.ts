/** Banks: list, create and edit (spec 002 §2 "Banks list", "Create Bank / Edit Bank"). */
import { defineFormScreen, defineListScreen } from '../src/definitions/definitions';
import { recordFromForm, statusRadio } from '../src/definitions/records';
import { bankApprove, bankCreate, bankEdit, bankFormSchema, bankGetForEdit, bankLimits, bankList, bankMessages, type BankRow, type BankValues } from '../src/api/banks';
import { logoRule } from '../src/api/imageUpload';
import { isLocked, isUnlocked } from '../src/domain/guards';

export const banksScreen = defineListScreen<BankRow>()({
  kind: 'list',
  id: 'banks',
  pinnedColumns: ['id', 'bank_code'],
  route: '/banks',
  title: 'Banks',
  breadcrumb: [{ label: 'Banks' }],
  access: { anyOf: ['bank-view'] },
  menu: { section: 'Administrator', label: 'Banks', order: 30 },
  source: { call: bankList, request: () => ({}), rows: (d) => d.banks, changeRequests: (d) => d.changeRequests },
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'bank_code', header: 'Bank Code' },
    { key: 'bank_name', header: 'Bank Name' },
    { key: 'logo', header: 'Logo', kind: 'image', sortable: false },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 15,
  createButton: { label: 'Create Bank', permission: 'bank-create', to: '/banks/create' },
  changeRequests: { permission: 'bank-approve', approve: bankApprove, entity: 'Bank' },
  lockedWhen: isLocked,
  rowActions: [{ id: 'edit', label: 'Edit', permission: 'bank-edit', when: isUnlocked, run: { kind: 'navigate', to: (row) => `/banks/edit/${row.id}` } }],
});

/** The form's values: the fields of the bank schema (src/api/banks.ts). */
export type BankFormValues = BankValues;

const bankFormFields = [
  { kind: 'text', key: 'bank_code', label: 'Bank Code', required: true, maxLength: bankLimits.code, readOnlyOnEdit: true },
  { kind: 'text', key: 'bank_name', label: 'Bank Name', required: true, maxLength: bankLimits.name },
  {
    kind: 'image',
    key: 'logo',
    label: 'Logo',
    required: true,
    formats: logoRule.formats,
    maxBytes: logoRule.maxBytes,
    width: 300,
    height: 200,
    hint: 'PNG or JPEG, under 100 KB',
    invalidMessage: bankMessages.logoInvalid,
  },
  statusRadio,
] as const;

/** A bank as its change requests show it: the form's fields. */
export const bankRecord = recordFromForm('Bank', bankFormFields);

const emptyBank: BankFormValues = { bank_code: '', bank_name: '', logo: '', disabled: 0 };

export const bankCreateScreen = defineFormScreen<BankFormValues>()({
  kind: 'form',
  mode: 'create',
  id: 'banks.create',
  route: '/banks/create',
  title: 'Create Bank',
  breadcrumb: [{ label: 'Banks', to: '/banks' }, { label: 'Create' }],
  access: { anyOf: ['bank-create'] },
  schema: bankFormSchema,
  defaults: emptyBank,
  fields: bankFormFields,
  submit: { call: bankCreate, request: (v) => v },
  messages: { success: 'Bank sent for approval', failure: 'Bank save failed!.' },
  back: '/banks',
});

export const bankEditScreen = defineFormScreen<BankFormValues>()({
  kind: 'form',
  mode: 'edit',
  id: 'banks.edit',
  route: '/banks/edit/$id',
  title: 'Edit Bank',
  breadcrumb: [{ label: 'Banks', to: '/banks' }, { label: 'Edit' }],
  access: { anyOf: ['bank-edit'] },
  schema: bankFormSchema,
  defaults: emptyBank,
  fields: bankFormFields,
  load: {
    call: bankGetForEdit,
    request: (p) => ({ id: Number(p.id) }),
    values: (d) => {
      const b = d.bank;
      return { bank_code: b.bank_code, bank_name: b.bank_name, logo: b.logo ?? '', disabled: b.disabled === 1 ? 1 : 0 };
    },
  },
  submit: { call: bankEdit, request: (v, p) => ({ id: Number(p.id), ...v }) },
  messages: { success: 'Bank sent for approval', failure: 'Bank save failed!.' },
  back: '/banks',
});
