/**
 * Fuzzing every call of the contract. For each call, fast-check generates request
 * bodies from the call's own request schema (zod → JSON Schema → arbitraries, below), mixed with the
 * call's sample body, then mutates them: wrong types, missing fields, 1 MB strings, 10 000 levels of
 * nesting, NUL, lone surrogates and other unicode, negative and out-of-range numbers, 1e309 (sent as
 * raw JSON text), top-level non-objects, and extra properties. Sent as admin (super permission), so
 * every body reaches validation and, if it passes, the handler.
 *
 * Properties: never a 5xx; a body the schema refuses is answered 400 naming the fields; any 4xx stores
 * nothing (compared over every table but the activity log; exceptions by design: the sign-in counters
 * for auth/login, which exist to count refused sign-ins, and a money action the payment network
 * declined, whose answer is recorded on the transaction: see declinedByNetwork); extra properties
 * such as status, locked, requestedBy or approvedBy (wherever the call does not declare them) are
 * refused with 400 on every call, at the top level and inside nested objects (no mass assignment).
 * Text holding NUL or lone surrogate halves is refused in every field (PostgreSQL cannot store NUL).
 *
 * FUZZ_SEED and FUZZ_RUNS (per call) override the fixed defaults; a failure prints the seed and the case.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallContract } from '../../src/api/contract';
import { allCalls } from '../../src/api/index';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';
import { badText } from '../../src/server/http/requestBody';
import { changeFingerprint } from './stateFingerprint';

const SEED = Number(process.env.FUZZ_SEED ?? 9_092_026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** auth/login cases are few: the per-address sign-in limiter counts every failure from 127.0.0.1. */
const LOGIN_RUNS = 16;
/** Generous: on a busy machine a case takes tens of milliseconds (many reach real handlers). */
const FUZZ_TIMEOUT_MS = 300_000;

/** Raw JSON texts too big to print in a counterexample: mutations name them, `rawText` expands them. */
const BIG_RAW: Record<string, string> = {
  '@1MB-string': JSON.stringify('é'.repeat(512 * 1024)), // 1 MB of UTF-8
  '@10k-nested-arrays': `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  '@10k-nested-objects': `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
};
const rawText = (raw: string) => BIG_RAW[raw] ?? raw;
const RAW_NUMBERS = ['1e309', '-1e309', '1e-400', '123456789012345678901234567890', '-0', '9007199254740993', '-9007199254740993'];
const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '\ufeff',
  '💥🏦',
  'Ω≈ç√∫',
  '\u0007\u001b[31m',
  "'; DROP TABLE banks; --",
  '<img src=x onerror=alert(1)>',
  '../../etc/passwd',
  '%00',
  '\r\n\r\nX-Injected: 1',
];
/** Fields a client must never set: record state and authorship belong to the server. */
const MASS_ASSIGNMENT_KEYS = ['status', 'locked', 'requestedBy', 'approvedBy', 'id', 'createdAt', '__proto__'];

// ---- zod → arbitrary --------------------------------------------------------------------------

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

