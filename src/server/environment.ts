/**
 * What the environment configures, shared by the server and the command-line tools:
 * DATABASE_URL (a PostgreSQL server; unset = the embedded database in DATA_DIR/db), DATA_DIR
 * (default ./data), SESSION_SECRET (at least 32 characters; unset = generated once and kept),
 * TRUST_PROXY (the proxies whose X-Forwarded-For is believed; unset = none).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openDb, type Db } from './db/db';
import { migrate } from './db/migrate';

export interface Environment {
  dataDir: string;
  databaseUrl?: string;
  sessionSecret?: string;
  /** See parseTrustProxy. */
  trustProxy?: readonly string[] | number;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  return {
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    sessionSecret: env.SESSION_SECRET || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or empty, nobody's X-Forwarded-For is believed (the client address is the
 * peer's). A comma-separated list of addresses and CIDR ranges (or loopback, linklocal, uniquelocal),
 * e.g. `127.0.0.1` or `10.0.0.0/8,::1`: X-Forwarded-For is believed from those proxies only. A
 * whole number N: the N nearest hops are trusted whoever they are, for a server that cannot be
 * reached except through N proxies. Anything else (`true`, `*`, a bad address) stops the start.
 */
export function parseTrustProxy(value: string | undefined): readonly string[] | number | undefined {
  const text = (value ?? '').trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops === 0 ? undefined : hops;
  }
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_KEYWORDS.has(entry) || (family !== 0 && okBits && extra === undefined))) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR range, loopback, linklocal, uniquelocal or a number of hops`);
    }
  }
  return entries;
}

/** Opens the configured database and brings its schema up to date. */
export async function openMigratedDb(environment: Environment): Promise<Db> {
  if (!environment.databaseUrl) await mkdir(environment.dataDir, { recursive: true });
  const db = await openDb(
    environment.databaseUrl ? { databaseUrl: environment.databaseUrl } : { dataDir: join(environment.dataDir, 'db') },
  );
  await migrate(db);
  return db;
}

/**
 * The token signing secret: SESSION_SECRET when set (it must have 32 characters or more); otherwise a
 * generated one, kept in DATA_DIR/session-secret for the embedded database, or in app_settings on a
 * PostgreSQL server (so every server process signs with the same key).
 */
export async function loadTokenSecret(environment: Environment, db: Db): Promise<Uint8Array> {
  if (environment.sessionSecret !== undefined) {
    if (environment.sessionSecret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters long');
    return new TextEncoder().encode(environment.sessionSecret);
  }
  if (environment.databaseUrl) {
    await db.query("INSERT INTO app_settings (key, value) VALUES ('session_secret', $1) ON CONFLICT (key) DO NOTHING", [
      randomBytes(48).toString('base64'),
    ]);
    const row = await db.one<{ value: string }>("SELECT value FROM app_settings WHERE key = 'session_secret'");
    return Buffer.from(row!.value, 'base64');
  }
  const file = join(environment.dataDir, 'session-secret');
  try {
    const stored = await readFile(file);
    if (stored.length >= 32) return stored;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(48);
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
