/**
 * The one status vocabulary of a record with a `disabled` flag (0 active, 1 not): the words the
 * console and the server show for it. The lists and the approval comparison say 'Inactive'; the
 * forms' Status radio and the change requests' records say 'Not Active' (both as the specification
 * has them, so nothing a user sees changes); both come from here.
 */

/** The word for an active record. */
export const ACTIVE = 'Active';
/** A disabled record in a list's Status column and the approval comparison. */
export const INACTIVE = 'Inactive';
/** A disabled record on a form's Status radio and in a change request's record. */
export const NOT_ACTIVE = 'Not Active';

/** The list's status text of a `disabled` flag. */
export function listStatusText(disabled: number): string {
  return disabled === 0 ? ACTIVE : INACTIVE;
}

/** The form's status text of a `disabled` flag (what a change request's record shows). */
export function formStatusText(disabled: number): string {
  return disabled === 0 ? ACTIVE : NOT_ACTIVE;
}

/** The options of a form's Status radio: Active (0), Not Active (1). */
export const statusOptions: readonly { readonly value: 0 | 1; readonly label: string }[] = [
  { value: 0, label: ACTIVE },
  { value: 1, label: NOT_ACTIVE },
];
