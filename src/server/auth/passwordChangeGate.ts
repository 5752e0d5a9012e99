/**
 * The forced password change: an account whose password was set by someone else
 * (console_users.must_change_password = 1) signs in normally, but until its owner has chosen a new
 * password every call except these answers 403. The flag is read from the database with the user on
 * every call (loadSessionUser), so it holds from the moment it is set, whatever the token says.
 */
import { HttpError } from '../http/httpError';
import type { SessionUser } from './sessionUser';

export const MUST_CHANGE_PASSWORD = 'You must change your password before continuing';

/** The calls allowed while the password must be changed (lower case, as the API matches paths). */
const ALLOWED = new Set(['user/reset-password', 'auth/logout', 'auth/token', 'config']);

export function assertMayAct(user: SessionUser, path: string): void {
  if (user.mustChangePassword && !ALLOWED.has(path.toLowerCase())) throw new HttpError(403, MUST_CHANGE_PASSWORD);
}
