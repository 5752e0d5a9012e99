/**
 * What the environment configures, shared by the server and the command-line tools: HOST (the
 * address the server listens on, default 127.0.0.1: this machine only), PORT (default 8080),
 * DATABASE_URL (a PostgreSQL server; unset = the embedded database in DATA_DIR/db), DATA_DIR
 * (default ./data), SESSION_SECRET (at least 32 characters; unset = generated once and kept),
 * TRUST_PROXY (the proxies whose X-Forwarded-For is believed; unset = none), BUSINESS_TIME_ZONE (the
 * IANA zone of the business day; default Asia/Colombo), CHANGE_REQUEST_EXPIRY_DAYS (default 7),
 * PENDING_REQUESTS_PER_MAKER (pending change requests one maker may have waiting; default 200),
 * SETTLEMENT_SCHEDULE (the business time the day's scheduled settlement is generated; default 07:30, off = never by itself),
 * MONEY_ACTION_APPROVAL_ABOVE_USD (large voids, refunds and manual transfers need a second person; unset = off),
 * DATABASE_REPLICA_URL (a streaming replica for dashboards, reports, lists and exports; unset = none),
 * REPLICA_MAX_LAG_MS (reads fall back to the primary past this lag; default 5000), REPLICA_CHECK_MS
 * (how often the replica is checked; default 1000), DATABASE_DIRECT_URL (the primary without a
 * transaction pooler, for what needs a session of its own: LISTEN; unset = DATABASE_URL),
 * METRICS_PORT, METRICS_HOST and METRICS_TOKEN (the Prometheus metrics; unset = none), SHUTDOWN_DRAIN_MS
 * (how long SIGTERM keeps answering as not ready before the server closes; default 5000, 0 with NODE_ENV=test),
 * OTEL_EXPORTER_OTLP_ENDPOINT (traces sent there over OTLP/HTTP; unset = no tracing).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULT_BUSINESS_TIME_ZONE, isValidTimeZone } from '../domain/businessTime';
import { DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS, DEFAULT_PENDING_REQUESTS_PER_MAKER } from '../domain/approvals';
import { openDb, pgErrorCode, type Db } from './db/db';
import { migrate, MigrationRefusal } from './db/migrate';
import type { MetricsSettings } from './observability/metrics';

export interface Environment {
  /** The address to listen on: 127.0.0.1 unless HOST says otherwise (0.0.0.0 or :: for every interface). */
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  sessionSecret?: string;
  /** See parseTrustProxy. */
  trustProxy?: readonly string[] | number;
  /** See readBusinessTimeZone. */
  businessTimeZone: string;
  /** See readChangeRequestExpiryDays. */
  changeRequestExpiryDays: number;
  /** See readPendingRequestsPerMaker. */
  pendingRequestsPerMaker: number;
  /** See parseSettlementSchedule. */
  settlementSchedule: SettlementSchedule;
  /** See parseMoneyApprovalAboveUsd. */
  moneyApprovalAboveUsd: number | null;
  /** DATABASE_REPLICA_URL: the read replica (src/server/db/readRouting.ts); only with DATABASE_URL. */
  replicaUrl?: string;
  /** DATABASE_DIRECT_URL: the primary reached directly (not through PgBouncer's transaction mode), for LISTEN. */
  directUrl?: string;
  /** REPLICA_MAX_LAG_MS and REPLICA_CHECK_MS (see readReplicaSettings). */
  replica?: { maxLagMs: number; checkMs: number };
  /** See readLogLevel. */
  logLevel: LogLevel;
  /** See readScryptN: undefined is the default cost. */
  scryptN?: number;
  /** See readMetricsSettings: undefined is no metrics. */
  metrics?: MetricsSettings;
  /** See readShutdownDrainMs. */
  shutdownDrainMs: number;
}

/** A reason the server (or a tool) will not start, said to the operator as it is: printed without a stack trace, exit code 1. */
export class StartupRefusal extends Error {
  override readonly name = 'StartupRefusal';
}

