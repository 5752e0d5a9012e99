/**
 * `npm run cluster [-- --servers 2 --port 8090]`: the console past one machine, on one machine.
 * `npm run cluster -- --chaos [--duration 45 --concurrency 24]`: the same, then the load mix under failure.
 * `npm run cluster -- --roll [--duration 60 --concurrency 24]`: the same, then a rolling restart of the
 *   app servers under the load mix; exits 1 if any request failed.
 * `npm run cluster -- --test`: steps 1 to 3 only, then the API tests of tests/replica against them
 *   (`vitest run --project replica`, its exit code the script's): .ci/run runs it when PostgreSQL is there.
 * `--no-prometheus`: without step 6 (the reports then say the metrics are unavailable).
 *
 * Starts, each piece from Debian's packages or PostgreSQL 15's own binaries (installed with apt-get when
 * missing, as CI installs Chromium):
 *   1. a database of its own (`remit_cluster`, made afresh) on the primary it is given
 *      (CLUSTER_PRIMARY_URL, default postgres://postgres@127.0.0.1:5432/postgres: the local PostgreSQL);
 *   2. a streaming replica of that primary made with pg_basebackup (-R, WAL streamed) in a data folder
 *      under /tmp, started with /usr/lib/postgresql/15/bin/postgres as the postgres user on a free port;
 *   3. PgBouncer in transaction pooling mode in front of each (the app servers reach both only through it;
 *      LISTEN uses DATABASE_DIRECT_URL, the primary itself);
 *   4. `--servers` app servers (the built console, src/server/main.ts; dist/ is built when missing),
 *      the first migrating and seeding the demo data, all with one SESSION_SECRET, each serving its
 *      Prometheus metrics on a port of its own (METRICS_PORT) and draining for SHUTDOWN_DRAIN_MS after
 *      SIGTERM (`/health/ready` answers 503 meanwhile);
 *   5. HAProxy balancing them round-robin, checking `GET /health/ready` every second (every 250 ms once
 *      a check failed; down after 3 failed checks, each given 3 s, up after 2 good ones), a server
 *      connection per request, a request refused at connection re-sent to another server; a GET whose
 *      server closed without an answer, or answered 502/503/504, re-sent too; a POST that reached a
 *      server never (it may have been done). Its own Prometheus exporter on a port of its own;
 *   6. prometheus-postgres-exporter in front of the primary, and Prometheus (Debian's `prometheus`,
 *      with a generated configuration and a storage folder under /tmp, on a free port) scraping the app
 *      servers and HAProxy every second and the exporter every 2 s. Optional: when it cannot be
 *      installed, the cluster runs without it.
 * Prints the URLs and waits for Ctrl+C; on Ctrl+C, on an error, or at the end of --chaos or --roll it
 * stops everything it started, removes its folder under /tmp and drops its database.
 *
 * --chaos: signs in load users and makes pending change requests (as scripts/load.ts does), runs the
 * load mix of scripts/load.ts (list, filter, export, log-export, approve) through HAProxy for
 * `--duration` seconds, kills (SIGKILL) the last app server at a third of it and the replica's
 * PostgreSQL (SIGKILL) at two thirds, and prints the requests before, during and after each kill,
 * which failed and why, and checks every write the load made against the database: each approve
 * against its change request and the role it creates, each log-export against its activity log row,
 * and each money action (manual fund transfers, and refunds racing them on the same transactions)
 * against the payment network's own log (the simulator's PAYMENT_SIMULATOR_LOG, written by every app
 * server): every operation the network made is recorded in the database, every recorded one was made
 * by the network, and no transaction's money moved twice. A money request that failed in transit is
 * sent again (as a person would press again) until it gets an answer. At the end it prints what
 * Prometheus saw in each window (scripts/clusterMetrics.ts).
 *
 * --roll: the same load and the same checks of every write; a quarter of `--duration` in, it restarts
 * the app servers one at a time: SIGTERM (the server drains: /health/ready 503, HAProxy takes it out
 * of the rotation, in-flight requests finish, it exits), a replacement on the same port with the same
 * settings, and the next one only once HAProxy has the replacement UP (its stats socket). The load
 * goes on for a quarter of `--duration` after the last one (and at least `--duration` in all). Prints
 * each server's time out of the rotation, the requests before, during and after, Prometheus's view,
 * and exits 1 when a request failed or a write was lost.
 */
import { EXPECTED, MONEY_WEIGHTS, loadMix, type Kind } from './loadMix';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { subDays } from 'date-fns';
import { benchToday } from './benchData';
import pg from 'pg';
import { openDb, type Db } from '../src/server/db/db';
import { hashPassword } from '../src/server/auth/passwords';
import { freePort } from '../src/server/freePort';
import { numberArg } from './benchArgs';
import { metricsReport, prometheusConfig, reportReadyAt, type MetricsWindow } from './clusterMetrics';

const CHAOS = process.argv.includes('--chaos');
/** --roll: a rolling restart of the app servers under the load mix. */
const ROLL = process.argv.includes('--roll');
/** --test: the primary's database, the replica and their PgBouncers only, then the `replica` test project against them. */
const TEST = process.argv.includes('--test');
/** --no-prometheus: neither Prometheus nor PostgreSQL's exporter. */
const PROMETHEUS = !process.argv.includes('--no-prometheus');
const SERVERS = Math.max(2, numberArg('servers', 2));
const DURATION = numberArg('duration', ROLL ? 60 : 45);
const CONCURRENCY = numberArg('concurrency', 24);
const LOAD_USERS = 40;
const PENDING = 4000;
const PASSWORD = 'Load@Pass1';
const PRIMARY_URL = process.env.CLUSTER_PRIMARY_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'remit_cluster';
const PG_BIN = '/usr/lib/postgresql/15/bin';

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Started {
  name: string;
  child: ChildProcess;
  /** How to stop it nicely at the end. */
  stopSignal: NodeJS.Signals;
}
const started: Started[] = [];
let folder: string | undefined;
let databaseMade = false;
const primary = new URL(PRIMARY_URL);
const primaryHost = primary.hostname || '127.0.0.1';
const primaryPort = Number(primary.port || 5432);
const primaryUser = decodeURIComponent(primary.username || 'postgres');

/**
 * pgbouncer, haproxy: Debian's packages, installed when missing. With `optional` (prometheus and
 * prometheus-postgres-exporter, not for --test) those too, but a failure to install them is said and
 * the cluster runs without them.
 */
function ensurePackages(optional: boolean): void {
  const absent = (list: string[][]) => list.filter(([, bin]) => !existsSync(bin)).map(([pkg]) => pkg);
  const missing = absent([
    ['pgbouncer', '/usr/sbin/pgbouncer'],
    ['haproxy', '/usr/sbin/haproxy'],
  ]);
  const missingOptional = optional ? absent(OPTIONAL_PACKAGES) : [];
  if (!existsSync(`${PG_BIN}/pg_basebackup`)) throw new Error(`PostgreSQL 15's binaries are not in ${PG_BIN} (apt-get install postgresql-15)`);
  const all = [...missing, ...missingOptional];
  if (all.length === 0) return;
  log(`Installing ${all.join(', ')} (apt-get) ...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args: string[]) => spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const install = (pkgs: string[]) => run(['apt-get', 'install', '-y', '--no-install-recommends', ...pkgs]).status === 0;
  if (install(all)) return;
  run(['apt-get', 'update']);
  if (install(all)) return;
  if (missing.length > 0 && !install(missing)) throw new Error(`apt-get install ${missing.join(' ')} failed`);
  log(`Could not install ${missingOptional.join(', ')}: the cluster runs without Prometheus (no metrics)`);
}

/** Debian's packages for the metrics (step 6) and the binary of each. */
const OPTIONAL_PACKAGES = [
  ['prometheus', '/usr/bin/prometheus'],
  ['prometheus-postgres-exporter', '/usr/bin/prometheus-postgres-exporter'],
];

/** The postgres user's uid and gid: the replica's PostgreSQL and PgBouncer refuse to run as root. */
function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user on this machine');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs a program as the postgres user (setpriv execs it: the child's pid is the program's own). */
function asPostgres(program: string, args: string[], logFile: string): ChildProcess {
  const out = createWriteStream(logFile, { flags: 'a' });
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn('setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', program, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  return child;
}

function track(name: string, child: ChildProcess, stopSignal: NodeJS.Signals = 'SIGTERM'): Started {
  const s = { name, child, stopSignal };
  started.push(s);
  return s;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, child?: ChildProcess, logFile?: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})${logFile ? `:\n${tail(logFile)}` : ''}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs / 1000} s${logFile ? `:\n${tail(logFile)}` : ''}`);
    await sleep(300);
  }
}

