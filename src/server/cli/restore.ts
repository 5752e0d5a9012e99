/**
 * `npm run restore -- --in FILE [--force]`: puts a backup made by `npm run backup` into DATA_DIR: the
 * embedded database and the session secret it holds. Into an empty (or new) DATA_DIR only, unless
 * --force: then the database and secret there are moved aside (DATA_DIR/db.replaced-<time>,
 * session-secret.replaced-<time>), not deleted. Refused while another process has the database open
 * (DATA_DIR/in-use.lock), with DATABASE_URL set (PostgreSQL is restored with pgBackRest, docs/backups.md),
 * and for a file that is not such a backup or is damaged (its manifest's sha256). The restored database
 * is opened and its applied migrations checked against the manifest before the command says it is done;
 * the next server start migrates it forward if the backup is older than the code.
 * Exit code 0 when done, 1 when refused or failed (the message says why).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openPgliteDb } from '../db/pglite';
import { lockDataDir, readEnvironment, restrictToOwner, StartupRefusal } from '../environment';
import { fileArg, unpackBackup } from './embeddedBackupFile';

async function main(): Promise<void> {
  process.umask(0o077);
  const argv = process.argv.slice(2);
  const input = fileArg(argv, 'in');
  const force = argv.includes('--force');
  if (!input) throw new StartupRefusal('Name the backup file: npm run restore -- --in FILE [--force]');
  const environment = readEnvironment();
  if (environment.databaseUrl) throw new StartupRefusal('DATABASE_URL is set: `npm run restore` restores the embedded database only; restore a PostgreSQL server with pgBackRest (docs/backups.md)');
  const dataDir = environment.dataDir;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const unlock = await lockDataDir(dataDir, { waitMs: 2000 });
  try {
    if (!existsSync(input)) throw new StartupRefusal(`${input} does not exist`);
    const backup = unpackBackup(new Uint8Array(await readFile(input)), input);
    const started = Date.now();
    const dbDir = join(dataDir, 'db');
    const secretFile = join(dataDir, 'session-secret');
    const hasDb = existsSync(dbDir) && readdirSync(dbDir).length > 0;
    const hasSecret = existsSync(secretFile);
    if ((hasDb || hasSecret) && !force) {
      throw new StartupRefusal(
        `${dataDir} (DATA_DIR) already holds ${hasDb ? 'a database' : 'a session secret'}: restore into an empty folder, or add --force to replace it ` + '(what is there is moved aside, not deleted)',
      );
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    if (hasDb) await rename(dbDir, `${dbDir}.replaced-${stamp}`);
    if (hasSecret) await rename(secretFile, `${secretFile}.replaced-${stamp}`);
    if (existsSync(dbDir)) await rename(dbDir, `${dbDir}.empty-${stamp}`);

    const tar = gunzipSync(backup.databaseTarGz);
    const db = await openPgliteDb(dbDir, undefined, new Blob([tar]));
    try {
      const applied = (await db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM schema_migrations'))!.id;
      if (applied !== backup.manifest.migration) throw new Error(`the restored database's highest migration is ${applied}, the backup's manifest says ${backup.manifest.migration}`);
    } finally {
      await db.close();
    }
    if (backup.sessionSecret) await writeFile(secretFile, backup.sessionSecret, { mode: 0o600 });
    await restrictToOwner(dataDir);
    console.log(
      `Restored the backup of ${backup.manifest.createdAt} (migration ${backup.manifest.migration}${backup.sessionSecret ? ', with its session secret' : ''}) into ${dataDir} ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s${hasDb || hasSecret ? `; what was there is kept as *.replaced-${stamp}` : ''}. Start the server on it.`,
    );
  } finally {
    await unlock();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
