/**
 * The server: the API (`POST /api/*`) and, when `staticDir` is given, the built console. Returns a
 * Fastify instance that is not listening yet.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { allHandlers } from './areas/index';
import { DEFAULT_SCRYPT_N, hashPassword, verifyPassword } from './auth/passwords';
import type { HashPriority } from './auth/hashThreads';
import { DEFAULT_TOKEN_TTL_SECONDS, issueToken } from './auth/tokens';
import { FairQueue } from './auth/fairQueue';
import { parseSessionMaxHours } from './auth/sessions';
import type { Db } from './db/db';
import { registerApi } from './http/api';
import type { AuthServices } from './http/handle';
import { HttpError } from './http/httpError';
import { sendError } from './http/reply';
import { registerStaticFiles } from './http/staticFiles';
import { registerOpenApi } from './http/openapi';
import { registerChangeRequestEvents } from './http/changeRequestEvents';
import { SessionWatchers, type SessionSignals } from './auth/sessionSignals';
import { imageUrlSigner } from './http/imageUrls';
import { exportLinkSigner } from './exportJobs/links';
import { registerExportFiles } from './http/exportFiles';
import { startExportWorker } from './exportJobs/worker';
import { trackCallsInFlight } from './http/callsInFlight';
import { readExportSettings, type ExportSettings } from './exportJobs/settings';
import { isValidTimeZone } from '../domain/businessTime';
import {
  parseMoneyApprovalAboveUsd,
  parseSettlementSchedule,
  readBusinessTimeZone,
  readChangeRequestExpiryDays,
  readPendingRequestsPerMaker,
  StartupRefusal,
  type SettlementSchedule,
} from './environment';
import { startSettlementScheduler } from './settlementSchedule';
import { ensurePartitionsAhead, startPartitionMaintenance } from './db/partitions';
import { syncRollupTimeZone } from './areas/transactions/stats';
import { createReadRouting, type ReadRouting, type ReadRoutingOptions } from './db/readRouting';
import { createLifecycle, registerHealth, type Lifecycle } from './http/health';
import { createMetrics, registerMetrics, type AppMetrics, type MetricsSettings } from './observability/metrics';
import { noMetrics } from './observability/recorder';
import { RouteMethods } from './http/methods';

export interface AppOptions {
  db: Db;
  /** The token signing key, at least 32 bytes. */
  secret: Uint8Array;
  clock?: () => Date;
  /** The built console (dist/), served with history routing. */
  staticDir?: string;
  /** scrypt cost for new password hashes (default 2^17; tests use less). */
  scryptN?: number;
  tokenTtlSeconds?: number;
  /** Fastify's logger: true for stdout, `{ level }` for stdout from that level, or a stream to write its JSON lines to (tests read them). */
  logger?: boolean | { level: string } | { stream: { write(line: string): void }; level?: string };
  /**
   * The proxies whose X-Forwarded-For is believed for request.ip (the sign-in limiter's address):
   * addresses or CIDR ranges (or proxy-addr's loopback, linklocal, uniquelocal), or a number of hops
   * when the server can only be reached through that many proxies. Unset: none, request.ip is the peer.
   */
  trustProxy?: readonly string[] | number;
  /** How long a client may take to send a request, and how long an idle kept-alive socket is kept (defaults: SERVER_TIMEOUTS). */
  timeouts?: Partial<ServerTimeouts>;
  /** How long a session lasts from its sign-in, in hours (default: SESSION_MAX_HOURS, else 12). */
  sessionMaxHours?: number;
  /**
   * How many password hashes may run at once (default: defaultHashConcurrency(), the CPU count, at
   * least 2 and at most 4); one client address, and one account, runs one at a time, the rest wait, fairly per client
   * address. The hashes run at the lowest CPU priority (src/server/auth/hashThreads.ts), so they take
   * only the time every other call leaves.
   */
  hashConcurrency?: number;
  /** The password check (default scrypt's; tests pass a counting wrapper). */
  verifyPassword?: (password: string, hash: string, priority?: HashPriority) => Promise<boolean>;
  /**
   * The business time zone (an IANA name) the days, "today" and the buckets are read in; default
   * BUSINESS_TIME_ZONE from the environment (readBusinessTimeZone: Asia/Colombo when unset). Tests set it.
   */
  businessTimeZone?: string;
  /** A pending change request older than this many days expires; default CHANGE_REQUEST_EXPIRY_DAYS (readChangeRequestExpiryDays: 7 when unset). */
  changeRequestExpiryDays?: number;
  /** How many pending requests one maker may have waiting; default PENDING_REQUESTS_PER_MAKER (readPendingRequestsPerMaker: 200 when unset). */
  pendingRequestsPerMaker?: number;
  /**
   * Scheduled settlement (src/server/settlementSchedule.ts): the business time of day the day's
   * scheduled batch is generated, as SETTLEMENT_SCHEDULE spells it ('HH:MM', or 'off') or parsed.
   * Unset: off (tests and tools); the server (main.ts) passes SETTLEMENT_SCHEDULE, default 07:30.
   */
  settlementSchedule?: string | SettlementSchedule;
  /** How often the scheduler looks whether the day's batch is due (default 30 s). */
  schedulerTickMs?: number;
  /**
   * Voids, refunds and manual fund transfers above this many US dollars wait for a second person
   * (src/server/moneyApprovals.ts); null: never. Default: MONEY_ACTION_APPROVAL_ABOVE_USD (unset: never).
   */
  moneyActionApprovalAboveUsd?: number | null;
  /**
   * This process's export worker (src/server/exportJobs/worker.ts): true to run server export jobs
   * with the settings of the environment (EXPORT_*), or the settings to run them with (tests); unset
   * or false: this process runs none (another process's worker does; tests run the queue themselves).
   */
  exportWorker?: boolean | (Partial<ExportSettings> & { sheetRows?: number });
  /**
   * A streaming replica of `db` (DATABASE_REPLICA_URL) for dashboards, reports, transaction lists and
   * exports, with read-your-writes and fallback to the primary (src/server/db/readRouting.ts). The
   * caller opens and closes it; the app checks it while it runs.
   */
  replicaDb?: Db;
  /** The replica's lag limit and check interval (REPLICA_MAX_LAG_MS, REPLICA_CHECK_MS) and its check timeout. */
  readRouting?: Partial<ReadRoutingOptions>;
  /** A read routing the caller made (createReadRouting) and checks itself (tests); replicaDb and readRouting are then unused. */
  reads?: ReadRouting;
  /** How often each live-count stream (GET /api/changeRequest/events) is checked again and kept alive, in ms (default 25 s, at most 30 s; tests shorten it). */
  changeRequestEventsHeartbeatMs?: number;
  /**
   * The Prometheus metrics (src/server/observability/metrics.ts; METRICS_PORT, METRICS_HOST,
   * METRICS_TOKEN): unset, or neither a port nor a token, no metrics at all (main.ts passes the
   * environment's). The app's handle is `app.remitMetrics`.
   */
  metrics?: MetricsSettings;
  /** Draining before a stop (src/server/http/health.ts): the caller turns it on (main.ts on SIGTERM); default: one of the app's own, never draining. */
  lifecycle?: Lifecycle;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics (registry, listener address), or null when it has none (AppOptions.metrics). */
    remitMetrics: AppMetrics | null;
  }
}

