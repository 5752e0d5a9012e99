/**
 * The one status vocabulary of a record with a `disabled` flag (0 active, 1 not): the words the
 * console and the server show for it, as the specification has them (so nothing a user sees changes):
 * - 'Inactive': the banks, advertisements, IPG providers and app users lists (spec 002 "status
 *   (Active/Inactive)") and an item list's status column in the approval modal (a provider's currency
 *   rates, spec 000 and 002: "disabled 0 = Active, else Inactive");
 * - 'Not Active': the forms' Status radio (spec 002 "Active = 0, Not Active = 1"), a change request's
 *   record, and the users and roles lists (spec 000 "user and role status: active (0) or not active (1)").
 * An app user on hold but active is 'On Hold'.
 */

/** The word for an active record. */
export const ACTIVE = 'Active';
/** A disabled record in the master-data lists and an item list's status column. */
export const INACTIVE = 'Inactive';
/** A disabled record on a form's Status radio, in a change request's record and in the users and roles lists. */
export const NOT_ACTIVE = 'Not Active';
/** An active app user on hold. */
export const ON_HOLD = 'On Hold';

/** The master-data lists' status text of a `disabled` flag: Active or Inactive. */
export function listStatusText(disabled: number): string {
  return disabled === 0 ? ACTIVE : INACTIVE;
}

/** The form's status text of a `disabled` flag (what a change request's record and the users and roles lists show). */
export function formStatusText(disabled: number): string {
  return disabled === 0 ? ACTIVE : NOT_ACTIVE;
}

/** An app user's status: Inactive, else On Hold (active but held), else Active. */
export function appUserStatusText(disabled: number, hold: number): string {
  if (disabled !== 0) return INACTIVE;
  return hold !== 0 ? ON_HOLD : ACTIVE;
}

/** The options of a form's Status radio: Active (0), Not Active (1). */
export const statusOptions: readonly { readonly value: 0 | 1; readonly label: string }[] = [
  { value: 0, label: ACTIVE },
  { value: 1, label: NOT_ACTIVE },
];
