import { roleUserTypeOf } from '../api/users';
import { permissionGroups, type Permission } from '../domain/permissions';

/** Permission groups an IPG bank role may hold; BACKEND roles may hold every group. */
const ipgBankGroups: readonly (keyof typeof permissionGroups)[] = ['IPG Currency', 'Reports'];

/**
 * Permissions of those groups an IPG bank role may not hold: the activity logs are the service's own
 * record of its staff's and its app users' actions (names, emails, devices), not a provider's rows, so
 * no provider scope can make them a partner bank's to read (the reports refuse an IPG bank user too).
 */
export const notForIpgBank: readonly Permission[] = ['activity-log-report-view'];

export interface PermissionGroupOption {
  type: string;
  userType: string;
  permissions: string[];
}

/** The permission checkbox groups of the user and role forms: every group for BACKEND, some for IPGBANK. */
export function permissionsList(): PermissionGroupOption[] {
  const groups = Object.entries(permissionGroups) as [keyof typeof permissionGroups, readonly Permission[]][];
  return [
    ...groups.map(([type, permissions]) => ({ type, userType: 'BACKEND', permissions: [...permissions] })),
    ...groups.filter(([type]) => ipgBankGroups.includes(type)).map(([type, permissions]) => ({ type, userType: 'IPGBANK', permissions: permissions.filter((p) => !notForIpgBank.includes(p)) })),
  ];
}

/** The permissions a role of this user type may hold. */
export function permissionsForUserType(userType: string): Set<string> {
  return new Set(
    permissionsList()
      .filter((g) => g.userType === userType)
      .flatMap((g) => g.permissions),
  );
}

/** IPG bank users take IPGBANK roles; every other user type takes BACKEND roles. */
export function roleSuitsUserType(roleUserType: string, userType: string): boolean {
  return roleUserType === roleUserTypeOf(userType);
}
