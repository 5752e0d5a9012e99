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
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { format } from 'date-fns';
import pg from 'pg';
import { inject } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { openPgliteDb } from '../../src/server/db/pglite';
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

async function seeded<T extends Db>(db: T, scryptN: number): Promise<T> {
  await migrate(db);
  await seedDemo(db, { scryptN });
  return db;
}

async function freshPglite(folder: string | undefined, day: string, scryptN: number): Promise<FreshDb> {
  const file = folder && join(folder, `pglite-${day}.tar`);
  if (file) {
    const built: { db?: Db } = {};
    const ready = await buildOnce(file, async () => {
      const db = await seeded(await openPgliteDb('memory://'), scryptN);
      const dump = Buffer.from(await (await db.dumpDataDir()).arrayBuffer());
      writeFileSync(`${file}.part`, dump);
      renameSync(`${file}.part`, file);
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

async function freshPg(adminUrl: string, folder: string | undefined, day: string, scryptN: number): Promise<FreshDb> {
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
      const db = await seeded(await openDb({ databaseUrl: withDatabase(adminUrl, name) }), scryptN);
      await db.close();
    });
    if (!ready) template = undefined;
  }
  const name = `remit_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabase(adminUrl, name);
  const db = await openDb({ databaseUrl });
  if (!template) await seeded(db, scryptN);
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
