/**
 * Row guards: named predicates deciding whether an action applies to a row. The console calls them
 * to show a button; the server calls the same function before acting.
 */

/** A record with a pending change request (locked not 0) cannot be edited. */
export function isLocked(row: { locked?: number | boolean | null }): boolean {
  return !!row.locked && row.locked !== 0;
}

/** The row is open for a new change (edit, password change, activate/deactivate). */
export function isUnlocked({ row }: { row: { locked?: number | boolean | null } }): boolean {
  return !isLocked(row);
}
