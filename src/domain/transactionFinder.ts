/**
 * Find by trace, ID or UID: which transaction services a user may look a value up in. The
 * server narrows the lookup with this rule (src/server/areas/finder.ts) and the console uses it to
 * offer the top-bar search; an IPG bank user is further limited to their own provider's rows
 * (src/server/providerScope.ts), on the server.
 */
import { hasAnyPermission, type Permission } from './permissions';
import type { TransactionKind } from './transactionStatus';

/** The services a lookup covers, in the order results are grouped when they tie on time. */
export const findServices = ['ceft', 'bill', 'echannelling', 'thyaga', 'insurance'] as const satisfies readonly TransactionKind[];
export type FindService = (typeof findServices)[number];

/** How a service is named to the user. */
export const findServiceLabels: Record<FindService, string> = {
  ceft: 'Send Money',
  bill: 'Bill Payments',
  echannelling: 'E-Channelling',
  thyaga: 'Thyaga',
  insurance: 'Insurance',
};

/**
 * The permissions that let a user view a service's transactions: its report's view permission, or
 * (except insurance, which has no auditor screen) the auditor's report permission. The same
 * permissions open the service's list calls.
 */
export const findServicePermissions: Record<FindService, readonly Permission[]> = {
  ceft: ['send-money-report-view', 'auditor-report-view'],
  bill: ['bill-payment-report-view', 'auditor-report-view'],
  echannelling: ['echannelling-report-view', 'auditor-report-view'],
  thyaga: ['thyaga-report-view', 'auditor-report-view'],
  insurance: ['insurance-report-view'],
};

/** Every permission that lets a user find anything (the call's access). */
export const anyFindPermission: readonly Permission[] = [...new Set(Object.values(findServicePermissions).flat())];

/** The services whose transactions this user may view (super-permission: all five). */
export function viewableFindServices(permissions: readonly string[]): FindService[] {
  return findServices.filter((s) => hasAnyPermission(permissions, findServicePermissions[s]));
}
