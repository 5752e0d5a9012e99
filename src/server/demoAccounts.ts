/**
 * The demo accounts: the console users the demo seeder made (marked `demo_account = 1`; a database
 * seeded before the marker existed had them marked by migration 80, by their usernames and the
 * e-mail addresses the seeder gave them). They all share the published password Demo@Pass1, so a
 * production server refuses to start while one of them is in its database (src/server/startupChecks.ts)
 * and `npm run remove-demo-accounts` deletes them.
 */
import { writeActivity } from './activityLog';
import type { Db } from './db/db';
import { SUPER_PERMISSION } from '../domain/permissions';

/** The command that removes them, as the refusal names it. */
export const REMOVE_DEMO_ACCOUNTS_COMMAND = 'npm run remove-demo-accounts';

/** The usernames of the demo accounts still in the database, in id order. */
export async function demoAccountUsernames(db: Db): Promise<string[]> {
  const rows = await db.query<{ username: string }>('SELECT username FROM console_users WHERE demo_account = 1 ORDER BY id');
  return rows.map((r) => r.username);
}

/**
 * Deletes every demo account in one transaction, with one activity-log entry naming them (nothing
 * refers to a console user by id: change requests and the logs keep the username as text, so their
 * history stays readable). Returns the usernames removed.
 */
export async function removeDemoAccounts(db: Db, at: Date = new Date()): Promise<string[]> {
  return db.tx(async (tx) => {
    const removed = (await tx.query<{ username: string }>('DELETE FROM console_users WHERE demo_account = 1 RETURNING username')).map((r) => r.username);
    if (removed.length > 0) {
      await writeActivity(
        tx,
        {
          level: 'WARN',
          type: 'DEMO_ACCOUNTS_REMOVED',
          username: 'remove-demo-accounts',
          description: `Removed ${removed.length} demo account(s) from the command line: ${removed.join(', ')}`,
        },
        at,
      );
    }
    return removed;
  });
}

/** Whether an active account other than the demo ones holds the super-permission (someone can still administer). */
export async function hasOwnAdministrator(db: Db): Promise<boolean> {
  const row = await db.one(
    `SELECT 1 FROM console_users u JOIN roles r ON r.id = u.role_id
      WHERE u.demo_account = 0 AND u.disabled = 0 AND r.disabled = 0 AND r.permissions @> $1::jsonb LIMIT 1`,
    [[SUPER_PERMISSION]],
  );
  return row !== undefined;
}
