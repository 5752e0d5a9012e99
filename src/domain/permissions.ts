/**
 * The permission catalogue: every permission string the console and the server know.
 * A permission not in this list is a start-up error (see src/definitions/checks.ts).
 */
export const SUPER_PERMISSION = 'super-permission' as const;

export const permissionGroups = {
  General: [SUPER_PERMISSION],
  User: ['user-view', 'user-create', 'user-edit', 'user-password-reset', 'user-approve'],
  Role: ['role-view', 'role-create', 'role-edit', 'role-approve'],
  Auditor: ['auditor-dashboard-view', 'auditor-report-view', 'auditor-app-user-view'],
  'IPG Provider': ['ipg-provider-view', 'ipg-provider-edit', 'ipg-provider-approve', 'ipg-provider-currency-view'],
  'IPG Currency': ['ipg-currency-view', 'ipg-currency-edit', 'ipg-currency-approve'],
  Advertisement: ['advertisement-view', 'advertisement-create', 'advertisement-edit', 'advertisement-approve'],
  Bank: ['bank-view', 'bank-create', 'bank-edit', 'bank-approve'],
  'Exchange House': ['exchange-house-view'],
  'App User': ['app-user-view', 'app-user-edit', 'app-user-approve'],
  'App Version': ['app-version-view', 'app-version-create', 'app-version-approve'],
  KYC: ['kyc-view', 'kyc-approve'],
  Reports: [
    'bill-payment-report-view',
    'send-money-report-view',
    'thyaga-report-view',
    'echannelling-report-view',
    'insurance-report-view',
    'track-remit-report-view',
    'settlement-report-view',
    'activity-log-report-view',
  ],
  // generating a settlement batch settles every provider's transactions: operations staff only, never
  // an IPG bank role (not among the groups an IPGBANK role may take, src/server/permissionOptions.ts)
  Settlement: ['settlement-report-generate'],
  Transaction: ['transaction-hold', 'transaction-retry', 'transaction-refund'],
  // sod-report-view: who can both make and approve, self-approvals and mutual approvals (src/domain/segregation.ts);
  // activity-log-verify: walk the activity log's hash chain (src/server/activityLogChain.ts)
  Controls: ['sod-report-view', 'activity-log-verify'],
} as const;

type Groups = typeof permissionGroups;
export type Permission = Groups[keyof Groups][number];

export const allPermissions: readonly Permission[] = Object.values(permissionGroups).flat() as Permission[];

export function isPermission(value: string): value is Permission {
  return (allPermissions as readonly string[]).includes(value);
}

/** True when the holder has the permission itself or the super permission. */
export function hasPermission(held: readonly string[] | undefined | null, wanted: Permission): boolean {
  if (!held) return false;
  return held.includes(SUPER_PERMISSION) || held.includes(wanted);
}

/** True when the holder has at least one of the permissions (or the super permission). */
export function hasAnyPermission(held: readonly string[] | undefined | null, wanted: readonly Permission[]): boolean {
  return wanted.some((p) => hasPermission(held, p));
}

export function isSuperUser(held: readonly string[] | undefined | null): boolean {
  return !!held && held.includes(SUPER_PERMISSION);
}

/** The auditor variant of the console: an auditor permission and no super permission. */
export function isAuditorOnly(held: readonly string[] | undefined | null): boolean {
  return !isSuperUser(held) && hasAnyPermission(held, ['auditor-dashboard-view', 'auditor-report-view']);
}

/** Permissions by area suffix, used by the demo roles (maker = view/create/edit, checker = view/approve). */
export function permissionsWhere(pred: (p: Permission) => boolean): Permission[] {
  return allPermissions.filter((p) => p !== SUPER_PERMISSION && pred(p));
}
