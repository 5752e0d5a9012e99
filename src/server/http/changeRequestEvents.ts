/**
 * GET /api/changeRequest/events: a server-sent event stream that says "the change requests changed"
 * (event `change`, data `{"type": <area>}`) whenever a request is made, decided, withdrawn or expires,
 * on any server process: the database announces it (NOTIFY change_requests, migration 91) and each
 * process LISTENs once and fans it out to its open streams. The console's menu counts and inbox reload
 * on it (and poll every 30 s without it). Bearer token as for every call; holders of an approve
 * permission only. Nothing about a request but its area is sent; the counts come from the
 * permission-filtered call.
 *
 * A stream lives no longer than what let it open. Its token, session and permissions are checked
 * again (as every call checks them: authenticate) before each announcement is sent and at every
 * heartbeat (`heartbeatMs`, at most 30 s), and when the token or the session reaches its end; a check
 * that fails ends the stream, after an `end` event naming why. A logout or a password change in this
 * process ends or re-checks its streams at once (src/server/auth/sessionSignals.ts); an approved user
 * or role edit is itself an announcement, so every stream checks again then, in every process. Only
 * the areas the user may decide now are sent (src/domain/approvals.ts areasDecidableBy). One account
 * holds at most MAX_STREAMS_PER_ACCOUNT streams in a process: another closes its oldest.
 *
 * The `end` event's data is `{"reason": ...}`: `session` (the token no longer signs in: signed out,
 * refreshed, expired, revoked, account disabled; a client with a newer token may open a new stream),
 * `permission` (no approve permission any more), `superseded` (the account opened more streams) or
 * `unavailable` (the check could not be made; try again later). The console reconnects only for
 * `session` with a newer token and `unavailable` (src/console/changeRequestEvents.ts).
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { changeRequestEvents } from '../../api/approvals';
import { approvePermissions, areasDecidableBy } from '../../domain/approvals';
import { hasAnyPermission } from '../../domain/permissions';
import { authenticate } from '../auth/authenticate';
import { SessionWatchers } from '../auth/sessionSignals';
import type { SessionUser } from '../auth/sessionUser';
import { bearerToken } from '../auth/tokens';
import type { Db } from '../db/db';
import { HttpError } from './httpError';

export const CHANGE_REQUEST_EVENTS_PATH = `/api/${changeRequestEvents.path}`;
/** The default heartbeat: a keep-alive comment and a re-check of the session, this often. */
export const DEFAULT_HEARTBEAT_MS = 25_000;
/** The longest heartbeat allowed: a stream outlives a change made in another process by at most this. */
export const MAX_HEARTBEAT_MS = 30_000;
/** The open streams one account may hold in one process; opening another closes its oldest. */
export const MAX_STREAMS_PER_ACCOUNT = 5;

export type StreamEndReason = 'session' | 'permission' | 'superseded' | 'unavailable';

export interface ChangeRequestEventsOptions {
  db: Db;
  secret: Uint8Array;
  clock: () => Date;
  /** How often an open stream is sent a keep-alive and checked again (default DEFAULT_HEARTBEAT_MS; at most MAX_HEARTBEAT_MS). */
  heartbeatMs?: number;
  /** The app's session watchers, which logout and password changes signal (AuthServices.sessionSignals). */
  sessions?: SessionWatchers;
}

