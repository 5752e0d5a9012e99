/** The screen registry: every screen of the console. The router and the sidebar are built from it. */
import type { AnyScreen } from '../src/console/definitions';
import { auditDashboardScreen, dashboardScreen, loginScreen, resetPasswordScreen } from './session';
import { userCreateScreen, userEditScreen, usersScreen } from './users';
import { roleCreateScreen, roleEditScreen, rolesScreen } from './roles';

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
];