const tail = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').slice(-3000) : '');

async function sql(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

const urlOf = (port: number, database: string, host = '127.0.0.1', user = 'postgres') => `postgres://${encodeURIComponent(user)}@${host}:${port}/${database}`;

/** The replica: pg_basebackup of the primary with -R (standby.signal, primary_conninfo), its own config, started on `port`. */
async function startReplica(dir: string, port: number): Promise<{ child: ChildProcess; dataDir: string }> {
  const dataDir = join(dir, 'replica');
  const logFile = join(dir, 'replica.log');
  log(`pg_basebackup of ${primaryHost}:${primaryPort} into ${dataDir} ...`);
  const t0 = Date.now();
  const baseBackup = async () => {
    const backup = asPostgres(`${PG_BIN}/pg_basebackup`, ['-h', primaryHost, '-p', String(primaryPort), '-U', primaryUser, '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast'], logFile);
    let said = '';
    backup.stderr?.on('data', (d) => (said += d));
    const code = await new Promise<number | null>((r) => backup.on('close', r));
    return { code, said };
  };
  let backup = await baseBackup();
  if (backup.code !== 0 && /no pg_hba\.conf entry for replication connection/.test(backup.said) && allowLocalReplication()) {
    rmSync(dataDir, { recursive: true, force: true });
    backup = await baseBackup();
  }
  if (backup.code !== 0) throw new Error(`pg_basebackup failed (${backup.code}):\n${backup.said}`);
  log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // a hot standby needs these at least as high as the primary's
  const settings = (
    await sql(
      PRIMARY_URL,
      `SELECT name, setting FROM pg_settings WHERE name IN ('max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction')`,
    )
  ).rows as { name: string; setting: string }[];
  // Debian keeps postgresql.conf and pg_hba.conf in /etc: the copy has none, so it gets its own
  writeFileSync(
    join(dataDir, 'postgresql.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${dir}'`,
      'hot_standby = on',
      'hot_standby_feedback = on',
      'shared_buffers = 128MB',
      'logging_collector = off',
      ...settings.map((s) => `${s.name} = ${s.setting}`),
    ].join('\n') + '\n',
  );
  writeFileSync(join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  writeFileSync(join(dataDir, 'pg_ident.conf'), '');
  const { uid, gid } = postgresIds();
  for (const f of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) {
    chownSync(join(dataDir, f), uid, gid);
    chmodSync(join(dataDir, f), 0o600);
  }
  const child = asPostgres(`${PG_BIN}/postgres`, ['-D', dataDir], logFile);
  track('replica PostgreSQL', child, 'SIGINT');
  await waitFor('the replica', async () => (await sql(urlOf(port, DB_NAME), 'SELECT pg_is_in_recovery() AS r')).rows[0].r === true, 120_000, child, logFile);
  return { child, dataDir };
}

/**
 * A local primary whose pg_hba.conf refuses replication connections (Debian's default allows them only
 * through the socket with peer authentication): one line lets the postgres user replicate over
 * 127.0.0.1 with the authentication the file already uses for 127.0.0.1, then the configuration is
 * reloaded. Said on the console; the line stays (a replica needs it every time). False: not possible here.
 */
function allowLocalReplication(): boolean {
  if (!['127.0.0.1', 'localhost'].includes(primaryHost)) return false;
  const hba = spawnSync('psql', [PRIMARY_URL, '-Atc', 'SHOW hba_file'], { encoding: 'utf8' }).stdout.trim();
  if (!hba || !existsSync(hba)) return false;
  const text = readFileSync(hba, 'utf8');
  const method = /^host\s+all\s+all\s+127\.0\.0\.1\/32\s+(\S+)/m.exec(text)?.[1] ?? 'scram-sha-256';
  const line = `host replication ${primaryUser} 127.0.0.1/32 ${method}`;
  log(`The primary refuses replication connections: adding "${line}" to ${hba} and reloading its configuration`);
  writeFileSync(hba, `${text.endsWith('\n') ? text : `${text}\n`}# npm run cluster (scripts/cluster.ts): the streaming replica's pg_basebackup and WAL stream\n${line}\n`);
  return spawnSync('psql', [PRIMARY_URL, '-Atc', 'SELECT pg_reload_conf()'], { encoding: 'utf8' }).status === 0;
}

/** PgBouncer in transaction mode in front of one PostgreSQL; the app servers reach database `remit` through it. */
async function startPgBouncer(dir: string, name: string, port: number, target: { host: string; port: number; user: string }): Promise<string> {
  const ini = join(dir, `${name}.ini`);
  const users = join(dir, `${name}.users`);
  const logFile = join(dir, `${name}.log`);
  writeFileSync(users, `"${target.user}" ""\n`);
  writeFileSync(
    ini,
    [
      '[databases]',
      `remit = host=${target.host} port=${target.port} dbname=${DB_NAME} user=${target.user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits',
      // a PostgreSQL that went away answers in seconds, not after the default 2 minutes
      'server_connect_timeout = 3',
      'server_login_retry = 1',
      'query_wait_timeout = 10',
    ].join('\n') + '\n',
  );
  const { uid, gid } = postgresIds();
  for (const f of [ini, users]) chownSync(f, uid, gid);
  const child = asPostgres('/usr/sbin/pgbouncer', [ini], logFile);
  track(`PgBouncer ${name}`, child, 'SIGINT');
  const url = urlOf(port, 'remit');
  await waitFor(`PgBouncer ${name}`, async () => (await sql(url, 'SELECT 1 AS one')).rows.length === 1, 30_000, child, logFile);
  return url;
}

interface AppServer {
  name: string;
  port: number;
  /** Where it serves its Prometheus metrics (METRICS_PORT). */
  metricsPort: number;
  child: ChildProcess;
  logFile: string;
}

/** The app servers' readiness: 200 while serving, 503 while draining after SIGTERM (and while the primary is unreachable). */
const READY_PATH = '/health/ready';

/**
 * HAProxy's checks: every CHECK_MS, every FAST_CHECK_MS once a check failed, down after FALL failures.
 * A server that starts draining answers 503 at once and leaves the rotation within about
 * CHECK_MS + (FALL - 1) * FAST_CHECK_MS; its drain (SHUTDOWN_DRAIN_MS: that, one check timeout and a
 * second to spare) lasts longer, so no request reaches it after it stops listening. A dead server
 * refuses the check's connection at once, so it is dropped as fast. A slow server is not a dead one:
 * with one server left carrying the whole load of a 2-core machine, /health/ready took over a second,
 * and a 1 s check timeout with 2 failures marked the last server down (every client got 503, "no
 * server is available"): hence 3 s and 3 failures.
 */
const CHECK_MS = 1000;
const FAST_CHECK_MS = 250;
const FALL = 3;
const CHECK_TIMEOUT_MS = 3000;
const DRAIN_MS = CHECK_MS + (FALL - 1) * FAST_CHECK_MS + CHECK_TIMEOUT_MS + 1000;

/**
 * App server `n`, on a free port (or the given ones: a replacement takes its predecessor's ports), its
 * output appended to app<n>.log; resolves once it answers /health/ready 200.
 */
async function startAppServer(dir: string, n: number, env: Record<string, string>, ports?: { port: number; metricsPort: number }): Promise<AppServer> {
  const port = ports?.port ?? (await freePort());
  const metricsPort = ports?.metricsPort ?? (await freePort());
  const logFile = join(dir, `app${n}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  // stopped at the end with SIGINT: it closes at once (SIGTERM would drain first)
  track(`app server ${n}`, child, 'SIGINT');
  await waitFor(`app server ${n}`, async () => (await fetch(`http://127.0.0.1:${port}${READY_PATH}`)).status === 200, 180_000, child, logFile);
  return { name: `app${n}`, port, metricsPort, child, logFile };
}

/** Whether this HAProxy was built with its Prometheus exporter (Debian's is: USE_PROMEX). */
function haproxyHasPrometheus(): boolean {
  return /prometheus-exporter/.test(spawnSync('/usr/sbin/haproxy', ['-vv'], { encoding: 'utf8' }).stdout ?? '');
}

async function startHaproxy(dir: string, port: number, apps: AppServer[], metricsPort: number | undefined): Promise<{ url: string; socket: string; logFile: string }> {
  const cfg = join(dir, 'haproxy.cfg');
  const socket = join(dir, 'haproxy.sock');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 4000',
      `  stats socket ${socket} mode 600 level admin`,
      // one line a request on HAProxy's output (haproxy.log): the failed ones are printed at the end of a run
      '  log stdout format raw local0',
      'defaults',
      '  mode http',
      '  log global',
      '  option httplog',
      '  option dontlog-normal',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      `  timeout check ${CHECK_TIMEOUT_MS}ms`,
      // A request that could not be sent (connection refused: a server that just died, not yet marked
      // down) is re-sent, to another server (redispatch), whatever its method: it never reached a server.
      // A GET is also re-sent when its server closed without an answer, answered garbage or nothing in
      // time, or 502/503/504 (L7 retries): reading twice is harmless. A POST that reached a server is
      // never re-sent: it may have been done (an approval, a transfer), and only the client can ask.
      '  retries 2',
      '  option redispatch',
      '  retry-on conn-failure empty-response junk-response response-timeout 502 503 504',
      // a new server connection per request: a request meant for a server that has just died meets a
      // refused connection (re-sent elsewhere) instead of a kept-alive connection that dies under it
      '  option http-server-close',
      'frontend console',
      `  bind 127.0.0.1:${port}`,
      '  default_backend apps',
      ...(metricsPort ? ['frontend metrics', `  bind 127.0.0.1:${metricsPort}`, '  http-request use-service prometheus-exporter if { path /metrics }', '  no log'] : []),
      'backend apps',
      '  balance roundrobin',
      '  http-request disable-l7-retry if !METH_GET',
      `  option httpchk GET ${READY_PATH}`,
      '  http-check expect status 200',
      '  http-response set-header x-app-server %s',
      // No on-marked-down shutdown-sessions: a draining server's in-flight requests must finish (and a
      // dead server's were cut already); being marked down only stops new requests, which is the point.
      `  default-server inter ${CHECK_MS}ms fastinter ${FAST_CHECK_MS}ms downinter ${CHECK_MS}ms fall ${FALL} rise 2`,
      ...apps.map((a) => `  server ${a.name} 127.0.0.1:${a.port} check`),
    ].join('\n') + '\n',
  );
  const logFile = join(dir, 'haproxy.log');
  const out = createWriteStream(logFile, { flags: 'a' });
  const check = spawnSync('/usr/sbin/haproxy', ['-c', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refuses its configuration:\n${check.stdout}${check.stderr}`);
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  track('HAProxy', child, 'SIGTERM');
  const url = `http://127.0.0.1:${port}`;
  await waitFor('HAProxy', async () => (await fetch(`${url}/health`)).status === 200, 30_000, child, logFile);
  return { url, socket, logFile };
}

/**
 * prometheus-postgres-exporter on a free port, reading the primary (`directUrl`, no pooler); its
 * address, or undefined when it is not installed or does not start (said on the console).
 */
async function startPostgresExporter(dir: string, directUrl: string): Promise<string | undefined> {
  const bin = '/usr/bin/prometheus-postgres-exporter';
  if (!existsSync(bin)) return undefined;
  const port = await freePort();
  const logFile = join(dir, 'postgres-exporter.log');
  const out = createWriteStream(logFile, { flags: 'a' });
  const dsn = new URL(directUrl);
  dsn.searchParams.set('sslmode', 'disable');
  const child = spawn(bin, [`--web.listen-address=127.0.0.1:${port}`, '--disable-settings-metrics'], { env: { ...process.env, DATA_SOURCE_NAME: dsn.toString() }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  track('PostgreSQL exporter', child, 'SIGTERM');
  try {
    await waitFor('prometheus-postgres-exporter', async () => /^pg_up 1$/m.test(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()), 30_000, child, logFile);
  } catch (err) {
    log(`PostgreSQL's exporter did not start: ${err instanceof Error ? err.message : String(err)}`);
    child.kill('SIGKILL');
    return undefined;
  }
  return `127.0.0.1:${port}`;
}

/**
 * Prometheus (Debian's /usr/bin/prometheus) with a generated configuration and its storage under
 * `dir`, on a free port; its URL once ready, or undefined when it is not installed or does not start.
 */
async function startPrometheus(dir: string, config: string): Promise<string | undefined> {
  const bin = '/usr/bin/prometheus';
  if (!existsSync(bin)) return undefined;
  const port = await freePort();
  const cfg = join(dir, 'prometheus.yml');
  writeFileSync(cfg, config);
  const logFile = join(dir, 'prometheus.log');
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(
    bin,
    [`--config.file=${cfg}`, `--storage.tsdb.path=${join(dir, 'prometheus-data')}`, `--web.listen-address=127.0.0.1:${port}`, '--storage.tsdb.retention.time=1d', '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  track('Prometheus', child, 'SIGTERM');
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor('Prometheus', async () => (await fetch(`${url}/-/ready`)).status === 200, 60_000, child, logFile);
  } catch (err) {
    log(`Prometheus did not start: ${err instanceof Error ? err.message : String(err)}`);
    child.kill('SIGKILL');
    return undefined;
  }
  return url;
}

/** Prometheus's targets and whether each is up (its /api/v1/targets), e.g. "app 2/2 up, haproxy 1/1 up". */
async function targetHealth(url: string): Promise<string> {
  const json = (await (await fetch(`${url}/api/v1/targets`)).json()) as { data: { activeTargets: { labels: { job: string }; health: string }[] } };
  const jobs = new Map<string, { up: number; all: number }>();
  for (const t of json.data.activeTargets) {
    const j = jobs.get(t.labels.job) ?? { up: 0, all: 0 };
    j.all++;
    if (t.health === 'up') j.up++;
    jobs.set(t.labels.job, j);
  }
  return [...jobs].map(([job, j]) => `${job} ${j.up}/${j.all} up`).join(', ');
}

/** HAProxy's view of each server (UP, DOWN, ...), from its stats socket. */
function serverStates(socket: string): Promise<Map<string, string>> {
  return new Promise((resolveStates, reject) => {
    const conn = connect(socket);
    let text = '';
    conn.on('data', (d) => (text += d));
    conn.on('error', reject);
    conn.on('end', () => {
      const states = new Map<string, string>();
      for (const line of text.split('\n')) {
        const cols = line.split(',');
        if (cols[0] === 'apps' && cols[1] !== 'BACKEND') states.set(cols[1], cols[17]);
      }
      resolveStates(states);
    });
    conn.write('show stat\n');
  });
}

async function stopAll(): Promise<void> {
  for (const s of [...started].reverse()) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) continue;
    s.child.kill(s.stopSignal);
    const gone = await Promise.race([new Promise((r) => s.child.once('exit', () => r(true))), sleep(10_000).then(() => false)]);
    if (!gone) {
      log(`${s.name} did not stop within 10 s of its ${s.stopSignal}: SIGKILL`);
      s.child.kill('SIGKILL');
    }
  }
  started.length = 0;
  if (databaseMade) {
    await sql(PRIMARY_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch((err: unknown) => console.error(`could not drop ${DB_NAME}: ${String(err)}`));
    databaseMade = false;
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

// ---------------------------------------------------------------- the load of --chaos and --roll

interface Outcome {
  kind: Kind;
  start: number;
  end: number;
  status?: number;
  error?: string;
  server?: string;
  /** approve: the change request; log-export: the file name it logged; money: the transaction. */
  ref?: string | number;
  /** money: the call (manual fund transfer or refund) and which sending of it this was (1 = the first). */
  path?: string;
  attempt?: number;
}

/** How many send-money transactions the chaos run may move money on. */
const MONEY_TRANSACTIONS = 3000;

async function prepareLoad(db: Db): Promise<{ first: number; last: number; money: { id: number; trace: string }[] }> {
  const role = await db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('Load Tester', 'BACKEND', (SELECT id FROM user_levels ORDER BY level DESC LIMIT 1), $1)
     ON CONFLICT (lower(role_name)) DO UPDATE SET permissions = EXCLUDED.permissions, disabled = 0 RETURNING id`,
    [['send-money-report-view', 'role-view', 'role-approve', 'transaction-retry', 'transaction-refund']],
  );
  // transactions whose card payment succeeded and whose money has not moved, each with a refund
  // requested by its customer: a manual fund transfer and a refund are both allowed until one succeeds
  const money = (
    await db.query<{ id: number; trace: string }>(
      `UPDATE ceft_transactions SET refund_requested = true WHERE id IN (
         SELECT id FROM ceft_transactions
          WHERE card_payment_status = 'SUCCESS' AND ceft_payment_status IS DISTINCT FROM 'SUCCESS'
            AND ipg_void_status IS DISTINCT FROM 'SUCCESS' AND ipg_refund_status IS DISTINCT FROM 'SUCCESS' AND locked = 0
            AND initiated_time BETWEEN now() - interval '150 days' AND now() - interval '2 days'
          ORDER BY id LIMIT $1)
       RETURNING id, trace`,
      [MONEY_TRANSACTIONS],
    )
  ).sort((a, b) => a.id - b.id);
  const hash = await hashPassword(PASSWORD, 2 ** 10);
  await db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT 'Load User ' || g, 'load.user' || g || '@remit.lk', '0770000000', 'load_user_' || g, 'BACKEND', 'HO', $1, $2 FROM generate_series(1, $3::int) g
     ON CONFLICT (lower(username)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role_id = EXCLUDED.role_id, disabled = 0, locked = 0`,
    [role!.id, hash, LOAD_USERS],
  );
  const ids = await db.one<{ first: number; last: number }>(
    `WITH made AS (
       INSERT INTO change_requests (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status)
       SELECT 'Role', NULL, 'CREATE',
              jsonb_build_object('role_name', jsonb_build_object('header', 'Role Name', 'type', 'STRING', 'value', 'Chaos Role ' || g)),
              NULL,
              jsonb_build_object('role_name', 'Chaos Role ' || g, 'user_type', 'BACKEND', 'user_level', (SELECT id FROM user_levels ORDER BY level LIMIT 1),
                                 'permissions', '["user-view"]'::jsonb, 'disabled', 0),
              NULL, 'maker', (SELECT id FROM console_users WHERE username = 'maker'), now(), 'PENDING'
         FROM generate_series(1, $1::int) g
       RETURNING id)
     SELECT min(id) AS first, max(id) AS last FROM made`,
    [PENDING],
  );
  return { ...ids!, money };
}

async function signInAll(url: string): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 1; i <= LOAD_USERS; i++) {
    const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: `load_user_${i}`, password: PASSWORD }) });
    const json = (await res.json()) as { statusCode: number; data: { token?: string; message?: string } };
    if (json.statusCode !== 200 || !json.data.token) throw new Error(`sign-in of load_user_${i}: ${json.statusCode} ${json.data.message ?? ''}`);
    tokens.push(json.data.token);
  }
  return tokens;
}

/** One line of the payment simulator's log (src/server/payments/simulator.ts SimulatorLogEntry). */
interface NetworkLine {
  op: 'void' | 'refund' | 'transfer' | 'hold';
  reference: string;
  key: string | null;
  ok: boolean;
}

const ACTION_OF_OP: Record<NetworkLine['op'], string> = { transfer: 'MANUAL_FUND_TRANSFER', refund: 'REFUND', void: 'VOID', hold: 'HOLD' };

/**
 * Every money action of the run against the payment network's log and the database: each operation
 * the network made (one idempotency key = one attempt, `ceft:<id>:<action>:<seq>`; a retry of an
 * attempt whose answer was lost sends the same key) has its record in transaction_actions with the same
 * outcome; each record of the run has its operation in the network's log; no transaction has two
 * successful money movements (a transfer and a refund, or two transfers); and each request answered
 * 200 left a successful record. Prints the counts and returns the problems.
 */
async function checkMoney(db: Db, outcomes: Outcome[], networkLog: string, money: number[]): Promise<string[]> {
  const problems: string[] = [];
  const lines: NetworkLine[] = existsSync(networkLog)
    ? readFileSync(networkLog, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as NetworkLine)
    : [];
  const byKey = new Map<string, NetworkLine[]>();
  for (const l of lines) if (l.key) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l]);
  const records = await db.query<{ transaction_id: number; action: string; seq_before: number; outcome: string }>(
    `SELECT transaction_id, action, seq_before, outcome FROM transaction_actions
      WHERE kind = 'ceft' AND transaction_id = ANY($1::int[]) AND username LIKE 'load\\_user\\_%'`,
    [`{${money.join(',')}}`],
  );
  const recordKey = (r: { transaction_id: number; action: string; seq_before: number }) => `ceft:${r.transaction_id}:${r.action}:${r.seq_before}`;
  const recorded = new Map(records.map((r) => [recordKey(r), r]));
  for (const [key, ls] of byKey) {
    const [, id, action] = key.split(':');
    if (!money.includes(Number(id))) continue;
    if (ls.some((l) => l.ok !== ls[0].ok)) problems.push(`network key ${key}: answered both ok and not ok`);
    if (ACTION_OF_OP[ls[0].op] !== action) problems.push(`network key ${key}: a ${ls[0].op} under another action's key`);
    const r = recorded.get(key);
    if (!r) problems.push(`network key ${key}: the network ${ls[0].ok ? 'moved the money' : 'declined'} but the database has no record (lost)`);
    else if ((r.outcome === 'SUCCESS') !== ls[0].ok) problems.push(`network key ${key}: the network says ${ls[0].ok ? 'ok' : 'declined'}, the database ${r.outcome}`);
  }
  for (const [key] of recorded) if (!byKey.has(key)) problems.push(`record ${key}: in the database but never sent to the network`);
  // money moves at most once per transaction: successful transfers, refunds and voids, one attempt each
  const moved = new Map<string, string[]>();
  for (const [key, ls] of byKey) {
    if (!ls[0].ok || ls[0].op === 'hold') continue;
    const id = key.split(':')[1];
    moved.set(id, [...(moved.get(id) ?? []), key]);
  }
  for (const [id, keys] of moved) if (keys.length > 1) problems.push(`transaction ${id}: money moved more than once (${keys.join(', ')})`);
  const rows = await db.query<{ id: number; status: string; ceft_payment_status: string | null; ipg_refund_status: string | null }>(
    `SELECT id, status, ceft_payment_status, ipg_refund_status FROM ceft_transactions WHERE id = ANY($1::int[])`,
    [`{${money.join(',')}}`],
  );
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const sent = outcomes.filter((o) => o.kind === 'money');
  for (const o of sent.filter((x) => x.status === 200)) {
    const r = rowOf.get(Number(o.ref));
    const transfer = o.path?.endsWith('manualFundTransfer');
    if (!r || (transfer ? r.ceft_payment_status !== 'SUCCESS' : r.ipg_refund_status !== 'SUCCESS'))
      problems.push(`transaction ${o.ref}: ${o.path} answered 200 but the transaction shows ${transfer ? `payout ${r?.ceft_payment_status}` : `refund ${r?.ipg_refund_status}`}`);
  }
  const firsts = sent.filter((o) => o.attempt === 1);
  const count = (f: (o: Outcome) => boolean) => sent.filter(f).length;
  const okOps = (op: NetworkLine['op']) => [...byKey.values()].filter((ls) => ls[0].op === op && ls[0].ok).length;
  console.log(
    `  ${firsts.length} money requests (${count((o) => o.path?.endsWith('manualFundTransfer') === true && o.attempt === 1)} manual fund transfers, ${count((o) => o.path?.endsWith('refund') === true && o.attempt === 1)} refunds racing them): ` +
      `${count((o) => o.status === 200)} answered 200, ${count((o) => o.status === 422)} 422 (declined or refused by the guards), ${count((o) => o.status === 409)} 409, ` +
      `${count((o) => (o.attempt ?? 1) > 1)} sent again after no answer, ${count((o) => (o.status === undefined || o.status >= 500) && o.attempt === 10)} never answered`,
  );
  console.log(
    `  payment network: ${lines.length} operations logged under ${byKey.size} attempts (keys): ${okOps('transfer')} transfers and ${okOps('refund')} refunds succeeded; ` +
      `database: ${records.length} money records of the run; transactions whose money moved: ${moved.size}, more than once: ${[...moved.values()].filter((k) => k.length > 1).length}`,
  );
  return problems;
}

