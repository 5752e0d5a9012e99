/**
 * The sign-in limiter per client address: at most ADDRESS_MAX_FAILURES failed sign-ins from one
 * address in a window of ADDRESS_WINDOW_MINUTES (the window starts at the address's first failure);
 * once they are used up, every sign-in from that address, right password or not, is answered 429
 * with Retry-After until the window ends. It complements the per-username lockout (10 failures,
 * 30 minutes): that one protects an account from guessing, this one stops one client from trying
 * many usernames (password spraying) and from locking accounts out wholesale.
 *
 * The counters live in the database (login_address_failures), like login_attempts, so every server
 * process counts against the same limit and a restart does not reset it.
 *
 * The address is Fastify's request.ip: the peer's address, unless TRUST_PROXY names the proxies whose
 * X-Forwarded-For may be believed (src/server/environment.ts). So a forged X-Forwarded-For neither
 * resets the count nor moves it to another address unless a trusted proxy added it.
 *
 * The limit is checked before the password and counted after it, so a burst of parallel failures
 * from one address may pass the limit by the number of attempts in flight (each username still gets
 * exactly its 10 checks); successful sign-ins never count, so many users behind one address can sign
 * in at once.
 */
import type { Db } from '../db/db';

export const ADDRESS_MAX_FAILURES = 50;
export const ADDRESS_WINDOW_MINUTES = 15;
const WINDOW_MS = ADDRESS_WINDOW_MINUTES * 60_000;

export const tooManySignIns = (retryAfterSeconds: number) =>
  `Too many failed sign-in attempts from your address. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute${retryAfterSeconds > 60 ? 's' : ''}.`;

/** When the address has used up its failures in the current window: the seconds until it ends. */
export async function addressRetryAfter(db: Db, address: string, now: Date): Promise<number | undefined> {
  const row = await db.one<{ failures: number; window_started_at: Date }>(
    'SELECT failures, window_started_at FROM login_address_failures WHERE address = $1',
    [address],
  );
  if (!row || row.failures < ADDRESS_MAX_FAILURES) return undefined;
  const left = row.window_started_at.getTime() + WINDOW_MS - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : undefined;
}

/** Counts one failed sign-in of the address (atomically); returns its number in the current window. */
export async function recordAddressFailure(db: Db, address: string, now: Date): Promise<number> {
  const expired = new Date(now.getTime() - WINDOW_MS);
  const row = await db.one<{ failures: number }>(
    `INSERT INTO login_address_failures AS a (address, failures, window_started_at) VALUES ($1, 1, $2)
     ON CONFLICT (address) DO UPDATE SET
       failures = CASE WHEN a.window_started_at <= $3 THEN 1 ELSE a.failures + 1 END,
       window_started_at = CASE WHEN a.window_started_at <= $3 THEN $2 ELSE a.window_started_at END
     RETURNING failures`,
    [address, now, expired],
  );
  const failures = row!.failures;
  // a new window: forget the addresses whose windows have ended, so the table stays small
  if (failures === 1) await db.query('DELETE FROM login_address_failures WHERE window_started_at <= $1', [expired]);
  return failures;
}
