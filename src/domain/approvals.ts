/**
 * The maker-checker areas as the workbench sees them: each change-request type, the
 * permission that decides it and the permissions that make its requests. Shared by the server (the
 * inbox is filtered by the approve permissions) and the console (who sees the Approvals and My
 * requests menu entries).
 */
import { hasPermission, type Permission } from './permissions';

/**
 * A server setting the console learns from `config` (src/api/config.ts) that turns parts of it on:
 * `moneyActionApproval`, MONEY_ACTION_APPROVAL_ABOVE_USD is set (large money actions need a second person).
 */
export type ServerSetting = 'moneyActionApproval';
export type ServerSettings = Readonly<Record<ServerSetting, boolean>>;
/** Every setting off: what holds until the server has said (and the specification's behaviour). */
export const SETTINGS_OFF: ServerSettings = { moneyActionApproval: false };

export interface ChangeRequestArea {
  /** The change request's type, as stored and shown ('User', 'Role', ...). */
  readonly type: string;
  /**
   * Decided by a holder of any of these (a super user decides every area). An area may narrow it per
   * request: a large money action is decided by the action's own permission.
   */
  readonly approve: readonly Permission[];
  readonly make: readonly Permission[];
  /**
   * The area's requests are only made while this setting is on; the console offers the area's menu
   * entries to its permissions only then. Requests made while it was on stay decidable and withdrawable.
   */
  readonly setting?: ServerSetting;
}

/** The large money actions' permissions: each makes and (by another person) approves its own action (src/server/moneyApprovals.ts). */
export const moneyActionPermissions: readonly Permission[] = ['transaction-refund', 'transaction-retry'];

export const changeRequestAreas: readonly ChangeRequestArea[] = [
  { type: 'User', approve: ['user-approve'], make: ['user-create', 'user-edit', 'user-password-reset'] },
  { type: 'Role', approve: ['role-approve'], make: ['role-create', 'role-edit'] },
  { type: 'Bank', approve: ['bank-approve'], make: ['bank-create', 'bank-edit'] },
  { type: 'Advertisement', approve: ['advertisement-approve'], make: ['advertisement-create', 'advertisement-edit'] },
  { type: 'IPG Provider', approve: ['ipg-provider-approve'], make: ['ipg-provider-edit'] },
  { type: 'IPG Provider Currency', approve: ['ipg-currency-approve'], make: ['ipg-currency-edit'] },
  { type: 'App User', approve: ['app-user-approve'], make: ['app-user-edit'] },
  { type: 'App Version', approve: ['app-version-approve'], make: ['app-version-create'] },
  /** A void, refund or manual fund transfer above MONEY_ACTION_APPROVAL_ABOVE_USD: transaction-refund decides voids and refunds, transaction-retry manual fund transfers. */
  { type: 'Transaction', approve: moneyActionPermissions, make: moneyActionPermissions, setting: 'moneyActionApproval' },
];

const unique = (list: readonly Permission[]): readonly Permission[] => Array.from(new Set(list));

/** Every permission that decides change requests in some area (the API's access: requests made while a setting was on stay decidable). */
export const approvePermissions: readonly Permission[] = unique(changeRequestAreas.flatMap((a) => a.approve));
/** Every permission that makes change requests in some area. */
export const makePermissions: readonly Permission[] = unique(changeRequestAreas.flatMap((a) => a.make));
/** The approve and make permissions of the areas that need no setting: what opens the console's Approvals and My requests whatever the settings. */
export const approvePermissionsAlways: readonly Permission[] = unique(changeRequestAreas.filter((a) => !a.setting).flatMap((a) => a.approve));
export const makePermissionsAlways: readonly Permission[] = unique(changeRequestAreas.filter((a) => !a.setting).flatMap((a) => a.make));

/** The areas whose requests these permissions may decide. */
export function areasDecidableBy(permissions: readonly string[]): ChangeRequestArea[] {
  return changeRequestAreas.filter((a) => a.approve.some((p) => hasPermission(permissions, p)));
}

/**
 * The types whose pending requests count against the per-maker limit apart from the others: the
 * setting-gated areas (the large money actions), so a maker's flood of record changes never stops
 * their money actions, nor the reverse.
 */
export const separatelyLimitedTypes: readonly string[] = changeRequestAreas.filter((a) => a.setting).map((a) => a.type);

/** How many pending requests one maker may have waiting, unless PENDING_REQUESTS_PER_MAKER says otherwise (and as many money-action requests). */
export const DEFAULT_PENDING_REQUESTS_PER_MAKER = 200;

/** How long a change request may stay pending before it expires, unless CHANGE_REQUEST_EXPIRY_DAYS says otherwise. */
export const DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS = 7;

/** The longest decision comment (a reject's reason). */
export const COMMENT_MAX = 200;
export const REASON_REQUIRED_MESSAGE = 'Please enter a reason for the rejection';
export const COMMENT_TOO_LONG_MESSAGE = `At most ${COMMENT_MAX} characters`;

/** Where a change request ended, or that it has not. */
export type ChangeRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'WITHDRAWN' | 'EXPIRED';