/** The longest delay setTimeout takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function registerChangeRequestEvents(app: FastifyInstance, options: ChangeRequestEventsOptions): void {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  if (!Number.isFinite(heartbeatMs) || heartbeatMs <= 0 || heartbeatMs > MAX_HEARTBEAT_MS) {
    throw new Error(`changeRequest/events: the heartbeat must be more than 0 and at most ${MAX_HEARTBEAT_MS} ms (got ${heartbeatMs})`);
  }
  const sessions = options.sessions ?? new SessionWatchers();
  const hub = new EventEmitter();
  hub.setMaxListeners(0);
  /** The open streams of each account, oldest first. */
  const byAccount = new Map<number, Stream[]>();
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

  /** The user the stream's token names, if it still signs in; undefined when it does not; throws when the check could not be made. */
  const signedIn = async (authorization: string): Promise<SessionUser | undefined> => {
    try {
      return await authenticate(options.db, options.secret, options.clock(), authorization);
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) return undefined;
      throw err;
    }
  };

  /** One open stream: its response, the token it opened with, and its checks. */
  class Stream {
    private closed = false;
    private checking = false;
    private checkAgain = false;
    private beatAfterCheck = false;
    /** Announced areas waiting for the check that sends them (started after they arrived). */
    private pending = new Set<string>();
    private readonly timers: ReturnType<typeof setTimeout>[] = [];
    private readonly unwatch: () => void;
    private readonly onChange = (area: string) => this.announce(area);

    constructor(
      private readonly res: ServerResponse,
      private readonly authorization: string,
      readonly user: SessionUser,
      endsAt: number,
    ) {
      const beat = setInterval(() => this.heartbeat(), heartbeatMs);
      const ends = setTimeout(() => this.check(), Math.min(MAX_TIMER_MS, Math.max(0, endsAt - options.clock().getTime() + 1000)));
      this.timers.push(beat, ends);
      this.unwatch = sessions.watch({ userId: user.id, sessionId: user.sessionId!, sessionEnded: () => this.close('session'), recheck: () => this.check() });
      hub.on('change', this.onChange);
    }

    announce(area: string): void {
      if (this.closed) return;
      this.pending.add(area);
      this.check();
    }

    heartbeat(): void {
      this.beatAfterCheck = true;
      this.check();
    }

    /** Checks the token, session and permissions again; then sends what was announced before the check began, or ends the stream. */
    check(): void {
      if (this.closed) return;
      if (this.checking) {
        this.checkAgain = true;
        return;
      }
      this.checking = true;
      const announced = this.pending;
      const beat = this.beatAfterCheck;
      this.pending = new Set();
      this.beatAfterCheck = false;
      signedIn(this.authorization).then(
        (user) => {
          this.checking = false;
          if (this.closed) return;
          if (!user) return this.close('session');
          const decidable = new Set(areasDecidableBy(user.permissions).map((a) => a.type));
          if (decidable.size === 0) return this.close('permission');
          for (const area of announced) if (decidable.has(area)) this.res.write(`event: change\ndata: ${JSON.stringify({ type: area })}\n\n`);
          if (beat) this.res.write(': keep-alive\n\n');
          if (this.checkAgain || this.pending.size > 0 || this.beatAfterCheck) {
            this.checkAgain = false;
            this.check();
          }
        },
        (err: unknown) => {
          this.checking = false;
          app.log.warn({ err }, 'changeRequest/events: the session could not be checked; the stream is closed');
          this.close('unavailable');
        },
      );
    }

    /** Ends the stream (with an `end` event naming why, unless the server is closing or the client left). */
    close(reason?: StreamEndReason): void {
      if (this.closed) return;
      this.closed = true;
      for (const t of this.timers) clearTimeout(t);
      hub.off('change', this.onChange);
      this.unwatch();
      const list = byAccount.get(this.user.id);
      const at = list?.indexOf(this) ?? -1;
      if (at >= 0) list!.splice(at, 1);
      if (list?.length === 0) byAccount.delete(this.user.id);
      if (!this.res.writableEnded) {
        if (reason) this.res.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
        this.res.end();
      }
    }
  }

  app.addHook('preClose', async () => {
    for (const list of [...byAccount.values()]) for (const stream of [...list]) stream.close();
    await stop?.();
  });

  app.get(CHANGE_REQUEST_EVENTS_PATH, async (request, reply) => {
    const authorization = request.headers.authorization ?? '';
    const user = await authenticate(options.db, options.secret, options.clock(), authorization);
    if (!hasAnyPermission(user.permissions, approvePermissions)) throw new HttpError(403, `Forbidden: needs one of ${approvePermissions.join(', ')}`);
    if (!(await ensureListening())) throw new HttpError(503, 'Live updates are not available; poll changeRequest/counts');
    // the token's own end, or the session's if sooner (the token was verified above)
    const tokenEnd = (decodeJwt(bearerToken(authorization)!).exp ?? 0) * 1000;
    const endsAt = Math.min(tokenEnd, user.sessionExpiresAt?.getTime() ?? tokenEnd);
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
    // the account's oldest streams make room (closing one takes it off the list)
    for (let list = byAccount.get(user.id); list && list.length >= MAX_STREAMS_PER_ACCOUNT; list = byAccount.get(user.id)) list[0]!.close('superseded');
    const stream = new Stream(res, authorization, user, endsAt);
    const list = byAccount.get(user.id);
    if (list) list.push(stream);
    else byAccount.set(user.id, [stream]);
    res.on('close', () => stream.close());
  });
}
