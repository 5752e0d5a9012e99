/**
 * `GET /health`: what a load balancer (HAProxy's `option httpchk`) and an operator ask. 200 when this
 * process can reach the primary, 503 when it cannot (the balancer then stops sending it requests).
 * The body says where reads go: `replica.readsFrom` is 'primary' while the replica is down or lagging
 * past its limit (src/server/db/readRouting.ts), with the state and the last measured lag.
 * Public and cheap: one `SELECT 1` on the primary; the replica's state is the background check's.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db';
import type { ReadRouting, ReplicaStatus } from '../db/readRouting';

export const HEALTH_PATH = '/health';

export interface HealthReply {
  status: 'ok' | 'unavailable';
  primary: 'up' | 'down';
  replica: ReplicaStatus;
  error?: string;
}

export function registerHealth(app: FastifyInstance, db: Db, reads: ReadRouting): void {
  app.get(HEALTH_PATH, async (_request, reply) => {
    let error: string | undefined;
    try {
      await db.one('SELECT 1 AS up');
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const body: HealthReply = { status: error ? 'unavailable' : 'ok', primary: error ? 'down' : 'up', replica: reads.status(), ...(error ? { error } : {}) };
    return reply
      .code(error ? 503 : 200)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
