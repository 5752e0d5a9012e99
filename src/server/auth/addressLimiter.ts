/**
 * The sign-in limiter per client address: at most ADDRESS_MAX_FAILURES failed sign-ins from one
 * address in a window of ADDRESS_WINDOW_MINUTES (the window starts at the address's first counted
 * attempt); once they are used up, every sign-in from that address, right password or not, is
 * answered 429 with Retry-After until the window ends. It complements the lockout per username
 * (src/server/auth/loginAttempts.ts): that one protects an account from guessing, this one stops one
 * client from trying many usernames (password spraying) and from locking accounts out wholesale.
 *
 * The counters live in the database (login_address_failures), like login_attempts, so every server
 * process counts against the same limit and a restart does not reset it.
 *
 * The address is Fastify's request.ip: the peer's address, unless TRUST_PROXY names the proxies whose
 * X-Forwarded-For may be believed (src/server/environment.ts). So a forged X-Forwarded-For neither
 * resets the count nor moves it to another address unless a trusted proxy added it.
 *
 * An attempt reserves its place before anything else is done (one atomic upsert), as a failure, and a
 * successful sign-in gives its reservation back. So a burst of parallel attempts from one address gets
 * exactly ADDRESS_MAX_FAILURES password checks, however many arrive at once; the rest are refused
 * before a hash is computed. Successes do not use up the allowance, so many users behind one address
 * can sign in at once (while the allowance is not used up by failures).
 */
import type { Db } from '../db/db';

export const ADDRESS_MAX_FAILURES = 50;
export const ADDRESS_WINDOW_MINUTES = 15;
const WINDOW_MS = ADDRESS_WINDOW_MINUTES * 60_000;

export const tooManySignIns = (retryAfterSeconds: number) =>
  `Too many failed sign-in attempts from your address. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute${retryAfterSeconds > 60 ? 's' : ''}.`;

/** One attempt's place in its address's window. */
export interface AddressReservation {
  readonly address: string;
  /** Its number in the window: above ADDRESS_MAX_FAILURES it is refused. */
  readonly number: number;
  readonly windowStartedAt: Date;
  /** When refused: the seconds until the window ends. */
  readonly retryAfterSeconds?: number;
}

/**
 * The addresses this process has seen refused, with the end of their window (ms), per database. A
 * refusal holds until its window ends: the count only grows (a success gives back one place, but
 * once past ADDRESS_MAX_FAILURES no attempt of the address gets as far as a success), so a flood's
 * attempts after the first refusal are answered from memory, without a query or a wait for the
 * address's turn. Another process learns of the refusal at its own first attempt from the address.
 */
const refusals = new WeakMap<Db, Map<string, number>>();
/** At most this many refused addresses remembered per database (the ended windows go first). */
const MAX_REMEMBERED = 10_000;

/** The seconds until `address` may try again, when this process already knows it is refused. */
export function knownRefusal(db: Db, address: string, now: Date): number | undefined {
  const until = refusals.get(db)?.get(address);
  if (until === undefined) return undefined;
  if (until <= now.getTime()) {
    refusals.get(db)!.delete(address);
    return undefined;
  }
  return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
}

function rememberRefusal(db: Db, address: string, until: number, now: Date): void {
  let known = refusals.get(db);
  if (!known) refusals.set(db, (known = new Map()));
  if (known.size >= MAX_REMEMBERED) {
    for (const [a, u] of known) if (u <= now.getTime()) known.delete(a);
    // still full (a flood from as many addresses): forget the oldest; the database still refuses them
    for (const a of known.keys()) {
      if (known.size < MAX_REMEMBERED) break;
      known.delete(a);
    }
  }
  known.set(address, until);
}

/** Takes the attempt's place (atomically, before the password is checked). */
export async function reserveAddressAttempt(db: Db, address: string, now: Date): Promise<AddressReservation> {
  const expired = new Date(now.getTime() - WINDOW_MS);
  const row = await db.one<{ failures: number; window_started_at: Date }>(
    `INSERT INTO login_address_failures AS a (address, failures, window_started_at) VALUES ($1, 1, $2)
     ON CONFLICT (address) DO UPDATE SET
       failures = CASE WHEN a.window_started_at <= $3 THEN 1 ELSE a.failures + 1 END,
       window_started_at = CASE WHEN a.window_started_at <= $3 THEN $2 ELSE a.window_started_at END
     RETURNING failures, window_started_at`,
    [address, now, expired],
  );
  const number = row!.failures;
  // a new window: forget the addresses whose windows have ended, so the table stays small
  if (number === 1) await db.query('DELETE FROM login_address_failures WHERE window_started_at <= $1', [expired]);
  const reservation = { address, number, windowStartedAt: row!.window_started_at };
  if (number <= ADDRESS_MAX_FAILURES) return reservation;
  const until = row!.window_started_at.getTime() + WINDOW_MS;
  rememberRefusal(db, address, until, now);
  const left = until - now.getTime();
  return { ...reservation, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
}

/** A successful sign-in gives its place back (in the same window only: a new window starts at zero anyway). */
export async function releaseAddressAttempt(db: Db, reservation: AddressReservation): Promise<void> {
  await db.query('UPDATE login_address_failures SET failures = failures - 1 WHERE address = $1 AND window_started_at = $2 AND failures > 0', [reservation.address, reservation.windowStartedAt]);
}
