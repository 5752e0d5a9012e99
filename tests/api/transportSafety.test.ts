/**
 * Transport and deployment safety: socket timeouts (a client trickling its headers or its
 * body is cut off, an idle kept-alive socket is closed), the listening address (127.0.0.1 unless HOST
 * says otherwise), the production refusals (no SESSION_SECRET; demo accounts in the database) and the
 * embedded database's file permissions. The timeouts are exercised through raw sockets on a server
 * built with short values; the entry point (src/server/main.ts) runs as a child process.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, SERVER_TIMEOUTS, type ServerTimeouts } from '../../src/server/app';
import { openDb } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations';
import { demoAccountUsernames, removeDemoAccounts } from '../../src/server/demoAccounts';
import { DEFAULT_HOST, loadTokenSecret, openMigratedDb, readEnvironment } from '../../src/server/environment';
import { seedDemo } from '../../src/server/seed/demo';
import { checkNoDemoAccounts, checkProductionEnvironment } from '../../src/server/startupChecks';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

const root = new URL('../..', import.meta.url).pathname;
const SHORT: ServerTimeouts = { headersMs: 600, requestMs: 1200, keepAliveMs: 400, checkIntervalMs: 100 };

let server: TestServer;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  server = await startServer();
  app = await buildApp({ db: server.db, secret: server.secret, clock: server.now, scryptN: TEST_SCRYPT_N, timeouts: SHORT });
  // a reply that takes longer than the request timeout (a large export): the timeouts bound the client's sending, not the server's answer
  app.get('/test-slow-answer', async () => {
    await sleep(SHORT.requestMs * 2);
    return { done: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  port = address.port;
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw connection: what the server sent, and when (ms after connecting) it closed the socket. */
function rawSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<number>; isClosed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    let closedFlag = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const closed = new Promise<number>((r) => socket.on('close', () => ((closedFlag = true), r(Date.now() - started))));
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => closedFlag }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` while the socket is open, for at most `forMs`. */
async function trickle(s: { socket: Socket; isClosed: () => boolean }, text: string, everyMs: number, forMs: number): Promise<void> {
  const until = Date.now() + forMs;
  for (let i = 0; !s.isClosed() && Date.now() < until; i = (i + 1) % text.length) {
    s.socket.write(text[i]!);
    await sleep(everyMs);
  }
}

describe('socket timeouts', () => {
  it('disconnects a client that sends its header bytes one at a time, slowly', async () => {
    const s = await rawSocket();
    s.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await trickle(s, 'X-Slow: abcdefghij\r\n', 50, 6_000);
    expect(s.isClosed(), 'still connected after 6 s of trickled headers').toBe(true);
    const closedAfter = await s.closed;
    expect(closedAfter).toBeLessThan(SHORT.headersMs + SHORT.checkIntervalMs + 1_500);
    // Node answers a header timeout with 408 before closing (or just closes)
    if (s.received()) expect(s.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client that sends its body slowly (408 or closed)', async () => {
    const s = await rawSocket();
    s.socket.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"username":"');
    await trickle(s, 'a', 50, 6_000);
    expect(s.isClosed(), 'still connected after 6 s of a trickled body').toBe(true);
    const closedAfter = await s.closed;
    expect(closedAfter).toBeLessThan(SHORT.requestMs + SHORT.checkIntervalMs + 1_500);
    if (s.received()) expect(s.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection that never sends a byte within the header timeout (the server holds none of them after it)', async () => {
    const connections = () => new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const before = await connections();
    const silent = await Promise.all(Array.from({ length: 5 }, () => rawSocket()));
    for (let waited = 0; (await connections()) < before + 5 && waited < 5_000; waited += 20) await sleep(20);
    expect(await connections()).toBe(before + 5);
    const closedAfter = await Promise.all(silent.map((s) => Promise.race([s.closed, sleep(SHORT.headersMs + SHORT.checkIntervalMs + 5_000).then(() => -1)])));
    for (const s of silent) s.socket.destroy();
    for (const ms of closedAfter) {
      expect(ms, 'a silent connection still open well past the header timeout').toBeGreaterThanOrEqual(0);
      // not before its time: a client gets the whole header timeout to start its request
      expect(ms).toBeGreaterThanOrEqual(SHORT.headersMs - 50);
    }
    // closed by the server (408, or nothing), not by this client
    for (const s of silent) if (s.received()) expect(s.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(await connections()).toBe(before);
  });

  it('a connection that starts its request within the header timeout is answered as usual', async () => {
    const s = await rawSocket();
    await sleep(SHORT.headersMs / 2);
    s.socket.write('GET /no-such-page HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const waited = Date.now();
    while (!/\r\n\r\n/.test(s.received()) && Date.now() - waited < 5_000) await sleep(20);
    s.socket.destroy();
    expect(s.received()).toMatch(/^HTTP\/1\.1 404/);
  });

  it('closes an idle kept-alive connection after the keep-alive timeout', async () => {
    const s = await rawSocket();
    s.socket.write('GET /no-such-page HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const waited = Date.now();
    while (!/\r\n\r\n/.test(s.received()) && Date.now() - waited < 5_000) await sleep(20);
    expect(s.received()).toMatch(/^HTTP\/1\.1 404/);
    const answeredAt = Date.now();
    const closedOrNot = await Promise.race([s.closed.then(() => Date.now() - answeredAt), sleep(5_000).then(() => -1)]);
    s.socket.destroy();
    expect(closedOrNot, 'idle kept-alive socket still open after 5 s').toBeGreaterThanOrEqual(0);
    expect(closedOrNot).toBeLessThan(SHORT.keepAliveMs + 1_500);
  });

  it('a complete request within the limits is answered as usual on a kept-alive socket', async () => {
    const s = await rawSocket();
    const body = JSON.stringify({ username: 'nobody', password: 'x' });
    s.socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    const waited = Date.now();
    while (!/"statusCode"/.test(s.received()) && Date.now() - waited < 5_000) await sleep(20);
    s.socket.destroy();
    expect(s.received()).toMatch(/^HTTP\/1\.1 (400|401)/);
  });

  it('a complete request whose answer takes longer than the request timeout is answered (exports are not cut off)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/test-slow-answer`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
  });

  it('the defaults cut a trickling client off within 30 s and are what a server built without options uses', async () => {
    for (const [name, ms] of Object.entries(SERVER_TIMEOUTS)) expect(ms, name).toBeLessThanOrEqual(30_000);
    // a deadline is checked every checkIntervalMs, so it can be overrun by that much
    expect(SERVER_TIMEOUTS.headersMs + SERVER_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(30_000);
    expect(SERVER_TIMEOUTS.requestMs + SERVER_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(30_000);
    expect(SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestMs);
    const plain = await buildApp({ db: server.db, secret: server.secret });
    try {
      expect(plain.server.headersTimeout).toBe(SERVER_TIMEOUTS.headersMs);
      expect(plain.server.requestTimeout).toBe(SERVER_TIMEOUTS.requestMs);
      expect(plain.server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveMs);
      expect(plain.server.headersTimeout).toBeGreaterThan(0);
      expect(plain.server.requestTimeout).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  });
});

/** Runs the server's entry point (or a tool) as a child process until it exits or prints `until`; what it printed and its exit code. */
function runEntry(script: string, env: Record<string, string>, until?: RegExp, timeoutMs = 90_000): Promise<{ code: number | null; stdout: string; stderr: string; match?: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['HOST', 'PORT', 'NODE_ENV', 'SESSION_SECRET', 'DATABASE_URL', 'DATA_DIR'].includes(k)));
    const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, script)], { cwd: root, env: { ...baseEnv, ...env } as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    const check = () => {
      const match = until ? stdout.match(until) : null;
      if (match) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.once('exit', () => {});
        resolve({ code: null, stdout, stderr, match });
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', (c) => ((stdout += c), check()));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Modes (permission bits) of everything under `dir`, by path relative to it. */
function modesUnder(dir: string): Map<string, number> {
  const out = new Map<string, number>([['.', statSync(dir).mode & 0o777]]);
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel === '.' ? e.name : join(rel, e.name);
      if (e.isSymbolicLink()) continue;
      out.set(p, statSync(join(dir, p)).mode & 0o777);
      if (e.isDirectory()) walk(p);
    }
  };
  walk('.');
  return out;
}

