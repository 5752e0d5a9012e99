/** Route-table rules that a plain permission list cannot express (spec 000 §2). */
import { hasAnyPermission, isSuperUser } from './permissions';

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