/** The load of --chaos and --roll: its users signed in, its change requests and transactions ready, its mix, and what it saw. */
interface Load {
  url: string;
  db: Db;
  /** The change requests the approves walk through. */
  first: number;
  last: number;
  money: { id: number; trace: string }[];
  /** This run's mark in the log-exports' file names. */
  fileMark: string;
  tokens: string[];
  pick: () => Kind;
  bodyOf: ReturnType<typeof loadMix>['bodyOf'];
  networkLog: string;
  outcomes: Outcome[];
}

async function prepareRun(mode: 'chaos' | 'roll', url: string, db: Db, networkLog: string): Promise<Load> {
  const { first, last, money } = await prepareLoad(db);
  const tokens = await signInAll(url);
  const now = new Date();
  const today = benchToday(now);
  const weekAgo = benchToday(subDays(now, 7));
  const countries = (await db.query<{ country: string }>(`SELECT DISTINCT country FROM ceft_transactions WHERE initiated_time > now() - interval '7 days' LIMIT 20`)).map((r) => r.country);
  let exportNo = 0;
  const fileMark = `${mode}-${randomBytes(3).toString('hex')}`;
  const { pick, bodyOf } = loadMix({
    today,
    weekAgo,
    countries,
    firstRequest: first,
    lastRequest: last,
    logExportFileName: () => `${fileMark}-${++exportNo}.xlsx`,
    moneyTransactions: money,
  });
  return { url, db, first, last, money, fileMark, tokens, pick, bodyOf, networkLog, outcomes: [] };
}

