/** The screen registry: every screen of the console. The router and the sidebar are built from it. */
import type { AnyScreen } from '../src/definitions/definitions';
import { auditDashboardScreen, dashboardScreen, loginScreen, resetPasswordScreen } from './session';
import { userCreateScreen, userEditScreen, usersScreen } from './users';
import { roleCreateScreen, roleEditScreen, rolesScreen } from './roles';
import { transactionScreens } from './transactions';
import { kycScreen } from './kyc';
import { activityLogsScreen, userActivityLogsScreen } from './activityLogs';
import { instantSettlementScreen, settlementScreen } from './settlement';
import { masterDataScreens } from './masterData';
import { approvalsScreen, myRequestsScreen } from './approvals';
import { moneyApprovalsScreen } from './moneyApprovals';
import { segregationScreen } from './segregation';

export const screens: readonly AnyScreen[] = [
  loginScreen,
  resetPasswordScreen,
  dashboardScreen,
  auditDashboardScreen,
  usersScreen,
  userCreateScreen,
  userEditScreen,
  rolesScreen,
  roleCreateScreen,
  roleEditScreen,
  ...transactionScreens,
  kycScreen,
  activityLogsScreen,
  userActivityLogsScreen,
  settlementScreen,
  instantSettlementScreen,
  ...masterDataScreens,
  approvalsScreen,
  myRequestsScreen,
  moneyApprovalsScreen,
  segregationScreen,
];
