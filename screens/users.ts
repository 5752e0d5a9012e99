/** Console users: list, create and edit (spec 000 §2 "Users screen", "User create and edit"). */
import { defineFormScreen, defineListScreen, type FieldContext } from '../src/definitions/definitions';
import { recordFromForm, statusRadio } from '../src/definitions/records';
import {
  userApprove,
  userCreate,
  userCreateBody,
  userEdit,
  userEditFormSchema,
  userGetForEdit,
  userInitialData,
  userList,
  roleUserTypeOf,
  userTypeLabels,
  userUnlock,
  userTypes,
  type UserRow,
  type UserType,
} from '../src/api/users';
import { fetchCountOf, type DataOf } from '../src/api/contract';
import { isLocked } from '../src/domain/guards';
import { canChangePasswordOnRow, canEditUserOnRow, canUnlockSignInOnRow } from '../src/domain/privilege';
import { limits } from '../src/domain/validation';

export const usersScreen = defineListScreen<UserRow>()({
  kind: 'list',
  id: 'users',
  pinnedColumns: ['id', 'username'],
  route: '/users',
  title: 'Users',
  breadcrumb: [{ label: 'Users' }],
  access: { anyOf: ['user-view'] },
  menu: { section: 'Administrator', label: 'Users', order: 10 },
  source: {
    call: userList,
    request: (f) => ({ data: String(f.data ?? ''), fetchCount: fetchCountOf(f.fetchCount) }),
    rows: (d) => d.users,
    changeRequests: (d) => d.changeRequests,
  },
  filters: [
    { kind: 'text', key: 'data', label: 'Username/Email/Contact Number', maxLength: limits.searchText },
    { kind: 'fetchCount', key: 'fetchCount' },
  ],
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'name', header: 'Name' },
    { key: 'email', header: 'Email' },
    { key: 'contact_number', header: 'Contact Number' },
    { key: 'username', header: 'Username' },
    { key: 'branch', header: 'Branch' },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
    // a tag while the sign-in is locked after too many failed attempts; not in the specification's
    // columns, so after them all (the Action column included), and not in the exports
    { key: 'signin', header: 'Sign-in', kind: 'tags', sortable: false, export: false },
  ],
  actionsBefore: 'signin',
  createButton: { label: 'Create User', permission: 'user-create', to: '/users/create' },
  changeRequests: { permission: 'user-approve', approve: userApprove, entity: 'User' },
  lockedWhen: isLocked,
  rowActions: [
    {
      id: 'edit',
      label: 'Edit',
      permission: 'user-edit',
      when: canEditUserOnRow,
      whyNot: 'Edit: their role holds permissions yours does not.',
      run: { kind: 'navigate', to: (row) => `/users/edit/${row.id}` },
    },
    {
      id: 'changePassword',
      label: 'Change Password',
      permission: 'user-password-reset',
      when: canChangePasswordOnRow,
      whyNot: 'Change Password: not for your own account (use Reset Password), a super user, or an account holding permissions yours does not.',
      run: { kind: 'modal', modal: 'changePassword' },
    },
    {
      id: 'unlock',
      label: 'Unlock',
      permission: 'user-edit',
      when: canUnlockSignInOnRow,
      run: {
        kind: 'call',
        call: userUnlock,
        body: (row) => ({ id: row.id }),
        confirm: { title: 'Unlock', message: (row) => `Send the unlock of the sign-in of "${row.username}" for approval?`, danger: false },
        success: (row) => `Unlock of user "${row.username}" sent for approval`,
        failure: 'Unlock failed!',
      },
    },
  ],
  exports: { fileBase: 'Users', title: 'Users' },
});

type UserOptions = DataOf<typeof userInitialData>;
export type UserFormValues = {
  type: UserType | '';
  name: string;
  username: string;
  email: string;
  contact: string;
  branch_code: string;
  role: number | '';
  password: string;
  disabled: 0 | 1;
};

/**
 * The user types offered in the form (spec 000 §3): BACKEND and IPGBANK; on create also EXCHANGEHOUSE
 * when there are exchange houses to pick and AUDITOR (its bodies are fixed); on edit the record's own
 * type besides, whatever it is, so the form shows the record as it is ("prefilled from the record")
 * instead of a blank type that Save would still send.
 */
export function userTypeOptionsFor({ options, mode, initial }: FieldContext<UserFormValues, UserOptions>) {
  const types: UserType[] = ['BACKEND', 'IPGBANK'];
  if (mode === 'create') {
    if (options && options.exchangeHouseList.length > 0) types.push('EXCHANGEHOUSE');
    types.push('AUDITOR');
  }
  if (mode === 'edit' && initial?.type && !types.includes(initial.type)) types.push(initial.type);
  return types.map((t) => ({ value: t, label: userTypeLabels[t] }));
}

/** The dependent second select: its options by user type. */
export function branchOptionsFor({ values, options }: FieldContext<UserFormValues, UserOptions>) {
  if (!options) return [];
  switch (values.type) {
    case 'IPGBANK':
      return options.providerList.map((p) => ({ value: p.code, label: p.name }));
    case 'EXCHANGEHOUSE':
      return options.exchangeHouseList.map((p) => ({ value: p.code, label: p.name }));
    case 'DFBANK':
      return options.bankList.map((b) => ({ value: b.bankCode, label: b.bankName }));
    case 'DFMERCHANT':
      return options.merchantList.map((m) => ({ value: m.code, label: m.name }));
    case 'AUDITOR':
      return ['CBSL', 'SLCUSTOMS', 'DFMINISTRY', 'AUDITOR'].map((c) => ({ value: c, label: c }));
    default:
      return options.branchList.map((b) => ({ value: b.code, label: b.name }));
  }
}

