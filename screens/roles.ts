/** Roles: list, create and edit (spec 000 §2 "Roles"). */
import { z } from 'zod';
import { defineFormScreen, defineListScreen, type FieldContext } from '../src/definitions/definitions';
import { recordFromForm, statusRadio } from '../src/definitions/records';
import { roleApprove, roleCreate, roleEdit, roleFields, roleGetForEdit, roleInitialData, roleList, type RoleRow } from '../src/api/roles';
import type { DataOf } from '../src/api/contract';
import { isLocked, isUnlocked } from '../src/domain/guards';

export const rolesScreen = defineListScreen<RoleRow>()({
  kind: 'list',
  id: 'roles',
  pinnedColumns: ['id', 'role_name'],
  route: '/roles',
  title: 'Roles',
  breadcrumb: [{ label: 'Roles' }],
  access: { anyOf: ['role-view'] },
  menu: { section: 'Administrator', label: 'Roles', order: 20 },
  source: { call: roleList, request: () => ({}), rows: (d) => d.roles, changeRequests: (d) => d.changeRequests },
  columns: [
    { key: 'id', header: 'ID', kind: 'integer' },
    { key: 'role_name', header: 'Name' },
    { key: 'permissions', header: 'Permissions', kind: 'tags' },
    { key: 'status', header: 'Status', kind: 'status' },
    { key: 'created_at', header: 'Created At', kind: 'datetime' },
    { key: 'updated_at', header: 'Updated At', kind: 'datetime' },
  ],
  pageSize: 5,
  createButton: { label: 'Create Role', permission: 'role-create', to: '/roles/create' },
  changeRequests: { permission: 'role-approve', approve: roleApprove, entity: 'Role' },
  lockedWhen: isLocked,
  rowActions: [{ id: 'edit', label: 'Edit', permission: 'role-edit', when: isUnlocked, run: { kind: 'navigate', to: (row) => `/roles/edit/${row.id}` } }],
});

type RoleOptions = DataOf<typeof roleInitialData>;
export type RoleFormValues = {
  role_name: string;
  user_type: 'BACKEND' | 'IPGBANK' | '';
  user_level: number | '';
  permissions: string[];
  disabled: 0 | 1;
};

/** The permission groups offered for the chosen user type. */
export function rolePermissionGroupsFor({ values, options }: FieldContext<RoleFormValues, RoleOptions>) {
  if (!options) return [];
  const type = values.user_type || 'BACKEND';
  return options.permissionsList.filter((g) => g.userType === type).map((g) => ({ title: g.type, items: g.permissions }));
}

const roleFormFields = [
  { kind: 'text', key: 'role_name', label: 'Role Name', required: true, maxLength: 100 },
  {
    kind: 'select',
    key: 'user_type',
    label: 'User Type',
    required: true,
    options: () => [
      { value: 'BACKEND', label: 'Backend User' },
      { value: 'IPGBANK', label: 'IPG Bank User' },
    ],
    clears: ['permissions'],
  },
  {
    kind: 'select',
    key: 'user_level',
    label: 'User Level',
    required: true,
    valueType: 'number',
    options: ({ options }: FieldContext<RoleFormValues, RoleOptions>) => (options?.userLevels ?? []).map((l) => ({ value: l.id, label: l.title })),
    approval: { lookup: 'userLevel' },
  },
  { kind: 'checkboxGroups', key: 'permissions', label: 'Permissions', required: true, groups: rolePermissionGroupsFor },
  statusRadio,
] as const;

/** A role as its change requests show it: the form's fields. */
export const roleRecord = recordFromForm('Role', roleFormFields);

export const roleFormSchema = z.strictObject(roleFields);
const emptyRole: RoleFormValues = { role_name: '', user_type: '', user_level: '', permissions: [], disabled: 0 };

export const roleCreateScreen = defineFormScreen<RoleFormValues, RoleOptions>()({
  kind: 'form',
  mode: 'create',
  id: 'roles.create',
  route: '/roles/create',
  title: 'Create Role',
  breadcrumb: [{ label: 'Roles', to: '/roles' }, { label: 'Create' }],
  access: { anyOf: ['role-create'] },
  schema: roleFormSchema,
  defaults: emptyRole,
  fields: roleFormFields,
  options: { call: roleInitialData, select: (d) => d },
  submit: { call: roleCreate, request: (v) => v },
  messages: { success: 'Role sent for approval', failure: 'Role save failed!.' },
  back: '/roles',
});

export const roleEditScreen = defineFormScreen<RoleFormValues, RoleOptions>()({
  kind: 'form',
  mode: 'edit',
  id: 'roles.edit',
  route: '/roles/edit/$id',
  title: 'Edit Role',
  breadcrumb: [{ label: 'Roles', to: '/roles' }, { label: 'Edit' }],
  access: { anyOf: ['role-edit'] },
  schema: roleFormSchema,
  defaults: emptyRole,
  fields: roleFormFields,
  options: { call: roleInitialData, select: (d) => d },
  load: {
    call: roleGetForEdit,
    request: (p) => ({ id: Number(p.id) }),
    values: (d) => {
      const r = d.role;
      return {
        role_name: r.role_name,
        user_type: roleFields.user_type.options.find((t) => t === r.user_type) ?? '',
        user_level: r.user_level,
        permissions: r.permissions,
        disabled: r.disabled === 1 ? 1 : 0,
      };
    },
  },
  submit: { call: roleEdit, request: (v, p) => ({ id: Number(p.id), ...v }) },
  messages: { success: 'Role sent for approval', failure: 'Role edit failed!.' },
  back: '/roles',
});
