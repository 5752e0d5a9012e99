/** Route-table rules that a plain permission list cannot express (spec 000 §2). */
import { hasAnyPermission, isSuperUser, type Permission } from './permissions';

/** /dashboard: the user has neither auditor permission, or has super-permission. */
export function canSeeAppDashboard(permissions: readonly string[]): boolean {
  return isSuperUser(permissions) || !hasAnyPermission(permissions, ['auditor-dashboard-view', 'auditor-report-view']);
}

/** /AuditDashboard: auditor-dashboard-view or auditor-report-view, and not super-permission. */
export function canSeeAuditDashboard(permissions: readonly string[]): boolean {
  return !isSuperUser(permissions) && hasAnyPermission(permissions, ['auditor-dashboard-view', 'auditor-report-view']);
}

/** The auditor reports: auditor-report-view and not super-permission. */
export function canSeeAuditorReports(permissions: readonly string[]): boolean {
  return !isSuperUser(permissions) && hasAnyPermission(permissions, ['auditor-report-view']);
}

/** Any signed-in user. */
export function isSignedIn(_permissions: readonly string[]): boolean {
  return true;
}

/** The home screen after sign-in: the audit dashboard for auditors, else the app dashboard. */
export function homeRouteFor(permissions: readonly string[]): string {
  return canSeeAuditDashboard(permissions) ? '/AuditDashboard' : '/dashboard';
}

/**
 * The named rules a call contract may use as its access (`access: { rule: 'appDashboard' }`), for who
 * may call what when a permission list cannot say it. `text` is how the permission matrix and the
 * OpenAPI document describe the rule; `refusal` is the 403 message the server answers.
 */
export const accessRules = {
  appDashboard: {
    test: canSeeAppDashboard,
    text: 'a signed-in user without an auditor permission (auditor-dashboard-view, auditor-report-view), or holding super-permission',
    refusal: 'Forbidden: the app dashboard is for users without an auditor permission',
  },
  auditDashboard: {
    test: canSeeAuditDashboard,
    text: 'auditor-dashboard-view or auditor-report-view, and not super-permission',
    refusal: 'Forbidden: the audit dashboard is for auditors',
  },
  auditorReports: {
    test: canSeeAuditorReports,
    text: 'auditor-report-view, and not super-permission',
    refusal: 'Forbidden: the auditor reports are for auditors',
  },
} as const satisfies Record<string, { test: (permissions: readonly string[]) => boolean; text: string; refusal: string }>;

export type AccessRuleName = keyof typeof accessRules;

export function isAccessRuleName(name: unknown): name is AccessRuleName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(accessRules, name);
}

/**
 * Who may make a call:
 * - `public`: anyone (sign-in only);
 * - `authenticated`: any signed-in user;
 * - `{ anyOf: [...] }`: a signed-in user holding at least one of these permissions (or super-permission);
 * - `{ rule }`: a signed-in user the named rule of `accessRules` lets through.
 */
export type CallAccess = 'public' | 'authenticated' | { readonly anyOf: readonly Permission[] } | { readonly rule: AccessRuleName };

/**
 * The server's access decision for a signed-in user holding `permissions` (src/server/http/api.ts asks
 * it before reading the body; 403 when false). The permission matrix renders its answers, so the
 * document and the server cannot disagree.
 */
export function mayCall(access: CallAccess, permissions: readonly string[]): boolean {
  if (access === 'public' || access === 'authenticated') return true;
  if ('rule' in access) return accessRules[access.rule].test(permissions);
  return hasAnyPermission(permissions, access.anyOf);
}

/** The 403 message when `mayCall` says no. */
export function refusalOf(access: CallAccess): string {
  if (typeof access === 'object' && 'rule' in access) return accessRules[access.rule].refusal;
  if (typeof access === 'object') return `Forbidden: needs one of ${access.anyOf.join(', ')}`;
  return 'Forbidden';
}

/** One line saying who may make a call (matrix, OpenAPI). */
export function describeAccess(access: CallAccess): string {
  if (access === 'public') return 'public (no sign-in)';
  if (access === 'authenticated') return 'any signed-in user';
  if ('rule' in access) return `rule ${access.rule}: ${accessRules[access.rule].text}`;
  return `any of ${access.anyOf.join(', ')} (or super-permission)`;
}
