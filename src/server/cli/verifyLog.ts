/**
 * `npm run verify-log`: walks the activity log's hash chain (src/server/activityLogChain.ts) and
 * reports the first entry that does not match. Exit code 0 when the chain is whole, 2 when it is
 * broken, 1 when it could not be read. Uses the configured database (DATABASE_URL, or the embedded one
 * in DATA_DIR). `--json` prints the report as JSON.
 */
import { verifyActivityLog } from '../activityLogChain';
import { openMigratedDb, readEnvironment } from '../environment';

async function main(): Promise<number> {
  process.umask(0o077);
  const json = process.argv.includes('--json');
  const db = await openMigratedDb(readEnvironment());
  try {
    const report = await verifyActivityLog(db);
    if (json) {
      console.log(JSON.stringify(report, null, 2));
    } else if (report.ok) {
      console.log(`The activity log is intact: ${report.checked} entries checked; chain head ${report.headSeq} ${report.headHash || '(empty log)'}`);
      console.log('Keep the chain head somewhere outside this database: a later check shows any rewrite before it.');
    } else {
      console.log(`The activity log does NOT match its hash chain: ${report.firstBreak!.message}`);
      console.log(`(${report.checked} entries matched before it; chain head ${report.headSeq} ${report.headHash})`);
    }
    return report.ok ? 0 : 2;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
