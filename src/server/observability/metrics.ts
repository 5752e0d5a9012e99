/**
 * Prometheus metrics of one app (docs/observability.md): a registry of its own (several apps in one
 * process, as the tests start them, do not share or clash), the HTTP requests by route, the database
 * pool, Node's own metrics (event-loop lag included), export jobs, sign-in failures and lockouts,
 * pending change requests, money actions and the read replica. Served on METRICS_PORT (a listener of
 * its own) and/or as `GET /metrics` on the main port when METRICS_TOKEN is set (then with
 * `Authorization: Bearer <token>` only); with neither there is no metrics endpoint, and no registry.
 *
 * The gauges read from the database (export jobs by state, pending change requests by area) are
 * collected at each scrape, one grouped count each on an indexed or small table; the counters move
 * where their events happen (recorder.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/db';
import type { ReadRouting } from '../db/readRouting';
import { routeLabelOf, type MetricsRecorder } from './recorder';

export const METRICS_PATH = '/metrics';

/** METRICS_PORT, METRICS_HOST and METRICS_TOKEN (src/server/environment.ts readMetricsSettings). */
export interface MetricsSettings {
  /** A listener of its own for `GET /metrics` (0: any free port, as tests use). */
  port?: number;
  /** The metrics listener's address (default: the server's HOST). */
  host?: string;
  /** `GET /metrics` on the main port, with this bearer token; when set, the metrics port asks for it too. */
  token?: string;
}

export const EXPORT_JOB_STATES = ['queued', 'running', 'failed', 'done'] as const;

/** The HTTP request duration buckets, in seconds: from a cached lookup (5 ms) to a large list or export (30 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface AppMetrics {
  readonly registry: Registry;
  readonly recorder: MetricsRecorder;
  /** The metrics listener's address once it listens (METRICS_PORT), else null. */
  listenerAddress(): AddressInfo | null;
}

interface Sources {
  db: Db;
  reads: ReadRouting;
  warn: (obj: unknown, message: string) => void;
}