/** One sending of a request through HAProxy; the outcome is recorded. */
async function send(load: Load, token: string, kind: Kind, path: string, body: unknown, ref: string | number | undefined, attempt: number): Promise<Outcome> {
  const o: Outcome = { kind, start: Date.now(), end: 0, ref, ...(kind === 'money' ? { path, attempt } : {}) };
  try {
    const res = await fetch(`${load.url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    o.status = res.status;
    o.server = res.headers.get('x-app-server') ?? undefined;
    const text = await res.text();
    if (!EXPECTED[kind].includes(res.status)) o.error = `HTTP ${res.status}: ${text.slice(0, 120)}`;
  } catch (err) {
    o.error = err instanceof Error ? `${err.name}: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err);
  }
  o.end = Date.now();
  load.outcomes.push(o);
  return o;
}

/** CONCURRENCY clients sending the mix until `until()` (epoch ms, read again before each request) has passed. */
async function runClients(load: Load, until: () => number): Promise<void> {
  const client = async (n: number) => {
    const token = load.tokens[n % load.tokens.length];
    while (Date.now() < until()) {
      const kind = load.pick();
      const { path, body, ref } = load.bodyOf(kind);
      let o = await send(load, token, kind, path, body, ref, 1);
      // a money action that got no answer is sent again until it gets one (its outcome is unknown to the sender)
      for (let attempt = 2; kind === 'money' && (o.status === undefined || o.status >= 500) && attempt <= 10; attempt++) {
        await sleep(500);
        o = await send(load, token, kind, path, body, ref, attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => client(i)));
}

/** The requests of each phase (by start): count, failed, p50, p95 (ms, as the clients measured) and which server answered. */
function printPhases(outcomes: Outcome[], phases: [string, number, number][]): void {
  console.log('\n| phase (by request start) | requests | failed | p50 ms | p95 ms | answered by |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [name, from, to] of phases) {
    const inPhase = outcomes.filter((o) => o.start >= from && o.start < to);
    const ms = inPhase.map((o) => o.end - o.start).sort((a, b) => a - b);
    const q = (p: number) => (ms.length ? ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)] : NaN);
    const by = new Map<string, number>();
    for (const o of inPhase) if (o.server) by.set(o.server, (by.get(o.server) ?? 0) + 1);
    console.log(`| ${name} | ${inPhase.length} | ${inPhase.filter((o) => o.error).length} | ${q(0.5)} | ${q(0.95)} | ${[...by].map(([s, n]) => `${s} ${n}`).join(', ')} |`);
  }
}