/** Loopback only: reaching the server from elsewhere is a decision (HOST=0.0.0.0, usually behind a TLS proxy). */
export const DEFAULT_HOST = '127.0.0.1';

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new StartupRefusal(`PORT: "${env.PORT}" is not a port number (0 to 65535)`);
  return {
    host: env.HOST?.trim() || DEFAULT_HOST,
    port,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    sessionSecret: env.SESSION_SECRET || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    businessTimeZone: readBusinessTimeZone(env),
    changeRequestExpiryDays: readChangeRequestExpiryDays(env),
    pendingRequestsPerMaker: readPendingRequestsPerMaker(env),
    settlementSchedule: parseSettlementSchedule(env.SETTLEMENT_SCHEDULE),
    moneyApprovalAboveUsd: parseMoneyApprovalAboveUsd(env.MONEY_ACTION_APPROVAL_ABOVE_USD),
    replicaUrl: env.DATABASE_REPLICA_URL || undefined,
    directUrl: env.DATABASE_DIRECT_URL || undefined,
    replica: readReplicaSettings(env),
    logLevel: readLogLevel(env),
    scryptN: readScryptN(env),
    metrics: readMetricsSettings(env),
    shutdownDrainMs: readShutdownDrainMs(env),
  };
}

/**
 * METRICS_PORT (a port of its own for `GET /metrics`, from 1 to 65535, or 0 for any free one),
 * METRICS_HOST (its address; default HOST, else 127.0.0.1) and METRICS_TOKEN (`GET /metrics` on the
 * main port, and on METRICS_PORT too, needs `Authorization: Bearer <token>`; at least 16 characters
 * without spaces). Neither METRICS_PORT nor METRICS_TOKEN: no metrics endpoint at all (undefined).
 * Anything else stops the start.
 */
export function readMetricsSettings(env: NodeJS.ProcessEnv = process.env): MetricsSettings | undefined {
  const portText = (env.METRICS_PORT ?? '').trim();
  const token = (env.METRICS_TOKEN ?? '').trim();
  if (portText === '' && token === '') return undefined;
  const settings: MetricsSettings = {};
  if (portText !== '') {
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535) throw new StartupRefusal(`METRICS_PORT: "${portText}" is not a port number (0 to 65535)`);
    settings.port = port;
    settings.host = env.METRICS_HOST?.trim() || env.HOST?.trim() || DEFAULT_HOST;
  }
  if (token !== '') {
    if (token.length < 16 || /\s/.test(token)) throw new StartupRefusal('METRICS_TOKEN: at least 16 characters, without spaces (e.g. openssl rand -hex 24)');
    settings.token = token;
  }
  return settings;
}

/** The default drain on SIGTERM: longer than a balancer needs to see two failed checks at a 2 s interval. */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 5000;

/**
 * SHUTDOWN_DRAIN_MS: on SIGTERM the server answers /health/ready (and /health) with 503 for this many
 * milliseconds while it goes on serving, so a load balancer takes it out before it stops listening;
 * then it finishes the requests in progress and exits. Default 5000, 0 with NODE_ENV=test; a whole
 * number from 0 to 600000, anything else stops the start.
 */
export function readShutdownDrainMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = (env.SHUTDOWN_DRAIN_MS ?? '').trim();
  if (text === '') return env.NODE_ENV === 'test' ? 0 : DEFAULT_SHUTDOWN_DRAIN_MS;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > 600_000) throw new StartupRefusal(`SHUTDOWN_DRAIN_MS: "${text}" is not a whole number of milliseconds from 0 to 600000`);
  return ms;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * LOG_LEVEL: the least severe line the server logs (one JSON line per request and its answer at
 * `info`, the default); `warn` keeps the warnings and errors only. Anything else stops the start.
 */
