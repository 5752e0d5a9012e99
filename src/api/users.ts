import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody, exportField, listFetchCount, listItem, listMatching, searchText, MAX_ID } from './contract';
import { branchMessage, limits, messages, patterns } from '../domain/validation';

export const userTypes = ['BACKEND', 'IPGBANK', 'EXCHANGEHOUSE', 'DFBANK', 'DFMERCHANT', 'DFCBSLUSER', 'DFSLCUSTOMS', 'DFMINISTRY', 'AUDITOR'] as const;
export type UserType = (typeof userTypes)[number];
export const userTypeLabels: Record<UserType, string> = {
  BACKEND: 'Backend User',
  IPGBANK: 'IPG Bank User',
  EXCHANGEHOUSE: 'Exchange House User',
  DFBANK: 'Bank User',
  DFMERCHANT: 'Merchant User',
  DFCBSLUSER: 'CBSL User',
  DFSLCUSTOMS: 'SL Customs User',
  DFMINISTRY: 'Ministry User',
  AUDITOR: 'Auditor',
};

export const userRow = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  contact_number: z.string(),
  username: z.string(),
  branch: z.string(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  locked: z.number(),
  /** The permissions of the user's role: what Change Password's rule reads (src/domain/privilege.ts). */
  permissions: z.array(z.string()),
  /** 1 while the user's sign-in is locked after too many failed attempts, else 0. */
  signin_locked: z.number(),
  /** The same as a tag for the table: ['Locked'] while the sign-in is locked, else []. */
  signin: z.array(z.string()),
});
export type UserRow = z.infer<typeof userRow>;

/** The user form's fields and rules (spec 000 §5), the same on the console and the server. */
export const userFields = {
  type: z.enum(userTypes, { error: messages.userType }),
  name: z.string().max(limits.name, messages.name).regex(patterns.name, messages.name),
  email: z.string().max(limits.email, messages.email).regex(patterns.email, messages.email),
  contact: z.string().regex(patterns.contact10, messages.contact),
  username: z.string().max(limits.username, messages.username).regex(patterns.username, messages.username),
  branch_code: z.string().min(1, messages.defaultInvalid).max(100),
  role: z.number({ error: messages.role }).int().positive(messages.role).max(MAX_ID, messages.role),
  disabled: z.union([z.literal(0), z.literal(1)]),
};

/** The role type a user type takes: IPG bank users take IPGBANK roles, every other type BACKEND roles. */
export function roleUserTypeOf(userType: string): 'IPGBANK' | 'BACKEND' {
  return userType === 'IPGBANK' ? 'IPGBANK' : 'BACKEND';
}

/**
 * Branch (exchange house, merchant, bank) is required, with the message of the user type. It runs even
 * when other fields are invalid (`when`): a refinement is otherwise skipped until the rest parses, so
 * the form showed this one error only once every other field was right.
 */
