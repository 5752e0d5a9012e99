/**
 * The embedded database's backup and restore (`npm run backup -- --out FILE`, `npm run restore -- --in
 * FILE [--force]`, src/server/cli/backup.ts and restore.ts), run as the commands themselves on a data
 * folder seeded with the demo data:
 * - a round trip: a change request made through the server's API, the server stopped, a backup; another
 *   change request after it; the backup restored into a fresh folder holds exactly the data backed up
 *   (every table's rows), and its session secret: a token signed before the backup still signs in there;
 * - refusals (exit code 1, a message saying why): while a server has the folder open (its in-use.lock),
 *   into a folder that holds a database without --force, over an existing backup file, from a file that
 *   is not a backup; --force moves what was there aside instead of deleting it; a lock left by a process
 *   that no longer runs (a killed server) does not stop them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/server/db/db';
import { DATA_DIR_LOCK, openMigratedDb, readEnvironment } from '../../src/server/environment';
import { freePort } from '../../src/server/freePort';
import { seedDemo } from '../../src/server/seed/demo';
import { contentFingerprint } from './stateFingerprint';

const root = mkdtempSync(join(tmpdir(), 'embedded-backup-'));
const dataDir = join(root, 'data');
const backupFile = join(root, 'backup.zip');
const PASSWORD = 'Demo@Pass1';
const CHILD_ENV = { NODE_ENV: 'test', SCRYPT_N: '1024', SEED_TRANSACTIONS: '0', DATABASE_URL: '', SESSION_SECRET: '', SETTLEMENT_SCHEDULE: 'off', LOG_LEVEL: 'warn' };

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command-line tool (node --import tsx) with DATA_DIR set; its exit code and output. */
function runTool(script: string, args: string[], dir = dataDir): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...CHILD_ENV, DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });
}
const backup = (file = backupFile, dir = dataDir) => runTool('src/server/cli/backup.ts', ['--out', file], dir);
const restore = (dir: string, ...extra: string[]) => runTool('src/server/cli/restore.ts', ['--in', backupFile, ...extra], dir);

interface Server {
  child: ChildProcess;
  call(path: string, body: unknown, token?: string): Promise<{ statusCode: number; data: Record<string, unknown> }>;
  login(username: string): Promise<string>;
  stop(): Promise<void>;
}

