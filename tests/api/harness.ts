/**
 * Starts the real server on a fresh database for a test file: a PostgreSQL database of its own when
 * TEST_DATABASE_URL is set, otherwise in-memory PGlite, migrated and seeded with the demo data (with a
 * cheap scrypt cost; copied from the run's template, ./templateDb.ts), listens on a free port, and
 * talks to it over HTTP only.
 *
 * Calls are typed by their contract: `call(bankList, body, token)` checks the body against the
 * contract's request (RequestOf) at compile time and answers a CallReply, whose `data` is the call's
 * data (DataOf) once `expectOk(reply)` has passed and the failure's `{ message }` once
 * `expectStatus(reply, 403)` has. A path string (`call('bank/list', ...)`) stays untyped, for bodies a
 * contract would refuse at compile time (the tests of the server's own validation).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { CallContract, DataOf, ErrorData, HandlerStatus, RequestOf, TopOf } from '../../src/api/contract';
import { login as loginCall } from '../../src/api/auth';
import { buildApp } from '../../src/server/app';
import { openDb, type Db } from '../../src/server/db/db';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { freshDatabase } from './templateDb';

export const TEST_SCRYPT_N = 2 ** 10;

/**
 * Sets (a string) or removes (undefined) these environment variables for the file's tests, from its
 * first beforeAll to its last afterAll, and then puts back what was there: most API files share their
 * process with the files after them (vitest.config.ts), and a variable left set would reach those.
 * Call it at the top of the file, before the hooks that start servers.
 */
export function useEnvironment(vars: Readonly<Record<string, string | undefined>>): void {
  const before = new Map<string, string | undefined>();
  const put = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  beforeAll(() => {
    for (const [name, value] of Object.entries(vars)) {
      before.set(name, process.env[name]);
      put(name, value);
    }
  });
  afterAll(() => {
    for (const [name, value] of before) put(name, value);
  });
}

/** Every reply's body: the HTTP status always equals statusCode (the harness checks it on each call). */
export interface ApiReply {
  statusCode: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  [top: string]: unknown;
}

/** The statuses the HTTP layer answers for any call (src/api/openapi.ts `layerStatuses`). */
export type LayerStatus = 400 | 401 | 403 | 413 | 415 | 500;

/** A contract's successful reply: its data and its top-level extras, typed by the contract. */
export type OkReply<C extends CallContract> = { statusCode: 200; data: DataOf<C> } & TopOf<C>;
/** A refusal or failure: `data.message` says why. */
export interface FailedReply<S extends number = HandlerStatus | LayerStatus> {
  statusCode: S;
  data: ErrorData;
}
/** What `call(contract, ...)` answers: narrowed by expectOk / expectStatus. */
export type CallReply<C extends CallContract> = OkReply<C> | FailedReply;

/** Fails the test unless the reply is a 200 (showing what came instead), and narrows it to the call's data. */
export function expectOk<C extends CallContract>(reply: CallReply<C>): asserts reply is OkReply<C> {
  expect(reply.statusCode, `the reply: ${JSON.stringify(reply.data)}`).toBe(200);
}

/** Fails the test unless the reply has this (failure) status, and narrows it to `{ data: { message } }`. */
export function expectStatus<C extends CallContract, S extends HandlerStatus | LayerStatus>(reply: CallReply<C>, status: S): asserts reply is FailedReply<S> {
  expect(reply.statusCode, `the reply: ${JSON.stringify(reply.data)}`).toBe(status);
}

export interface ApiClient {
  url: string;
  /**
   * POST /api/<path> with a JSON body (undefined = no body). Fails the test if HTTP status ≠ statusCode.
   * With a contract the body is checked against its request type and the reply is typed by it (a
   * contract of no particular call, as the tests that go through every call pass, answers an ApiReply).
   */
  call<C extends CallContract>(contract: C, body: RequestOf<C>, token?: string): Promise<CallContract extends C ? ApiReply : CallReply<C>>;
  call(path: string | CallContract, body?: unknown, token?: string): Promise<ApiReply>;
  /** `call` with a contract, failing the test unless the reply is a 200: the call's data and extras, typed. */
  ok<C extends CallContract>(contract: C, body: RequestOf<C>, token?: string): Promise<OkReply<C>>;
  /** A raw request, for bodies and methods `call` does not make. */
  raw(path: string, init?: RequestInit): Promise<Response>;
  /** Signs in and returns the token (fails the test on anything but 200). */
  login(username: string, password?: string): Promise<string>;
}