function jsonSchemaOf(contract: CallContract): JsonSchema {
  return z.toJSONSchema(contract.request, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Values of the schema (mostly valid), with the sample's value for the same place mixed in. */
function arbitraryOf(schema: JsonSchema, sample: unknown): fc.Arbitrary<unknown> {
  const generated = generatedOf(schema, sample);
  return sample === undefined ? generated : fc.oneof({ arbitrary: fc.constant(sample), weight: 1 }, { arbitrary: generated, weight: 2 });
}

function generatedOf(s: JsonSchema, sample: unknown): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((a) => generatedOf(a, undefined)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'object': {
      const props = s.properties ?? {};
      const record = sample && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {};
      const fields = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, arbitraryOf(p, record[k])]));
      return fc.record(fields, { requiredKeys: s.required ?? [] });
    }
    case 'array': {
      const first = Array.isArray(sample) ? sample[0] : undefined;
      const minLength = s.minItems ?? 0;
      return fc.array(arbitraryOf(s.items ?? {}, first), { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'string': {
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 60;
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        try {
          return fc.stringMatching(re).filter((v) => v.length >= min && v.length <= max);
        } catch {
          // lookaheads are beyond stringMatching: the sample (or the empty string) stands in
          return fc.constant(typeof sample === 'string' ? sample : '');
        }
      }
      return fc.string({ minLength: min, maxLength: Math.min(max, 60), unit: fc.constantFrom('a', 'Z', '0', ' ', '-', 'é', '中', '\u0000', '\ud800', '💥') as fc.Arbitrary<string> });
    }
    case 'integer': {
      const min = Math.max(s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -1e6), Number.MIN_SAFE_INTEGER);
      const max = Math.min(s.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
      return fc.oneof(fc.integer({ min: Math.max(min, -1e6), max: Math.min(max, 1e6) }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---- mutations ----------------------------------------------------------------------------------

type Path = (string | number)[];
type Mutation =
  | { kind: 'none' }
  | { kind: 'replace'; what: string; path: Path; raw: string }
  | { kind: 'remove'; path: Path }
  | { kind: 'extra'; path: Path; key: string; raw: string }
  | { kind: 'body'; raw: string };

/** Every place in a body a mutation can aim at: object properties and array elements, not too deep. */
function placesOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > 4) return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...path, i]);
      placesOf(v, [...path, i], out);
    });
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...path, k]);
      placesOf(v, [...path, k], out);
    }
  }
  return out;
}

function objectsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > 4) return out;
  if (Array.isArray(value)) value.forEach((v, i) => objectsOf(v, [...path, i], out));
  else if (value && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) objectsOf(v, [...path, k], out);
  }
  return out;
}

const rawValues: [string, fc.Arbitrary<string>][] = [
  ['wrong type', fc.constantFrom('true', 'false', '12', '"12"', 'null', '[]', '{}', '[1,"a"]', '{"a":1}')],
  ['huge string', fc.constant('@1MB-string')],
  ['deep nesting', fc.constantFrom('@10k-nested-arrays', '@10k-nested-objects')],
  ['unicode', fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 40 })).map((v) => JSON.stringify(v))],
  ['negative number', fc.constantFrom('-1', '-0.5', '-2147483649', '-99999999999', String(Number.MIN_SAFE_INTEGER))],
  ['out-of-range number', fc.constantFrom(...RAW_NUMBERS)],
];

function mutationOf(body: unknown): fc.Arbitrary<Mutation> {
  const places = placesOf(body);
  const objects = objectsOf(body);
  const options: fc.Arbitrary<Mutation>[] = [
    fc.constant<Mutation>({ kind: 'none' }),
    fc.constant<Mutation>({ kind: 'none' }),
    fc.constantFrom('[]', 'null', '"body"', '42', 'true', '1e309', '@10k-nested-arrays', '@1MB-string').map<Mutation>((raw) => ({ kind: 'body', raw })),
  ];
  if (objects.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...objects),
          fc.constantFrom(...MASS_ASSIGNMENT_KEYS, 'requested_by', 'version', 'constructor', 'x'.repeat(300), '\u0000'),
          fc.constantFrom('"APPROVED"', '1', 'true', '"admin"', '{}'),
        )
        .filter(([path, key]) => !(key in (valueAt(body, path) as object)) || key === '__proto__' || key === 'constructor')
        .map<Mutation>(([path, key, raw]) => ({ kind: 'extra', path, key, raw })),
    );
  }
  if (places.length > 0) {
    const place = fc.constantFrom(...places);
    options.push(place.map<Mutation>((path) => ({ kind: 'remove', path })));
    for (const [what, raw] of rawValues) options.push(fc.tuple(place, raw).map<Mutation>(([path, r]) => ({ kind: 'replace', what, path, raw: r })));
  }
  return fc.oneof(...options);
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

const MARK = '\u0001fuzz-mark\u0001';
const MARK_KEY = '\u0001fuzz-key\u0001';