/** The metrics of one app: its registry, its series and what collects them. */
export function createMetrics({ db, reads, warn }: Sources): { registry: Registry; recorder: MetricsRecorder; observeRequest(request: FastifyRequest, reply: FastifyReply): void } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'remit_' });

  const requests = new Counter({
    name: 'remit_http_requests_total',
    help: 'HTTP requests answered, by route (the call or route pattern, never the raw URL), method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'remit_http_request_duration_seconds',
    help: "Time from a request's arrival to its reply's end, by route and method",
    labelNames: ['route', 'method'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'remit_db_pool_in_use',
    help: 'PostgreSQL connections of the pool in use (0 on the embedded database, a single connection)',
    registers: [registry],
    collect() {
      const s = db.poolStats?.();
      this.set(s ? s.total - s.idle : 0);
    },
  });
  new Gauge({
    name: 'remit_db_pool_waiting',
    help: 'Queries waiting for a PostgreSQL connection of the pool (0 on the embedded database)',
    registers: [registry],
    collect() {
      this.set(db.poolStats?.().waiting ?? 0);
    },
  });

  new Gauge({
    name: 'remit_export_jobs',
    help: 'Server export jobs by state (queued, running, failed, done), counted at each scrape',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM export_jobs WHERE state IN ('queued', 'running', 'failed', 'done') GROUP BY state`);
        for (const state of EXPORT_JOB_STATES) this.set({ state }, rows.find((r) => r.state === state)?.n ?? 0);
      } catch (err) {
        this.reset();
        warn({ err }, 'metrics: could not count the export jobs');
      }
    },
  });
  const exportBytes = new Counter({ name: 'remit_export_bytes_written_total', help: 'Bytes of export files this process has written', registers: [registry] });

  const signinFailures = new Counter({
    name: 'remit_signin_failures_total',
    help: "Sign-ins that did not sign in, by reason: password (wrong, or unknown or disabled account), locked, backoff, throttled (the address's limit)",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const lockouts = new Counter({ name: 'remit_signin_lockouts_total', help: 'Accounts locked from an address after too many wrong passwords there', registers: [registry] });

  const pendingAreas = new Set<string>();
  new Gauge({
    name: 'remit_change_requests_pending',
    help: 'Pending change requests by area (the record type they change), counted at each scrape',
    labelNames: ['area'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await db.query<{ area: string; n: number }>(`SELECT entity_type AS area, count(*)::int AS n FROM change_requests WHERE status = 'PENDING' GROUP BY entity_type`);
        // an area whose last request was decided shows 0, not nothing
        for (const r of rows) pendingAreas.add(r.area);
        for (const area of pendingAreas) this.set({ area }, rows.find((r) => r.area === area)?.n ?? 0);
      } catch (err) {
        this.reset();
        warn({ err }, 'metrics: could not count the pending change requests');
      }
    },
  });

  const moneyActions = new Counter({
    name: 'remit_money_actions_total',
    help: 'Money actions on send-money transactions (hold, manual_fund_transfer, void, refund) by outcome: ok, refused (by its guard), failed (declined by or not reaching the payment network)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'remit_replica_lag_seconds',
    help: 'How far the read replica was behind at its last check, in seconds (0 without a replica, NaN while unknown: not checked yet or down)',
    registers: [registry],
    collect() {
      const { configured, lagMs } = reads.status();
      this.set(!configured ? 0 : lagMs === null ? Number.NaN : lagMs / 1000);
    },
  });
  new Gauge({
    name: 'remit_reads_from',
    help: 'Where the reads that may use the read replica go now: 1 for that target, 0 for the other',
    labelNames: ['target'] as const,
    registers: [registry],
    collect() {
      const { readsFrom } = reads.status();
      this.set({ target: 'primary' }, readsFrom === 'primary' ? 1 : 0);
      this.set({ target: 'replica' }, readsFrom === 'replica' ? 1 : 0);
    },
  });

  return {
    registry,
    recorder: {
      signinFailure: (reason) => signinFailures.inc({ reason }),
      lockout: () => lockouts.inc(),
      moneyAction: (kind, outcome) => moneyActions.inc({ kind, outcome }),
      exportBytesWritten: (bytes) => exportBytes.inc(bytes),
    },
    observeRequest(request, reply) {
      const route = routeLabelOf(request);
      const method = request.method;
      requests.inc({ route, method, status_class: `${Math.floor(reply.statusCode / 100)}xx` });
      duration.observe({ route, method }, reply.elapsedTime / 1000);
    },
  };
}

/** Whether `authorization` is `Bearer <token>` (compared in constant time). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Wires the metrics into an app: the request counter and histogram (onResponse), `GET /metrics` on
 * the main port when a token is set, and the metrics listener (started when the app is ready, closed
 * with it) when a port is set.
 */
export function registerMetrics(app: FastifyInstance, settings: MetricsSettings, metrics: ReturnType<typeof createMetrics>, defaultHost: string): AppMetrics {
  const { registry } = metrics;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request, reply);
    done();
  });
  if (settings.token !== undefined) {
    const token = settings.token;
    app.get(METRICS_PATH, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send('Unauthorized: GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n');
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  }
  let server: Server | undefined;
  if (settings.port !== undefined) {
    const port = settings.port;
    const host = settings.host ?? defaultHost;
    server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at GET /metrics\n');
        return;
      }
      if (settings.token !== undefined && !bearerMatches(req.headers.authorization, settings.token)) {
        res
          .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' })
          .end('Unauthorized: GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
        (err: unknown) => {
          app.log.error({ err }, 'metrics: the scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n');
        },
      );
    });
    // a scrape is one short request: nobody keeps this socket open
    server.keepAliveTimeout = 5_000;
    server.headersTimeout = 10_000;
    server.requestTimeout = 15_000;
    const listening = server;
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, host, () => {
          listening.off('error', reject);
          resolve();
        });
      });
    });
    app.addHook('onClose', async () => {
      if (!listening.listening) return;
      await new Promise<void>((resolve) => {
        listening.close(() => resolve());
        listening.closeAllConnections();
      });
    });
  }
  return {
    registry,
    recorder: metrics.recorder,
    listenerAddress: () => {
      const address = server?.address();
      return address && typeof address !== 'string' ? address : null;
    },
  };
}
