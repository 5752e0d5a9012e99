import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { openDb } from '/work/main/src/server/db/db';
import { openPgliteDb } from '/work/main/src/server/db/pglite';
import { migrate } from '/work/main/src/server/db/migrate';
import { seedDemo } from '/work/main/src/server/seed/demo';
import { PGlite } from '@electric-sql/pglite';

const file = '/tmp/pgl-seeded.tar';
if (!existsSync(file)) {
  const db = await openPgliteDb('memory://');
  await migrate(db);
  await seedDemo(db, { scryptN: 1024 });
  const pg = new PGlite({ loadDataDir: await db.dumpDataDir(), postgresqlconf: ['min_wal_size = 32MB', 'max_wal_size = 32MB'] });
  await pg.exec('CHECKPOINT');
  writeFileSync(file, Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer()));
  await pg.close(); await db.close();
}
const buf = readFileSync(file);
console.log('tar MB', (buf.length / 1e6).toFixed(1));
for (let i = 0; i < 3; i++) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  const db = await openDb({ loadDataDir: new Blob([buf]) });
  const t1 = performance.now();
  await migrate(db);
  const t2 = performance.now();
  await db.one('SELECT count(*) FROM console_users');
  const t3 = performance.now();
  const c = process.cpuUsage(c0);
  console.log(`open ${(t1 - t0).toFixed(0)} ms, migrate-check ${(t2 - t1).toFixed(0)} ms, first query ${(t3 - t2).toFixed(0)} ms, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`);
  await db.close();
}
