/**
 * `npm run remove-demo-accounts`: deletes the console accounts the demo seeder made (they share the
 * published password Demo@Pass1; a production server does not start while one is there). Logged in
 * the activity log. Uses the configured database (DATABASE_URL, or the embedded one in DATA_DIR).
 */
import { hasOwnAdministrator, removeDemoAccounts } from '../demoAccounts';
import { openMigratedDb, readEnvironment } from '../environment';

async function main(): Promise<void> {
  process.umask(0o077);
  const db = await openMigratedDb(readEnvironment());
  try {
    const removed = await removeDemoAccounts(db);
    console.log(removed.length === 0 ? 'There are no demo accounts.' : `Removed ${removed.length} demo account(s): ${removed.join(', ')}`);
    if (!(await hasOwnAdministrator(db))) {
      console.log('No active administrator is left: create one with `npm run create-admin`.');
    }
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
