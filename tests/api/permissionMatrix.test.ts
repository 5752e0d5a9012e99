/**
 * The permission matrix, generated from the contract:
 *
 * - every call guarded by `{ anyOf }`: a user holding every permission of the catalogue except the
 *   call's own and the super permission gets 403 (before the body is read), and nothing is stored;
 *   a user holding every permission but the super one gets through with the same bodies (so each
 *   refusal is about the call's permission, and the approvals had a pending request to act on);
 * - every non-public call: no token, a malformed one, a forged signature, an expired, `alg: none`,
 *   another algorithm's or a revoked token → 401, and nothing is stored;
 * - deny by default: every route the server registers is either the API dispatcher (whose every
 *   contract declares its access) or in the commented allow-list of public routes below.
 *
 * Stored state is compared over every table except `activity_logs`. Decision: a refusal may be written
 * to the activity log (the logging group may record refused requests), but then only as a refusal:
 * every row written while refusing must say 401/403/unauthorized/forbidden/denied/refused.
 */
import { SignJWT } from 'jose';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteOptions } from 'fastify';
import type { CallContract } from '../../src/api/contract';
import { allCalls } from '../../src/api/index';
import { allPermissions, SUPER_PERMISSION, type Permission } from '../../src/domain/permissions';
import { buildApp } from '../../src/server/app';
import { startSession } from '../../src/server/auth/sessions';
import { issueToken } from '../../src/server/auth/tokens';
import { startServer, userId, type TestServer } from './harness';
import { sampleBody } from './samples';
import { activityRowsAfter, changeFingerprint, contentFingerprint, lastActivityId } from './stateFingerprint';

// Every Fastify instance built in this file records the routes it registers (deny-by-default check).
const recorded = vi.hoisted(() => ({ routes: new WeakMap<object, { method: string; url: string }[]>() }));
vi.mock('fastify', async (importOriginal) => {
  const actual = (await importOriginal()) as { default: (opts?: unknown) => { addHook: (name: string, fn: (r: RouteOptions) => void) => void } };
  const fastify = (opts?: unknown) => {
    const app = actual.default(opts);
    const routes: { method: string; url: string }[] = [];
    recorded.routes.set(app, routes);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url });
    });
    return app;
  };
  return { ...actual, default: fastify, fastify };
});

const NOT_STORED = ['activity_logs'];
const REFUSAL = /\b(401|403)\b|unauthori[sz]ed|forbidden|denied|refused/i;

let server: TestServer;
let admin: string;
beforeAll(async () => {
  // the simulator declines 8% of holds by default (keyed by the time): the allowed user's hold must act
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
});

type Guarded = { contract: CallContract; anyOf: readonly Permission[] };
const guarded: Guarded[] = allCalls.flatMap((c) => (typeof c.access === 'object' && 'anyOf' in c.access ? [{ contract: c, anyOf: c.access.anyOf }] : []));
const nonPublic = allCalls.filter((c) => c.access !== 'public');

/**
 * A role holding exactly `permissions` and a signed-in user holding it (made directly in the database).
 * The users are IPG bank users of provider 7010, so the provider-scoped calls (currency list, save and
 * approval of 7010's pending rates) are theirs to make when they hold the permission.
 */
async function userWith(permissions: readonly string[], name: string): Promise<string> {
  const role = await server.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions)
     SELECT $1, user_type, user_level, $2::jsonb FROM roles WHERE role_name = 'Maker' RETURNING id`,
    [name, JSON.stringify(permissions)],
  );
  await server.db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT $1, $1 || '@remit.lk', contact, $1, 'IPGBANK', '7010', $2, password_hash FROM console_users WHERE username = 'admin'`,
    [name, role!.id],
  );
  return server.login(name);
}

/** Submits, as admin, a change request the approve calls can act on; returns its id. */
async function pendingRequest(path: string, body: unknown): Promise<number> {
  const reply = await server.call(path, body, admin);
  expect(reply.statusCode, `${path}: ${JSON.stringify(reply.data)}`).toBe(200);
  const row = await server.db.one<{ id: number }>("SELECT max(id)::int AS id FROM change_requests WHERE status = 'PENDING'");
  return row!.id;
}

