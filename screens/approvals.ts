/**
 * The checker's workbench and the maker's side of maker-checker: the approvals inbox
 * (every pending request the user may decide, across areas, the large money actions waiting for a
 * second person among them; its menu entry carries the live count per area) and My requests (the user's own requests and their outcome, with Withdraw). Hand-written
 * components (Approvals, MyRequests) on the runtime's approval modal.
 */
import type { CustomScreen } from '../src/definitions/definitions';
import { approvalCounts } from '../src/api/approvals';
import { approvePermissionsAlways, makePermissionsAlways, moneyActionPermissions } from '../src/domain/approvals';

export const approvalsScreen: CustomScreen = {
  kind: 'custom',
  id: 'approvals',
  route: '/approvals',
  title: 'Approvals',
  breadcrumb: [{ label: 'Approvals' }],
  component: 'Approvals',
  // the large money actions' permissions decide (and make) requests only while MONEY_ACTION_APPROVAL_ABOVE_USD is set
  access: { anyOf: approvePermissionsAlways, withSetting: { setting: 'moneyActionApproval', anyOf: moneyActionPermissions } },
  menu: { section: 'Main', label: 'Approvals', order: 2, counts: approvalCounts },
};

export const myRequestsScreen: CustomScreen = {
  kind: 'custom',
  id: 'myRequests',
  route: '/my-requests',
  title: 'My requests',
  breadcrumb: [{ label: 'My requests' }],
  component: 'MyRequests',
  access: { anyOf: makePermissionsAlways, withSetting: { setting: 'moneyActionApproval', anyOf: moneyActionPermissions } },
  menu: { section: 'Main', label: 'My requests', order: 3 },
};
