/**
 * The OpenAPI document lists every answer. The API traffic below is replayed against the
 * real server and every response is checked against the document the server publishes
 * (GET /api/openapi.json), as a validating proxy would: its status must be one the operation lists,
 * and its body must match that response's schema (ajv, JSON Schema 2020-12). Any undocumented status
 * or body fails the test, with the call, the caller and what came back.
 *
 * The traffic: every call of the contract with its sample body (tests/api/samples.ts) as nobody
 * (no token), an auditor, a maker and the administrator; with a body no schema accepts; as text/plain
 * (415); a few with a body over the server's limit (413); a change request approved twice (200, then
 * 409); and, last (it shuts this address out of signing in), wrong passwords until sign-in is
 * throttled (401, then 429).
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContract } from '../../src/api/contract';
import { allCalls } from '../../src/api/index';
import { startServer, type ApiReply, type TestServer } from './harness';
import { sampleBody } from './samples';
import { ADDRESS_MAX_FAILURES } from '../../src/server/auth/addressLimiter';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: TestServer;
let doc: Json;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

/** What came back, and for which request. */
interface Recorded {
  readonly path: string;
  readonly who: string;
  readonly status: number;
  readonly body: unknown;
}
const recorded: Recorded[] = [];

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Why a response does not match the document, or undefined when it does. */
function problemOf(r: Recorded): string | undefined {
  const responses = doc.paths?.[`/api/${r.path}`]?.post?.responses as Json | undefined;
  if (!responses) return `${r.path}: not in the document`;
  const response = responses[String(r.status)] as Json | undefined;
  if (!response) return `${r.path} as ${r.who}: status ${r.status} is not documented (documented: ${Object.keys(responses).join(', ')}) — ${JSON.stringify(r.body).slice(0, 200)}`;
  // the schema's place in the document, so that its references resolve within the document
  const at =
    typeof response.$ref === 'string'
      ? `${response.$ref}/${pointer('content', 'application/json', 'schema')}`
      : `#/${pointer('paths', `/api/${r.path}`, 'post', 'responses', String(r.status), 'content', 'application/json', 'schema')}`;
  let validate = validators.get(at);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json${at}` });
    validators.set(at, validate);
  }
  if (validate(r.body)) return undefined;
  return `${r.path} as ${r.who}: the ${r.status} body does not match the document: ${ajv.errorsText(validate.errors)} — ${JSON.stringify(r.body).slice(0, 200)}`;
}

async function call(contract: CallContract | string, body: unknown, token: string | undefined, who: string): Promise<ApiReply> {
  const reply = await server.call(contract, body, token);
  recorded.push({ path: typeof contract === 'string' ? contract : contract.path, who, status: reply.statusCode, body: reply });
  return reply;
}

async function raw(path: string, init: RequestInit, who: string): Promise<void> {
  const res = await server.raw(`/api/${path}`, init);
  const body = (await res.json()) as { statusCode: number };
  expect(body.statusCode, `${path} as ${who}`).toBe(res.status);
  recorded.push({ path, who, status: res.status, body });
}

beforeAll(async () => {
  server = await startServer();
  // the document is for signed-in users (src/server/http/openapi.ts)
  const res = await server.raw('/api/openapi.json', { headers: { authorization: `Bearer ${await server.login('auditor')}` } });
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
  ajv.addSchema(doc, 'openapi.json');
});
afterAll(async () => {
  await server?.close();
});

describe('every response the API traffic gets is in the OpenAPI document', () => {
  it('a body over the limit (413)', async () => {
    const admin = await server.login('admin');
    const big = JSON.stringify({ data: 'x'.repeat(11 * 1024 * 1024) });
    for (const path of ['user/list', 'bank/create', 'auth/login']) {
      await raw(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` }, body: big }, 'admin, a body over the limit');
    }
    expect(recorded.filter((r) => r.status === 413).length).toBe(3);
  });

  it('a change request approved twice (200, then 409)', async () => {
    const maker = await server.login('nimal_perera');
    const checker = await server.login('kumari_fernando');
    const created = await call('bank/create', { ...(sampleBody('bank/create') as object), bank_code: 'OAS1', bank_name: 'OpenAPI Check Bank' }, maker, 'maker');
    expect(created.statusCode, JSON.stringify(created.data)).toBe(200);
    const row = await server.db.one<{ id: number }>("SELECT max(id)::int AS id FROM change_requests WHERE status = 'PENDING'");
    const decision = { changeRequestID: row!.id, actionTaken: 'approve' };
    expect((await call('bank/approve', decision, checker, 'checker')).statusCode).toBe(200);
    expect((await call('bank/approve', decision, checker, 'checker, again')).statusCode).toBe(409);
  });

  it('replays every call as nobody, an auditor, a maker and the administrator, with good and bad bodies', async () => {
    const tokens: Record<string, string | undefined> = {
      nobody: undefined,
      auditor: await server.login('auditor'),
      maker: await server.login('maker'),
      admin: await server.login('admin'),
    };
    // the calls that end or change the caller's session go last
    const last = ['user/reset-password', 'auth/logout'];
    const ordered = [...allCalls.filter((c) => !last.includes(c.path)), ...last.map((p) => allCalls.find((c) => c.path === p)!)];
    for (const contract of ordered) {
      for (const [who, token] of Object.entries(tokens)) {
        const reply = await call(contract, sampleBody(contract.path), token, who);
        // a refreshed token replaces the old one, which stops working
        if (contract.path === 'auth/token' && reply.statusCode === 200) tokens[who] = reply.data.token as string;
      }
      await call(contract, { openapi_probe: 1 }, tokens.admin, 'admin, a body no schema accepts');
      await raw(contract.path, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${tokens.admin}` }, body: 'hello' }, 'admin, text/plain');
    }
    expect(recorded.length).toBeGreaterThanOrEqual(allCalls.length * 6);
  });

  it('wrong passwords until sign-in is throttled (401, then 429)', async () => {
    // the address's allowance of failures (ADDRESS_MAX_FAILURES) runs out: then every sign-in from it is 429
    for (let i = 0; i < ADDRESS_MAX_FAILURES + 5; i++) {
      const reply = await call('auth/login', { username: i % 2 ? 'checker' : `nobody_${i}`, password: `Wrong@Pass${i}` }, undefined, 'nobody, a wrong password');
      if (reply.statusCode === 429) break;
    }
    expect(recorded.some((r) => r.path === 'auth/login' && r.status === 401)).toBe(true);
    expect(recorded.some((r) => r.path === 'auth/login' && r.status === 429)).toBe(true);
  });

  it('the validator notices a wrong body and an undocumented status', () => {
    const fake = (status: number, body: unknown) => problemOf({ path: 'user/list', who: 'a fabricated reply', status, body });
    expect(fake(200, { statusCode: 200, data: { users: 'none' } })).toMatch(/does not match/);
    expect(fake(403, { statusCode: 403, data: { reason: 'no message' } })).toMatch(/does not match/);
    expect(fake(403, { statusCode: 401, data: { message: 'Forbidden' } })).toMatch(/does not match/);
    expect(fake(409, { statusCode: 409, data: { message: 'Change request already decided' } })).toMatch(/not documented/);
    expect(fake(403, { statusCode: 403, data: { message: 'Forbidden: needs one of user-view' } })).toBeUndefined();
  });

  it('finds no undocumented status or body', () => {
    const problems = recorded.map(problemOf).filter((p): p is string => p !== undefined);
    expect(problems).toEqual([]);
    // the traffic met the statuses the issue found missing, and the HTTP layer's own
    const seen = new Set(recorded.map((r) => r.status));
    for (const s of [200, 400, 401, 403, 404, 409, 413, 415, 422, 429]) expect(seen, `status ${s}`).toContain(s);
  });
});