function expectOwnerOnly(dir: string) {
  const modes = modesUnder(dir);
  expect(modes.size).toBeGreaterThan(3);
  for (const [p, mode] of modes) {
    const isDir = statSync(join(dir, p)).isDirectory();
    expect(mode.toString(8), `${p} (${isDir ? 'folder' : 'file'})`).toBe(isDir ? '700' : '600');
  }
}

describe('listening address', () => {
  it('is 127.0.0.1 unless HOST says otherwise; PORT as given', () => {
    expect(DEFAULT_HOST).toBe('127.0.0.1');
    expect(readEnvironment({}).host).toBe('127.0.0.1');
    expect(readEnvironment({ HOST: '' }).host).toBe('127.0.0.1');
    expect(readEnvironment({}).port).toBe(8080);
    expect(readEnvironment({ HOST: '0.0.0.0', PORT: '9000' })).toMatchObject({ host: '0.0.0.0', port: 9000 });
    expect(() => readEnvironment({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});

describe('production start-up refusals (check functions)', () => {
  it('NODE_ENV=production without SESSION_SECRET is refused with a message naming it; outside production or with it, no refusal', () => {
    expect(() => checkProductionEnvironment({ NODE_ENV: 'production' })).toThrow(/NODE_ENV=production needs SESSION_SECRET/);
    expect(() => checkProductionEnvironment({ NODE_ENV: 'production', SESSION_SECRET: '' })).toThrow(/SESSION_SECRET/);
    expect(() => checkProductionEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) })).not.toThrow();
    expect(() => checkProductionEnvironment({})).not.toThrow();
  });

  it('a database seeded before the marker existed has its demo accounts recognised by migration 80 (a look-alike is not)', async () => {
    const db = await openDb({});
    try {
      await migrate(
        db,
        migrations.filter((m) => m.id < 80),
      );
      await seedDemoBeforeMarker(db);
      await migrate(db);
      const demo = await demoAccountUsernames(db);
      expect(demo).toContain('admin');
      expect(demo).toContain('tharindu_r');
      expect(demo).not.toContain('ops_admin');
      expect(demo).not.toContain('maker'); // same username, an address of its own: someone's real account
    } finally {
      await db.close();
    }
  });
});

/** The console users as the demo seeder made them before migration 80 (plus two accounts of the operator's own). */
async function seedDemoBeforeMarker(db: Awaited<ReturnType<typeof openDb>>) {
  await db.query(`INSERT INTO user_levels (level, title) VALUES (3, 'Level 3') ON CONFLICT (level) DO NOTHING`);
  const role = await db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('Old', 'BACKEND', (SELECT id FROM user_levels WHERE level = 3), '["super-permission"]') RETURNING id`,
  );
  const add = (username: string, email: string) =>
    db.query(
      `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, disabled, password_hash)
       VALUES ('Someone', $1, '0771234567', $2, 'BACKEND', 'HO', $3, 0, 'x')`,
      [email, username, role!.id],
    );
  await db.query(`INSERT INTO branches (code, name) VALUES ('HO', 'Head Office') ON CONFLICT (code) DO NOTHING`);
  await add('admin', 'admin@remit.lk');
  await add('tharindu_r', 'tharindu.r@remit.lk');
  await add('maker', 'ops@bank.example');
  await add('ops_admin', 'ops.admin@remit.lk');
}

describe('data folder permissions', () => {
  it('a data folder an older version left open to others is tightened at start-up: folders 0700, files 0600, the session secret too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'transport-data-'));
    try {
      // as an older version (under umask 000) left it
      chmodSync(dataDir, 0o777);
      mkdirSync(join(dataDir, 'db'), { mode: 0o777 });
      chmodSync(join(dataDir, 'db'), 0o777);
      writeFileSync(join(dataDir, 'session-secret'), 'k'.repeat(48), { mode: 0o666 });
      chmodSync(join(dataDir, 'session-secret'), 0o666);
      const environment = readEnvironment({ DATA_DIR: dataDir });
      const db = await openMigratedDb(environment);
      try {
        await loadTokenSecret(environment, db);
        expectOwnerOnly(dataDir);
        expect(modesUnder(dataDir).has(join('db', 'PG_VERSION'))).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("a new data folder and its generated session secret are the owner's only, even under umask 000", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'transport-new-'));
    const previous = process.umask(0);
    try {
      const environment = readEnvironment({ DATA_DIR: join(parent, 'data') });
      const db = await openMigratedDb(environment);
      try {
        await loadTokenSecret(environment, db);
        expectOwnerOnly(join(parent, 'data'));
        expect(statSync(join(parent, 'data', 'session-secret')).mode & 0o777).toBe(0o600);
      } finally {
        await db.close();
      }
    } finally {
      process.umask(previous);
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('the entry point (src/server/main.ts as a child process)', () => {
  it('NODE_ENV=production without SESSION_SECRET: exits 1 with the message, before opening anything', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'transport-nosecret-'));
    try {
      const r = await runEntry('src/server/main.ts', { NODE_ENV: 'production', DATA_DIR: join(dataDir, 'data'), PORT: '0' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('NODE_ENV=production needs SESSION_SECRET');
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('SCRYPT_N (cheap password hashes, for tests) without NODE_ENV=test: exits 1 naming it, before opening anything; LOG_LEVEL must be a level', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'transport-scrypt-'));
    try {
      for (const nodeEnv of [undefined, 'production']) {
        const r = await runEntry('src/server/main.ts', { ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}), SESSION_SECRET: 's'.repeat(48), SCRYPT_N: '1024', DATA_DIR: join(dataDir, 'data'), PORT: '0' });
        expect(r.code, nodeEnv).toBe(1);
        expect(r.stderr).toContain('SCRYPT_N lowers the cost of the stored password hashes and is for tests only: it needs NODE_ENV=test');
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
      const r = await runEntry('src/server/main.ts', { NODE_ENV: 'test', LOG_LEVEL: 'loud', DATA_DIR: join(dataDir, 'data'), PORT: '0' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('LOG_LEVEL: "loud" is not one of fatal, error, warn, info, debug, trace, silent');
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('DATABASE_URL whose search_path names a schema that does not exist: exits 1 naming the schema, with no stack trace', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c search_path=no_such_schema_31');
    const r = await runEntry('src/server/main.ts', { NODE_ENV: 'test', DATABASE_URL: url.toString(), PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DATABASE_URL: its search_path names the schema "no_such_schema_31", which does not exist in that database: create it first (CREATE SCHEMA no_such_schema_31)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('production with demo accounts: refused, naming the command; after `remove-demo-accounts` it starts, on 127.0.0.1 by default and on HOST when set', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'transport-prod-'));
    const env = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(48), DATA_DIR: dataDir, PORT: '0' };
    try {
      // the demo's accounts and reference data without its 20,000 transactions, which this test does not read
      const seeded = await openMigratedDb(readEnvironment({ DATA_DIR: dataDir }));
      vi.stubEnv('SEED_TRANSACTIONS', '0');
      try {
        await seedDemo(seeded, { scryptN: TEST_SCRYPT_N });
      } finally {
        vi.unstubAllEnvs();
        await seeded.close();
      }

      const refused = await runEntry('src/server/main.ts', env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/NODE_ENV=production and the database holds \d+ demo account\(s\)/);
      expect(refused.stderr).toContain('npm run remove-demo-accounts');

      const removed = await runEntry('src/server/cli/removeDemoAccounts.ts', { DATA_DIR: dataDir });
      expect(removed.code).toBe(0);
      expect(removed.stdout).toMatch(/Removed \d+ demo account\(s\): admin, maker/);
      expect(removed.stdout).toContain('npm run create-admin');

      const started = await runEntry('src/server/main.ts', env, /Console and API at http:\/\/(\S+):(\d+)\//);
      expect(started.match?.[1]).toBe('127.0.0.1');
      const overridden = await runEntry('src/server/main.ts', { ...env, HOST: '127.0.0.2' }, /Console and API at http:\/\/(\S+):(\d+)\//);
      expect(overridden.match?.[1]).toBe('127.0.0.2');

      const db = await openMigratedDb(readEnvironment({ DATA_DIR: dataDir }));
      try {
        expect(await demoAccountUsernames(db)).toEqual([]);
        const logged = await db.one<{ description: string }>("SELECT description FROM activity_logs WHERE type = 'DEMO_ACCOUNTS_REMOVED'");
        expect(logged?.description).toMatch(/admin/);
      } finally {
        await db.close();
      }
      expectOwnerOnly(dataDir);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // starts main.ts three times as child processes: minutes on a busy machine
  }, 300_000);

  it('the server process listens on 127.0.0.1 by default (its socket address, not only its message)', async () => {
    // Run through the listener itself: the address main.ts passes to listen() is readEnvironment's host.
    const environment = readEnvironment({});
    const own = await buildApp({ db: server.db, secret: server.secret });
    try {
      await own.listen({ port: 0, host: environment.host });
      const address = own.server.address();
      expect(address && typeof address !== 'string' ? address.address : address).toBe('127.0.0.1');
    } finally {
      await own.close();
    }
  });
});

describe('demo accounts on the test database (runs last: removes them)', () => {
  it('a production check refuses the seeded database, naming the command; after removeDemoAccounts it passes and the accounts cannot sign in', async () => {
    await expect(checkNoDemoAccounts(server.db, { NODE_ENV: 'production' })).rejects.toThrow(/npm run remove-demo-accounts/);
    await expect(checkNoDemoAccounts(server.db, {})).resolves.toBeUndefined();
    const admin = await server.login('admin');
    const removed = await removeDemoAccounts(server.db);
    expect(removed).toContain('admin');
    await expect(checkNoDemoAccounts(server.db, { NODE_ENV: 'production' })).resolves.toBeUndefined();
    const login = await server.call('auth/login', { username: 'admin', password: 'Demo@Pass1' });
    expect(login.statusCode).toBe(401);
    // a token issued before is no longer accepted
    const after = await server.call('user/list', {}, admin);
    expect(after.statusCode).toBe(401);
    const entry = await server.db.one<{ level: string; description: string }>("SELECT level, description FROM activity_logs WHERE type = 'DEMO_ACCOUNTS_REMOVED'");
    expect(entry?.description).toContain('admin');
  });
});