/** A valid currency save of a provider: its current currencies with one rate moved. */
async function currencySave(code: string) {
  const { currencies } = (await server.call('IPGProvider/currency/list', { provider_bank_code: code }, admin)).data as {
    currencies: { currency_code: string; transaction_rate: number; settlement_rate: number; disabled: number }[];
  };
  return {
    provider_bank_code: code,
    currencies: currencies.map((c, i) => ({
      disabled: c.disabled,
      provider_bank_code: code,
      currency_code: c.currency_code,
      transaction_rate: i === 0 ? c.transaction_rate + 1 : c.transaction_rate,
      settlement_rate: c.settlement_rate,
    })),
  };
}

async function providerId(codeCondition: string): Promise<number> {
  return (await server.db.one<{ id: number }>(`SELECT min(id)::int AS id FROM ipg_providers WHERE provider_bank_code ${codeCondition}`))!.id;
}

async function expectOnlyRefusalsLogged(sinceId: number) {
  for (const row of await activityRowsAfter(server.db, sinceId)) expect(JSON.stringify(row)).toMatch(REFUSAL);
}

describe('every call guarded by a permission', () => {
  const bodies = new Map<string, unknown>();

  beforeAll(async () => {
    // Something to act on: one pending change request per approve call, made by admin (so anyone else
    // may decide it), and a transaction that can be put on hold.
    const pending: Record<string, [string, unknown]> = {
      'user/approve': ['user/create', { ...(sampleBody('user/create') as object), username: 'matrix_pending', email: 'matrix.pending@remit.lk' }],
      'role/approve': ['role/create', { ...(sampleBody('role/create') as object), role_name: 'Matrix Pending Role' }],
      'bank/approve': ['bank/create', { ...(sampleBody('bank/create') as object), bank_code: 'MATRIX1', bank_name: 'Matrix Bank' }],
      'advertisement/approve': ['advertisement/create', { ...(sampleBody('advertisement/create') as object), title: 'Matrix Offer' }],
      'IPGProvider/approve': ['IPGProvider/disable', { id: await providerId("<> '7010'"), disable: true }],
      'IPGProvider/currency/approve': ['IPGProvider/currency/save', await currencySave('7010')],
      'AppUser/approve': ['AppUser/disable', { id: 2, disable: true }],
      'appVersion/approve': ['appVersion/create', { ...(sampleBody('appVersion/create') as object), appVersion: '9.1.0+910' }],
    };
    for (const [approve, [path, body]] of Object.entries(pending)) {
      bodies.set(approve, { changeRequestID: await pendingRequest(path, body), actionTaken: 'approve' });
    }
    const holdable = await server.db.one<{ id: number }>(
      `SELECT id FROM ceft_transactions WHERE card_payment_status = 'SUCCESS' AND ceft_payment_status IN ('PENDING', 'FAILED')
         AND coalesce(ipg_void_status, '') <> 'SUCCESS' AND coalesce(ipg_refund_status, '') <> 'SUCCESS' AND ceft_try_count < 100
       ORDER BY id LIMIT 1`,
    );
    bodies.set('Transaction/ceft/hold', { id: holdable!.id, description: 'matrix' });
  });

  const bodyFor = (path: string) => (bodies.has(path) ? structuredClone(bodies.get(path)) : sampleBody(path));

  it('refuses a user holding every other permission with 403, before reading the body, and stores nothing', async () => {
    expect(guarded.length).toBeGreaterThan(70);
    // one user per distinct permission set, all signed in before the state is recorded
    const tokens = new Map<string, string>();
    for (const { anyOf } of guarded) {
      const key = [...anyOf].sort().join(',');
      if (tokens.has(key)) continue;
      const others = allPermissions.filter((p) => p !== SUPER_PERMISSION && !anyOf.includes(p));
      tokens.set(key, await userWith(others, `matrix_no_${tokens.size}`));
    }
    const contentBefore = await contentFingerprint(server.db, NOT_STORED);
    const changesBefore = await changeFingerprint(server.db, NOT_STORED);
    const logBefore = await lastActivityId(server.db);

    for (const { contract, anyOf } of guarded) {
      const token = tokens.get([...anyOf].sort().join(','))!;
      const forbidden = { statusCode: 403, data: { message: `Forbidden: needs one of ${anyOf.join(', ')}` } };
      expect(await server.call(contract, bodyFor(contract.path), token), contract.path).toEqual(forbidden);
      expect(await server.call(contract, { matrix_probe: 1 }, token), `${contract.path} (bad body)`).toEqual(forbidden);
      expect(await changeFingerprint(server.db, NOT_STORED), contract.path).toEqual(changesBefore);
    }
    expect(await contentFingerprint(server.db, NOT_STORED)).toEqual(contentBefore);
    await expectOnlyRefusalsLogged(logBefore);
  });

  it('lets a user holding every permission but the super permission through, and the prepared requests are acted on', async () => {
    // the refused users differ from this one only by the call's permissions
    const token = await userWith(
      allPermissions.filter((p) => p !== SUPER_PERMISSION),
      'matrix_all',
    );
    const statuses: Record<string, number> = {};
    for (const { contract } of guarded) {
      const reply = await server.call(contract, bodyFor(contract.path), token);
      statuses[contract.path] = reply.statusCode;
      // past authentication and the permission check (a handler may still refuse by its own rules,
      // e.g. another provider's currencies)
      expect(reply.statusCode, contract.path).not.toBe(401);
      expect(String(reply.data?.message ?? ''), contract.path).not.toMatch(/^Forbidden: needs one of/);
    }
    // the approvals and the hold the refused users were sent had something real to change
    for (const path of bodies.keys()) expect(statuses[path], path).toBe(200);
  });
});

