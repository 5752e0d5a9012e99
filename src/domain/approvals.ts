/**
 * The maker-checker areas as the workbench sees them (issue 20): each change-request type, the
 * permission that decides it and the permissions that make its requests. Shared by the server (the
 * inbox is filtered by the approve permissions) and the console (who sees the Approvals and My
 * requests menu entries).
 */
import { hasPermission, type Permission } from './permissions';

export interface ChangeRequestArea {
  /** The change request's type, as stored and shown ('User', 'Role', ...). */
  readonly type: string;
  readonly approve: Permission;
  readonly make: readonly Permission[];
}

export const changeRequestAreas: readonly ChangeRequestArea[] = [
  { type: 'User', approve: 'user-approve', make: ['user-create', 'user-edit', 'user-password-reset'] },
  { type: 'Role', approve: 'role-approve', make: ['role-create', 'role-edit'] },
  { type: 'Bank', approve: 'bank-approve', make: ['bank-create', 'bank-edit'] },
  { type: 'Advertisement', approve: 'advertisement-approve', make: ['advertisement-create', 'advertisement-edit'] },
  { type: 'IPG Provider', approve: 'ipg-provider-approve', make: ['ipg-provider-edit'] },
  { type: 'IPG Provider Currency', approve: 'ipg-currency-approve', make: ['ipg-currency-edit'] },
  { type: 'App User', approve: 'app-user-approve', make: ['app-user-edit'] },
  { type: 'App Version', approve: 'app-version-approve', make: ['app-version-create'] },
];

/** Every permission that decides change requests in some area. */
export const approvePermissions: readonly Permission[] = changeRequestAreas.map((a) => a.approve);
/** Every permission that makes change requests in some area. */
export const makePermissions: readonly Permission[] = Array.from(new Set(changeRequestAreas.flatMap((a) => a.make)));

/** The areas whose requests these permissions may decide. */
export function areasDecidableBy(permissions: readonly string[]): ChangeRequestArea[] {
  return changeRequestAreas.filter((a) => hasPermission(permissions, a.approve));
}

/** How long a change request may stay pending before it expires, unless CHANGE_REQUEST_EXPIRY_DAYS says otherwise. */
export const DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS = 7;

/** The longest decision comment (a reject's reason). */
export const COMMENT_MAX = 200;
export const REASON_REQUIRED_MESSAGE = 'Please enter a reason for the rejection';
export const COMMENT_TOO_LONG_MESSAGE = `At most ${COMMENT_MAX} characters`;

/** Where a change request ended, or that it has not. */
export type ChangeRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'WITHDRAWN' | 'EXPIRED';