async function startServer(dir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: { ...process.env, ...CHILD_ENV, DATA_DIR: dir, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { statusCode: number; data: Record<string, unknown> };
  };
  for (const deadline = Date.now() + 240_000; ;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    if (
      await call('auth/login', {}).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    call,
    async login(username) {
      const reply = await call('auth/login', { username, password: PASSWORD });
      expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
      return reply.data.token as string;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const createRole = (server: Server, token: string, name: string) =>
  server.call('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, token);

/** Every table's rows (an md5 of each), read with the folder's database opened directly (no server on it). */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const db = await openDb({ dataDir: join(dir, 'db') });
  try {
    return await contentFingerprint(db);
  } finally {
    await db.close();
  }
}

let server: Server | undefined;
let makerToken = '';
let atBackup: Record<string, string>;

beforeAll(async () => {
  // the demo's accounts and reference data with a cheap password cost, no transactions (SEED_TRANSACTIONS=0 for the server too)
  const previous = process.env.SEED_TRANSACTIONS;
  process.env.SEED_TRANSACTIONS = '0';
  const db = await openMigratedDb(readEnvironment({ DATA_DIR: dataDir }));
  try {
    await seedDemo(db, { scryptN: 1024 });
  } finally {
    await db.close();
    if (previous === undefined) delete process.env.SEED_TRANSACTIONS;
    else process.env.SEED_TRANSACTIONS = previous;
  }
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('npm run backup and npm run restore (embedded database)', () => {
  it('refuses both while a server has the folder open, naming the process', async () => {
    server = await startServer(dataDir);
    makerToken = await server.login('maker');
    expect((await createRole(server, makerToken, 'Backed Up Role')).statusCode).toBe(200);
    const lock = join(dataDir, DATA_DIR_LOCK);
    expect(existsSync(lock)).toBe(true);

    const refused = await backup();
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The embedded database in ${dataDir} is in use by process ${server.child.pid}`);
    expect(existsSync(backupFile)).toBe(false);
    const notRestored = await restore(dataDir, '--force');
    expect(notRestored.code).toBe(1);
    expect(notRestored.output).toContain('is in use by process');

    await server.stop();
    server = undefined;
    expect(existsSync(lock)).toBe(false);
  }, 300_000);

  it('backs up the stopped folder; a restore into a fresh folder holds exactly that data and signs in with the same key', async () => {
    atBackup = await fingerprint(dataDir);
    const made = await backup();
    expect(made.output).toMatch(/Backed up the embedded database in .* \(migration \d+, with its session secret\)/);
    expect(made.code).toBe(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const again = await backup();
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');

    // a change after the backup
    server = await startServer(dataDir);
    expect((await createRole(server, makerToken, 'After The Backup')).statusCode).toBe(200);
    await server.stop();
    server = undefined;
    expect(await fingerprint(dataDir)).not.toEqual(atBackup);

    const fresh = join(root, 'fresh');
    const restored = await restore(fresh);
    expect(restored.output).toMatch(/Restored the backup of .* \(migration \d+, with its session secret\) into /);
    expect(restored.code).toBe(0);
    expect(await fingerprint(fresh)).toEqual(atBackup);

    server = await startServer(fresh);
    // the token the maker got before the backup: the same session secret signs and checks it
    const listed = await server.call('role/list', {}, makerToken);
    expect(listed.statusCode).toBe(200);
    const pending = (listed.data.changeRequests as { changeRequestId: number; newRecord?: unknown }[]).map((c) => JSON.stringify(c));
    expect(pending.some((c) => c.includes('Backed Up Role'))).toBe(true);
    expect(pending.some((c) => c.includes('After The Backup'))).toBe(false);
    expect(await server.login('checker')).toBeTruthy();
    await server.stop();
    server = undefined;
  }, 400_000);

  it('into a folder that holds a database: refused without --force; with it, what was there is moved aside and the backup is back', async () => {
    const refused = await restore(dataDir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('already holds a database: restore into an empty folder, or add --force');

    // a lock left behind by a process that no longer runs (a killed server) stops nothing
    writeFileSync(join(dataDir, DATA_DIR_LOCK), JSON.stringify({ pid: 2 ** 22 + 12345, started: '1', command: 'src/server/main.ts' }));
    const forced = await restore(dataDir, '--force');
    expect(forced.output).toContain('what was there is kept as *.replaced-');
    expect(forced.code).toBe(0);
    expect(await fingerprint(dataDir)).toEqual(atBackup);
    const kept = readdirSync(dataDir).filter((f) => f.includes('.replaced-'));
    expect(kept.sort().map((f) => f.replace(/\.replaced-.*/, ''))).toEqual(['db', 'session-secret']);
    expect(existsSync(join(dataDir, DATA_DIR_LOCK))).toBe(false);
  }, 300_000);

  it('refuses a file that is not a backup, or a damaged one, changing nothing', async () => {
    const junk = join(root, 'junk.zip');
    writeFileSync(junk, 'not a zip at all');
    const empty = join(root, 'empty');
    const notZip = await runTool('src/server/cli/restore.ts', ['--in', junk], empty);
    expect(notZip.code).toBe(1);
    expect(notZip.output).toContain('is not a backup made by `npm run backup` (not a zip file)');
    expect(existsSync(join(empty, 'db'))).toBe(false);
    const missing = await runTool('src/server/cli/restore.ts', [], empty);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('Name the backup file: npm run restore -- --in FILE');
  }, 120_000);
});