export interface TestServer extends ApiClient {
  db: Db;
  secret: Uint8Array;
  backend: 'pg' | 'pglite';
  /** Moves the server's clock (tokens, lockouts, timestamps) forward; `resetClock` undoes it. */
  advanceClock(ms: number): void;
  resetClock(): void;
  now(): Date;
  /** A second server process-alike (own app, own connections) on the same database. */
  startPeer(): Promise<ApiClient & { close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface ServerOptions {
  /**
   * The business time zone (AppOptions.businessTimeZone). Default: the test process's own zone, in
   * which the older test files write their days; tests/api/businessTime.test.ts sets one that differs.
   */
  businessTimeZone?: string;
  /** AppOptions.settlementSchedule: the servers (this one and its peers) generate the day's scheduled batch at this business time. */
  settlementSchedule?: string;
  /** AppOptions.schedulerTickMs. */
  schedulerTickMs?: number;
  /** AppOptions.moneyActionApprovalAboveUsd (default: off). */
  moneyActionApprovalAboveUsd?: number | null;
  /** Where the server's clock starts, in milliseconds from the real time (advanceClock moves it on). */
  clockOffsetMs?: number;
  /** AppOptions.pendingRequestsPerMaker (default: PENDING_REQUESTS_PER_MAKER's default, 200). */
  pendingRequestsPerMaker?: number;
  /** AppOptions.changeRequestEventsHeartbeatMs (default: the server's). */
  eventsHeartbeatMs?: number;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const businessTimeZone = options.businessTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const fresh = await freshDatabase(TEST_SCRYPT_N);
  const { db, databaseUrl } = fresh;

  const secret = randomBytes(32);
  let offsetMs = options.clockOffsetMs ?? 0;
  const clock = () => new Date(Date.now() + offsetMs);

  const listen = async (appDb: Db) => {
    const app = await buildApp({
      db: appDb,
      secret,
      clock,
      scryptN: TEST_SCRYPT_N,
      businessTimeZone,
      settlementSchedule: options.settlementSchedule,
      schedulerTickMs: options.schedulerTickMs,
      moneyActionApprovalAboveUsd: options.moneyActionApprovalAboveUsd ?? null,
      ...(options.pendingRequestsPerMaker !== undefined ? { pendingRequestsPerMaker: options.pendingRequestsPerMaker } : {}),
      ...(options.eventsHeartbeatMs !== undefined ? { changeRequestEventsHeartbeatMs: options.eventsHeartbeatMs } : {}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return { app, client: apiClient(`http://127.0.0.1:${address.port}`) };
  };
  const { app, client } = await listen(db);
  const peers: { app: FastifyInstance; db?: Db }[] = [];

  return {
    ...client,
    db,
    secret,
    backend: db.kind,
    advanceClock: (ms) => {
      offsetMs += ms;
    },
    resetClock: () => {
      offsetMs = 0;
    },
    now: clock,
    async startPeer() {
      const peerDb = databaseUrl ? await openDb({ databaseUrl }) : undefined;
      const peer = await listen(peerDb ?? db);
      peers.push({ app: peer.app, db: peerDb });
      return {
        ...peer.client,
        close: async () => {
          await peer.app.close();
          await peerDb?.close();
        },
      };
    },
    async close() {
      for (const p of peers) {
        await p.app.close();
        await p.db?.close().catch(() => {});
      }
      await app.close();
      await fresh.drop();
    },
  };
}

function apiClient(url: string): ApiClient {
  async function post(path: string | CallContract, body?: unknown, token?: string): Promise<ApiReply> {
    const name = typeof path === 'string' ? path : path.path;
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${url}/api/${name}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const reply = (await res.json()) as ApiReply;
    if (reply.statusCode !== res.status) throw new Error(`${name}: HTTP ${res.status} but statusCode ${reply.statusCode}`);
    return reply;
  }
  const client: ApiClient = {
    url,
    raw: (path, init) => fetch(`${url}${path}`, init),
    call: post as ApiClient['call'],
    async ok<C extends CallContract>(contract: C, body: RequestOf<C>, token?: string) {
      const reply = (await post(contract, body, token)) as CallReply<C>;
      expectOk(reply);
      return reply;
    },
    async login(username, password = DEMO_PASSWORD) {
      const reply = await client.call(loginCall, { username, password });
      if (reply.statusCode !== 200) throw new Error(`login ${username}: ${reply.statusCode} ${JSON.stringify(reply.data)}`);
      return reply.data.token;
    },
  };
  return client;
}

/** The id of a demo role or user, read from the database. */
export async function roleId(db: Db, name: string): Promise<number> {
  const row = await db.one<{ id: number }>('SELECT id FROM roles WHERE role_name = $1', [name]);
  if (!row) throw new Error(`no role ${name}`);
  return row.id;
}

export async function userId(db: Db, username: string): Promise<number> {
  const row = await db.one<{ id: number }>('SELECT id FROM console_users WHERE username = $1', [username]);
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

/**
 * The columns of `table` an INSERT may name, quoted and joined by commas: every column but those
 * PostgreSQL computes itself (send money's awaiting_settlement, migration 200), which no INSERT may set.
 * For a test that copies a row whole.
 */
export async function insertableColumns(db: Db, table: string): Promise<string> {
  const row = await db.one<{ list: string }>(
    `SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS list
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'`,
    [table],
  );
  if (!row?.list) throw new Error(`no table ${table}`);
  return row.list;
}