/** The failed requests grouped by reason, with when they started (s from t0); `inFlightAt`: also how many were in flight then. */
function printFailures(outcomes: Outcome[], t0: number, inFlightAt?: { label: string; at: number }): Outcome[] {
  const failed = outcomes.filter((o) => o.error);
  console.log(`\n${outcomes.length} requests, ${failed.length} failed.`);
  const reasons = new Map<string, Outcome[]>();
  for (const o of failed) {
    const key = `${o.kind}: ${o.error!.replace(/\d+/g, 'N').slice(0, 140)}`;
    reasons.set(key, [...(reasons.get(key) ?? []), o]);
  }
  for (const [reason, list] of reasons) {
    const started = list
      .map((o) => `${((o.start - t0) / 1000).toFixed(1)}s`)
      .slice(0, 6)
      .join(', ');
    const inFlight = inFlightAt ? `; ${list.filter((o) => o.start < inFlightAt.at && o.end >= inFlightAt.at).length} in flight at ${inFlightAt.label}` : '';
    console.log(`  ${list.length} × ${reason} (started ${started}${list.length > 6 ? ', ...' : ''}${inFlight})`);
  }
  return failed;
}

/**
 * Every write the load made against the database: each approve against its change request and the
 * role it creates, each log-export against its activity log row, each money action against the
 * payment network's log (checkMoney). Prints the counts; true when nothing was lost or half-applied.
 */
