/**
 * Sign-in, token refresh and sign-out. A password attempt (a sign-in, or the old password of
 * user/reset-password) waits for its client address's turn (two attempts of one address at once,
 * src/server/app.ts), then passes, in order: the limiter of its client address (429 with Retry-After,
 * src/server/auth/addressLimiter.ts), the lockout of its username from that address and the
 * username's back-off (counted before the password is checked, src/server/auth/loginAttempts.ts),
 * then the password, hashed in the fair queue of the app (src/server/auth/fairQueue.ts). Every
 * outcome is in the activity log with the address; a failure answers the same whether the username
 * exists or not, and a lock answers the same for a known and an unknown username. Failures never end
 * the owner's sessions: they are told about them at their next sign-in instead.
 */
import { login, logout, refreshToken } from '../../api/auth';
import { ADDRESS_MAX_FAILURES, ADDRESS_WINDOW_MINUTES, knownRefusal, releaseAddressAttempt, reserveAddressAttempt, tooManySignIns } from '../auth/addressLimiter';
import { attemptSucceeded, beginAttempt, LOCKOUT_MINUTES, MAX_FAILURES, noteFailureForOwner, takeFailureNotice } from '../auth/loginAttempts';
import { endSession, refreshSession, startSession } from '../auth/sessions';
import { loadSessionUser } from '../auth/sessionUser';
import { handle, handlePublic, type Ctx, type PublicCtx } from '../http/handle';
import { HttpError, unauthorized } from '../http/httpError';
import type { SigninFailureReason } from '../observability/recorder';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const ACCOUNT_LOCKED = 'Account locked after too many failed attempts. Try again later.';
export const accountBackoff = (retryAfterSeconds: number) => `Too many failed sign-in attempts on this account. Try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}.`;

interface Credentials {
  id: number;
  username: string;
  disabled: number;
  password_hash: string;
  session_version: number;
  must_change_password: number;
}

export interface PasswordAttemptOptions {
  /** What is attempted, for the activity log: a sign-in or the old password of a password reset. */
  kind: 'sign-in' | 'password reset';
  /** The status of a refusal because the username is locked from this address (401 for a sign-in). */
  lockedStatus: number;
}

/**
 * One guarded password attempt of `username` from the caller's address: refusals (address used up,
 * username locked from here, back-off) are thrown; otherwise `check` runs (it hashes) and its answer
 * is counted. `locking`: this wrong password has just locked the username from this address.
 */
export async function passwordAttempt(
  ctx: PublicCtx | Ctx,
  username: string,
  check: (attempt: { known: boolean }) => Promise<boolean>,
  options: PasswordAttemptOptions,
): Promise<{ ok: true } | { ok: false; locking: boolean }> {
  // request.ip; with a trusted hop count it is whatever the nearest hops forwarded, so keep it short
  const from = ctx.client.address.slice(0, 64);
  const what = options.kind === 'sign-in' ? 'Sign-in' : 'Password reset';
  // the metrics count the sign-ins that did not sign in (a password reset's wrong old password is not a sign-in)
  const failed = (reason: SigninFailureReason) => {
    if (options.kind === 'sign-in') ctx.metrics.signinFailure(reason);
  };
  // All of it in this address's turn (src/server/app.ts, ATTEMPTS_PER_ADDRESS at once): a burst from
  // one address reaches the database and the hashing a few attempts at a time, so its queries do not
  // queue ahead of everyone else's calls; every other address has turns of its own.
  // (the account too: its attempts in progress tell a burst of its sign-ins from a person's, for the hashing's priority)
  const inTurn = ctx.auth.inAddressTurn ? <T>(job: () => Promise<T>) => ctx.auth.inAddressTurn!(job, username) : <T>(job: () => Promise<T>) => job();
  // an address this process has already refused for its window: answered at once, before its turn
  const refusedFor = knownRefusal(ctx.db, from, ctx.clock());
  if (refusedFor !== undefined) {
    failed('throttled');
    ctx.client.setHeader('retry-after', String(refusedFor));
    throw new HttpError(429, tooManySignIns(refusedFor));
  }
  return inTurn(async (): Promise<{ ok: true } | { ok: false; locking: boolean }> => {
    // its own time: it may have waited its turn
    const now = ctx.clock();
    const reservation = await reserveAddressAttempt(ctx.db, from, now);
    if (reservation.retryAfterSeconds !== undefined) {
      if (reservation.number === ADDRESS_MAX_FAILURES + 1) {
        await ctx.log({
          level: 'WARN',
          type: 'SIGN_IN_THROTTLED',
          username,
          description: `Sign-in from ${from} refused for the rest of its ${ADDRESS_WINDOW_MINUTES}-minute window after ${ADDRESS_MAX_FAILURES} failed attempts`,
        });
      }
      failed('throttled');
      ctx.client.setHeader('retry-after', String(reservation.retryAfterSeconds));
      throw new HttpError(429, tooManySignIns(reservation.retryAfterSeconds));
    }

    const attempt = await beginAttempt(ctx.db, username, from, now);
    if (attempt.kind === 'locked') {
      await ctx.log({ level: 'WARN', type: 'LOGIN_REFUSED', username, description: `${what} from ${from} refused: the account is locked for that address` });
      await noteFailureForOwner(ctx.db, username, now);
      failed('locked');
      throw new HttpError(options.lockedStatus, ACCOUNT_LOCKED);
    }
    if (attempt.kind === 'backoff') {
      await ctx.log({
        level: 'WARN',
        type: 'LOGIN_REFUSED',
        username,
        description: `${what} from ${from} refused: after ${MAX_FAILURES} failed attempts the account allows one password check per back-off (next in ${attempt.retryAfterSeconds} s)`,
      });
      await noteFailureForOwner(ctx.db, username, now);
      failed('backoff');
      ctx.client.setHeader('retry-after', String(attempt.retryAfterSeconds));
      throw new HttpError(429, accountBackoff(attempt.retryAfterSeconds));
    }

    if (!(await check({ known: attempt.known }))) {
      await ctx.log({
        level: 'WARN',
        type: options.kind === 'sign-in' ? 'LOGIN_FAILED' : 'PASSWORD_RESET_FAILED',
        username,
        description: `${options.kind === 'sign-in' ? 'Failed sign-in attempt' : 'Password reset refused: the old password was wrong'} (${attempt.number} of ${MAX_FAILURES}) from ${from}`,
      });
      await noteFailureForOwner(ctx.db, username, now);
      failed('password');
      if (attempt.locking) {
        ctx.metrics.lockout();
        await ctx.log({
          level: 'WARN',
          type: 'ACCOUNT_LOCKED',
          username,
          description: `Locked for ${LOCKOUT_MINUTES} minutes for attempts from ${from} after ${MAX_FAILURES} failed attempts from there; its sessions go on`,
        });
      }
      return { ok: false, locking: attempt.locking };
    }
    await attemptSucceeded(ctx.db, username, from, now);
    await releaseAddressAttempt(ctx.db, reservation);
    return { ok: true };
  });
}

