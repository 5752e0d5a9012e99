/**
 * `npm run drill:restore [-- --keep]`: a point-in-time restore, rehearsed end to end on this machine.
 *
 *  1. A PostgreSQL 15 cluster of its own (initdb in a folder under /tmp, a free port, run as the postgres
 *     user; the machine's own PostgreSQL is not touched), switched to WAL archiving into a pgBackRest
 *     repository by the same code as `npm run backup:setup` (scripts/backupPostgres.ts): stanza-create, check.
 *  2. The real server (src/server/main.ts) on it migrates and seeds the demo data; a few send-money
 *     transactions are made actionable (card paid, payout failed, refund requested); a full backup.
 *  3. Writes through the HTTP API, in two phases with the target time between them (read from the
 *     database's clock after every phase-A write has answered, before the first phase-B write is sent):
 *     change requests by the maker, approvals and rejections by the checker, holds, manual fund
 *     transfers and refunds. One phase-A request is approved in phase B. Then pg_switch_wal(), and the
 *     drill waits until the segment is in the repository.
 *  4. The server and PostgreSQL are stopped (immediate: as a crash), and `pgbackrest restore --type=time
 *     --target=<target> --target-action=promote` restores into a NEW data folder, started on another port,
 *     with the server on it.
 *  5. Checks, each printed; the exit code is 1 when any fails: every phase-A write is there and no
 *     phase-B write is; the counts and the activity log's chain head equal those read at the target;
 *     the activity log's hash chain verifies; money moved at most once per transaction and each money
 *     action's record matches its transaction; no change request half-applied (approved ⇒ its role
 *     exists; pending or rejected ⇒ none); the demo users sign in and list the roles.
 *  Prints the RPO (the target minus the last write the restore brought back; the writes after the
 *  target, lost by choice) and the RTO (restore start to the restored server answering a sign-in),
 *  the backup's and the archive's times. --keep leaves the folder (logs, repository) for a look.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../src/server/freePort';
import { openDb } from '../src/server/db/db';
import { verifyActivityLog } from '../src/server/activityLogChain';
import { ensurePgbackrest, log, PG_BIN, pgbackrest, postgresFolder, runAsPostgres, setupBackups, sleep, sql, waitFor, type StanzaConfig } from './backupPostgres';

const KEEP = process.argv.includes('--keep');
const STANZA = 'drill';
const DATABASE = 'remit';
const PASSWORD = 'Demo@Pass1';
/** Rounds of writes in each phase (each round: 3 change requests and their decisions, 3 money actions). */
const ROUNDS = 3;

let folder: string | undefined;
const clusters: string[] = [];
const servers: ChildProcess[] = [];

const urlOf = (port: number, database = DATABASE) => `postgres://postgres@127.0.0.1:${port}/${database}`;

/** initdb as the postgres user, with its port, socket folder and a log of its own. */
async function initCluster(dir: string, pgdata: string, port: number): Promise<void> {
  await runAsPostgres(`${PG_BIN}/initdb`, ['-D', pgdata, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], 'initdb');
  appendFileSync(
    join(pgdata, 'postgresql.conf'),
    ['', '# npm run drill:restore', `port = ${port}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`, 'shared_buffers = 128MB', 'max_connections = 50', ''].join('\n'),
  );
}

async function startCluster(pgdata: string, port: number, logFile: string): Promise<void> {
  await runAsPostgres(`${PG_BIN}/pg_ctl`, ['start', '-D', pgdata, '-o', `-p ${port}`, '-l', logFile, '-w', '-t', '120'], `pg_ctl start ${pgdata}`);
  if (!clusters.includes(pgdata)) clusters.push(pgdata);
}

async function stopCluster(pgdata: string, mode: 'fast' | 'immediate'): Promise<void> {
  await runAsPostgres(`${PG_BIN}/pg_ctl`, ['stop', '-D', pgdata, '-m', mode, '-w', '-t', '60'], `pg_ctl stop ${pgdata}`);
  clusters.splice(clusters.indexOf(pgdata), 1);
}

