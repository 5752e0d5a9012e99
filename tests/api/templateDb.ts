/**
 * A fresh database for one API test file, migrated and seeded with the demo data, as a copy of the
 * run's template instead of migrating and seeding its own (~15 s a file on the embedded database).
 *
 * The first file of a run that needs one builds the template (tests/globalSetup.ts gives the run a
 * folder): on the embedded database a tarball of the data folder (PGlite's dumpDataDir), loaded by
 * every later file; on PostgreSQL (TEST_DATABASE_URL) a template database, copied with
 * `CREATE DATABASE ... TEMPLATE`. The demo data is relative to today, so a run that passes midnight
 * builds a new template for the new day. Files run in parallel workers (vitest.config.ts): one builds
 * a template while the others wait for it (../buildOnce.ts); after a failed build every file migrates
 * and seeds its own database.
 *
 * `freshMigratedDatabase()` is the same for a migrated database without the demo data (the files that
 * seed something else): a copy of a second template, migrated only, which the seeded template's build
 * leaves behind on its way (or which the first file that asks builds).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { format } from 'date-fns';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { openPgliteDb, type PgliteDb } from '../../src/server/db/pglite';
import { seedDemo } from '../../src/server/seed/demo';
import { buildOnce } from '../buildOnce';

export interface FreshDb {
  db: Db;
  /** On PostgreSQL: the URL of this file's own database (a second server process opens it too). */
  databaseUrl?: string;
  /** Closes the database and, on PostgreSQL, drops it. */
  drop(): Promise<void>;
}

function runFolder(): string | undefined {
  try {
    return inject('testTemplateDir');
  } catch {
    return undefined;
  }
}

export async function freshDatabase(scryptN: number): Promise<FreshDb> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const folder = runFolder();
  const day = format(new Date(), 'yyyyMMdd');
  return adminUrl ? freshPg(adminUrl, folder, day, scryptN) : freshPglite(folder, day, scryptN);
}

async function seeded<T extends Db>(db: T, scryptN: number, afterMigrate?: (db: T) => Promise<void>): Promise<T> {
  await migrate(db);
  await afterMigrate?.(db);
  // without the demo's pending change requests: the API tests count requests from none
  await seedDemo(db, { scryptN, pendingRequests: false });
  return db;
}

/**
 * A migrated database without the demo data, as a copy of the run's migrated template (PGlite: a dump
 * of the data folder; PostgreSQL: a template database). Migrations do not depend on the day, so one
 * template serves the whole run.
 */
export async function freshMigratedDatabase(): Promise<FreshDb> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const folder = runFolder();
  if (adminUrl) return freshPg(adminUrl, folder, 'migrated', null);
  const file = folder && join(folder, 'pglite-migrated.tar');
  if (file && (await buildOnce(file, async () => writeDump(file, await migrated(await openPgliteDb('memory://')))))) {
    const db = await openDb({ loadDataDir: new Blob([readFileSync(file)]) });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const db = await migrated(await openPgliteDb('memory://'));
  return { db, drop: () => db.close() };
}

async function migrated<T extends Db>(db: T): Promise<T> {
  await migrate(db);
  return db;
}

async function writeDump(file: string, db: PgliteDb, close = true): Promise<void> {
  const dump = await compactDump(await db.dumpDataDir());
  writeFileSync(`${file}.part`, dump);
  renameSync(`${file}.part`, file);
  if (close) await db.close();
}

/**
 * The dump with the WAL segments the database keeps for later use left out: a seeded data folder holds
 * four 16 MB segments (64 of its 122 MB), which every file would otherwise copy and load. Opened once
 * with the smallest WAL sizes (they stay in the copies' postgresql.conf, which only makes a copy keep
 * fewer spare segments and checkpoint after 32 MB of changes), a checkpoint recycles all but two.
 */
async function compactDump(dump: Blob): Promise<Buffer> {
  const pg = new PGlite({ loadDataDir: dump, postgresqlconf: ['min_wal_size = 32MB', 'max_wal_size = 32MB'] });
  try {
    await pg.exec('CHECKPOINT');
    return Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pg.close();
  }
}

/** While building the seeded template: leaves the migrated one too, unless another file has it in hand. */
async function offerMigrated(folder: string, db: PgliteDb): Promise<void> {
  const file = join(folder, 'pglite-migrated.tar');
  if (existsSync(`${file}.ready`) || existsSync(`${file}.lock`)) return;
  await buildOnce(file, () => writeDump(file, db, false));
}

async function freshPglite(folder: string | undefined, day: string, scryptN: number): Promise<FreshDb> {
  if (folder) {
    const file = join(folder, `pglite-${day}.tar`);
    const built: { db?: Db } = {};
    const ready = await buildOnce(file, async () => {
      const db = await seeded(await openPgliteDb('memory://'), scryptN, (m) => offerMigrated(folder, m));
      await writeDump(file, db, false);
      built.db = db;
    });
    // the file that built the template goes on with the database it seeded
    const own = built.db;
    if (own) return { db: own, drop: () => own.close() };
    if (ready) {
      const db = await openDb({ loadDataDir: new Blob([readFileSync(file)]) });
      await migrate(db);
      return { db, drop: () => db.close() };
    }
  }
  const db = await seeded(await openPgliteDb('memory://'), scryptN);
  return { db, drop: () => db.close() };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** `scryptN` null: migrated only, without the demo data (`day` then names the template, 'migrated'). */
async function freshPg(adminUrl: string, folder: string | undefined, day: string, scryptN: number | null): Promise<FreshDb> {
  const prepare = (db: Db) => (scryptN === null ? migrated(db) : seeded(db, scryptN));
  let template: string | undefined;
  if (folder) {
    template = `remit_tmpl_${basename(folder)
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .slice(-8)}_${day}`;
    const note = join(folder, `${template}.pgdb`);
    const name = template;
    const ready = await buildOnce(note, async () => {
      // the note first, so that the run's teardown drops the template even if this build dies
      writeFileSync(note, JSON.stringify({ adminUrl, name }));
      await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin(adminUrl, `CREATE DATABASE ${name}`);
      const db = await prepare(await openDb({ databaseUrl: withDatabase(adminUrl, name) }));
      await db.close();
    });
    if (!ready) template = undefined;
  }
  const name = `remit_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabase(adminUrl, name);
  const db = await openDb({ databaseUrl });
  if (!template) await prepare(db);
  else await migrate(db);
  return {
    db,
    databaseUrl,
    drop: async () => {
      await db.close().catch(() => {});
      await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
