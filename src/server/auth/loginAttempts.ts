/**
 * Sign-in lockout, kept in the database so that every server process sees the same counters. Counted
 * per lower(username), so `Admin` and `ADMIN` share admin's counters, and for unknown usernames too
 * (an unknown username answers exactly like a known one, locked or not).
 *
 * Two counters, so that nobody can lock the owner out of their account by guessing from elsewhere:
 *
 * - Per (username, client address), login_address_attempts: MAX_FAILURES failures of a username from
 *   one address lock that pair for LOCKOUT_MINUTES. Attempts from a locked pair are refused without a
 *   password check and touch nothing else, so a locked guesser neither extends nor uses up anything
 *   the owner needs.
 * - Per username across addresses, login_attempts: once MAX_FAILURES attempts of the username have
 *   been counted (from any addresses), the username is in back-off for LOCKOUT_MINUTES, extended by
 *   every attempt during it: an address with no lock of its own may still have its password checked,
 *   but at most one such check of the username per BACKOFF_SECONDS runs (a slot claimed atomically,
 *   `next_check_at`), and the others are answered 429 with Retry-After. So a guesser spread over many
 *   addresses gets one guess per back-off, and the owner, from any address, gets in within about
 *   BACKOFF_SECONDS. An address the username signed in from successfully in the last
 *   KNOWN_ADDRESS_DAYS needs no slot (its own pair counter still allows it only MAX_FAILURES
 *   failures), so the owner at their usual address is not held back at all, whatever the guessers do.
 *
 * Each attempt takes its numbers before the password is checked (atomic upserts), so parallel
 * attempts are counted exactly: a pair gets exactly MAX_FAILURES password checks per lock, the 10th
 * checked under the lock it sets itself (lifted again if its password is right), and a process that
 * dies during a check leaves an ordinary lock that runs out, never a stuck counter. A lock or a
 * back-off that has run out starts a fresh count. A successful sign-in clears the username-wide count
 * and its own pair's count (locks of other addresses stay), and remembers the address as known.
 *
 * The failures of an existing account are also added up for its owner (sign_in_failure_notices) and
 * handed over, once, at the next successful sign-in (`takeFailureNotice`).
 */
import type { Db } from '../db/db';

export const MAX_FAILURES = 10;
export const LOCKOUT_MINUTES = 30;
export const BACKOFF_SECONDS = 30;
export const KNOWN_ADDRESS_DAYS = 30;
const LOCKOUT_MS = LOCKOUT_MINUTES * 60_000;
const KNOWN_MS = KNOWN_ADDRESS_DAYS * 24 * 3600_000;

export type Attempt =
  /**
   * Check the password. `number`: the attempt's number for its (username, address) pair; `known`: the
   * username signed in from this address in the last KNOWN_ADDRESS_DAYS.
   */
  | { readonly kind: 'check'; readonly number: number; readonly locking: boolean; readonly known: boolean }
  /** Refused without a check: this address has used up its failures for this username. */
  | { readonly kind: 'locked' }
  /** Refused without a check: the username is in back-off and another address has the current slot. */
  | { readonly kind: 'backoff'; readonly retryAfterSeconds: number };