interface Reply {
  statusCode: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

interface AppServer {
  url: string;
  child: ChildProcess;
  call(path: string, body: unknown, token?: string): Promise<Reply>;
  login(username: string): Promise<string>;
  stop(): Promise<void>;
}

/** The real server (as `npm run server`), on the database at `databaseUrl`; resolves once it answers a sign-in call. */
async function startServer(databaseUrl: string, logFile: string, secret: string): Promise<AppServer> {
  const port = await freePort();
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_DIRECT_URL: '',
      DATABASE_REPLICA_URL: '',
      DATA_DIR: join(folder!, 'data'),
      PORT: String(port),
      HOST: '127.0.0.1',
      SESSION_SECRET: secret,
      // a test run: the demo accounts' passwords hashed cheaply, a small demo set, no random declines
      NODE_ENV: 'test',
      SCRYPT_N: '1024',
      SEED_TRANSACTIONS: '2000',
      SETTLEMENT_SCHEDULE: 'off',
      PAYMENT_ADAPTER: '',
      PAYMENT_SIMULATOR_FAILURE_RATE: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  servers.push(child);
  const url = `http://127.0.0.1:${port}`;
  const call = async (path: string, body: unknown, token?: string): Promise<Reply> => {
    const res = await fetch(`${url}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Reply;
  };
  await waitFor('the server', async () => (await call('auth/login', {})).statusCode === 400, 240_000, child, logFile);
  return {
    url,
    child,
    call,
    async login(username) {
      const reply = await call('auth/login', { username, password: PASSWORD });
      if (reply.statusCode !== 200) throw new Error(`sign-in of ${username}: ${reply.statusCode} ${JSON.stringify(reply.data)}`);
      return reply.data.token as string;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const gone = await Promise.race([new Promise((r) => child.once('exit', () => r(true))), sleep(10_000).then(() => false)]);
      if (!gone) child.kill('SIGKILL');
    },
  };
}

async function cleanup(): Promise<void> {
  for (const s of servers) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  for (const pgdata of [...clusters]) {
    try {
      await stopCluster(pgdata, 'immediate');
    } catch (err) {
      console.error(String(err));
    }
  }
  if (folder && !KEEP) rmSync(folder, { recursive: true, force: true });
  else if (folder) log(`Kept ${folder}`);
}

type Phase = 'A' | 'B';
type Status = 'PENDING' | 'APPROVED' | 'REJECTED';
/** A change request the drill made: the phase it was made in, its state at the target (phase A only) and at the end. */
interface RequestWrite {
  phase: Phase;
  id: number;
  roleName: string;
  atTarget?: Status;
  status: Status;
}
interface MoneyWrite {
  phase: Phase;
  transactionId: number;
  action: 'HOLD' | 'MANUAL_FUND_TRANSFER' | 'REFUND';
}

const MONEY_PATH: Record<MoneyWrite['action'], string> = { HOLD: 'hold', MANUAL_FUND_TRANSFER: 'manualFundTransfer', REFUND: 'refund' };

async function main(): Promise<number> {
  ensurePgbackrest();
  const started = Date.now();
  folder = mkdtempSync('/tmp/remit-drill-');
  postgresFolder(folder);
  const dir = folder;
  const pgdata = join(dir, 'pg');
  const port = await freePort();
  const config: StanzaConfig = {
    configFile: join(dir, 'pgbackrest.conf'),
    stanza: STANZA,
    repo: join(dir, 'repo'),
    pgdata,
    pgport: port,
    socketDir: dir,
    retentionFull: 2,
    compressType: 'zst',
    processMax: 2,
    logPath: join(dir, 'pgbackrest-log'),
    lockPath: join(dir, 'pgbackrest-lock'),
    spoolPath: join(dir, 'pgbackrest-spool'),
  };
  const secret = randomBytes(36).toString('base64');
  const problems: string[] = [];
  const check = (ok: boolean, what: string, detail = '') => {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail ? `: ${detail}` : ''}`);
    if (!ok) problems.push(what);
  };

  // 1. the cluster, archiving into the repository
  log(`initdb ${pgdata} (port ${port}) ...`);
  await initCluster(dir, pgdata, port);
  await startCluster(pgdata, port, join(dir, 'pg.log'));
  await sql(urlOf(port, 'postgres'), `CREATE DATABASE ${DATABASE}`);
  await setupBackups(urlOf(port, 'postgres'), config, { restart: true, backup: false, restartLog: join(dir, 'pg.log') });

  // 2. migrated and seeded by the real server; a few transactions made actionable; the full backup
  log('Starting the server: it migrates and seeds the demo data ...');
  let server = await startServer(urlOf(port), join(dir, 'server1.log'), secret);
  log(`  the server answers at ${server.url}`);
  const moneyRows = await sql<{ id: number; trace: string }>(
    urlOf(port),
    `UPDATE ceft_transactions SET card_payment_status = 'SUCCESS', ceft_payment_status = 'FAILED', ipg_void_status = NULL, ipg_refund_status = NULL,
            refund_requested = true, card_payment_time = now() - interval '4 days', ceft_try_count = 1, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id)
      WHERE id IN (SELECT id FROM ceft_transactions WHERE bank_code ~ '^[0-9]{4}$' AND account_number ~ '^[0-9]{6,16}$' AND locked = 0 ORDER BY id LIMIT $1)
      RETURNING id, trace`,
    [ROUNDS * 6],
  );
  if (moneyRows.length < ROUNDS * 6) throw new Error(`only ${moneyRows.length} send-money transactions to act on`);
  moneyRows.sort((a, b) => a.id - b.id);
  log('Full backup ...');
  const tb = Date.now();
  await pgbackrest(config, 'backup', ['--type=full']);
  const backupSeconds = (Date.now() - tb) / 1000;
  const backupInfo = JSON.parse(await pgbackrest(config, 'info', ['--output=json'])) as { backup: { label: string; info: { size: number; repository: { delta: number } } }[] }[];
  const lastBackup = backupInfo[0].backup.at(-1)!;
  log(
    `  ${lastBackup.label}: ${(lastBackup.info.size / 2 ** 20).toFixed(0)} MB of database, ${(lastBackup.info.repository.delta / 2 ** 20).toFixed(0)} MB in the repository, ${backupSeconds.toFixed(1)} s`,
  );

  // 3. writes through the API, the target time between the phases
  const [maker, checker] = [await server.login('maker'), await server.login('checker')];
  const tag = randomBytes(3).toString('hex');
  const requests: RequestWrite[] = [];
  const money: MoneyWrite[] = [];
  /** API writes that answered 200, by phase. */
  const writes: Record<Phase, number> = { A: 0, B: 0 };
  const expectOk = (phase: Phase, reply: Reply, what: string) => {
    if (reply.statusCode !== 200) throw new Error(`${what}: ${reply.statusCode} ${JSON.stringify(reply.data)}`);
    writes[phase] += 1;
    return reply;
  };
  const createRole = async (phase: Phase, name: string) => {
    const reply = expectOk(phase, await server.call('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, maker), `role/create ${name}`);
    const write: RequestWrite = { phase, id: reply.data.changeRequestId as number, roleName: name, status: 'PENDING' };
    requests.push(write);
    return write;
  };
  const decide = async (phase: Phase, request: RequestWrite, decision: 'approve' | 'reject') => {
    const body = { changeRequestID: request.id, actionTaken: decision, ...(decision === 'reject' ? { comment: 'Not needed (restore drill)' } : {}) };
    expectOk(phase, await server.call('role/approve', body, checker), `role/approve ${request.id}`);
    request.status = decision === 'approve' ? 'APPROVED' : 'REJECTED';
  };
  let nextMoney = 0;
  const moneyAction = async (phase: Phase, action: MoneyWrite['action']) => {
    const row = moneyRows[nextMoney++];
    const body = action === 'HOLD' ? { id: row.id, description: 'Restore drill' } : action === 'MANUAL_FUND_TRANSFER' ? { trace: row.trace } : { transactionID: row.id };
    expectOk(phase, await server.call(`Transaction/ceft/${MONEY_PATH[action]}`, body, maker), `${action} of ${row.id}`);
    money.push({ phase, transactionId: row.id, action });
  };
  const round = async (phase: Phase, i: number) => {
    await decide(phase, await createRole(phase, `Drill ${tag} ${phase}${i} approved`), 'approve');
    await decide(phase, await createRole(phase, `Drill ${tag} ${phase}${i} rejected`), 'reject');
    await createRole(phase, `Drill ${tag} ${phase}${i} pending`);
    await moneyAction(phase, 'MANUAL_FUND_TRANSFER');
    await moneyAction(phase, 'REFUND');
    await moneyAction(phase, 'HOLD');
  };
  log(`Phase A: ${ROUNDS} rounds of writes ...`);
  for (let i = 1; i <= ROUNDS; i++) await round('A', i);
  for (const r of requests) r.atTarget = r.status;
  await sleep(50);
  const atTarget = (
    await sql<{ target: string; target_ms: string; requests: number; roles: number; actions: number; head: number }>(
      urlOf(port),
      `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS target,
              (extract(epoch FROM clock_timestamp()) * 1000)::bigint::text AS target_ms,
              (SELECT count(*)::int FROM change_requests) AS requests, (SELECT count(*)::int FROM roles) AS roles,
              (SELECT count(*)::int FROM transaction_actions) AS actions, (SELECT last_seq::int FROM activity_log_chain WHERE id = 1) AS head`,
    )
  )[0];
  const targetMs = Number(atTarget.target_ms);
  log(`Target time ${atTarget.target}: ${atTarget.requests} change requests, ${atTarget.actions} money actions, activity log head ${atTarget.head}`);
  await sleep(50);
  log(`Phase B: the phase-A pending requests approved, then ${ROUNDS} rounds of writes ...`);
  for (const r of requests.filter((x) => x.phase === 'A' && x.status === 'PENDING')) await decide('B', r, 'approve');
  for (let i = 1; i <= ROUNDS; i++) await round('B', i);
  const lastWriteMs = Date.now();
  const switched = (await sql<{ wal: string }>(urlOf(port), 'SELECT pg_walfile_name(pg_switch_wal()) AS wal'))[0].wal;
  const ts = Date.now();
  await waitFor(
    `WAL segment ${switched} in the repository`,
    async () => (await sql<{ last: string | null }>(urlOf(port), 'SELECT last_archived_wal AS last FROM pg_stat_archiver'))[0].last! >= switched,
    60_000,
  );
  const archiveMs = Date.now() - ts;
  log(`  WAL segment ${switched} archived ${archiveMs} ms after the switch`);

  // 4. the loss: server and PostgreSQL stopped as by a crash; the restore into a new folder
  await server.stop();
  await stopCluster(pgdata, 'immediate');
  log('The server and PostgreSQL are stopped (immediate). Restoring to the target time into a new folder ...');
  const restoreStarted = Date.now();
  const restored = join(dir, 'restored');
  postgresFolder(restored);
  const restoredPort = await freePort();
  await pgbackrest(config, 'restore', [`--pg1-path=${restored}`, '--type=time', `--target=${atTarget.target}`, '--target-action=promote']);
  const restoreFilesMs = Date.now() - restoreStarted;
  await startCluster(restored, restoredPort, join(dir, 'restored.log'));
  await waitFor('the restored PostgreSQL to finish recovery', async () => (await sql<{ r: boolean }>(urlOf(restoredPort), 'SELECT pg_is_in_recovery() AS r'))[0].r === false, 120_000);
  const recoveredMs = Date.now() - restoreStarted;
  // the last write restored (the activity log's newest entry), the counts and the activity log head, read before the server starts on it (its sign-ins are logged)
  const lastRestored = await sql<{ at: string }>(urlOf(restoredPort), 'SELECT (extract(epoch FROM max(created_at)) * 1000)::bigint::text AS at FROM activity_logs');
  const rpoMs = targetMs - Number(lastRestored[0].at);
  const restoredCounts = (
    await sql<{ requests: number; roles: number; actions: number; head: number }>(
      urlOf(restoredPort),
      `SELECT (SELECT count(*)::int FROM change_requests) AS requests, (SELECT count(*)::int FROM roles) AS roles,
              (SELECT count(*)::int FROM transaction_actions) AS actions, (SELECT last_seq::int FROM activity_log_chain WHERE id = 1) AS head`,
    )
  )[0];
  server = await startServer(urlOf(restoredPort), join(dir, 'server2.log'), secret);
  const checker2 = await server.login('checker');
  const rtoMs = Date.now() - restoreStarted;
  log(`  files restored in ${(restoreFilesMs / 1000).toFixed(1)} s, recovered and promoted at ${(recoveredMs / 1000).toFixed(1)} s, the server answered a sign-in at ${(rtoMs / 1000).toFixed(1)} s`);

  // 5. the checks
  console.log('\nChecks on the restored database:');
  const db = await openDb({ databaseUrl: urlOf(restoredPort) });
  try {
    const crs = await db.query<{ id: number; status: string; action: string; entity_type: string; payload: { role_name?: string } }>(
      'SELECT id, status, action, entity_type, payload FROM change_requests',
    );
    const crById = new Map(crs.map((r) => [r.id, r]));
    const roleNames = new Set((await db.query<{ role_name: string }>('SELECT role_name FROM roles')).map((r) => r.role_name));
    const actions = await db.query<{ transaction_id: number; action: string; outcome: string }>("SELECT transaction_id, action, outcome FROM transaction_actions WHERE kind = 'ceft'");

    // every phase-A write is there, as it was at the target
    const aRequests = requests.filter((r) => r.phase === 'A');
    const aWrong = aRequests.filter((r) => crById.get(r.id)?.status !== r.atTarget);
    check(
      aRequests.length > 0 && aWrong.length === 0,
      `the ${aRequests.length} change requests made before the target are there as they were then (approved, rejected, pending: an approval after the target is undone)`,
      aWrong.map((r) => `#${r.id}: ${crById.get(r.id)?.status ?? 'missing'} (was ${r.atTarget})`).join(', '),
    );
    const aMoney = money.filter((m) => m.phase === 'A');
    const aMissing = aMoney.filter((m) => !actions.some((a) => a.transaction_id === m.transactionId && a.action === m.action && a.outcome === 'SUCCESS'));
    check(aMoney.length > 0 && aMissing.length === 0, `the ${aMoney.length} money actions before the target are there`, aMissing.map((m) => `${m.action} ${m.transactionId}`).join(', '));

    // none after
    const bRequests = requests.filter((r) => r.phase === 'B');
    const bThere = bRequests.filter((r) => crById.has(r.id) || roleNames.has(r.roleName));
    check(bThere.length === 0, `none of the ${bRequests.length} change requests made after the target is there, nor its role`, bThere.map((r) => `#${r.id}`).join(', '));
    const bMoney = money.filter((m) => m.phase === 'B');
    const bThereMoney = bMoney.filter((m) => actions.some((a) => a.transaction_id === m.transactionId));
    check(bThereMoney.length === 0, `none of the ${bMoney.length} money actions after the target is there`, bThereMoney.map((m) => `${m.action} ${m.transactionId}`).join(', '));
    const bRows = await db.query<{ id: number; ceft_payment_status: string | null; ipg_refund_status: string | null }>(
      'SELECT id, ceft_payment_status, ipg_refund_status FROM ceft_transactions WHERE id = ANY($1::int[])',
      [`{${bMoney.map((m) => m.transactionId).join(',')}}`],
    );
    check(
      bRows.length === bMoney.length && bRows.every((r) => r.ceft_payment_status === 'FAILED' && r.ipg_refund_status === null),
      'the transactions acted on after the target are as they were before (payout failed, not refunded)',
      JSON.stringify(bRows.filter((r) => r.ceft_payment_status !== 'FAILED' || r.ipg_refund_status !== null)),
    );

    const targetCounts = { requests: atTarget.requests, roles: atTarget.roles, actions: atTarget.actions, head: atTarget.head };
    check(
      JSON.stringify(restoredCounts) === JSON.stringify(targetCounts),
      'change requests, roles, money actions and the activity log head equal those read at the target',
      `restored ${JSON.stringify(restoredCounts)}, at the target ${JSON.stringify(targetCounts)}`,
    );
    // the activity log's hash chain
    const chain = await verifyActivityLog(db);
    check(chain.ok, `the activity log's hash chain verifies (${chain.checked} entries, head ${chain.headSeq})`, chain.firstBreak?.message);

    // money moved at most once per transaction; each action's record matches its transaction
    const twice = await db.query<{ id: number }>(
      `SELECT id FROM ceft_transactions WHERE (ceft_payment_status = 'SUCCESS')::int + (ipg_void_status = 'SUCCESS')::int + (ipg_refund_status = 'SUCCESS')::int > 1`,
    );
    check(twice.length === 0, 'no transaction’s money moved twice (at most one of payout, void, refund succeeded)', twice.map((r) => r.id).join(', '));
    const unmatched = await db.query<{ transaction_id: number; action: string }>(
      `SELECT a.transaction_id, a.action FROM transaction_actions a JOIN ceft_transactions c ON c.id = a.transaction_id
        WHERE a.kind = 'ceft' AND a.outcome = 'SUCCESS' AND (
              (a.action = 'MANUAL_FUND_TRANSFER' AND c.ceft_payment_status IS DISTINCT FROM 'SUCCESS')
           OR (a.action = 'REFUND' AND c.ipg_refund_status IS DISTINCT FROM 'SUCCESS')
           OR (a.action = 'VOID' AND c.ipg_void_status IS DISTINCT FROM 'SUCCESS'))`,
    );
    check(unmatched.length === 0, 'every successful money action’s transaction shows it', unmatched.map((r) => `${r.action} ${r.transaction_id}`).join(', '));

    // no change request half-applied
    const roleRequests = crs.filter((r) => r.entity_type === 'Role' && r.action === 'CREATE' && r.payload.role_name);
    const half = roleRequests.filter((r) => (r.status === 'APPROVED') !== roleNames.has(r.payload.role_name!) && (r.status === 'APPROVED' || r.status === 'PENDING' || r.status === 'REJECTED'));
    check(
      half.length === 0,
      `no change request half-applied (${roleRequests.length} role creations: approved ⇒ the role exists, pending or rejected ⇒ it does not)`,
      half.map((r) => `#${r.id} ${r.status}`).join(', '),
    );

    // the restored server: sign-in and a list
    const maker2 = await server.login('maker');
    const listed = await server.call('role/list', {}, checker2);
    const listedNames = new Set(((listed.data?.roles ?? []) as { role_name: string }[]).map((r) => r.role_name));
    check(
      maker2.length > 0 && listed.statusCode === 200 && aRequests.filter((r) => r.atTarget === 'APPROVED').every((r) => listedNames.has(r.roleName)),
      'the maker and the checker sign in to the restored server, which lists the roles approved before the target',
      `role/list ${listed.statusCode}`,
    );
  } finally {
    await db.close();
    await server.stop();
  }

  console.log('\nMeasured:');
  console.log(`  full backup:  ${backupSeconds.toFixed(1)} s (${(lastBackup.info.size / 2 ** 20).toFixed(0)} MB database)`);
  console.log(`  archive:      the last segment in the repository ${archiveMs} ms after pg_switch_wal()`);
  console.log(
    `  RPO:          ${rpoMs} ms between the last write restored and the target; the ${writes.B} API writes after the target (${writes.A} before it) were given up by choosing it (the archive held them: ${((lastWriteMs - targetMs) / 1000).toFixed(1)} s of writes)`,
  );
  console.log(
    `  RTO:          ${(rtoMs / 1000).toFixed(1)} s from the restore's start to the restored server answering a sign-in (files ${(restoreFilesMs / 1000).toFixed(1)} s, recovery ${((recoveredMs - restoreFilesMs) / 1000).toFixed(1)} s)`,
  );
  console.log(`  whole drill:  ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (problems.length > 0) {
    console.log(`\nThe restore drill FAILED ${problems.length} check(s): ${problems.join('; ')}`);
    return 1;
  }
  console.log('\nThe restore drill passed: every check holds.');
  return 0;
}

let exitCode = 1;
main()
  .then(
    (code) => (exitCode = code),
    (err: unknown) => {
      console.error(`The restore drill could not run to its end: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (err instanceof Error && err.cause) console.error('  cause:', err.cause);
      for (const s of servers) console.error(`  server pid ${s.pid}: exit ${s.exitCode ?? s.signalCode ?? 'still running'}`);
      if (folder && existsSync(join(folder, 'server1.log'))) console.error(readFileSync(join(folder, 'server1.log'), 'utf8').slice(-2000));
    },
  )
  .finally(async () => {
    await cleanup();
    process.exit(exitCode);
  });
