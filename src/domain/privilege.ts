/**
 * Privilege rules: nobody may borrow another account's privilege. An administrator acts on an
 * account (sets its password, gives it a role) only when that account can do nothing the
 * administrator cannot do already. The console calls these to show an action; the server calls the
 * same functions before acting, so the two cannot disagree.
 */
import { allPermissions, isSuperUser, SUPER_PERMISSION } from './permissions';

/** Who acts or is acted on: a username and the permissions of the account's role. */
export interface Principal {
  readonly username: string;
  readonly permissions: readonly string[];
}

/**
 * The permissions of `wanted` that `held` does not hold, in catalogue order. A super user holds
 * every permission; `super-permission` itself is held only by a super user.
 */
export function permissionsNotHeld(held: readonly string[], wanted: readonly string[]): string[] {
  if (isSuperUser(held)) return [];
  const missing = new Set(wanted.filter((p) => !held.includes(p)));
  const ordered = (allPermissions as readonly string[]).filter((p) => missing.has(p));
  return [...ordered, ...[...missing].filter((p) => !ordered.includes(p))];
}

/**
 * A privileged account: it can approve somebody's change (any `*-approve`), reset passwords or is a
 * super user. Taking over such an account lets one person act as two, so its password is reset only
 * with a second person's approval.
 */
export function isPrivileged(permissions: readonly string[]): boolean {
  return permissions.some((p) => p === SUPER_PERMISSION || p === 'user-password-reset' || p.endsWith('-approve'));
}

/**
 * Why `actor` may not set `target`'s password through Change Password, or null when it may. Refused:
 * one's own password (that is Reset Password, with the old one), a super user's (recovered with the
 * create-admin command on the server), and an account holding any permission the actor lacks.
 */
export function passwordResetRefusal({ actor, target }: { actor: Principal; target: Principal }): string | null {
  if (actor.username.toLowerCase() === target.username.toLowerCase()) {
    return 'You cannot change your own password here: use Reset Password with your old password';
  }
  if (isSuperUser(target.permissions)) return `The password of the super user "${target.username}" cannot be changed by another user`;
  const missing = permissionsNotHeld(actor.permissions, target.permissions);
  if (missing.length > 0) {
    return `You cannot change the password of "${target.username}": they hold permissions you do not hold (${missing.join(', ')})`;
  }
  return null;
}

/** True when `actor` may set `target`'s password (see passwordResetRefusal). */
export function canResetPasswordOf(ctx: { actor: Principal; target: Principal }): boolean {
  return passwordResetRefusal(ctx) === null;
}

/** Change Password on a users-list row: the row is open for a change and the caller may reset its password (no more permissions than the caller's, not a super user, not oneself). */
export function canChangePasswordOnRow({ row, user }: { row: { username: string; permissions: readonly string[]; locked?: number | null }; user: Principal }): boolean {
  return !row.locked && canResetPasswordOf({ actor: user, target: row });
}

/**
 * Why `maker` may not edit `target`, or null when they may: the account's role holds permissions the
 * maker does not hold (a super user's always does, for anyone but a super user). Else a maker could
 * rename a checker's account or change its e-mail and contact number to their own.
 */
export function userEditRefusal(maker: Principal, target: Principal): string | null {
  return grantRefusal(maker, target.permissions, `You cannot edit the user "${target.username}": their role holds permissions you do not hold`);
}

/** Edit on a users-list row: the row is open for a change and its role holds no permission the caller lacks (userEditRefusal). */
export function canEditUserOnRow({ row, user }: { row: { username: string; permissions: readonly string[]; locked?: number | null }; user: Principal }): boolean {
  return !row.locked && userEditRefusal(user, row) === null;
}

/** A users-list row whose sign-in is locked after too many failed attempts, open for a change. */
export function canUnlockSignInOnRow({ row }: { row: { signin_locked: number; locked?: number | null } }): boolean {
  return row.signin_locked === 1 && !row.locked;
}

/**
 * `refusal` followed by the permissions it is about when `maker` may not request a role (or give a
 * user a role) with `permissions`, or null when it may: a maker grants only permissions they hold
 * themselves, so `super-permission` only a super user.
 */
export function grantRefusal(maker: Principal, permissions: readonly string[], refusal: string): string | null {
  const missing = permissionsNotHeld(maker.permissions, permissions);
  return missing.length === 0 ? null : `${refusal}: ${missing.join(', ')}`;
}
