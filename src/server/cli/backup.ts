/**
 * `npm run backup -- --out FILE`: a backup of the embedded database (DATA_DIR) into FILE (made 0600,
 * never over an existing file): the database's data folder as PGlite dumps it and the generated
 * session secret (./embeddedBackupFile.ts). Refused while another process (the server, a tool) has the
 * database open (DATA_DIR/in-use.lock): stop the server first. With DATABASE_URL set it refuses too:
 * a PostgreSQL server is backed up with pgBackRest (docs/backups.md). Restore with `npm run restore`.
 * Exit code 0 when done, 1 when refused or failed (the message says why).
 */
import { existsSync } from 'node:fs';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openPgliteDb } from '../db/pglite';
import { lockDataDir, readEnvironment, StartupRefusal } from '../environment';
import { fileArg, packBackup } from './embeddedBackupFile';

async function main(): Promise<void> {
  process.umask(0o077);
  const argv = process.argv.slice(2);
  const out = fileArg(argv, 'out');
  if (!out) throw new StartupRefusal('Name the backup file: npm run backup -- --out FILE');
  const environment = readEnvironment();
  if (environment.databaseUrl) throw new StartupRefusal('DATABASE_URL is set: `npm run backup` copies the embedded database only; back up a PostgreSQL server with pgBackRest (docs/backups.md)');
  if (existsSync(out)) throw new StartupRefusal(`${out} already exists: name a new file (a backup is never written over another)`);
  const dbDir = join(environment.dataDir, 'db');
  if (!existsSync(join(dbDir, 'PG_VERSION'))) throw new StartupRefusal(`There is no embedded database in ${environment.dataDir} (DATA_DIR): nothing to back up`);

  const unlock = await lockDataDir(environment.dataDir, { waitMs: 2000 });
  try {
    const started = Date.now();
    const db = await openPgliteDb(dbDir);
    let tar: Uint8Array;
    let migration: number;
    try {
      migration = (await db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM schema_migrations'))!.id;
      tar = new Uint8Array(await (await db.dumpDataDir()).arrayBuffer());
    } finally {
      await db.close();
    }
    const secretFile = join(environment.dataDir, 'session-secret');
    const sessionSecret = existsSync(secretFile) ? new Uint8Array(await readFile(secretFile)) : undefined;
    const file = packBackup(gzipSync(tar, { level: 6 }), migration, sessionSecret);
    // written whole, then renamed: a backup cut short never takes the name
    const partial = `${out}.partial-${process.pid}`;
    await writeFile(partial, file, { mode: 0o600, flag: 'wx' });
    await rename(partial, out);
    const size = (await stat(out)).size;
    console.log(
      `Backed up the embedded database in ${environment.dataDir} (migration ${migration}${sessionSecret ? ', with its session secret' : ''}) to ${out}: ` +
        `${(size / 2 ** 20).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s. Keep it as you keep passwords: it holds the data and the token signing key.`,
    );
  } finally {
    await unlock();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
