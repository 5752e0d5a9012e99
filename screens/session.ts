/** Sign-in, reset password and the two dashboards (spec 000 §2). */
import type { CustomScreen } from '../src/definitions/definitions';
import { canSeeAppDashboard, canSeeAuditDashboard, isSignedIn } from '../src/domain/access';

export const loginScreen: CustomScreen = { kind: 'custom', id: 'login', route: '/login', title: 'Login', component: 'Login', bare: true, access: { rule: () => true, permissions: [] } };

export const resetPasswordScreen: CustomScreen = {
  kind: 'custom',
  id: 'resetPassword',
  route: '/resetPassword',
  title: 'Reset Password',
  component: 'ResetPassword',
  access: { rule: isSignedIn, permissions: [] },
};

export const dashboardScreen: CustomScreen = {
  kind: 'custom',
  id: 'dashboard',
  route: '/dashboard',
  title: 'Dashboard',
  component: 'Dashboard',
  access: { rule: canSeeAppDashboard, permissions: [] },
  menu: { section: 'Main', label: 'Dashboard', order: 1 },
};

export const auditDashboardScreen: CustomScreen = {
  kind: 'custom',
  id: 'auditDashboard',
  route: '/AuditDashboard',
  title: 'Audit Dashboard',
  component: 'AuditDashboard',
  access: { rule: canSeeAuditDashboard, permissions: ['auditor-dashboard-view', 'auditor-report-view'] },
  menu: { section: 'Main', label: 'Dashboard', order: 1 },
};