async function checkWrites(load: Load): Promise<boolean> {
  const { db, outcomes, first, last } = load;
  const approves = outcomes.filter((o) => o.kind === 'approve');
  const ids = [...new Set(approves.map((o) => Number(o.ref)))];
  const rows = await db.query<{ id: number; status: string; role_exists: boolean }>(
    `SELECT c.id, c.status, EXISTS (SELECT 1 FROM roles r WHERE lower(r.role_name) = lower(c.payload ->> 'role_name')) AS role_exists
       FROM change_requests c WHERE c.id = ANY($1::int[])`,
    [`{${ids.join(',')}}`],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const o of approves) {
    const r = byId.get(Number(o.ref));
    if (!r) {
      problems.push(`change request ${o.ref}: missing`);
      continue;
    }
    const applied = r.status === 'APPROVED' && r.role_exists;
    const untouched = r.status === 'PENDING' && !r.role_exists;
    if (!applied && !untouched) problems.push(`change request ${o.ref}: half-applied (status ${r.status}, role ${r.role_exists ? 'exists' : 'missing'})`);
    else if ((o.status === 200 || o.status === 409) && !applied) problems.push(`change request ${o.ref}: answered ${o.status} but not approved (lost)`);
  }
  // every request of the run: approved exactly when its role exists
  const whole = await db.one<{ approved: number; pending: number; broken: number }>(
    `SELECT count(*) FILTER (WHERE c.status = 'APPROVED') AS approved, count(*) FILTER (WHERE c.status = 'PENDING') AS pending,
            count(*) FILTER (WHERE (c.status = 'APPROVED') <> EXISTS (SELECT 1 FROM roles r WHERE lower(r.role_name) = lower(c.payload ->> 'role_name'))) AS broken
       FROM change_requests c WHERE c.id BETWEEN $1 AND $2`,
    [first, last],
  );
  const exports = outcomes.filter((o) => o.kind === 'log-export');
  const mark = new RegExp(`${load.fileMark}-\\d+\\.xlsx`);
  const logged = new Set(
    (await db.query<{ description: string }>(`SELECT description FROM activity_logs WHERE description LIKE $1`, [`%${load.fileMark}-%`])).map((r) => mark.exec(r.description)?.[0]),
  );
  for (const o of exports) if (o.status === 200 && !logged.has(String(o.ref))) problems.push(`log-export ${o.ref}: answered 200 but no activity log row (lost)`);
  const moneyProblems = await checkMoney(
    db,
    outcomes,
    load.networkLog,
    load.money.map((m) => m.id),
  );
  problems.push(...moneyProblems);
  const approvedOk = approves.filter((o) => o.status === 200).length;
  const approveFailed = approves.filter((o) => o.error).length;
  console.log(`\nwrites: ${approves.length} approves (${approvedOk} approved, ${approves.filter((o) => o.status === 409).length} already decided, ${approveFailed} failed in transit);`);
  console.log(`  change requests ${first}..${last}: ${whole!.approved} approved, ${whole!.pending} pending, ${whole!.broken} with status and role disagreeing`);
  console.log(`  ${exports.length} log-exports (${exports.filter((o) => o.status === 200).length} answered 200), ${logged.size} activity log rows of this run`);
  const ok = problems.length === 0 && Number(whole!.broken) === 0;
  console.log(`  ${ok ? 'no write lost or half-applied' : `PROBLEMS:\n    ${problems.slice(0, 30).join('\n    ')}`}`);
  return ok;
}

/**
 * HAProxy's log of the run's requests that were not plain (`option dontlog-normal`: a 5xx, a retry, a
 * redispatch, a connection cut): how many, by termination state and status, and the first few lines.
 * The termination state's first two letters say who ended it and when (HAProxy's manual, 8.5): `SH` the
 * server closed before its headers, `SC` the server refused the connection, `CD` the client went away.
 */
