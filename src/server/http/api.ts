/**
 * The API: one route, `POST /api/*`. The path picks a contract (case-insensitively; a GET-only path
 * answers 405, anything else 404); then, in order:
 * the caller's token, a password change the caller must make first, and permissions (401/403), the JSON body (415/400), the contract's request schema
 * (400 naming the fields), the handler, and the reply parsed with the contract's reply schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallContract } from '../../api/contract';
import { allCalls } from '../../api/index';
import { isPermission } from '../../domain/permissions';
import { isAccessRuleName, mayCall, refusalOf } from '../../domain/access';
import { authenticate } from '../auth/authenticate';
import { assertMayAct } from '../auth/passwordChangeGate';
import type { Db } from '../db/db';
import { trackWrites, type ReadRouting } from '../db/readRouting';
import { makeCtx, type ApprovalSettings, type AuthServices, type Ctx, type Handler } from './handle';
import { DEFAULT_PENDING_REQUESTS_PER_MAKER } from '../../domain/approvals';
import { expirySweeper } from '../approvals';
import { HttpError } from './httpError';
import { describeIssues, readJsonBody } from './requestBody';
import { sendReply } from './reply';
import { PreparedJson, sendPreparedReply } from './preparedJson';
import { API_ROUTE, sendMethodNotAllowed, type RouteMethods } from './methods';
import { noMetrics, setRouteLabel, type MetricsRecorder } from '../observability/recorder';

export interface ApiOptions {
  db: Db;
  secret: Uint8Array;
  clock: () => Date;
  auth: AuthServices;
  /** The business time zone every handler reads days and "today" in (AppOptions.businessTimeZone). */
  businessTimeZone: string;
  /** See Ctx.moneyApprovalAboveUsd (AppOptions.moneyActionApprovalAboveUsd). */
  moneyApprovalAboveUsd?: number | null;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** A pending change request older than this many days expires (CHANGE_REQUEST_EXPIRY_DAYS). */
  changeRequestExpiryDays: number;
  /** How many pending requests one maker may have waiting (PENDING_REQUESTS_PER_MAKER); default DEFAULT_PENDING_REQUESTS_PER_MAKER. */
  pendingRequestsPerMaker?: number;
  /** Where reads may go (a read replica) and where each user's writes are recorded; unset: everything on `db`. */
  reads?: ReadRouting;
  /** The app's routes by method: a POST to a GET-only path answers 405 (unset: 404 like any unknown call). */
  methods?: RouteMethods;
  /** What the handlers tell the metrics (src/server/observability/recorder.ts); unset: nothing. */
  metrics?: MetricsRecorder;
}

