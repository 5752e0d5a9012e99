/**
 * Segregation of duties: in which areas a set of permissions can both make a change (request it) and
 * approve one. Read by the server's report (report/segregation-of-duties, permission sod-report-view)
 * and by codegen (generated/segregation-of-duties.md, for the roles as defined in the demo seed).
 *
 * The areas come from the permission catalogue: a group with a maker permission (…-create, …-edit,
 * user-password-reset) and an approve permission (…-approve) is an area. The large money actions are
 * areas of their own: the same permission makes and approves them (four eyes by person, not by
 * permission, when MONEY_ACTION_APPROVAL_ABOVE_USD is set), so every holder can do both.
 * The super permission holds every area's permissions.
 */
import { permissionGroups, SUPER_PERMISSION, type Permission } from './permissions';

export interface DutyArea {
  readonly area: string;
  readonly make: readonly Permission[];
  readonly approve: readonly Permission[];
}

const isMaker = (p: string) => /-(create|edit)$/.test(p) || p === 'user-password-reset';
const isApprover = (p: string) => /-approve$/.test(p);

export const dutyAreas: readonly DutyArea[] = [
  ...(Object.entries(permissionGroups) as [string, readonly Permission[]][])
    .map(([area, permissions]) => ({ area, make: permissions.filter(isMaker), approve: permissions.filter(isApprover) }))
    .filter((a) => a.make.length > 0 && a.approve.length > 0),
  { area: 'Void and refund above MONEY_ACTION_APPROVAL_ABOVE_USD', make: ['transaction-refund'], approve: ['transaction-refund'] },
  { area: 'Manual fund transfer above MONEY_ACTION_APPROVAL_ABOVE_USD', make: ['transaction-retry'], approve: ['transaction-retry'] },
];

export interface DutyConflict {
  readonly area: string;
  /** The permissions held that make, and that approve, in the area (the super permission when that is why). */
  readonly make: readonly string[];
  readonly approve: readonly string[];
}

/** The areas in which these permissions can both make and approve. */
export function dutyConflicts(held: readonly string[]): DutyConflict[] {
  if (held.includes(SUPER_PERMISSION)) return dutyAreas.map((a) => ({ area: a.area, make: [SUPER_PERMISSION], approve: [SUPER_PERMISSION] }));
  return dutyAreas
    .map((a) => ({ area: a.area, make: a.make.filter((p) => held.includes(p)), approve: a.approve.filter((p) => held.includes(p)) }))
    .filter((c) => c.make.length > 0 && c.approve.length > 0);
}

/** The default share above which two users approving each other's requests are reported. */
export const DEFAULT_MUTUAL_SHARE = 0.5;
/** The default window of decisions the mutual approvals are read from, in days. */
export const DEFAULT_SOD_DAYS = 90;
