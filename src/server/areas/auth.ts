/**
 * Sign-in, token refresh and sign-out. A sign-in passes, in order: the limiter of its client address
 * (429 with Retry-After, src/server/auth/addressLimiter.ts), the lockout of its username (counted
 * before the password is checked, src/server/auth/loginAttempts.ts), then the password. Every
 * outcome is in the activity log with the address; a failure answers the same whether the username
 * exists or not, and a lock answers the same for a known and an unknown username.
 */
import { login, logout, refreshToken } from '../../api/auth';
import { ADDRESS_MAX_FAILURES, ADDRESS_WINDOW_MINUTES, addressRetryAfter, recordAddressFailure, tooManySignIns } from '../auth/addressLimiter';
import { beginAttempt, clearFailures, LOCKOUT_MINUTES, MAX_FAILURES } from '../auth/loginAttempts';
import { loadSessionUser, revokeSessions } from '../auth/sessionUser';
import { handle, handlePublic, type PublicCtx } from '../http/handle';
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

/** Counts a failed sign-in against the client address; the one that uses up its allowance is logged. */
async function addressFailed(ctx: PublicCtx, from: string, username: string, now: Date): Promise<void> {
  const failures = await recordAddressFailure(ctx.db, from, now);
  if (failures === ADDRESS_MAX_FAILURES) {
    await ctx.log({
      level: 'WARN',
      type: 'SIGN_IN_THROTTLED',
      username,
      description: `Sign-in from ${from} refused for the rest of its ${ADDRESS_WINDOW_MINUTES}-minute window after ${ADDRESS_MAX_FAILURES} failed attempts`,
    });
  }
}

export const authHandlers = [
  handlePublic(login, async (ctx, { username, password }) => {
    const now = ctx.clock();
    // request.ip; with a trusted hop count it is whatever the nearest hops forwarded, so keep it short
    const from = ctx.client.address.slice(0, 64);
    const retryAfter = await addressRetryAfter(ctx.db, from, now);
    if (retryAfter !== undefined) {
      ctx.client.setHeader('retry-after', String(retryAfter));
      throw new HttpError(429, tooManySignIns(retryAfter));
    }

    const attempt = await beginAttempt(ctx.db, username, now);
    if (attempt.refused) {
      await ctx.log({ level: 'WARN', type: 'LOGIN_REFUSED', username, description: `Sign-in from ${from} refused: the account is locked` });
      await addressFailed(ctx, from, username, now);
      throw new HttpError(401, ACCOUNT_LOCKED);
    }
    const user = await ctx.db.one<Credentials>(
      'SELECT id, username, disabled, password_hash, session_version FROM console_users WHERE lower(username) = lower($1)',
      [username],
    );
    // An unknown user costs one verification too, and every failure answers alike.
    const passwordOk = user ? await ctx.auth.verifyPassword(password, user.password_hash) : (await ctx.auth.verifyNothing(password), false);
    if (!user || !passwordOk || user.disabled !== 0) {
      await ctx.log({
        level: 'WARN',
        type: 'LOGIN_FAILED',
        username,
        description: `Failed sign-in attempt (${attempt.number} of ${MAX_FAILURES}) from ${from}`,
      });
      await addressFailed(ctx, from, username, now);
      if (attempt.locking) {
        if (user) await revokeSessions(ctx.db, user.id);
        await ctx.log({
          level: 'WARN',
          type: 'ACCOUNT_LOCKED',
          username,
          description: `Locked for ${LOCKOUT_MINUTES} minutes after ${MAX_FAILURES} failed sign-in attempts; its tokens were revoked`,
        });
        throw new HttpError(401, ACCOUNT_LOCKED);
      }
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    await clearFailures(ctx.db, username);
    const session = await loadSessionUser(ctx.db, user.id, user.session_version);
    if (!session) throw new HttpError(401, INVALID_CREDENTIALS);
    await ctx.log({ type: 'LOGIN', username: user.username, description: `Signed in from ${from}` });
    return { data: { token: await ctx.auth.issueToken(session) } };
  }),

  handle(refreshToken, async (ctx) => ({ data: { token: await ctx.auth.issueToken(ctx.user) } })),

  handle(logout, async (ctx) => {
    await revokeSessions(ctx.db, ctx.user.id);
    await ctx.log({ type: 'LOGOUT', description: 'Signed out' });
    return { data: { message: 'Signed out' } };
  }),
];
