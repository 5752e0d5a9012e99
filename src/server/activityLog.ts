/**
 * The activity log: who did what, when. Insert-only: triggers refuse UPDATE, DELETE (migration 1) and
 * TRUNCATE (migration 50), whoever asks. Entries never carry a password, a hash or a token
 * (tests/api/activityLogIntegrity.test.ts sends sentinels through every call and searches every table).
 */
import type { Db } from './db/db';

export type ActivityLevel = 'INFO' | 'WARN';

export interface Activity {
  level?: ActivityLevel;
  /** What happened, e.g. LOGIN, LOGIN_FAILED, ACCOUNT_LOCKED, CHANGE_REQUEST, CHANGE_APPROVED. */
  type: string;
  /** Who did it (the signed-in user, or the username tried at sign-in). */
  username: string;
  description: string;
  before?: unknown;
  after?: unknown;
}

export async function writeActivity(db: Db, activity: Activity, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO activity_logs (level, type, username, description, before, after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [activity.level ?? 'INFO', activity.type, activity.username.slice(0, 100), activity.description, activity.before ?? null, activity.after ?? null, at],
  );
}
