/** Sign-in, token refresh and sign-out. */
import { login, logout, refreshToken } from '../../api/auth';
import { clearFailures, LOCKOUT_MINUTES, lockedUntil, MAX_FAILURES, recordFailure } from '../auth/loginAttempts';
import { loadSessionUser, revokeSessions } from '../auth/sessionUser';
import { handle, handlePublic } from '../http/handle';
import { HttpError } from '../http/httpError';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const ACCOUNT_LOCKED = 'Account locked after too many failed attempts. Try again later.';

interface Credentials {
  id: number;
  username: string;
  disabled: number;
  password_hash: string;
  session_version: number;
}

export const authHandlers = [
  handlePublic(login, async (ctx, { username, password }) => {
    const now = ctx.clock();
    if (await lockedUntil(ctx.db, username, now)) {
      await ctx.log({ level: 'WARN', type: 'LOGIN_REFUSED', username, description: 'Sign-in refused: the account is locked' });
      throw new HttpError(401, ACCOUNT_LOCKED);
    }
    const user = await ctx.db.one<Credentials>(
      'SELECT id, username, disabled, password_hash, session_version FROM console_users WHERE lower(username) = lower($1)',
      [username],
    );
    // An unknown user costs one verification too, and every failure answers alike.
    const passwordOk = user ? await ctx.auth.verifyPassword(password, user.password_hash) : (await ctx.auth.verifyNothing(password), false);
    if (!user || !passwordOk || user.disabled !== 0) {
      const { failures, lockedNow } = await recordFailure(ctx.db, username, now);
      await ctx.log({ level: 'WARN', type: 'LOGIN_FAILED', username, description: `Failed sign-in attempt (${failures} of ${MAX_FAILURES})` });
      if (lockedNow) {
        if (user) await revokeSessions(ctx.db, user.id);
        await ctx.log({
          level: 'WARN',
          type: 'ACCOUNT_LOCKED',
          username,
          description: `Locked for ${LOCKOUT_MINUTES} minutes after ${MAX_FAILURES} failed sign-in attempts`,
        });
        throw new HttpError(401, ACCOUNT_LOCKED);
      }
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    await clearFailures(ctx.db, username);
    const session = await loadSessionUser(ctx.db, user.id, user.session_version);
    if (!session) throw new HttpError(401, INVALID_CREDENTIALS);
    await ctx.log({ type: 'LOGIN', username: user.username, description: 'Signed in' });
    return { data: { token: await ctx.auth.issueToken(session) } };
  }),

  handle(refreshToken, async (ctx) => ({ data: { token: await ctx.auth.issueToken(ctx.user) } })),

  handle(logout, async (ctx) => {
    await revokeSessions(ctx.db, ctx.user.id);
    await ctx.log({ type: 'LOGOUT', description: 'Signed out' });
    return { data: { message: 'Signed out' } };
  }),
];
