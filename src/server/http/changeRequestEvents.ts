/**
 * GET /api/changeRequest/events: a server-sent event stream that says "the change requests changed"
 * (event `change`, data `{"type": <area>}`) whenever a request is made, decided, withdrawn or expires,
 * on any server process: the database announces it (NOTIFY change_requests, migration 91) and each
 * process LISTENs once and fans it out to its open streams. The console's menu counts and inbox reload
 * on it (and poll every 30 s without it). Bearer token as for every call; holders of an approve
 * permission only. Nothing about a request but its area is sent; the counts come from the
 * permission-filtered call.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { changeRequestEvents } from '../../api/approvals';
import { approvePermissions } from '../../domain/approvals';
import { hasAnyPermission } from '../../domain/permissions';
import { authenticate } from '../auth/authenticate';
import type { Db } from '../db/db';
import { HttpError } from './httpError';

export const CHANGE_REQUEST_EVENTS_PATH = `/api/${changeRequestEvents.path}`;
const HEARTBEAT_MS = 25_000;

export function registerChangeRequestEvents(app: FastifyInstance, options: { db: Db; secret: Uint8Array; clock: () => Date }): void {
  const hub = new EventEmitter();
  hub.setMaxListeners(0);
  const open = new Set<ServerResponse>();
  let listening: Promise<boolean> | undefined;
  let stop: (() => Promise<void>) | undefined;

  const ensureListening = (): Promise<boolean> =>
    (listening ??= (async () => {
      if (!options.db.listen) return false;
      stop = await options.db.listen('change_requests', (payload) => hub.emit('change', payload));
      return true;
    })().catch((err: unknown) => {
      app.log.warn({ err }, 'LISTEN change_requests failed: the console falls back to polling');
      listening = undefined;
      return false;
    }));

  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
    await stop?.();
  });

  app.get(CHANGE_REQUEST_EVENTS_PATH, async (request, reply) => {
    const user = await authenticate(options.db, options.secret, options.clock(), request.headers.authorization);
    if (!hasAnyPermission(user.permissions, approvePermissions)) throw new HttpError(403, `Forbidden: needs one of ${approvePermissions.join(', ')}`);
    if (!(await ensureListening())) throw new HttpError(503, 'Live updates are not available; poll changeRequest/counts');
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-correlation-id': request.id,
    });
    res.write('retry: 5000\n: connected\n\n');
    const send = (type: string) => res.write(`event: change\ndata: ${JSON.stringify({ type })}\n\n`);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    hub.on('change', send);
    open.add(res);
    request.raw.on('close', () => {
      clearInterval(beat);
      hub.off('change', send);
      open.delete(res);
    });
  });
}