/** Counts an attempt of `username` from `address` atomically, before the password is checked. */
export async function beginAttempt(db: Db, username: string, address: string, now: Date): Promise<Attempt> {
  const name = username.toLowerCase();
  const until = new Date(now.getTime() + LOCKOUT_MS);
  const pair = await db.one<{ locked_until: Date | null; last_success_at: Date | null }>(
    'SELECT locked_until, last_success_at FROM login_address_attempts WHERE username_lower = $1 AND address = $2',
    [name, address],
  );
  if (pair?.locked_until && pair.locked_until > now) return { kind: 'locked' };

  // the username-wide count: from its MAX_FAILURES-th attempt on, the back-off runs (and is extended by every attempt)
  const wide = await db.one<{ failures: number }>(
    `INSERT INTO login_attempts AS a (username_lower, failures, locked_until) VALUES ($1, 1, CASE WHEN 1 >= $4 THEN $3::timestamptz END)
     ON CONFLICT (username_lower) DO UPDATE SET
       failures = CASE WHEN a.locked_until <= $2 THEN 1 ELSE a.failures + 1 END,
       locked_until = CASE
         WHEN a.locked_until <= $2 THEN CASE WHEN 1 >= $4 THEN $3::timestamptz END
         WHEN a.failures + 1 >= $4 THEN $3::timestamptz
         ELSE a.locked_until END,
       next_check_at = CASE WHEN a.locked_until <= $2 THEN NULL ELSE a.next_check_at END
     RETURNING failures`,
    [name, now, until, MAX_FAILURES],
  );
  const known = pair?.last_success_at != null && pair.last_success_at.getTime() > now.getTime() - KNOWN_MS;
  if (wide!.failures > MAX_FAILURES && !known) {
    const slot = await db.one<{ next_check_at: Date | null }>(
      `UPDATE login_attempts SET next_check_at = $3 WHERE username_lower = $1 AND (next_check_at IS NULL OR next_check_at <= $2) RETURNING next_check_at`,
      [name, now, new Date(now.getTime() + BACKOFF_SECONDS * 1000)],
    );
    if (!slot) {
      const current = await db.one<{ next_check_at: Date | null }>('SELECT next_check_at FROM login_attempts WHERE username_lower = $1', [name]);
      const left = (current?.next_check_at?.getTime() ?? now.getTime()) - now.getTime();
      // (a parallel attempt with a slightly later clock may have claimed it: never more than one back-off)
      return { kind: 'backoff', retryAfterSeconds: Math.min(BACKOFF_SECONDS, Math.max(1, Math.ceil(left / 1000))) };
    }
  }

  const row = await db.one<{ failures: number }>(
    `INSERT INTO login_address_attempts AS p (username_lower, address, failures, locked_until, updated_at)
       VALUES ($1, $2, 1, CASE WHEN 1 >= $5 THEN $4::timestamptz END, $3)
     ON CONFLICT (username_lower, address) DO UPDATE SET
       failures = CASE WHEN p.locked_until <= $3 THEN 1 ELSE p.failures + 1 END,
       locked_until = CASE
         WHEN p.locked_until <= $3 THEN CASE WHEN 1 >= $5 THEN $4::timestamptz END
         WHEN p.locked_until IS NULL AND p.failures + 1 >= $5 THEN $4::timestamptz
         ELSE p.locked_until END,
       updated_at = $3
     RETURNING failures`,
    [name, address, now, until, MAX_FAILURES],
  );
  const number = row!.failures;
  // a fresh count: forget the pairs nobody has used for KNOWN_ADDRESS_DAYS (their locks ran out long ago)
  if (number === 1) await db.query('DELETE FROM login_address_attempts WHERE updated_at < $1', [new Date(now.getTime() - KNOWN_MS)]);
  if (number > MAX_FAILURES) return { kind: 'locked' };
  return { kind: 'check', number, locking: number === MAX_FAILURES, known };
}

/**
 * The password was right: the username-wide count starts again, this address's count too (lifting a
 * lock set by this very attempt), and the address is remembered as one the owner uses. Locks of other
 * addresses stay.
 */
export async function attemptSucceeded(db: Db, username: string, address: string, now: Date): Promise<void> {
  const name = username.toLowerCase();
  await db.query('DELETE FROM login_attempts WHERE username_lower = $1', [name]);
  await db.query(
    `INSERT INTO login_address_attempts (username_lower, address, failures, locked_until, last_success_at, updated_at) VALUES ($1, $2, 0, NULL, $3, $3)
     ON CONFLICT (username_lower, address) DO UPDATE SET failures = 0, locked_until = NULL, last_success_at = $3, updated_at = $3`,
    [name, address, now],
  );
}

/** A failed or refused attempt on an existing account, added up for its owner (nothing for an unknown username). */
export async function noteFailureForOwner(db: Db, username: string, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO sign_in_failure_notices AS n (username_lower, failures, last_failure_at)
       SELECT lower(username), 1, $2 FROM console_users WHERE lower(username) = $1
     ON CONFLICT (username_lower) DO UPDATE SET failures = n.failures + 1, last_failure_at = greatest(n.last_failure_at, EXCLUDED.last_failure_at)`,
    [username.toLowerCase(), now],
  );
}

export interface FailureNotice {
  count: number;
  lastAt: Date;
}

/** The failures since the previous successful sign-in, handed over once (the count starts again). */
export async function takeFailureNotice(db: Db, username: string): Promise<FailureNotice | undefined> {
  const row = await db.one<{ failures: number; last_failure_at: Date }>('DELETE FROM sign_in_failure_notices WHERE username_lower = $1 RETURNING failures, last_failure_at', [username.toLowerCase()]);
  return row ? { count: row.failures, lastAt: row.last_failure_at } : undefined;
}

/**
 * Clears every failure count and lock of the username, from every address, and its back-off (an
 * administrator's approved unlock). The addresses it signed in from stay known; the failures still
 * to tell the owner about stay too.
 */
export async function clearFailures(db: Db, username: string): Promise<void> {
  const name = username.toLowerCase();
  await db.query('DELETE FROM login_attempts WHERE username_lower = $1', [name]);
  await db.query('DELETE FROM login_address_attempts WHERE username_lower = $1 AND last_success_at IS NULL', [name]);
  await db.query('UPDATE login_address_attempts SET failures = 0, locked_until = NULL WHERE username_lower = $1', [name]);
}