function hasBranch(v: { branch_code?: unknown }): boolean {
  return typeof v.branch_code === 'string' && v.branch_code !== '';
}
const branchRequired = {
  path: ['branch_code'],
  error: (iss: { input?: unknown }) => branchMessage(String((iss.input as { type?: unknown } | undefined)?.type ?? '')),
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

// a branch is needed (checked last, so that its message comes once the rest is right): in the document, at least one character
const userBase = z.strictObject({ ...userFields, branch_code: z.string().max(100).meta({ minLength: 1 }) });
export const userCreateBody = userBase.extend({ password: z.string().regex(patterns.password, messages.password) }).refine(hasBranch, branchRequired);
export const userEditBody = userBase.extend({ id: z.number().int().positive().max(MAX_ID) }).refine(hasBranch, branchRequired);
/** The edit form's rules: the edit body without the id (it comes from the route). */
export const userEditFormSchema = userBase.refine(hasBranch, branchRequired);

export const userList = defineCall({
  path: 'user/list',
  access: anyOf('user-view'),
  summary: 'Console users matching the search text (username, email or contact number), with pending change requests.',
  request: z.strictObject({ data: searchText.default(''), fetchCount: listFetchCount }),
  data: z.object({ users: z.array(userRow), changeRequests: z.array(changeRequest), fields: z.array(exportField) }),
  top: listMatching,
});

export const roleOption = z.object({ roleId: z.number(), roleName: z.string(), userType: z.string(), permissions: z.array(z.string()) });
export const permissionGroup = z.object({ type: z.string(), userType: z.string(), permissions: z.array(z.string()) });

export const userInitialData = defineCall({
  path: 'user/initial-create-data',
  access: anyOf('user-create', 'user-edit'),
  summary: 'The option lists of the user form; the roles are those the caller may give (no permission the caller does not hold).',
  request: emptyBody,
  data: z.object({
    branchList: z.array(listItem),
    bankList: z.array(z.object({ id: z.number(), bankCode: z.string(), bankName: z.string() })),
    roleList: z.array(roleOption),
    exchangeHouseList: z.array(listItem),
    providerList: z.array(listItem),
    merchantList: z.array(listItem),
    permissionsList: z.array(permissionGroup),
  }),
});

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const userCreate = defineCall({
  path: 'user/create',
  answers: [422],
  access: anyOf('user-create'),
  summary: 'Request a new console user (a CREATE change request).',
  request: userCreateBody,
  data: sentForApproval,
});

export const userGetForEdit = defineCall({
  path: 'user/get-for-edit',
  answers: [404],
  access: anyOf('user-edit'),
  summary: 'One user, shaped for the edit form.',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID) }),
  data: z.object({
    customUser: z.object({
      id: z.number(),
      name: z.string(),
      user_type: z.string(),
      username: z.string(),
      email: z.string(),
      contact: z.string(),
      branch_code: z.string(),
      role: z.number(),
      disabled: z.number(),
      locked: z.number(),
    }),
  }),
});

export const userEdit = defineCall({
  path: 'user/edit',
  answers: [404, 409, 422],
  access: anyOf('user-edit'),
  summary: 'Request a change to a console user (an EDIT change request).',
  request: userEditBody,
  data: sentForApproval,
});

export const userChangePassword = defineCall({
  path: 'user/change-password',
  answers: [403, 404, 409, 422],
  access: anyOf('user-password-reset'),
  summary:
    "Set another user's password, temporary (to be changed at the next sign-in), revoking that user's tokens. Only for a user whose permissions the caller holds, never a super user or oneself (403). For a privileged user (an approve permission or user-password-reset) it is a change request instead (changeRequestId).",
  request: z.strictObject({ username: z.string().min(1).max(100), password: z.string().regex(patterns.password, messages.password) }),
  /** `changeRequestId`: the reset waits for another user's approval (a privileged account). */
  data: z.object({ message: z.string(), changeRequestId: z.number().optional() }),
});

export const userUnlock = defineCall({
  path: 'user/unlock',
  answers: [404, 409, 422],
  access: anyOf('user-edit'),
  summary: "Request the lifting of a user's sign-in lockout (after too many failed sign-ins): a change request another user approves.",
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID) }),
  data: sentForApproval,
});

export const userResetPassword = defineCall({
  path: 'user/reset-password',
  answers: [403, 406, 422, 429],
  access: 'authenticated',
  summary: "Change the signed-in user's own password; 406 when the old password is wrong.",
  request: z.strictObject({
    username: z.string().min(1).max(100),
    old_password: z.string().min(1, messages.oldPassword).max(limits.resetPassword),
    new_password: z.string().max(limits.resetPassword, messages.resetPassword).regex(patterns.password, messages.resetPassword),
  }),
  /** `token`: a fresh session token, since the change revokes the caller's old ones. */
  data: z.object({ message: z.string(), token: z.string().optional() }),
});

export const userApprove = defineCall({
  path: 'user/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('user-approve'),
  summary: 'Approve or reject a pending user change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const userCalls = [userList, userInitialData, userCreate, userGetForEdit, userEdit, userChangePassword, userResetPassword, userApprove, userUnlock] as const;
