/**
 * `npx tsx scripts/bench-activity-log.ts [--rows 2000] [--concurrency 8]`: activity log inserts per
 * second before and after the hash chain (migration 95), on PGlite in memory, or with
 * `BENCH_DATABASE_URL=postgres://...` on a PostgreSQL server (a fresh schema there, dropped at the end).
 *
 * Migrates to just before 95 (with a log of --rows entries, so the migration's back-fill is timed too),
 * inserts --rows entries one per transaction, first one after the other and then --concurrency at a
 * time (separate connections on PostgreSQL; PGlite has one), then applies 95 and does the same again.
 */
import { randomBytes } from 'node:crypto';
import { writeActivity } from '../src/server/activityLog';
import { openDb, type Db } from '../src/server/db/db';
import { migrate } from '../src/server/db/migrate';
import { migrations } from '../src/server/db/migrations';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 2000);
const CONCURRENCY = arg('concurrency', 8);

async function insertSerial(db: Db, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    await db.tx((tx) => writeActivity(tx, { type: 'BENCH', username: 'bench', description: `entry ${i}`, after: { i, note: 'x'.repeat(40) } }, new Date()));
  }
  return n / ((performance.now() - start) / 1000);
}

async function insertConcurrent(dbs: Db[], n: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    dbs.map(async (db) => {
      while (next < n) {
        const i = next++;
        await db.tx((tx) => writeActivity(tx, { type: 'BENCH', username: 'bench', description: `entry ${i}`, after: { i } }, new Date()));
      }
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const schema = url ? `bench_log_${randomBytes(4).toString('hex')}` : undefined;
  const db = await openDb(url ? { databaseUrl: url, schema } : {});
  const extra: Db[] = [];
  try {
    for (let i = 1; url && i < CONCURRENCY; i++) extra.push(await openDb({ databaseUrl: url, schema }));
    const pool = url ? [db, ...extra] : Array.from({ length: CONCURRENCY }, () => db);
    await migrate(
      db,
      migrations.filter((m) => m.id < 95),
    );
    const before = { serial: await insertSerial(db, ROWS), concurrent: await insertConcurrent(pool, ROWS) };
    const t0 = performance.now();
    await migrate(db);
    const migrationMs = performance.now() - t0;
    const after = { serial: await insertSerial(db, ROWS), concurrent: await insertConcurrent(pool, ROWS) };
    const rows = await db.one<{ n: number }>('SELECT count(*)::int AS n FROM activity_logs');
    const { verifyActivityLog } = await import('../src/server/activityLogChain');
    const v0 = performance.now();
    const report = await verifyActivityLog(db);
    const verifyMs = performance.now() - v0;
    const f = (x: number) => x.toFixed(0).padStart(7);
    console.log(`backend: ${db.kind}${url ? ` (${CONCURRENCY} connections)` : ''}; ${ROWS} inserts per case, one transaction each`);
    console.log(`                      one at a time   ${CONCURRENCY} at once   (inserts per second)`);
    console.log(`before the chain      ${f(before.serial)}        ${f(before.concurrent)}`);
    console.log(`with the chain        ${f(after.serial)}        ${f(after.concurrent)}`);
    console.log(
      `migration 95 back-filled ${2 * ROWS} entries in ${migrationMs.toFixed(0)} ms; verify-log walked ${report.checked} of ${rows!.n} entries in ${verifyMs.toFixed(0)} ms (ok: ${report.ok})`,
    );
  } finally {
    if (url && schema) await db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
    for (const e of extra) await e.close();
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
