/**
 * PostgreSQL backups with Debian's pgBackRest, shared by `npm run backup:setup` (scripts/backup-setup.ts)
 * and `npm run drill:restore` (scripts/drill-restore.ts): installing pgBackRest when missing, running
 * PostgreSQL's and pgBackRest's programs as the postgres user, writing the stanza's configuration, and
 * switching a cluster to WAL archiving into the repository (stanza-create, check, a full backup).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';

export const PG_BIN = '/usr/lib/postgresql/15/bin';
export const PGBACKREST = '/usr/bin/pgbackrest';

export const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 23)}] ${s}`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** pgBackRest from Debian's package, installed with apt-get when missing (as .ci/run installs Chromium). */
export function ensurePgbackrest(): void {
  if (existsSync(PGBACKREST)) return;
  log('Installing pgbackrest (apt-get) ...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args: string[]) => spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (run(['apt-get', 'install', '-y', '-qq', 'pgbackrest']).status !== 0) {
    run(['apt-get', 'update', '-qq']);
    if (run(['apt-get', 'install', '-y', '-qq', 'pgbackrest']).status !== 0) throw new Error('apt-get install pgbackrest failed');
  }
}

/** The postgres user's uid and gid: PostgreSQL refuses to run as root, and the repository is its. */
export function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user on this machine (apt-get install postgresql-15)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** `path` (a folder, made when missing, with its parents) owned by the postgres user when run as root. */
export function postgresFolder(path: string, mode = 0o700): void {
  mkdirSync(path, { recursive: true, mode });
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(path, uid, gid);
  }
}

/** A file written with `text`, owned by the postgres user when run as root. */
export function postgresFile(path: string, text: string, mode = 0o640): void {
  writeFileSync(path, text, { mode });
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(path, uid, gid);
  }
}

const asPostgresArgs = (program: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', program, ...args]] : [program, args];

/** Starts a long-running program as the postgres user (setpriv execs it: the child's pid is the program's), its output appended to `logFile`. */
export function spawnAsPostgres(program: string, args: string[], logFile: string): ChildProcess {
  const [cmd, argv] = asPostgresArgs(program, args);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  return child;
}

/**
 * Runs a program as the postgres user to its end; its output, or an error with it when it fails. Never
 * synchronously: the event loop keeps running (a blocked loop misses the server closing idle connections).
 */
export function runAsPostgres(program: string, args: string[], what = `${program} ${args.join(' ')}`): Promise<string> {
  const [cmd, argv] = asPostgresArgs(program, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => (code === 0 ? resolve(output) : reject(new Error(`${what} failed (exit ${code ?? signal}):\n${output.trim()}`))));
  });
}