/** The label of the dependent select by user type. */
export function branchLabelFor({ values }: FieldContext<UserFormValues, UserOptions>): string {
  switch (values.type) {
    case 'IPGBANK':
      return 'IPG Banks';
    case 'EXCHANGEHOUSE':
      return 'Exchange House';
    case 'AUDITOR':
      return 'Auditor';
    case 'DFBANK':
      return 'Bank';
    case 'DFMERCHANT':
      return 'Merchant';
    default:
      return 'Branch';
  }
}

/** Roles offered are filtered by the chosen user type: IPG bank users take IPGBANK roles, every other type BACKEND roles (as the server checks). */
export function roleOptionsFor({ values, options }: FieldContext<UserFormValues, UserOptions>) {
  if (!options || !values.type) return [];
  const roleType = roleUserTypeOf(values.type);
  return options.roleList.filter((r) => r.userType === roleType).map((r) => ({ value: r.roleId, label: r.roleName }));
}

/** The permission groups shown for the chosen user type. */
export function permissionGroupsFor({ values, options }: FieldContext<UserFormValues, UserOptions>) {
  if (!options) return [];
  const type = roleUserTypeOf(values.type || 'BACKEND');
  return options.permissionsList.filter((g) => g.userType === type).map((g) => ({ title: g.type, items: g.permissions }));
}

/** The read-only permission preview follows the chosen role. */
export function rolePermissionsFor({ values, options }: FieldContext<UserFormValues, UserOptions>): string[] {
  return options?.roleList.find((r) => r.roleId === values.role)?.permissions ?? [];
}

const userFormFields = (mode: 'create' | 'edit') =>
  [
    { kind: 'text', key: 'name', label: 'Name', required: true, maxLength: 100 },
    { kind: 'text', key: 'username', label: 'Username', required: true, maxLength: 100, readOnlyOnEdit: true },
    { kind: 'text', key: 'email', label: 'Email', required: true, maxLength: 100, inputType: 'email' },
    { kind: 'text', key: 'contact', label: 'Contact No', required: true, maxLength: 10, inputType: 'tel', approval: { header: 'Contact Number' } },
    {
      kind: 'select',
      key: 'type',
      label: 'User Type',
      required: true,
      options: userTypeOptionsFor,
      clears: ['branch_code', 'role'],
      approval: { name: 'user_type' },
    },
    { kind: 'select', key: 'branch_code', label: 'Branch', required: true, options: branchOptionsFor, dynamicLabel: branchLabelFor, approval: { name: 'branch', lookup: 'branch' } },
    { kind: 'select', key: 'role', label: 'Role', required: true, valueType: 'number', options: roleOptionsFor, approval: { lookup: 'role' } },
    { kind: 'checkboxGroups', key: 'role', label: 'Permissions', groups: permissionGroupsFor, derived: rolePermissionsFor },
    statusRadio,
    ...(mode === 'create' ? ([{ kind: 'password', key: 'password', label: 'Password', required: true, generate: true }] as const) : []),
  ] as const;

/** A user as its change requests show it: the form's fields (never the password). */
export const userRecord = recordFromForm('User', userFormFields('create'));

const emptyUser: UserFormValues = { type: '', name: '', username: '', email: '', contact: '', branch_code: '', role: '', password: '', disabled: 0 };

export const userCreateScreen = defineFormScreen<UserFormValues, UserOptions>()({
  kind: 'form',
  mode: 'create',
  id: 'users.create',
  route: '/users/create',
  title: 'Create User',
  breadcrumb: [{ label: 'Users', to: '/users' }, { label: 'Create' }],
  access: { anyOf: ['user-create'] },
  schema: userCreateBody,
  defaults: emptyUser,
  fields: userFormFields('create'),
  options: { call: userInitialData, select: (d) => d },
  submit: { call: userCreate, request: (v) => v },
  messages: { success: 'User sent for approval', failure: 'User save failed!.' },
  back: '/users',
});

export const userEditScreen = defineFormScreen<UserFormValues, UserOptions>()({
  kind: 'form',
  mode: 'edit',
  id: 'users.edit',
  route: '/users/edit/$id',
  title: 'Edit User',
  breadcrumb: [{ label: 'Users', to: '/users' }, { label: 'Edit' }],
  access: { anyOf: ['user-edit'] },
  schema: userEditFormSchema,
  defaults: emptyUser,
  fields: userFormFields('edit'),
  options: { call: userInitialData, select: (d) => d },
  load: {
    call: userGetForEdit,
    request: (p) => ({ id: Number(p.id) }),
    values: (d) => {
      const u = d.customUser;
      return {
        type: userTypes.find((t) => t === u.user_type) ?? '',
        name: u.name,
        username: u.username,
        email: u.email,
        contact: u.contact,
        branch_code: u.branch_code,
        role: u.role,
        password: '',
        disabled: u.disabled === 1 ? 1 : 0,
      };
    },
  },
  submit: {
    call: userEdit,
    request: (v, p) => ({ id: Number(p.id), ...v }),
  },
  messages: { success: 'User sent for approval', failure: 'User edit failed!.' },
  back: '/users',
});