export function registerApi(app: FastifyInstance, handlers: readonly Handler[], options: ApiOptions): void {
  const byPath = handlerTable(allCalls, handlers);
  // change requests past their age expire before a signed-in user's call sees them (no timer)
  const sweepExpired = expirySweeper();
  const approvals: ApprovalSettings = {
    changeRequestExpiryDays: options.changeRequestExpiryDays,
    moneyApprovalAboveUsd: options.moneyApprovalAboveUsd ?? null,
    pendingRequestsPerMaker: options.pendingRequestsPerMaker ?? DEFAULT_PENDING_REQUESTS_PER_MAKER,
  };
  const publicApprovals: ApprovalSettings = { ...approvals, moneyApprovalAboveUsd: null };
  const metrics = options.metrics ?? noMetrics;

  // Bodies arrive as text; readJsonBody decides (after the access check) what is acceptable.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => done(null, body));

  app.post(API_ROUTE, async (request: FastifyRequest, reply: FastifyReply) => {
    const path = (request.params as { '*': string })['*'];
    const handler = byPath.get(path.toLowerCase());
    if (!handler) {
      // a GET-only path under /api/ (the event stream, export files, the OpenAPI document)
      const allow = options.methods?.allowed(`/api/${path}`);
      if (allow) return sendMethodNotAllowed(reply, request.method, `/api/${path}`, allow);
      throw new HttpError(404, `Unknown API call: ${path}`);
    }
    const { contract } = handler;
    // counted and traced as the call (its contract's path), whatever the URL's case or query string
    setRouteLabel(request, `/api/${contract.path}`);
    const now = options.clock();

    const user = contract.access === 'public' ? undefined : await authenticate(options.db, options.secret, now, request.headers.authorization);
    if (user) assertMayAct(user, contract.path);
    // the one access decision (src/domain/access.ts), the same function the permission matrix renders
    if (user && !mayCall(contract.access, user.permissions)) throw new HttpError(403, refusalOf(contract.access));

    const parsed = contract.request.safeParse(readJsonBody(request.headers['content-type'], request.body, request.headers['content-encoding']));
    if (!parsed.success) throw new HttpError(400, describeIssues(parsed.error));

    const client = {
      address: request.ip,
      setHeader: (name: string, value: string) => void reply.header(name, value),
      header: (name: string) => {
        const v = request.headers[name];
        return typeof v === 'string' ? v : undefined;
      },
    };
    // with a replica, a signed-in user's call that wrote stores its write position (read-your-writes)
    const writes = user && options.reads?.replicaConfigured ? trackWrites(options.db) : undefined;
    const db = writes?.db ?? options.db;
    const readDb = options.reads ? options.reads.readDbFor(user?.username) : options.db;
    const ctx = user
      ? makeCtx(db, user, options.clock, options.auth, options.businessTimeZone, client, approvals, readDb, metrics)
      : makeCtx(db, undefined, options.clock, options.auth, options.businessTimeZone, client, publicApprovals, readDb, metrics);
    // a failed sweep must not fail an unrelated call: the next one sweeps again, and decisions check the age themselves
    if (user) await sweepExpired(ctx as Ctx).catch((err: unknown) => request.log.warn({ err }, 'change-request expiry sweep failed'));
    writes?.reset();
    let result: Awaited<ReturnType<Handler['run']>>;
    try {
      result = await handler.run(ctx, parsed.data);
    } finally {
      if (user && writes?.wrote()) await options.reads!.recordWrite(user.username).catch((err: unknown) => request.log.warn({ err }, 'could not store the write position'));
    }
    if (result.data instanceof PreparedJson) {
      const prepared = result.data;
      let top: unknown;
      try {
        top = contract.top && result.top !== undefined ? contract.top.parse(result.top) : {};
      } catch (err) {
        await prepared.streamed?.release();
        throw err;
      }
      return sendPreparedReply(reply, 200, prepared, top as Record<string, unknown>);
    }
    const data = contract.data.safeParse(result.data);
    if (!data.success) throw new Error(`Reply of ${contract.path} does not match its contract: ${describeIssues(data.error)}`);
    const top = contract.top && result.top !== undefined ? contract.top.parse(result.top) : {};
    return sendReply(reply, 200, data.data, top as Record<string, unknown>);
  });
}

/**
 * Handlers by lower-case path. Refuses to start when a contract has no access rule (deny by default),
 * names an unknown permission, lacks a handler, has two, or is handled as public when it is not (or
 * the reverse), and when a handler serves a call that is not in the contract.
 */
export function handlerTable(calls: readonly CallContract[], handlers: readonly Handler[]): Map<string, Handler> {
  const problems: string[] = [];
  for (const c of calls) problems.push(...accessProblems(c));
  const byPath = new Map<string, Handler>();
  for (const h of handlers) {
    const key = h.contract.path.toLowerCase();
    if (!calls.includes(h.contract)) problems.push(`${h.contract.path}: handler for a call that is not in the contract`);
    if (byPath.has(key)) problems.push(`${h.contract.path}: two handlers`);
    if (h.isPublic !== (h.contract.access === 'public')) {
      problems.push(`${h.contract.path}: use ${h.contract.access === 'public' ? 'handlePublic' : 'handle'} for this call`);
    }
    byPath.set(key, h);
  }
  for (const c of calls) if (!byPath.has(c.path.toLowerCase())) problems.push(`${c.path}: no handler`);
  if (problems.length > 0) throw new Error(`The API cannot start:\n  ${problems.join('\n  ')}`);
  return byPath;
}

function accessProblems(c: CallContract): string[] {
  const access: unknown = c.access;
  if (access === 'public' || access === 'authenticated') return [];
  if (typeof access === 'object' && access !== null && Array.isArray((access as { anyOf?: unknown }).anyOf)) {
    const anyOf = (access as { anyOf: unknown[] }).anyOf;
    if (anyOf.length === 0) return [`${c.path}: access anyOf is empty`];
    return anyOf.filter((p) => typeof p !== 'string' || !isPermission(p)).map((p) => `${c.path}: unknown permission ${String(p)}`);
  }
  if (typeof access === 'object' && access !== null && 'rule' in access) {
    const rule = (access as { rule: unknown }).rule;
    return isAccessRuleName(rule) ? [] : [`${c.path}: unknown access rule ${String(rule)}`];
  }
  return [`${c.path}: no access rule (deny by default)`];
}
