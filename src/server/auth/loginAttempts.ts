/**
 * Sign-in failure counting and lockout, kept in the database (login_attempts) so that every server
 * process sees the same counters. Counted per lower(username), for unknown usernames too.
 */
import type { Db } from '../db/db';

export const MAX_FAILURES = 10;
export const LOCKOUT_MINUTES = 30;

/** When the username is locked out now, the time the lock ends. */
export async function lockedUntil(db: Db, username: string, now: Date): Promise<Date | undefined> {
  const row = await db.one<{ locked_until: Date | null }>('SELECT locked_until FROM login_attempts WHERE username_lower = $1', [
    username.toLowerCase(),
  ]);
  return row?.locked_until && row.locked_until > now ? row.locked_until : undefined;
}

export interface FailureOutcome {
  failures: number;
  /** True for the one failure that locked the username. */
  lockedNow: boolean;
}

/**
 * Counts a failed attempt atomically. A lock that has run out starts a fresh count. The failure that
 * reaches MAX_FAILURES sets the lock; only that call sees `lockedNow`.
 */
export async function recordFailure(db: Db, username: string, now: Date): Promise<FailureOutcome> {
  const key = username.toLowerCase();
  const counted = await db.one<{ failures: number }>(
    `INSERT INTO login_attempts AS a (username_lower, failures, locked_until) VALUES ($1, 1, NULL)
     ON CONFLICT (username_lower) DO UPDATE SET
       failures = CASE WHEN a.locked_until IS NOT NULL AND a.locked_until <= $2 THEN 1 ELSE a.failures + 1 END,
       locked_until = CASE WHEN a.locked_until IS NOT NULL AND a.locked_until <= $2 THEN NULL ELSE a.locked_until END
     RETURNING failures`,
    [key, now],
  );
  const failures = counted?.failures ?? 1;
  if (failures < MAX_FAILURES) return { failures, lockedNow: false };
  const until = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000);
  const locked = await db.query('UPDATE login_attempts SET locked_until = $2 WHERE username_lower = $1 AND locked_until IS NULL RETURNING 1', [
    key,
    until,
  ]);
  return { failures, lockedNow: locked.length > 0 };
}

export async function clearFailures(db: Db, username: string): Promise<void> {
  await db.query('DELETE FROM login_attempts WHERE username_lower = $1', [username.toLowerCase()]);
}