export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, child?: ChildProcess, logFile?: string): Promise<void> {
  const tail = () => (logFile && existsSync(logFile) ? `:\n${readFileSync(logFile, 'utf8').slice(-3000)}` : '');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode})${tail()}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer within ${timeoutMs / 1000} s${tail()}`);
    await sleep(200);
  }
}

export interface StanzaConfig {
  /** The pgBackRest configuration file written (a section for the stanza, the repository in [global]). */
  configFile: string;
  stanza: string;
  /** The repository folder (repo1-path). */
  repo: string;
  /** The cluster's data folder (pg1-path). */
  pgdata: string;
  pgport: number;
  /** The folder of the cluster's Unix socket (pg1-socket-path). */
  socketDir: string;
  /** Full backups kept (repo1-retention-full); older ones and the WAL only they need are expired after each backup. */
  retentionFull: number;
  /** compress-type (gz, lz4, zst, bz2, none); unset: pgBackRest's default, gz. */
  compressType?: string;
  /** process-max: files copied and compressed at once (pgBackRest's default is 1). */
  processMax?: number;
  /** log-path, lock-path, spool-path: pgBackRest's own defaults (/var/log/pgbackrest, /tmp/pgbackrest, /var/spool/pgbackrest) when unset. */
  logPath?: string;
  lockPath?: string;
  spoolPath?: string;
}

/** One INI file as its sections, in order, each its key lines in order (comments kept as they are). */
function parseIni(text: string): { name: string; lines: string[] }[] {
  const sections: { name: string; lines: string[] }[] = [{ name: '', lines: [] }];
  for (const line of text.split('\n')) {
    const m = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (m) sections.push({ name: m[1], lines: [] });
    else sections[sections.length - 1].lines.push(line);
  }
  return sections;
}

/** Sets `key=value` in the section (replacing an uncommented line of that key, else appending). */
function setKey(section: { lines: string[] }, key: string, value: string): void {
  const i = section.lines.findIndex((l) => new RegExp(`^\\s*${key.replace(/[-]/g, '\\-')}\\s*=`).test(l));
  if (i >= 0) section.lines[i] = `${key}=${value}`;
  else {
    let end = section.lines.length;
    while (end > 0 && section.lines[end - 1].trim() === '') end--;
    section.lines.splice(end, 0, `${key}=${value}`);
  }
}

/**
 * Writes the stanza into the configuration file, keeping what else it holds (other stanzas, other
 * [global] settings, comments): [global] gets the repository, its retention and the paths given;
 * [stanza] the cluster's data folder, port and socket folder.
 */
export function writeStanzaConfig(c: StanzaConfig): void {
  const sections = existsSync(c.configFile) ? parseIni(readFileSync(c.configFile, 'utf8')) : [{ name: '', lines: [] }];
  const section = (name: string) => {
    let s = sections.find((x) => x.name === name);
    if (!s) {
      s = { name, lines: [] };
      sections.push(s);
    }
    return s;
  };
  const global = section('global');
  setKey(global, 'repo1-path', c.repo);
  setKey(global, 'repo1-retention-full', String(c.retentionFull));
  // a backup starts at once (an immediate checkpoint) rather than at the next scheduled one
  setKey(global, 'start-fast', 'y');
  if (c.compressType) setKey(global, 'compress-type', c.compressType);
  if (c.processMax) setKey(global, 'process-max', String(c.processMax));
  if (c.logPath) setKey(global, 'log-path', c.logPath);
  if (c.lockPath) setKey(global, 'lock-path', c.lockPath);
  if (c.spoolPath) setKey(global, 'spool-path', c.spoolPath);
  const stanza = section(c.stanza);
  setKey(stanza, 'pg1-path', c.pgdata);
  setKey(stanza, 'pg1-port', String(c.pgport));
  setKey(stanza, 'pg1-socket-path', c.socketDir);
  const text = sections
    .map((s) => (s.name === '' ? s.lines.join('\n') : `[${s.name}]\n${s.lines.join('\n')}`).replace(/\n+$/, ''))
    .filter((s) => s !== '')
    .join('\n\n');
  postgresFolder(dirname(c.configFile), 0o750);
  postgresFile(c.configFile, `${text}\n`);
}

/** The archive_command that pushes each finished WAL segment into the stanza's repository. */
export const archiveCommand = (c: Pick<StanzaConfig, 'configFile' | 'stanza'>) => `${PGBACKREST} --config=${c.configFile} --stanza=${c.stanza} archive-push %p`;

/** Runs `pgbackrest <command>` for the stanza as the postgres user; its output. */
export function pgbackrest(c: Pick<StanzaConfig, 'configFile' | 'stanza'>, command: string, args: string[] = []): Promise<string> {
  return runAsPostgres(PGBACKREST, [`--config=${c.configFile}`, `--stanza=${c.stanza}`, ...args, command], `pgbackrest ${command}`);
}

export interface SetupResult {
  /** archive_mode was off: the server had to be restarted (or must be, when `restart` was false). */
  restartNeeded: boolean;
  restarted: boolean;
  /** The full backup's label (e.g. 20261206-053301F), when one was taken. */
  backupLabel?: string;
  backupSeconds?: number;
}

/**
 * Switches the cluster at `url` (a superuser connection) to WAL archiving into the stanza and takes a
 * full backup: writes the configuration, sets archive_mode = on and archive_command with ALTER SYSTEM
 * (postgresql.auto.conf; wal_level must be replica or logical, PostgreSQL 15's default), reloads,
 * restarts the server when archive_mode changed and `restart` allows it (pg_ctl restart as the postgres
 * user: the server must have been started by pg_ctl or postgres itself, with its own postmaster.opts),
 * then stanza-create, check (a WAL segment is switched and must reach the repository) and a full backup.
 * When a restart is needed and not allowed it stops before stanza-create and says so.
 */
export async function setupBackups(
  url: string,
  c: StanzaConfig,
  options: { restart: boolean; backup: boolean; /** pg_ctl restart's log file (default /var/log/postgresql/pg_ctl-restart.log). */ restartLog?: string },
): Promise<SetupResult> {
  ensurePgbackrest();
  const setting = async (name: string) => (await sql<{ setting: string }>(url, 'SELECT setting FROM pg_settings WHERE name = $1', [name]))[0]?.setting;
  const walLevel = await setting('wal_level');
  if (walLevel === 'minimal') throw new Error("wal_level is minimal: WAL archiving needs replica (PostgreSQL 15's default); set it with ALTER SYSTEM SET wal_level = replica and restart");
  const dataDirectory = await setting('data_directory');
  if (dataDirectory && dataDirectory !== c.pgdata) throw new Error(`--pgdata ${c.pgdata} is not this server's data folder (${dataDirectory})`);
  postgresFolder(c.repo, 0o750);
  for (const p of [c.logPath, c.lockPath, c.spoolPath]) if (p) postgresFolder(p, 0o750);
  writeStanzaConfig(c);
  log(`Wrote the stanza "${c.stanza}" to ${c.configFile} (repository ${c.repo})`);

  const command = archiveCommand(c);
  const archiveModeWas = await setting('archive_mode');
  await sql(url, `ALTER SYSTEM SET archive_mode = 'on'`);
  await sql(url, `ALTER SYSTEM SET archive_command = '${command.replace(/'/g, "''")}'`);
  await sql(url, 'SELECT pg_reload_conf()');
  log(`archive_mode = on, archive_command = '${command}' (ALTER SYSTEM: ${c.pgdata}/postgresql.auto.conf)`);
  const restartNeeded = archiveModeWas !== 'on';
  let restarted = false;
  if (restartNeeded) {
    if (!options.restart) {
      log('archive_mode changes only when PostgreSQL restarts: restart it (e.g. systemctl restart postgresql@15-main), then run this again to create the stanza and take the first backup.');
      return { restartNeeded, restarted };
    }
    log('Restarting PostgreSQL (archive_mode changes only at a restart) ...');
    await runAsPostgres(`${PG_BIN}/pg_ctl`, ['restart', '-D', c.pgdata, '-m', 'fast', '-w', '-t', '60', '-l', options.restartLog ?? '/var/log/postgresql/pg_ctl-restart.log'], 'pg_ctl restart');
    await waitFor('PostgreSQL after the restart', async () => (await setting('archive_mode')) === 'on', 60_000);
    restarted = true;
  }
  await pgbackrest(c, 'stanza-create');
  log(`stanza-create ${c.stanza}: done`);
  await pgbackrest(c, 'check');
  log('check: WAL archiving into the repository works');
  if (!options.backup) return { restartNeeded, restarted };
  const t0 = Date.now();
  await pgbackrest(c, 'backup', ['--type=full']);
  const backupSeconds = (Date.now() - t0) / 1000;
  const info = JSON.parse(await pgbackrest(c, 'info', ['--output=json'])) as { backup: { label: string; type: string }[] }[];
  const backupLabel = info[0]?.backup.at(-1)?.label;
  log(`Full backup ${backupLabel ?? '?'} in ${backupSeconds.toFixed(1)} s`);
  return { restartNeeded, restarted, backupLabel, backupSeconds };
}