/**
 * The socket timeouts, in milliseconds. Node checks the header and request deadlines every
 * `checkIntervalMs` (its own default is 30 s, which alone would let a client trickle bytes for up to
 * a minute), so a deadline is enforced at most that much late.
 */
export interface ServerTimeouts {
  /** The request line and headers must have arrived within this long of the request's start (else 408, closed). */
  headersMs: number;
  /** The whole request, headers and body, within this long (else 408, closed). */
  requestMs: number;
  /** A kept-alive socket with no request in progress is closed after this long. */
  keepAliveMs: number;
  /** How often the header and request deadlines are checked. */
  checkIntervalMs: number;
}

/**
 * The defaults: a client that trickles its headers or body (slowloris) is cut off within 30 s, an
 * idle kept-alive socket is closed after 5 s (browsers reopen one as needed). A 10 MB body (the
 * largest accepted) needs about 350 KB/s to arrive in time.
 */
export const SERVER_TIMEOUTS: Readonly<ServerTimeouts> = { headersMs: 15_000, requestMs: 29_000, keepAliveMs: 5_000, checkIntervalMs: 1_000 };

/** No inline or foreign scripts; images from the API host, data: placeholders and blob: exports; no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const BODY_LIMIT = 10 * 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  if (options.secret.length < 32) throw new Error('The token secret must be at least 32 bytes');
  const clock = options.clock ?? (() => new Date());
  const businessTimeZone = options.businessTimeZone ?? readBusinessTimeZone(process.env);
  if (!isValidTimeZone(businessTimeZone)) throw new StartupRefusal(`BUSINESS_TIME_ZONE: "${businessTimeZone}" is not an IANA time zone name`);
  const changeRequestExpiryDays = options.changeRequestExpiryDays ?? readChangeRequestExpiryDays(process.env);
  if (!Number.isInteger(changeRequestExpiryDays) || changeRequestExpiryDays < 1 || changeRequestExpiryDays > 365) {
    throw new StartupRefusal(`CHANGE_REQUEST_EXPIRY_DAYS: ${changeRequestExpiryDays} is not a whole number of days from 1 to 365`);
  }
  const pendingRequestsPerMaker = options.pendingRequestsPerMaker ?? readPendingRequestsPerMaker(process.env);
  if (!Number.isInteger(pendingRequestsPerMaker) || pendingRequestsPerMaker < 1) throw new StartupRefusal(`PENDING_REQUESTS_PER_MAKER: ${pendingRequestsPerMaker} is not a whole number from 1`);
  const moneyApprovalAboveUsd = options.moneyActionApprovalAboveUsd !== undefined ? options.moneyActionApprovalAboveUsd : parseMoneyApprovalAboveUsd(process.env.MONEY_ACTION_APPROVAL_ABOVE_USD);
  const schedule = typeof options.settlementSchedule === 'string' ? parseSettlementSchedule(options.settlementSchedule) : options.settlementSchedule;
  // the roll-ups' days (the totals of whole-day filters, the dashboards) are business days
  await syncRollupTimeZone(options.db, businessTimeZone);
  // this month's and the next months' partitions (src/server/db/partitions.ts), then once a day
  await ensurePartitionsAhead(options.db, clock());
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger ?? false,
    http: { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, keepAliveTimeout: timeouts.keepAliveMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    trustProxy: typeof options.trustProxy === 'number' ? (_peer: string, hop: number) => hop < (options.trustProxy as number) : options.trustProxy ? [...options.trustProxy] : false,
    // Requests Fastify refuses before routing (a malformed URL, ...): our envelope and headers, not
    // Fastify's default reply (which echoes the path and skips the onSend hook).
    frameworkErrors: (err, request, reply) => {
      securityHeaders(request, reply);
      const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      return sendError(reply, status, status === 400 ? 'Bad request' : err.message);
    },
  });

  // every route as it is registered: a path that exists under another method answers 405 (src/server/http/methods.ts)
  const methods = new RouteMethods();
  app.addHook('onRoute', (route) => methods.add(route.method, route.url));

  const reads: ReadRouting = options.reads ?? createReadRouting(options.db, options.replicaDb, { warn: (m) => app.log.warn(m), ...options.readRouting });
  // the metrics first: their onResponse hook counts every route's requests
  const metricsSettings = options.metrics;
  const metrics =
    metricsSettings && (metricsSettings.port !== undefined || metricsSettings.token !== undefined)
      ? registerMetrics(app, metricsSettings, createMetrics({ db: options.db, reads, warn: (obj, message) => app.log.warn(obj, message) }), '127.0.0.1')
      : null;
  app.decorate('remitMetrics', metrics);
  const recorder = metrics?.recorder ?? noMetrics;

  const lifecycle = options.lifecycle ?? createLifecycle();
  app.addHook('onSend', (request, reply, payload, done) => {
    securityHeaders(request, reply);
    // draining: a kept-alive client opens its next connection through the balancer, to another process
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) return sendError(reply, err.status, err.message, err.code === undefined ? {} : { code: err.code });
    // Fastify's own client errors (body too large, ...) carry a safe message and a 4xx status.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && err.code?.startsWith('FST_')) {
      return sendError(reply, err.statusCode, err.message);
    }
    request.log.error({ err, correlationId: request.id }, 'unexpected error');
    return sendError(reply, 500, 'Internal server error', { correlationId: request.id });
  });

  // Brotli quality 1 (the plugin's default is 4): a 131 MB list of 100,000 rows compresses in about a
  // fifth of the time (0.7 s against 3.7 s measured under load) to 12.9 MB instead of 10.1 MB.
  // Replies up to 512 KB are compressed in one synchronous call (well under a millisecond at quality
  // 1), not through a compression stream, whose set-up alone costs more than that; the plugin's
  // default on 2 cores is 8 KB, which sent a 10-row list (27 KB) through a stream.
  // Request bodies are small JSON that no client compresses: no decompression step on every request.
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: 1024,
    syncThreshold: 512 * 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } },
  });
  if (reads.replicaConfigured && !options.reads) {
    // the first check before the first request, so reads start on the replica when it is well
    app.addHook('onReady', async () => {
      await reads.check();
      reads.start();
    });
    app.addHook('onClose', async () => {
      await reads.stop();
    });
  }
  registerHealth(app, options.db, reads, lifecycle);
  const sessions = new SessionWatchers();
  registerApi(app, allHandlers, {
    reads,
    db: options.db,
    secret: options.secret,
    clock,
    auth: authServices(options, clock, sessions),
    businessTimeZone,
    bodyLimit: BODY_LIMIT,
    changeRequestExpiryDays,
    moneyApprovalAboveUsd,
    pendingRequestsPerMaker,
    methods,
    metrics: recorder,
  });
  registerOpenApi(app, { db: options.db, secret: options.secret, clock });
  registerExportFiles(app, options.db, exportLinkSigner(options.secret, clock), clock);
  registerChangeRequestEvents(app, { db: options.db, secret: options.secret, clock, sessions, heartbeatMs: options.changeRequestEventsHeartbeatMs });
  (await import('./http/images')).registerImages(app, options.db, imageUrlSigner(options.secret, clock));
  await registerStaticFiles(app, options.staticDir, methods);
  if (options.exportWorker) {
    const { sheetRows, ...overrides } = options.exportWorker === true ? {} : options.exportWorker;
    const settings = { ...readExportSettings(process.env), ...overrides };
    const calls = trackCallsInFlight(app);
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stop = startExportWorker({
        db: options.db,
        readDb: reads.readDb,
        clock,
        businessTimeZone,
        settings,
        sheetRows,
        auth: authServices(options, clock),
        log: app.log,
        callsInFlight: calls.count,
        onBytesWritten: (bytes) => recorder.exportBytesWritten(bytes),
      });
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }
  {
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stop = startPartitionMaintenance({ db: options.db, clock, log: app.log });
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }
  if (schedule) {
    // started once the server is ready (listening or injected), stopped (its running look awaited) before the database closes
    const auth = authServices(options, clock);
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stop = startSettlementScheduler({ db: options.db, clock, businessTimeZone, schedule, auth, tickMs: options.schedulerTickMs, log: app.log });
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }
  return app;
}

/**
 * Every reply, pages, files, API replies and errors alike: the security headers and the request's
 * correlation id (the id the error log carries; a 500's body names it too). A route may set a
 * stricter policy of its own (images: nothing at all may load).
 */
function securityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-correlation-id', request.id);
  // how long the server took, from the request's arrival to its reply's start (a streamed list goes on
  // after it); the browser's developer tools show it
  reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`);
}

/**
 * The default number of hash places: one per CPU, at least 2 (so that one address's flood, which holds
 * one place, never makes another address wait for a hash of the flood), at most 4.
 */
export function defaultHashConcurrency(): number {
  return Math.max(2, Math.min(4, availableParallelism()));
}

/** How many password attempts of one client address are checked at once (the rest wait their turn). */
export const ATTEMPTS_PER_ADDRESS = 2;

/**
 * How many password hashes of one account (a username, whatever its case) run at once, wherever its
 * attempts come from; the rest wait their turn, an attempt from an address the account signed in from
 * before ahead of the others. Nothing limits successful sign-ins, so without this one account signing
 * in many times at once (from many addresses) would take every hash place from everyone else.
 */
export const HASHES_PER_ACCOUNT = 1;

/** Password checks at the process's own priority at once: the one most likely a person's, and one that started so and has since shown to be part of a burst. */
const MAX_NORMAL_CHECKS = 2;

/**
 * Password hashing through one fair, bounded queue per app (src/server/auth/fairQueue.ts), each check in
 * its account's turn, and token issue.
 */
/** The password, token and link services of an app (exported for the export worker's tests, which run it themselves). */
export function authServices(options: AppOptions, clock: () => Date, sessionSignals?: SessionSignals): AuthServices {
  const { secret } = options;
  const scryptN = options.scryptN ?? DEFAULT_SCRYPT_N;
  const ttlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  const verify = options.verifyPassword ?? verifyPassword;
  const queue = new FairQueue(options.hashConcurrency ?? defaultHashConcurrency(), 1);
  // no bound in all (each attempt's hash is bounded by `queue`), ATTEMPTS_PER_ADDRESS per address
  const attempts = new FairQueue(Number.MAX_SAFE_INTEGER, ATTEMPTS_PER_ADDRESS);
  // no bound in all either, HASHES_PER_ACCOUNT per account: a check waits here for its account's turn, then in `queue` for a place
  const accounts = new FairQueue(Number.MAX_SAFE_INTEGER, HASHES_PER_ACCOUNT);
  /**
   * The password attempts in progress (from their start, their address's turn included) of each
   * account, and of each account from each address: how a burst of one account's sign-ins shows
   * itself before its checks reach the hashing.
   */
  const inProgress = new Map<string, number>();
  const count = (key: string, by: 1 | -1) => {
    const n = (inProgress.get(key) ?? 0) + by;
    if (n === 0) inProgress.delete(key);
    else inProgress.set(key, n);
  };
  const accountKey = (account: string) => `a\u0000${account}`;
  const pairKey = (account: string, address: string) => `p\u0000${account}\u0000${address}`;
  const sessionMaxHours = options.sessionMaxHours ?? parseSessionMaxHours(process.env.SESSION_MAX_HOURS);
  let dummyHash: Promise<string> | undefined;
  /**
   * One password check at the process's own priority at a time, for the attempt most likely to be a
   * person's: from an address the username signed in from before and the only attempt of that account
   * from there, or else the only attempt of its address and of its account in progress (a burst from
   * one address, or of one account's sign-ins from many, always has others in progress). Every other
   * check runs at nice 19, so a flood takes only the CPU everyone else leaves, and a person's sign-in
   * does not share that leftover with the flood. An unknown username is checked by the same rule (it
   * answers alike).
   *
   * The first attempt of a burst often reaches its check before the rest of the burst has arrived, so
   * it starts at the normal priority, and a check's priority is fixed once it runs. Such a check, whose
   * attempt is no longer alone, does not hold the turn: another attempt that is alone may start at the
   * normal priority beside it (at most MAX_NORMAL_CHECKS at once, so never more than one such).
   */
  type CheckOf = { address: string; account: string | undefined; first: boolean };
  const normalChecks = new Set<CheckOf>();
  const isAlone = ({ address, account, first }: CheckOf) =>
    first ? account === undefined || (inProgress.get(pairKey(account, address)) ?? 0) <= 1 : attempts.load(address) <= 1 && (account === undefined || (inProgress.get(accountKey(account)) ?? 0) <= 1);
  const check = async (address: string, account: string | undefined, password: string, hash: string, first: boolean): Promise<boolean> => {
    const me: CheckOf = { address, account, first };
    const normal = isAlone(me) && normalChecks.size < MAX_NORMAL_CHECKS && [...normalChecks].every((running) => !isAlone(running));
    if (!normal) return verify(password, hash, 'low');
    normalChecks.add(me);
    try {
      return await verify(password, hash, 'normal');
    } finally {
      normalChecks.delete(me);
    }
  };
  /** A password check of `address`: in its account's turn (when it names one), then a place in `queue`. */
  const checkInTurn = async (address: string, password: string, hash: string, options: { first?: boolean; account?: string }): Promise<boolean> => {
    const first = options.first === true;
    const account = options.account?.toLowerCase();
    const run = () => queue.run(address, () => check(address, account, password, hash, first), { first });
    return account === undefined ? run() : accounts.run(account, run, { first });
  };
  const servicesFor = (address: string): AuthServices => ({
    hashPassword: (password) => queue.run(address, () => hashPassword(password, scryptN)),
    verifyPassword: (password, hash, verifyOptions = {}) => checkInTurn(address, password, hash, verifyOptions),
    async verifyNothing(password, nothingOptions = {}) {
      dummyHash ??= hashPassword(randomBytes(16).toString('hex'), scryptN);
      const hash = await dummyHash;
      await checkInTurn(address, password, hash, { account: nothingOptions.account });
    },
    async inAddressTurn(job, account) {
      const keys = account === undefined ? [] : [accountKey(account.toLowerCase()), pairKey(account.toLowerCase(), address)];
      for (const key of keys) count(key, 1);
      try {
        return await attempts.run(address, job);
      } finally {
        for (const key of keys) count(key, -1);
      }
    },
    issueToken: (subject) => issueToken(subject, secret, clock(), ttlSeconds),
    imageUrls: imageUrlSigner(secret, clock),
    exportLinks: exportLinkSigner(secret, clock),
    sessionMaxHours,
    ...(sessionSignals ? { sessionSignals } : {}),
  });
  return { ...servicesFor('unknown'), forClient: servicesFor };
}