function printHaproxyLog(logFile: string): void {
  const lines = (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '').split('\n').filter((l) => / console apps\//.test(l));
  const kinds = new Map<string, number>();
  for (const l of lines) {
    // ... console apps/app2 0/0/0/-1/3 502 ... - - SH-- 20/20/19/9/0 0/0 "POST /api/... HTTP/1.1"
    const m = / apps\/(\S+) \S+ (-?\d+) .*? (\S{4}) \d+\/\d+\/\d+\/\d+\/(\+?\d+) \d+\/\d+ "(\S+)/.exec(l);
    // the retries field: how many times the connection was retried, "+" when the request went to another server
    const retried = !m || m[4] === '0' ? '' : `, retried ${m[4].replace('+', '')}${m[4].startsWith('+') ? ' (redispatched)' : ''}`;
    const key = m ? `${m[5]} answered ${m[2]} by ${m[1]}, termination ${m[3]}${retried}` : 'unparsed';
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  console.log(`\nHAProxy's log: ${lines.length} requests not plain (a 5xx, a retry or redispatch, a cut connection)${lines.length ? ':' : ''}`);
  for (const [k, n] of kinds) console.log(`  ${n} × ${k}`);
  for (const l of lines.slice(0, 8)) console.log(`    ${l.slice(0, 220)}`);
}

/** What Prometheus saw in each window, once the windows' last samples are in (or why there is nothing to say). */
async function printMetrics(promUrl: string | undefined, windows: MetricsWindow[], t0: number): Promise<void> {
  if (promUrl) await sleep(Math.max(0, reportReadyAt(windows) - Date.now()));
  console.log('');
  for (const line of await metricsReport(promUrl, windows, t0, DB_NAME)) console.log(line);
}

// ---------------------------------------------------------------- --chaos

async function chaos(load: Load, haproxy: { socket: string; logFile: string }, apps: AppServer[], replica: ChildProcess, promUrl: string | undefined): Promise<boolean> {
  const { socket } = haproxy;
  const t0 = Date.now();
  const end = t0 + DURATION * 1000;
  const victim = apps[apps.length - 1];
  const marks: { appKilled?: number; appExited?: number; appDropped?: number; replicaKilled?: number; replicaFallback?: number } = {};

  const director = async () => {
    await sleep((DURATION * 1000) / 3);
    marks.appKilled = Date.now();
    log(`chaos: SIGKILL to ${victim.name} (pid ${victim.child.pid})`);
    victim.child.once('exit', () => (marks.appExited = Date.now()));
    victim.child.kill('SIGKILL');
    while (Date.now() < end) {
      const states = await serverStates(socket).catch(() => new Map<string, string>());
      if (states.get(victim.name)?.startsWith('DOWN')) {
        marks.appDropped = Date.now();
        log(`chaos: HAProxy marked ${victim.name} down ${((marks.appDropped - marks.appKilled) / 1000).toFixed(1)} s after the kill`);
        break;
      }
      await sleep(100);
    }
    await sleep(Math.max(0, t0 + (DURATION * 2000) / 3 - Date.now()));
    marks.replicaKilled = Date.now();
    log(`chaos: SIGKILL to the replica's PostgreSQL (pid ${replica.pid})`);
    replica.kill('SIGKILL');
    const survivor = apps[0];
    while (Date.now() < end) {
      const h = (await (await fetch(`http://127.0.0.1:${survivor.port}/health`)).json().catch(() => ({}))) as { replica?: { readsFrom?: string; state?: string } };
      if (h.replica?.readsFrom === 'primary') {
        marks.replicaFallback = Date.now();
        log(`chaos: ${survivor.name}'s /health says replica ${h.replica.state}, reads from the primary, ${((marks.replicaFallback - marks.replicaKilled) / 1000).toFixed(1)} s after the kill`);
        break;
      }
      await sleep(100);
    }
  };

  // where the surviving server's reads went over the run, every 500 ms (its /health)
  const readStates: { at: number; state: string }[] = [];
  const watcher = (async () => {
    while (Date.now() < end) {
      const h = (await fetch(`http://127.0.0.1:${apps[0].port}/health`)
        .then((r) => r.json())
        .catch(() => ({}))) as { replica?: { state?: string; lagMs?: number | null } };
      readStates.push({ at: Date.now(), state: `${h.replica?.state ?? 'no answer'}` });
      await sleep(500);
    }
  })();

  log(`chaos: ${CONCURRENCY} clients for ${DURATION} s through HAProxy, mix ${MONEY_WEIGHTS.map(([k, w]) => `${k} ${w}%`).join(', ')}; ${load.money.length} transactions to move money on`);
  await Promise.all([runClients(load, () => end), director(), watcher]);
  const runEnd = Date.now();
  const spans: string[] = [];
  for (const r of readStates) {
    const t = ((r.at - t0) / 1000).toFixed(1);
    const lastSpan = spans[spans.length - 1];
    if (lastSpan?.startsWith(`${r.state} `)) spans[spans.length - 1] = lastSpan.replace(/-[\d.]+ s$/, `-${t} s`);
    else spans.push(`${r.state} ${t}-${t} s`);
  }
  console.log(`\n${apps[0].name}'s replica state over the run (its /health every 0.5 s): ${spans.join(', ')}`);

  // ---- the report
  const k1 = marks.appKilled ?? end;
  const d1 = marks.appDropped ?? k1;
  const k2 = marks.replicaKilled ?? end;
  printPhases(load.outcomes, [
    ['before any kill', t0, k1],
    [`app server killed, until HAProxy dropped it`, k1, d1],
    ['after the drop, replica up', d1, k2],
    ['replica killed (reads on the primary)', k2, end + 60_000],
  ]);
  const failed = printFailures(load.outcomes, t0, { label: 'the app kill', at: k1 });
  if (marks.appExited) {
    // until the process has ended, its listening socket still takes connections that nobody will answer
    const gone = marks.appExited;
    console.log(
      `${victim.name}'s process ended ${gone - k1} ms after the SIGKILL; failed requests started before that: ${failed.filter((o) => o.start < gone).length}, after it: ${failed.filter((o) => o.start >= gone).length}`,
    );
  }
  const afterDrop = failed.filter((o) => o.start >= d1);
  console.log(`failed requests started after HAProxy dropped ${victim.name}: ${afterDrop.length}`);
  printHaproxyLog(haproxy.logFile);
  const writesOk = await checkWrites(load);
  if (marks.appDropped) console.log(`HAProxy dropped the killed server ${((marks.appDropped - k1) / 1000).toFixed(1)} s after the kill`);
  if (marks.replicaFallback) console.log(`reads fell back to the primary ${((marks.replicaFallback - k2) / 1000).toFixed(1)} s after the replica was killed`);

  const f2 = marks.replicaFallback ?? k2;
  await printMetrics(
    promUrl,
    [
      { label: 'before any kill', from: t0, to: k1 },
      { label: `${victim.name} killed, until dropped`, from: k1, to: d1 },
      { label: 'after the drop', from: d1, to: k2 },
      { label: 'replica killed, until reads fell back', from: k2, to: f2 },
      { label: 'after the fallback', from: f2, to: runEnd },
    ].filter((w) => w.to > w.from),
    t0,
  );
  return writesOk && afterDrop.length === 0;
}

// ---------------------------------------------------------------- --roll

/** One app server's restart: times in epoch ms. */
interface RollStep {
  name: string;
  term: number;
  /** HAProxy first saw it DOWN (after /health/ready answered 503). */
  down?: number;
  exited?: number;
  exitCode?: number | null;
  /** The replacement answered /health/ready 200. */
  ready?: number;
  /** HAProxy has the replacement UP. */
  up?: number;
}

/** Polls HAProxy's stats socket every 100 ms until `server`'s state passes `test`; the time, or undefined at `deadline`. */
async function waitForState(socket: string, server: string, test: (state: string) => boolean, deadline: number): Promise<number | undefined> {
  while (Date.now() < deadline) {
    const state = (await serverStates(socket).catch(() => new Map<string, string>())).get(server);
    if (state !== undefined && test(state)) return Date.now();
    await sleep(100);
  }
  return undefined;
}

/**
 * Restarts every app server in turn under the load (see the header): SIGTERM, wait for it to exit
 * (SIGKILL after 60 s, said), a replacement on the same ports, then HAProxy's UP before the next.
 */
async function roll(load: Load, haproxy: { socket: string; logFile: string }, apps: AppServer[], env: Record<string, string>, promUrl: string | undefined): Promise<boolean> {
  const { socket } = haproxy;
  const dir = folder!;
  const t0 = Date.now();
  let end = t0 + DURATION * 1000;
  const lead = (DURATION * 1000) / 4;
  const steps: RollStep[] = [];
  let rollStart = end;
  let rollEnd = end;
  let rollError: unknown;

  const director = async () => {
    await sleep(lead);
    rollStart = Date.now();
    // the load goes on until the roll is over, however long the restarts take
    end = Infinity;
    for (let i = 0; i < apps.length; i++) {
      const old = apps[i];
      const step: RollStep = { name: old.name, term: Date.now() };
      steps.push(step);
      const exited = new Promise<void>((r) =>
        old.child.once('exit', (code) => {
          step.exited = Date.now();
          step.exitCode = code;
          r();
        }),
      );
      log(`roll: SIGTERM to ${old.name} (pid ${old.child.pid})`);
      old.child.kill('SIGTERM');
      step.down = await waitForState(socket, old.name, (s) => s.startsWith('DOWN') || s === 'MAINT', Date.now() + 60_000);
      log(`roll: HAProxy has ${old.name} ${step.down ? `down ${((step.down - step.term) / 1000).toFixed(1)} s after the SIGTERM` : 'still up 60 s after the SIGTERM'}`);
      const killer = setTimeout(() => {
        log(`roll: ${old.name} still running 60 s after the SIGTERM: SIGKILL`);
        old.child.kill('SIGKILL');
      }, 60_000);
      await exited;
      clearTimeout(killer);
      log(`roll: ${old.name} exited (code ${step.exitCode}) ${((step.exited! - step.term) / 1000).toFixed(1)} s after the SIGTERM; starting its replacement on port ${old.port}`);
      const n = Number(old.name.replace(/^app/, ''));
      const fresh = await startAppServer(dir, n, env, { port: old.port, metricsPort: old.metricsPort });
      step.ready = Date.now();
      apps[i] = fresh;
      step.up = await waitForState(socket, old.name, (s) => s === 'UP', Date.now() + 60_000);
      if (!step.up) throw new Error(`HAProxy did not mark the new ${old.name} up within 60 s`);
      log(`roll: the new ${old.name} (pid ${fresh.child.pid}) ready after ${((step.ready - step.term) / 1000).toFixed(1)} s, UP in HAProxy after ${((step.up - step.term) / 1000).toFixed(1)} s`);
    }
    rollEnd = Date.now();
    end = Math.max(t0 + DURATION * 1000, rollEnd + lead);
  };

  log(
    `roll: ${CONCURRENCY} clients through HAProxy, mix ${MONEY_WEIGHTS.map(([k, w]) => `${k} ${w}%`).join(', ')}; restarting ${apps.map((a) => a.name).join(', ')} one at a time from ${(lead / 1000).toFixed(0)} s`,
  );
  await Promise.all([
    runClients(load, () => end),
    director().catch((err: unknown) => {
      rollError = err;
      end = Date.now();
    }),
  ]);
  const runEnd = Date.now();
  if (rollError) throw rollError;

  console.log('\n| server | SIGTERM at | HAProxy down after | exited after (code) | replacement ready after | HAProxy UP after | out of the rotation |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const s = (from: number, to: number | undefined) => (to === undefined ? '-' : `${((to - from) / 1000).toFixed(1)} s`);
  for (const st of steps) {
    console.log(
      `| ${st.name} | ${s(t0, st.term)} | ${s(st.term, st.down)} | ${s(st.term, st.exited)} (${st.exitCode ?? '-'}) | ${s(st.term, st.ready)} | ${s(st.term, st.up)} | ${s(st.down ?? st.term, st.up)} |`,
    );
  }
  const phases: [string, number, number][] = [['before the roll', t0, rollStart]];
  for (const st of steps) phases.push([`${st.name} restarting (SIGTERM to UP)`, st.term, st.up ?? runEnd]);
  phases.push(['after the roll', rollEnd, runEnd + 60_000]);
  printPhases(load.outcomes, phases);
  const failed = printFailures(load.outcomes, t0);
  printHaproxyLog(haproxy.logFile);
  const writesOk = await checkWrites(load);
  const exitedCleanly = steps.every((st) => st.exitCode === 0);
  if (!exitedCleanly) console.log('An app server did not exit with code 0 after its SIGTERM (see the table).');
  await printMetrics(
    promUrl,
    [
      { label: 'before the roll', from: t0, to: rollStart },
      ...steps.map((st) => ({ label: `${st.name} restarting`, from: st.term, to: st.up ?? runEnd })),
      { label: 'after the roll', from: rollEnd, to: runEnd },
    ],
    t0,
  );
  console.log(`\nroll: ${load.outcomes.length} requests, ${failed.length} failed; ${steps.length} servers restarted in ${((rollEnd - rollStart) / 1000).toFixed(1)} s.`);
  return failed.length === 0 && writesOk && exitedCleanly;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  if (CHAOS && ROLL) throw new Error('--chaos and --roll: one at a time');
  ensurePackages(!TEST && PROMETHEUS);
  if (!TEST && !existsSync(resolve('dist/index.html'))) {
    log('Building the console (vite build) ...');
    if (spawnSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('vite build failed');
  }
  folder = mkdtempSync('/tmp/remit-cluster-');
  const { uid, gid } = postgresIds();
  chownSync(folder, uid, gid);
  chmodSync(folder, 0o755);

  log(`Making database ${DB_NAME} on ${primaryHost}:${primaryPort} ...`);
  await sql(PRIMARY_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await sql(PRIMARY_URL, `CREATE DATABASE ${DB_NAME}`);
  databaseMade = true;
  const primaryDirect = new URL(PRIMARY_URL);
  primaryDirect.pathname = `/${DB_NAME}`;

  const replicaPort = await freePort();
  const replica = await startReplica(folder, replicaPort);
  log(`Replica streaming on 127.0.0.1:${replicaPort}`);
  const primaryBouncer = await startPgBouncer(folder, 'pgbouncer-primary', await freePort(), { host: primaryHost, port: primaryPort, user: primaryUser });
  const replicaBouncer = await startPgBouncer(folder, 'pgbouncer-replica', await freePort(), { host: '127.0.0.1', port: replicaPort, user: 'postgres' });
  log(`PgBouncer (transaction mode): primary ${primaryBouncer}, replica ${replicaBouncer}`);

  if (TEST) {
    log('Running the replica tests (vitest --project replica) ...');
    const vitest = spawn(process.execPath, [resolve('node_modules/vitest/vitest.mjs'), 'run', '--project', 'replica'], {
      stdio: 'inherit',
      env: {
        ...process.env,
        REPLICA_TEST_PRIMARY_URL: primaryBouncer,
        REPLICA_TEST_REPLICA_URL: replicaBouncer,
        REPLICA_TEST_PRIMARY_DIRECT_URL: primaryDirect.toString(),
        REPLICA_TEST_REPLICA_DIRECT_URL: urlOf(replicaPort, DB_NAME),
        REPLICA_TEST_REPLICA_PID: String(replica.child.pid),
      },
    });
    const code = await new Promise<number | null>((r) => vitest.on('close', r));
    process.exitCode = code ?? 1;
    return;
  }

  const env = {
    DATABASE_URL: primaryBouncer,
    DATABASE_REPLICA_URL: replicaBouncer,
    DATABASE_DIRECT_URL: primaryDirect.toString(),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: '127.0.0.1',
    DATABASE_POOL_SIZE: '10',
    SEED_TRANSACTIONS: process.env.SEED_TRANSACTIONS ?? '20000',
    // the payment network's own log, every app server appending to it (the chaos run reconciles it)
    PAYMENT_SIMULATOR_LOG: join(folder, 'payment-network.log'),
    // after SIGTERM /health/ready answers 503 this long before the server stops listening (see DRAIN_MS);
    // SHUTDOWN_DRAIN_MS=0 npm run cluster -- --roll shows what a restart without a drain does
    SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? String(DRAIN_MS),
  };
  const apps: AppServer[] = [];
  // the first one migrates and seeds; the others find the database ready
  apps.push(await startAppServer(folder, 1, env));
  for (let n = 2; n <= SERVERS; n++) apps.push(await startAppServer(folder, n, env));
  log(`App servers: ${apps.map((a) => `${a.name} 127.0.0.1:${a.port} (pid ${a.child.pid})`).join(', ')}`);
  const haproxyMetrics = PROMETHEUS && haproxyHasPrometheus() ? await freePort() : undefined;
  const haproxy = await startHaproxy(folder, numberArg('port', await freePort()), apps, haproxyMetrics);
  const { url } = haproxy;
  const health = (await (await fetch(`${url}/health`)).json()) as unknown;
  log(`HAProxy: ${url}  (health: ${JSON.stringify(health)})`);

  let promUrl: string | undefined;
  if (PROMETHEUS) {
    const exporter = await startPostgresExporter(folder, primaryDirect.toString());
    const targets = {
      apps: apps.map((a) => ({ name: a.name, address: `127.0.0.1:${a.metricsPort}` })),
      haproxy: haproxyMetrics === undefined ? undefined : `127.0.0.1:${haproxyMetrics}`,
      postgres: exporter,
    };
    promUrl = await startPrometheus(folder, prometheusConfig(targets));
    if (promUrl) {
      // the first scrapes: every target once (up to 15 s)
      const expected = targets.apps.length + (targets.haproxy ? 1 : 0) + (targets.postgres ? 1 : 0);
      let said = '';
      for (let i = 0; i < 30; i++) {
        said = await targetHealth(promUrl).catch((err: unknown) => String(err));
        if ([...said.matchAll(/(\d+)\/\d+ up/g)].reduce((n, m) => n + Number(m[1]), 0) >= expected) break;
        await sleep(500);
      }
      log(`Prometheus: ${promUrl}  (scraping every 1 s: ${said || 'no targets yet'})`);
    } else log('Prometheus is not running: no metrics (the reports say so)');
  }

  if (CHAOS || ROLL) {
    // Ctrl+C during the run: stop everything (the finally below)
    process.once('SIGINT', () => {
      log('Interrupted.');
      void stopAll().then(() => process.exit(130));
    });
    const db = await openDb({ databaseUrl: primaryDirect.toString() });
    try {
      const load = await prepareRun(CHAOS ? 'chaos' : 'roll', url, db, env.PAYMENT_SIMULATOR_LOG);
      const ok = CHAOS ? await chaos(load, haproxy, apps, replica.child, promUrl) : await roll(load, haproxy, apps, env, promUrl);
      process.exitCode = ok ? 0 : 1;
    } finally {
      await db.close();
    }
    return;
  }
  console.log(`\nThe console: ${url}/  (sign in as admin / Demo@Pass1). Logs in ${folder}. Ctrl+C stops everything.`);
  console.log(promUrl ? `Prometheus: ${promUrl}/  (e.g. sum by (status_class) (rate(remit_http_requests_total[1m])))\n` : '');
  await new Promise<void>((r) => {
    process.once('SIGINT', () => r());
    process.once('SIGTERM', () => r());
  });
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(async () => {
    log('Stopping everything it started ...');
    await stopAll();
    log('Stopped.');
    process.exit(process.exitCode ?? 0);
  });