describe('every call that needs a signed-in user', () => {
  it('refuses a missing, malformed, forged, expired, alg none, other-algorithm or revoked token with 401, and stores nothing', async () => {
    expect(nonPublic.length).toBe(allCalls.length - 1);
    const id = await userId(server.db, 'admin');
    // a real session (a token must name its session and be its current token), so the control token passes
    const session = await startSession(server.db, id, new Date(), 12);
    const subject = { id, username: 'admin', permissions: [SUPER_PERMISSION], sessionVersion: 0, ...session };
    const now = Math.floor(Date.now() / 1000);
    const claims = { username: 'admin', permissions: [SUPER_PERMISSION], rfh: 1, sv: 0, sub: String(id), sid: session.sessionId, jti: session.tokenId, iat: now, exp: now + 600 };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

    const revoked = await server.login('checker');
    expect((await server.call('auth/logout', {}, revoked)).statusCode).toBe(200);
    const expiring = await server.login('admin');
    const authorizations: Record<string, string | undefined> = {
      none: undefined,
      malformed: 'Bearer not.a-token',
      'not bearer': `Basic ${Buffer.from('admin:Demo@Pass1').toString('base64')}`,
      forged: `Bearer ${await issueToken(subject, randomBytes(32), new Date(), 600)}`,
      'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      HS512: `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(server.secret)}`,
      HS384: `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'HS384' }).sign(server.secret)}`,
      revoked: `Bearer ${revoked}`,
    };
    const control = `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(server.secret)}`;

    const post = async (path: string, body: unknown, authorization: string | undefined) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) headers.authorization = authorization;
      const res = await server.raw(`/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await res.json()) as { statusCode: number; data: { message: string } };
      expect(json.statusCode, path).toBe(res.status);
      return json;
    };

    const contentBefore = await contentFingerprint(server.db, NOT_STORED);
    const changesBefore = await changeFingerprint(server.db, NOT_STORED);
    const logBefore = await lastActivityId(server.db);
    let refusals = 0;
    for (const c of nonPublic) {
      // the same claims, properly signed, pass authentication (then the probe body is refused: nothing runs)
      const probe = await post(c.path, { matrix_probe: 1 }, control);
      expect(probe.statusCode, c.path).toBe(400);
      expect(probe.data.message, c.path).toContain('matrix_probe');
      for (const [kind, authorization] of Object.entries(authorizations)) {
        expect(await post(c.path, sampleBody(c.path), authorization), `${c.path} with ${kind} token`).toEqual({
          statusCode: 401,
          data: { message: 'Unauthorized' },
        });
        refusals++;
      }
      expect(await changeFingerprint(server.db, NOT_STORED), c.path).toEqual(changesBefore);
    }
    server.advanceClock(30 * 60 * 1000 + 1000);
    try {
      for (const c of nonPublic) {
        expect(await post(c.path, sampleBody(c.path), `Bearer ${expiring}`), `${c.path} with expired token`).toEqual({
          statusCode: 401,
          data: { message: 'Unauthorized' },
        });
        refusals++;
      }
    } finally {
      server.resetClock();
    }
    expect(refusals).toBe(nonPublic.length * (Object.keys(authorizations).length + 1));
    expect(await contentFingerprint(server.db, NOT_STORED)).toEqual(contentBefore);
    await expectOnlyRefusalsLogged(logBefore);
    // the expiring token was refused for its age only
    expect((await post('user/list', {}, `Bearer ${expiring}`)).statusCode).toBe(200);
  });
});

/**
 * Deny by default. The server's routes are the API dispatcher and these public routes, nothing else.
 * Anything added later must either be an API call (which then needs a declared access rule, or the
 * server refuses to start: see handlerTable) or be added here with the reason it may be public.
 */
const PUBLIC_ROUTES: Record<string, string> = {
  // the wire contract as OpenAPI: not public, it authenticates the bearer token itself (tests/api/httpMethods.test.ts: 401)
  'GET /api/openapi.json': 'published contract with its own token check',
  'HEAD /api/openapi.json': 'published contract with its own token check',
  // stored images by capability URL (a random part in every path), PNG/JPEG only
  'GET /images/*': 'capability URLs',
  'HEAD /images/*': 'capability URLs',
  // the approvals' live count (server-sent events): not public, it authenticates the bearer token and
  // demands an approve permission itself, and sends only "an area changed" (tests/api/approvals.test.ts: 401, 403)
  'GET /api/changeRequest/events': 'event stream with its own token and permission check',
  'HEAD /api/changeRequest/events': 'event stream with its own token and permission check',
  // a server export job's file: only with the short-lived signature export/download-link
  // hands its owner or an administrator (tests/api/exportJobs.test.ts: forged 403, expired 410)
  'GET /api/export-file/:id': 'signed short-lived download link',
  'HEAD /api/export-file/:id': 'signed short-lived download link',
  // the load balancer's health check: up or down, and whether reads go to the replica; no data
  'GET /health': 'health check for the load balancer',
  'HEAD /health': 'health check for the load balancer',
  // liveness and readiness (docs/observability.md): live or not, ready or which check failed; no data
  'GET /health/live': 'liveness check for a supervisor',
  'HEAD /health/live': 'liveness check for a supervisor',
  'GET /health/ready': 'readiness check for the load balancer',
  'HEAD /health/ready': 'readiness check for the load balancer',
  // only with METRICS_TOKEN, whose bearer token it asks for (tests/api/metrics.test.ts)
  'GET /metrics': 'Prometheus metrics behind their own token',
  'HEAD /metrics': 'Prometheus metrics behind their own token',
  // the built console (static files, history routing to index.html): code, no data
  'GET /*': 'static console files',
  'HEAD /*': 'static console files',
};
const API_DISPATCHER = 'POST /api/*';

function routesOutsideAllowList(routes: readonly { method: string; url: string }[]): string[] {
  return routes.map((r) => `${r.method} ${r.url}`).filter((r) => r !== API_DISPATCHER && !(r in PUBLIC_ROUTES));
}

describe('deny by default', () => {
  let staticDir: string;
  beforeAll(() => {
    staticDir = mkdtempSync(join(tmpdir(), 'matrix-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  });
  afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

  // with a metrics token: every route the server can have is registered
  const build = () => buildApp({ db: server.db, secret: randomBytes(32), staticDir, scryptN: 1024, metrics: { token: 'permission-matrix-metrics' } });

  it('registers no route besides the API dispatcher and the allow-listed public routes', async () => {
    const app = await build();
    await app.ready();
    const routes = recorded.routes.get(app)!;
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain(API_DISPATCHER);
    expect(routes.length).toBeGreaterThanOrEqual(Object.keys(PUBLIC_ROUTES).length);
    expect(routesOutsideAllowList(routes)).toEqual([]);
    // every call behind the dispatcher declares who may make it; the only public one is sign-in
    for (const c of allCalls) {
      const access: unknown = c.access;
      expect(access === 'public' || access === 'authenticated' || (typeof access === 'object' && access !== null && ('anyOf' in access || 'rule' in access)), c.path).toBe(true);
    }
    expect(allCalls.filter((c) => c.access === 'public').map((c) => c.path)).toEqual(['auth/login']);
    await app.close();
  });

  it('notices a route added outside the allow-list', async () => {
    const app = await build();
    app.get('/debug/state', async () => ({ everything: true }));
    app.post('/api-v2/user/list', async () => ({}));
    await app.ready();
    expect(routesOutsideAllowList(recorded.routes.get(app)!)).toEqual(['GET /debug/state', 'HEAD /debug/state', 'POST /api-v2/user/list']);
    await app.close();
  });
});