export function readLogLevel(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const text = (env.LOG_LEVEL ?? '').trim();
  if (text === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === text);
  if (!level) throw new StartupRefusal(`LOG_LEVEL: "${text}" is not one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/**
 * SCRYPT_N: the scrypt cost of the password hashes this server makes (the demo accounts' included),
 * for test runs only: a power of two from 1024 to 2^20, and only with NODE_ENV=test (the browser tests
 * sign in about seventy times; 2^17, the default, costs ~0.27 s of CPU a sign-in). Elsewhere it stops
 * the start rather than weaken the passwords a real server stores. A hash keeps its own cost, so one
 * made at a low cost verifies at that cost wherever it is read.
 */
export function readScryptN(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = (env.SCRYPT_N ?? '').trim();
  if (text === '') return undefined;
  if (env.NODE_ENV !== 'test') throw new StartupRefusal('SCRYPT_N lowers the cost of the stored password hashes and is for tests only: it needs NODE_ENV=test');
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1024 || n > 2 ** 20 || (n & (n - 1)) !== 0) throw new StartupRefusal(`SCRYPT_N: "${text}" is not a power of two from 1024 to 1048576`);
  return n;
}

/**
 * REPLICA_MAX_LAG_MS (default 5000) and REPLICA_CHECK_MS (default 1000): whole numbers of
 * milliseconds, the lag limit at least 100, the check interval from 100 to 60000; else the start stops.
 */
export function readReplicaSettings(env: NodeJS.ProcessEnv = process.env): { maxLagMs: number; checkMs: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const text = (env[name] ?? '').trim();
    if (text === '') return fallback;
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new StartupRefusal(`${name}: "${text}" is not a whole number of milliseconds from ${min} to ${max}`);
    return value;
  };
  return { maxLagMs: read('REPLICA_MAX_LAG_MS', 5000, 100, 86_400_000), checkMs: read('REPLICA_CHECK_MS', 1000, 100, 60_000) };
}

/**
 * CHANGE_REQUEST_EXPIRY_DAYS: a pending change request older than this many days expires (its record
 * is unlocked, the maker sees it as expired). Unset or empty: 7. A whole number from 1 to 365; anything
 * else stops the start.
 */
export function readChangeRequestExpiryDays(env: NodeJS.ProcessEnv = process.env): number {
  const text = (env.CHANGE_REQUEST_EXPIRY_DAYS ?? '').trim();
  if (text === '') return DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS;
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > 365) {
    throw new StartupRefusal(`CHANGE_REQUEST_EXPIRY_DAYS: "${text}" is not a whole number of days from 1 to 365`);
  }
  return days;
}

/**
 * PENDING_REQUESTS_PER_MAKER: how many pending change requests one maker may have waiting (a new one
 * past it is refused, 422), and as many large money-action requests besides. Unset or empty: 200. A
 * whole number from 1 to 100000; anything else stops the start.
 */
export function readPendingRequestsPerMaker(env: NodeJS.ProcessEnv = process.env): number {
  const text = (env.PENDING_REQUESTS_PER_MAKER ?? '').trim();
  if (text === '') return DEFAULT_PENDING_REQUESTS_PER_MAKER;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 100_000) throw new StartupRefusal(`PENDING_REQUESTS_PER_MAKER: "${text}" is not a whole number from 1 to 100000`);
  return n;
}

/**
 * BUSINESS_TIME_ZONE: the IANA zone of the business day (src/domain/businessTime.ts), read once at
 * start-up; unset or empty, Asia/Colombo. A name the runtime does not know (a typo, an abbreviation
 * such as IST, an offset) stops the start: guessing a zone would move every day boundary silently.
 */
export function readBusinessTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  const zone = (env.BUSINESS_TIME_ZONE ?? '').trim();
  if (zone === '') return DEFAULT_BUSINESS_TIME_ZONE;
  if (!isValidTimeZone(zone)) {
    throw new StartupRefusal(`BUSINESS_TIME_ZONE: "${zone}" is not an IANA time zone name (for example Asia/Colombo, UTC or America/New_York)`);
  }
  return zone;
}

export const DEFAULT_SETTLEMENT_SCHEDULE = '07:30';
export const SCHEDULER_TICK_MS = 30_000;

/** Minutes after the business day's midnight, or null: no scheduled generation. */
export type SettlementSchedule = { hour: number; minute: number } | null;

/**
 * SETTLEMENT_SCHEDULE: a business time of day `HH:MM` (24-hour, 00:00 to 23:59); unset or empty, 07:30;
 * `off`: the server never generates by itself (the button only). Anything else stops the start.
 */
export function parseSettlementSchedule(value: string | undefined): SettlementSchedule {
  const text = (value ?? '').trim();
  if (text === '') return parseSettlementSchedule(DEFAULT_SETTLEMENT_SCHEDULE);
  if (text.toLowerCase() === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!m) throw new StartupRefusal(`SETTLEMENT_SCHEDULE: "${text}" is not a time of day HH:MM (24-hour, 00:00 to 23:59, e.g. 07:30) or off`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/**
 * MONEY_ACTION_APPROVAL_ABOVE_USD: a void, refund or manual fund transfer of a transaction whose USD
 * amount is above this becomes a request a second person approves (src/server/moneyApprovals.ts).
 * Unset or empty: off, every such action runs at once (the specification's behaviour). A number 0 or
 * more (0: every one needs approval); anything else stops the start.
 */
export function parseMoneyApprovalAboveUsd(value: string | undefined): number | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) {
    throw new StartupRefusal(`MONEY_ACTION_APPROVAL_ABOVE_USD: "${text}" is not an amount in US dollars (a number 0 or more with at most 2 decimals, e.g. 10000), or unset for off`);
  }
  return Number(text);
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

/**
 * Opens the configured database and brings its schema up to date. The embedded database's folder
 * (DATA_DIR: the database files and the generated session secret) is the owner's only: made 0700,
 * and tightened before and after opening (folders 0700, files 0600), so a folder an older version
 * made readable or writable by others is fixed at start-up, and so are the files the database has
 * just made under a lax umask (the server and the tools also set umask 077 for the files it makes later).
 */
export async function openMigratedDb(environment: Environment): Promise<Db> {
  if (!environment.databaseUrl) {
    await mkdir(environment.dataDir, { recursive: true, mode: 0o700 });
    await restrictToOwner(environment.dataDir);
  }
  const db = await openDb(environment.databaseUrl ? { databaseUrl: environment.databaseUrl, directUrl: environment.directUrl } : { dataDir: join(environment.dataDir, 'db') });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    if (err instanceof MigrationRefusal) throw new StartupRefusal(err.message);
    // PostgreSQL's "no schema has been selected to create in": the search_path names no schema that exists
    if (environment.databaseUrl && pgErrorCode(err) === '3F000') throw new StartupRefusal(noSchemaMessage(environment.databaseUrl));
    throw err;
  }
  if (!environment.databaseUrl) await restrictToOwner(environment.dataDir);
  return db;
}

/** Why the tables cannot be made: the schema DATABASE_URL's search_path names does not exist (the message names it, never the password). */
export function noSchemaMessage(databaseUrl: string): string {
  let options = '';
  try {
    options = new URL(databaseUrl).searchParams.get('options') ?? '';
  } catch {
    // not a URL: the message goes without the name
  }
  const schema = /search_path\s*=\s*([^\s,]+)/.exec(options)?.[1];
  return schema
    ? `DATABASE_URL: its search_path names the schema "${schema}", which does not exist in that database: create it first (CREATE SCHEMA ${schema}) or name another`
    : 'DATABASE_URL: the database has no schema to make the tables in (its search_path names none that exists): create one first or name another';
}

/**
 * Folders 0700 and files 0600 from `path` down (symbolic links are left alone: their mode is not
 * theirs to change; a file the database removes meanwhile is skipped).
 */
export async function restrictToOwner(path: string): Promise<void> {
  const st = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!st || st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== 0o700) await chmod(path, 0o700);
    for (const entry of await readdir(path)) await restrictToOwner(join(path, entry));
  } else if ((st.mode & 0o777) !== 0o600) {
    await chmod(path, 0o600);
  }
}

/**
 * The token signing secret: SESSION_SECRET when set (it must have 32 characters or more); otherwise a
 * generated one, kept in DATA_DIR/session-secret for the embedded database, or in app_settings on a
 * PostgreSQL server (so every server process signs with the same key).
 */
export async function loadTokenSecret(environment: Environment, db: Db): Promise<Uint8Array> {
  if (environment.sessionSecret !== undefined) {
    if (environment.sessionSecret.length < 32) throw new StartupRefusal('SESSION_SECRET must be at least 32 characters long');
    return new TextEncoder().encode(environment.sessionSecret);
  }
  if (environment.databaseUrl) {
    await db.query("INSERT INTO app_settings (key, value) VALUES ('session_secret', $1) ON CONFLICT (key) DO NOTHING", [randomBytes(48).toString('base64')]);
    const row = await db.one<{ value: string }>("SELECT value FROM app_settings WHERE key = 'session_secret'");
    return Buffer.from(row!.value, 'base64');
  }
  const file = join(environment.dataDir, 'session-secret');
  try {
    const stored = await readFile(file);
    if (stored.length >= 32) {
      await restrictToOwner(file);
      return stored;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(48);
  await writeFile(file, secret, { mode: 0o600 });
  // mode applies to a new file only: one left behind empty or short by an older version is tightened here
  await chmod(file, 0o600);
  return secret;
}
