/**
 * Health endpoints for load balancers and operators (docs/observability.md), public and cheap:
 *
 * - `GET /health/live`: the process is up and answering (200 while it runs, draining included); a
 *   supervisor restarts a process that stops answering it.
 * - `GET /health/ready`: this process should be sent requests. 200 only when the primary answers, the
 *   migrations applied to the database are exactly the code's (src/server/db/migrations.ts), and the
 *   process is not draining; else 503, the body naming the checks that failed. One statement on the
 *   primary (the applied migration ids); the replica's state is the background check's.
 * - `GET /health`: what HAProxy's `option httpchk` has always asked: 200 when this process can reach
 *   the primary, 503 when it cannot or while it drains (so a balancer that checks it stops sending
 *   requests during a rolling restart too). The body says where reads go: `replica.readsFrom` is
 *   'primary' while the replica is down or lagging past its limit (src/server/db/readRouting.ts), with
 *   the state and the last measured lag.
 *
 * Draining (src/server/main.ts, SHUTDOWN_DRAIN_MS): on SIGTERM the process turns not-ready first and
 * keeps answering for a while, so the balancer's checks see 503 and stop sending it requests before it
 * stops listening; replies meanwhile carry `Connection: close`, so kept-alive clients reconnect
 * (through the balancer, to another process).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../db/db';
import type { ReadRouting, ReplicaStatus } from '../db/readRouting';
import { migrations as codeMigrations, type Migration } from '../db/migrations';

export const HEALTH_PATH = '/health';
export const LIVE_PATH = '/health/live';
export const READY_PATH = '/health/ready';

/** Whether the process is draining before it stops (set once, on SIGTERM). */
export interface Lifecycle {
  readonly draining: boolean;
  startDraining(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
  };
}

export const DRAINING_MESSAGE = 'the server is shutting down (draining): send requests elsewhere';

export interface HealthReply {
  status: 'ok' | 'unavailable';
  primary: 'up' | 'down';
  replica: ReplicaStatus;
  error?: string;
}

export interface ReadyReply {
  status: 'ready' | 'unavailable';
  /** Each check: 'ok' or why it failed. */
  checks: { database: string; migrations: string; draining: string };
  /** The names of the checks that failed (empty when ready). */
  failed: ('database' | 'migrations' | 'draining')[];
  replica: ReplicaStatus;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** 'ok' when the applied migration ids are exactly the code's, else what differs. */
export function compareMigrations(applied: readonly number[], code: readonly Migration[]): string {
  const have = new Set(applied);
  const known = new Set(code.map((m) => m.id));
  const missing = code.filter((m) => !have.has(m.id)).map((m) => m.id);
  const unknown = applied.filter((id) => !known.has(id));
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`not applied to the database: ${missing.join(', ')}`);
  if (unknown.length > 0) parts.push(`applied but unknown to this code (a newer version?): ${unknown.join(', ')}`);
  return parts.length === 0 ? 'ok' : parts.join('; ');
}

function noStore(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store');
}

export function registerHealth(app: FastifyInstance, db: Db, reads: ReadRouting, lifecycle: Lifecycle, migrations: readonly Migration[] = codeMigrations): void {
  app.get(HEALTH_PATH, async (_request, reply) => {
    let error: string | undefined;
    try {
      await db.one('SELECT 1 AS up');
    } catch (err) {
      error = describe(err);
    }
    const primary = error ? 'down' : 'up';
    if (!error && lifecycle.draining) error = DRAINING_MESSAGE;
    const body: HealthReply = { status: error ? 'unavailable' : 'ok', primary, replica: reads.status(), ...(error ? { error } : {}) };
    return noStore(reply, error ? 503 : 200).send(body);
  });

  app.get(LIVE_PATH, async (_request, reply) => noStore(reply, 200).send({ status: 'live', draining: lifecycle.draining }));

  app.get(READY_PATH, async (_request, reply) => {
    const checks: ReadyReply['checks'] = { database: 'ok', migrations: 'ok', draining: lifecycle.draining ? DRAINING_MESSAGE : 'ok' };
    try {
      const rows = await db.query<{ id: number }>('SELECT id FROM schema_migrations');
      checks.migrations = compareMigrations(
        rows.map((r) => r.id),
        migrations,
      );
    } catch (err) {
      // no answer: the database is down (or has no schema_migrations table: never migrated)
      if (/schema_migrations/.test(describe(err))) checks.migrations = `the database has no migrations table: ${describe(err)}`;
      else {
        checks.database = describe(err);
        checks.migrations = 'unknown: the database did not answer';
      }
    }
    const failed = (Object.keys(checks) as (keyof typeof checks)[]).filter((k) => checks[k] !== 'ok');
    const body: ReadyReply = { status: failed.length === 0 ? 'ready' : 'unavailable', checks, failed, replica: reads.status() };
    return noStore(reply, failed.length === 0 ? 200 : 503).send(body);
  });
}
