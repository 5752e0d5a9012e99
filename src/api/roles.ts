import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody, MAX_ID } from './contract';
import { permissionGroup } from './users';
import { allPermissions } from '../domain/permissions';
import { messages, patterns } from '../domain/validation';

export const roleRow = z.object({
  id: z.number(),
  role_name: z.string(),
  user_type: z.string(),
  user_level: z.number(),
  permissions: z.array(z.string()),
  disabled: z.number(),
  status: z.string(),
  locked: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RoleRow = z.infer<typeof roleRow>;

export const roleFields = {
  role_name: z.string().max(100, messages.roleName).regex(patterns.name, messages.roleName),
  user_type: z.enum(['BACKEND', 'IPGBANK'], { error: messages.userType }),
  user_level: z.number({ error: messages.userLevel }).int().positive(messages.userLevel).max(MAX_ID, messages.userLevel),
  permissions: z
    .array(z.enum(allPermissions as [string, ...string[]], { error: 'permissions: unknown permission' }))
    .min(1, messages.permissions)
    .max(200),
  disabled: z.union([z.literal(0), z.literal(1)]),
};

export const roleList = defineCall({
  path: 'role/list',
  access: anyOf('role-view'),
  summary: 'Every role, with pending change requests.',
  request: emptyBody,
  data: z.object({ roles: z.array(roleRow), changeRequests: z.array(changeRequest) }),
});

export const roleInitialData = defineCall({
  path: 'role/initial-create-data',
  access: anyOf('role-create', 'role-edit'),
  summary: 'The option lists of the role form.',
  request: emptyBody,
  data: z.object({
    userLevels: z.array(z.object({ id: z.number(), level: z.number(), title: z.string() })),
    permissionsList: z.array(permissionGroup),
  }),
});

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const roleCreate = defineCall({
  path: 'role/create',
  answers: [422],
  access: anyOf('role-create'),
  summary: 'Request a new role (a CREATE change request).',
  request: z.strictObject(roleFields),
  data: sentForApproval,
});

export const roleGetForEdit = defineCall({
  path: 'role/get-for-edit',
  answers: [404],
  access: anyOf('role-edit'),
  summary: 'One role, shaped for the edit form.',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID) }),
  data: z.object({ role: roleRow }),
});

export const roleEdit = defineCall({
  path: 'role/edit',
  answers: [404, 409, 422],
  access: anyOf('role-edit'),
  summary: 'Request a change to a role (an EDIT change request).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID), ...roleFields }),
  data: sentForApproval,
});

export const roleApprove = defineCall({
  path: 'role/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('role-approve'),
  summary: 'Approve or reject a pending role change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const roleCalls = [roleList, roleInitialData, roleCreate, roleGetForEdit, roleEdit, roleApprove] as const;
