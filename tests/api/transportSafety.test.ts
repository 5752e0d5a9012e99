/**
 * Transport and deployment safety (issue 15): socket timeouts (a client trickling its headers or its
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