export const authHandlers = [
  handlePublic(login, async (ctx, { username, password }) => {
    let user: Credentials | undefined;
    const outcome = await passwordAttempt(
      ctx,
      username,
      async ({ known }) => {
        user = await ctx.db.one<Credentials>('SELECT id, username, disabled, password_hash, session_version, must_change_password FROM console_users WHERE lower(username) = lower($1)', [username]);
        // An unknown user costs one verification too, and every failure answers alike.
        // a known address's check goes ahead of a flood from elsewhere (src/server/auth/fairQueue.ts)
        // one hash of one account at a time, however many of its sign-ins arrive at once (from however many addresses)
        const passwordOk = user
          ? await ctx.auth.verifyPassword(password, user.password_hash, { first: known, account: username })
          : (await ctx.auth.verifyNothing(password, { account: username }), false);
        return passwordOk && user!.disabled === 0;
      },
      { kind: 'sign-in', lockedStatus: 401 },
    );
    if (!outcome.ok) throw new HttpError(401, outcome.locking ? ACCOUNT_LOCKED : INVALID_CREDENTIALS);
    const now = ctx.clock();
    const account = user!;
    const session = await loadSessionUser(ctx.db, account.id, account.session_version);
    if (!session) {
      ctx.metrics.signinFailure('password');
      throw new HttpError(401, INVALID_CREDENTIALS);
    }
    const ref = await startSession(ctx.db, account.id, now, ctx.auth.sessionMaxHours);
    const notice = await takeFailureNotice(ctx.db, account.username);
    const from = ctx.client.address.slice(0, 64);
    await ctx.log({ type: 'LOGIN', username: account.username, description: `Signed in from ${from}` });
    const mustChangePassword = session.mustChangePassword;
    return {
      data: {
        token: await ctx.auth.issueToken({ ...session, ...ref }),
        ...(notice ? { failedSignIns: { count: notice.count, lastAt: notice.lastAt.toISOString() } } : {}),
        ...(mustChangePassword ? { mustChangePassword: true as const } : {}),
      },
    };
  }),

  handle(refreshToken, async (ctx) => {
    const ref = await refreshSession(ctx.db, ctx.user.sessionId!, ctx.user.tokenId!, ctx.clock());
    if (!ref) throw unauthorized();
    // the session's current token changed: stored data, so in the log (about three a user an hour)
    await ctx.log({ type: 'TOKEN_REFRESHED', description: 'Session token refreshed (the previous one stops working)' });
    return { data: { token: await ctx.auth.issueToken({ ...ctx.user, ...ref }) } };
  }),

  handle(logout, async (ctx) => {
    await endSession(ctx.db, ctx.user.sessionId!, ctx.clock());
    // what this process holds open under the session (the live-count streams) ends now
    ctx.auth.sessionSignals?.sessionEnded(ctx.user.sessionId!);
    await ctx.log({ type: 'LOGOUT', description: 'Signed out' });
    return { data: { message: 'Signed out' } };
  }),
];
