/**
 * Sign-in lockout per username, kept in the database (login_attempts) so that every server process
 * sees the same counters. Counted per lower(username), so `Admin` and `ADMIN` share admin's counter,
 * and for unknown usernames too (a locked unknown user answers like a locked known one).
 *
 * An attempt takes its number before the password is checked (one atomic upsert), so parallel
 * attempts are counted exactly: attempts 1..9 are checked; attempt 10 is checked under a lock it
 * sets itself (lifted again if its password is right); attempt 11 and later, and any attempt while
 * the lock runs, are refused without checking the password. So a username gets exactly
 * MAX_FAILURES password checks per lockout, however many requests arrive at once, and a process
 * that dies during the 10th check leaves an ordinary lock that runs out, never a stuck counter.
 * A lock that has run out starts a fresh count; a successful sign-in clears the row.
 */
import type { Db } from '../db/db';

export const MAX_FAILURES = 10;
export const LOCKOUT_MINUTES = 30;

export interface Attempt {
  /** This attempt's number since the last success or the end of the last lock. */
  number: number;
  /** Refused without a password check: the username is locked, or MAX_FAILURES attempts came first. */
  refused: boolean;
  /** The attempt that set the lock: a wrong password keeps it, a right one lifts it. */
  locking: boolean;
}

/** Counts an attempt atomically, before the password is checked. */
export async function beginAttempt(db: Db, username: string, now: Date): Promise<Attempt> {
  const until = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000);
  const row = await db.one<{ failures: number; locked_until: Date | null }>(
    `INSERT INTO login_attempts AS a (username_lower, failures, locked_until) VALUES ($1, 1, CASE WHEN 1 >= $4 THEN $3::timestamptz END)
     ON CONFLICT (username_lower) DO UPDATE SET
       failures = CASE WHEN a.locked_until <= $2 THEN 1 ELSE a.failures + 1 END,
       locked_until = CASE
         WHEN a.locked_until <= $2 THEN CASE WHEN 1 >= $4 THEN $3::timestamptz END
         WHEN a.locked_until IS NULL AND a.failures + 1 >= $4 THEN $3::timestamptz
         ELSE a.locked_until END
     RETURNING failures, locked_until`,
    [username.toLowerCase(), now, until, MAX_FAILURES],
  );
  const number = row!.failures;
  return { number, refused: number > MAX_FAILURES, locking: number === MAX_FAILURES };
}

/** A successful sign-in: the count starts again (and a lock set by this very attempt is lifted). */
export async function clearFailures(db: Db, username: string): Promise<void> {
  await db.query('DELETE FROM login_attempts WHERE username_lower = $1', [username.toLowerCase()]);
}