/** The request text: the body with the mutation applied (raw JSON where JSON.stringify cannot say it). */
function requestText(body: unknown, m: Mutation): string {
  if (m.kind === 'body') return rawText(m.raw);
  const copy = structuredClone(body) as Record<string | number, unknown>;
  if (m.kind === 'none') return JSON.stringify(copy);
  const parent = valueAt(copy, m.kind === 'extra' ? m.path : m.path.slice(0, -1)) as Record<string | number, unknown>;
  if (m.kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(m.path[m.path.length - 1] as number, 1);
    else delete parent[m.path[m.path.length - 1]];
    return JSON.stringify(copy);
  }
  if (m.kind === 'extra') {
    parent[MARK_KEY] = MARK;
    return JSON.stringify(copy).replace(`${JSON.stringify(MARK_KEY)}:${JSON.stringify(MARK)}`, () => `${JSON.stringify(m.key)}:${rawText(m.raw)}`);
  }
  parent[m.path[m.path.length - 1]] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), () => rawText(m.raw));
}

/** The name a 400 must mention for this mutation: the extra key, or the last property on the path. */
function nameOf(m: Mutation): string | undefined {
  // a property name no text can hold (NUL) is refused as such, under `body`
  if (m.kind === 'extra') return badText({ [m.key]: 0 }) === undefined ? m.key : undefined;
  if (m.kind === 'replace' || m.kind === 'remove') return [...m.path].reverse().find((p): p is string => typeof p === 'string');
  return undefined;
}

// ---- the server ---------------------------------------------------------------------------------

let server: TestServer;
let token: string;
let password = 'Demo@Pass1';
let cases = 0;
let generated = 0;
let fingerprints = 0;
const statusCounts = new Map<number, number>();
const kinds = new Map<string, number>();
const kindOf = (m: Mutation) => (m.kind === 'replace' ? m.what : m.kind);

beforeAll(async () => {
  server = await startServer();
  token = await server.login('admin');
});
afterAll(async () => {
  console.log(
    `fuzz: ${cases} requests over ${allCalls.length} calls, ${generated} of them generated (seed ${SEED}, ${RUNS} per call); ` +
      `${fingerprints} full fingerprints; statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort()))}; generated cases by mutation ${JSON.stringify(Object.fromEntries(kinds))}`,
  );
  await server?.close();
});

