/**
 * The embedded database's backup file (`npm run backup`, `npm run restore`): a zip (fflate) holding
 * - `manifest.json`: the format and its version, when it was made, the highest migration applied, and the
 *   sha256 and size of the database archive;
 * - `db.tar.gz`: the database's data folder (DATA_DIR/db) as PGlite's dumpDataDir() gives it, gzipped;
 * - `session-secret`: DATA_DIR/session-secret, the generated key that signs sign-in tokens (absent when
 *   there was none, e.g. with SESSION_SECRET set). The file is a secret: made 0600.
 * Nothing else lives in DATA_DIR (its in-use.lock is the running process's, never backed up).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { StartupRefusal } from '../environment';

export const BACKUP_FORMAT = 'remit-embedded-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  createdAt: string;
  /** The highest migration id applied to the database backed up. */
  migration: number;
  database: { file: 'db.tar.gz'; bytes: number; sha256: string };
  sessionSecret: boolean;
}

export interface BackupContents {
  manifest: BackupManifest;
  databaseTarGz: Uint8Array;
  sessionSecret?: Uint8Array;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function packBackup(databaseTarGz: Uint8Array, migration: number, sessionSecret: Uint8Array | undefined, now = new Date()): Uint8Array {
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: now.toISOString(),
    migration,
    database: { file: 'db.tar.gz', bytes: databaseTarGz.length, sha256: sha256(databaseTarGz) },
    sessionSecret: sessionSecret !== undefined,
  };
  return zipSync(
    {
      'manifest.json': new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`),
      // already compressed: stored as it is
      'db.tar.gz': [databaseTarGz, { level: 0 }],
      ...(sessionSecret ? { 'session-secret': sessionSecret } : {}),
    },
    { level: 6 },
  );
}

/** The contents of a backup file, checked: a zip with a manifest of this format and version, and the database archive it describes. Throws a message naming what is wrong. */
export function unpackBackup(file: Uint8Array, name: string): BackupContents {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(file);
  } catch {
    throw new Error(`${name} is not a backup made by \`npm run backup\` (not a zip file)`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as BackupManifest;
  } catch {
    throw new Error(`${name} is not a backup made by \`npm run backup\` (no readable manifest.json)`);
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new Error(`${name} is not a backup made by \`npm run backup\` (manifest format "${String(manifest?.format)}")`);
  if (manifest.version !== BACKUP_VERSION) throw new Error(`${name} is a backup of format version ${String(manifest.version)}; this version reads ${BACKUP_VERSION}`);
  const databaseTarGz = entries['db.tar.gz'];
  if (!databaseTarGz) throw new Error(`${name} holds no db.tar.gz`);
  if (databaseTarGz.length !== manifest.database.bytes || sha256(databaseTarGz) !== manifest.database.sha256) {
    throw new Error(`${name}: db.tar.gz does not match its manifest (size or sha256 differs): the file is damaged`);
  }
  const sessionSecret = entries['session-secret'];
  if (manifest.sessionSecret && !sessionSecret) throw new Error(`${name}: the manifest names a session-secret the file does not hold`);
  return { manifest, databaseTarGz, sessionSecret };
}

/** The file named by `--name FILE` (absolute), undefined when the option is absent. */
export function fileArg(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new StartupRefusal(`--${name} needs a file name`);
  return resolve(value);
}