async function send(path: string, text: string): Promise<{ status: number; message: string; data: unknown }> {
  const res = await server.raw(`/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: text,
  });
  const reply = (await res.json()) as { statusCode: number; data: { message?: string } };
  expect(reply.statusCode, 'statusCode equals the HTTP status').toBe(res.status);
  cases++;
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  return { status: res.status, message: String(reply.data?.message ?? ''), data: reply.data };
}

/**
 * Stored state, cheaply: the next transaction id of the database moves whenever anything writes (even
 * a write that is rolled back); only then is the per-table fingerprint taken again.
 */
class StoredState {
  private mark = '';
  private tables: Record<string, string> = {};
  constructor(private readonly except: string[]) {}
  private async nextXid(): Promise<string> {
    return (await server.db.one<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))!.x;
  }
  /** The state now; `changed` says whether it differs from the last one taken. */
  async take(): Promise<{ changed: boolean; now: Record<string, string>; before: Record<string, string> }> {
    const mark = await this.nextXid();
    const before = this.tables;
    if (mark !== this.mark || this.mark === '') {
      fingerprints++;
      this.tables = await changeFingerprint(server.db, this.except);
      this.mark = await this.nextXid();
    }
    return { changed: JSON.stringify(before) !== JSON.stringify(this.tables), now: this.tables, before };
  }
}

/** The tables whose rows differ between two states taken, each with its fingerprint before and now (rows:newest xmin). */
function changedTables(state: { now: Record<string, string>; before: Record<string, string> }): string[] {
  const names = new Set([...Object.keys(state.before), ...Object.keys(state.now)]);
  return [...names].filter((t) => state.before[t] !== state.now[t]).map((t) => `${t} ${state.before[t] ?? 'absent'} -> ${state.now[t] ?? 'absent'}`);
}

const states = new Map<string, StoredState>();
/** One tracker per set of tables compared, kept across calls (so a baseline costs nothing when nothing was written). */
function storedState(path: string): StoredState {
  const except = unstoredTables(path);
  const key = except.join(',');
  if (!states.has(key)) states.set(key, new StoredState(except));
  return states.get(key)!;
}

/**
 * Tables a refused body may still change: sign-in failures are counted by design,
 * per address and for the owner's notice too, and so are wrong old passwords of a reset.
 */
const SIGN_IN_COUNTERS = ['login_attempts', 'login_address_failures', 'login_address_attempts', 'sign_in_failure_notices'];
function unstoredTables(path: string): string[] {
  return path === 'auth/login' || path === 'user/reset-password' ? ['activity_logs', ...SIGN_IN_COUNTERS] : ['activity_logs'];
}

/**
 * A money action the payment network itself declined: the request was valid and the network was asked,
 * so its answer is recorded on the transaction (and in its action log) before the 422 goes back; a
 * retry replays it. Only that may change: the transaction row and one FAILED action with this reply.
 */
async function declinedByNetwork(path: string, reply: { status: number; message: string }, state: { now: Record<string, string>; before: Record<string, string> }): Promise<boolean> {
  if (!path.startsWith('Transaction/ceft/') || reply.status !== 422) return false;
  const changed = Object.keys(state.now).filter((t) => state.now[t] !== state.before[t]);
  if (changed.some((t) => t !== 'ceft_transactions' && t !== 'transaction_actions')) return false;
  const last = await server.db.one<{ outcome: string; status_code: number; message: string }>('SELECT outcome, status_code, message FROM transaction_actions ORDER BY id DESC LIMIT 1');
  return last?.outcome === 'FAILED' && last.status_code === 422 && last.message === reply.message;
}

/** Calls that end or replace the actor's session when they succeed. */
async function keepSignedIn(path: string, text: string, reply: { status: number; data: unknown }): Promise<boolean> {
  if (reply.status !== 200) return false;
  if (path === 'user/reset-password') {
    token = (reply.data as { token: string }).token;
    password = (JSON.parse(text) as { new_password: string }).new_password;
  } else if (path === 'auth/logout' || path === 'user/change-password') {
    const login = await server.call('auth/login', { username: 'admin', password });
    expect(login.statusCode, 'admin signs in again').toBe(200);
    token = login.data.token;
  } else return false;
  return true;
}

function sampleFor(path: string): unknown {
  // sign-in is fuzzed against another account, so the actor is never locked out
  if (path === 'auth/login') return { username: 'checker', password: 'Demo@Pass1' };
  return sampleBody(path);
}

/** Calls in a fixed order; auth/login last (its failures count against the address). */
const fuzzOrder = [...allCalls.filter((c) => c.path !== 'auth/login'), ...allCalls.filter((c) => c.path === 'auth/login')];

describe('fuzzing every call', () => {
  it('the stored-state tracker notices a write, an update to the same value and a delete', async () => {
    const state = storedState('bank/list');
    await state.take();
    const unchanged = async (what: string) => {
      const now = await state.take();
      expect(changedTables(now), what).toEqual([]);
    };
    const changed = async (what: string) => expect(changedTables(await state.take()), what).toEqual([expect.stringMatching(/^branches /)]);
    await unchanged('nothing was written');
    await server.db.query("INSERT INTO branches (code, name) VALUES ('FUZZ1', 'Fuzz branch')");
    await changed('an insert');
    await server.db.query("UPDATE branches SET name = name WHERE code = 'FUZZ1'");
    await changed('an update to the same value');
    await server.db.query("DELETE FROM branches WHERE code = 'FUZZ1'");
    await changed('a delete');
    await server.db.query('SELECT count(*) FROM branches');
    await unchanged('a read');
  });

  it(
    'never answers 5xx, answers bodies the schema refuses with 400 naming the field, and stores nothing from a refused body',
    async () => {
      for (const contract of fuzzOrder) {
        const sample = sampleFor(contract.path);
        const bodies = arbitraryOf(jsonSchemaOf(contract), sample);
        const arb = bodies.chain((body) => mutationOf(body).map((mutation) => ({ body, mutation })));
        const state = storedState(contract.path);
        await state.take();
        await fc.assert(
          fc.asyncProperty(arb, async ({ body, mutation }) => {
            const text = requestText(body, mutation);
            const reply = await send(contract.path, text);
            const what = `${contract.path} ${mutation.kind === 'replace' ? mutation.what : mutation.kind} → ${reply.status} ${reply.message.slice(0, 200)}`;
            expect(reply.status, what).toBeLessThan(500);

            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            const local = contract.request.safeParse(parsed);
            if (!local.success) {
              expect(reply.status, `${what}: refused by the schema`).toBe(400);
              const baseValid = contract.request.safeParse(body).success && badText(body) === undefined;
              const name = nameOf(mutation);
              if (baseValid && name !== undefined) expect(reply.message, `${what}: names ${name}`).toContain(name.length > 100 ? name.slice(0, 100) : name);
            }
            if (reply.status === 400) {
              expect(reply.message, `${what}: a 400 names the field`).toMatch(/^[^:\s][^:]*: \S/);
            }
            const after = await state.take();
            if (reply.status >= 400 && !(await declinedByNetwork(contract.path, reply, after))) expect(after.now, `${what}: nothing stored`).toEqual(after.before);
            kinds.set(kindOf(mutation), (kinds.get(kindOf(mutation)) ?? 0) + 1);
            generated++;
            if (await keepSignedIn(contract.path, text, reply)) await state.take();
          }),
          { seed: SEED, numRuns: contract.path === 'auth/login' ? LOGIN_RUNS : RUNS, endOnFailure: true },
        );
      }
      expect(cases).toBeGreaterThanOrEqual((allCalls.length - 1) * RUNS);
    },
    FUZZ_TIMEOUT_MS,
  );

  it('refuses NUL and lone surrogate halves in every text field with 400 naming it, and stores nothing', async () => {
    let refused = 0;
    for (const contract of fuzzOrder) {
      const sample = sampleFor(contract.path);
      const state = storedState(contract.path);
      await state.take();
      // every text field of the call's sample (the KYC calls' 40-odd fields: the first 8)
      const texts = placesOf(sample)
        .filter((p) => typeof valueAt(sample, p) === 'string')
        .slice(0, 8);
      for (const [i, path] of texts.entries()) {
        const original = valueAt(sample, path) as string;
        for (const bad of [[`${original}\u0000`, `\ud800${original}`, `${original}\udfff`][(i + contract.path.length) % 3]]) {
          const reply = await send(contract.path, requestText(sample, { kind: 'replace', what: 'unicode', path, raw: JSON.stringify(bad) }));
          expect(reply, `${contract.path} ${path.join('.')}`).toMatchObject({ status: 400, message: `${path.join('.')}: Text cannot contain NUL characters or invalid Unicode` });
          refused++;
        }
      }
      const after = await state.take();
      expect(changedTables(after), contract.path).toEqual([]);
    }
    expect(refused).toBeGreaterThan(60);
  });

  it('refuses extra properties (mass assignment) with 400 naming them on every call, top level and nested, and stores nothing', async () => {
    let refused = 0;
    for (const contract of fuzzOrder) {
      const sample = sampleFor(contract.path);
      const state = storedState(contract.path);
      await state.take();
      for (const path of objectsOf(sample).slice(0, 3)) {
        const declared = Object.keys(valueAt(sample, path) as object);
        const keys = (path.length === 0 ? MASS_ASSIGNMENT_KEYS : ['status', 'approvedBy']).filter((k) => !declared.includes(k));
        // all of them in one body (raw text, so __proto__ is a property): the reply must name every one
        const extra = keys.map((k) => `${JSON.stringify(k)}:${k === '__proto__' ? '{"isAdmin":true}' : '"APPROVED"'}`).join(',');
        const text = requestText(sample, { kind: 'extra', path, key: MARK_KEY, raw: '0' }).replace(`${JSON.stringify(MARK_KEY)}:0`, () => extra);
        const reply = await send(contract.path, text);
        const where = `${contract.path} with ${keys.join(', ')} at ${path.join('.') || 'the top level'}`;
        expect(reply.status, `${where}: ${reply.message}`).toBe(400);
        for (const key of keys) expect(reply.message, `${where}: names ${key}`).toContain(key);
        refused += keys.length;
      }
      const after = await state.take();
      expect(changedTables(after), contract.path).toEqual([]);
    }
    expect(refused).toBeGreaterThan(allCalls.length * (MASS_ASSIGNMENT_KEYS.length - 2));
    // nothing leaked into the prototype of plain objects
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
