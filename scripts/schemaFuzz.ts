/**
 * `npm run test:schema [-- --api <url> --user <name> --password <pw> --cases <n> --seed <n>]`: a
 * property-based test of a backend against the published OpenAPI document (GET /api/openapi.json),
 * in the manner of Schemathesis' positive mode: request bodies are generated from each operation's
 * request schema alone (fast-check arbitraries built from the JSON Schema, every body checked valid
 * against it with Ajv), sent signed in as the account given, and every reply is checked against the
 * document: its status listed for the operation, its body valid against that status's schema.
 *
 * Records are found the way a client of the document finds them: through the operations' `links`
 * (a 2xx reply's values fed to the operations that take them, e.g. a list's first id to get-for-edit).
 *
 * Without --api it starts the console's server in-process on an embedded database with the demo data
 * (and pending change requests by the demo maker in every area, so that the approve calls have
 * something to decide). Prints, per operation: cases sent, the statuses seen, whether a 2xx was
 * reached; then the totals. Exit code 0 when no reply was a server error or broke the document and at
 * least `--min-coverage` (default 0.95) of the operations the account may call reached a 2xx.
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;

export interface OperationResult {
  readonly operationId: string;
  readonly path: string;
  sent: number;
  readonly statuses: Record<number, number>;
  /** Replies that broke the document: a status it does not list, or a body not valid for it. */
  readonly violations: string[];
  /** The first 4xx message of each status (why the cases did not reach a 2xx). */
  readonly refusals: Record<number, string>;
  /** Every case answered 403: the account may not call it (not counted in the coverage). */
  forbidden: boolean;
}

export interface SchemaFuzzReport {
  readonly operations: OperationResult[];
  readonly cases: number;
  readonly serverErrors: number;
  /** Requests sent again because the connection was reset before any reply. */
  readonly resets: number;
  readonly violations: number;
  /** Operations the account may call (not every case 403) that reached a 2xx, of those it may call. */
  readonly reached: number;
  readonly callable: number;
  /** Generated bodies the document's own schema refused (a generator limit; never sent). */
  readonly unsatisfiable: string[];
}

export interface SchemaFuzzOptions {
  readonly api: string;
  readonly user: string;
  readonly password: string;
  /** Generated cases per operation (links add their own). */
  readonly cases: number;
  readonly seed: number;
  /** Operations (by operationId) to leave out, e.g. those that end the session. */
  readonly skip?: readonly string[];
  readonly log?: (line: string) => void;
}

const resolve = (doc: Json, schema: Json): Json => {
  let s = schema;
  for (let i = 0; i < 20 && typeof s.$ref === 'string'; i++) {
    const parts = (s.$ref as string).replace(/^#\//, '').split('/');
    let node: unknown = doc;
    for (const p of parts) node = (node as Json)[p.replace(/~1/g, '/').replace(/~0/g, '~')];
    s = node as Json;
  }
  return s;
};

/** A regular expression's lookaheads removed (fast-check cannot generate from them; the full pattern still filters). */
function withoutLookaheads(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}

/** A fast-check arbitrary of the values a JSON Schema (2020-12, the subset the document uses) accepts. */
export function arbitraryOf(doc: Json, input: Json, depth = 0, examplesOnly = false): fc.Arbitrary<unknown> {
  const schema = resolve(doc, input);
  if (depth > 8) return fc.constant(null);
  const examples = Array.isArray(schema.examples) && schema.examples.length > 0 ? (schema.examples as unknown[]) : undefined;
  const core = ((): fc.Arbitrary<unknown> => {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const union = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (union) return fc.oneof(...union.map((s) => arbitraryOf(doc, s, depth + 1, examplesOnly)));
    if (Array.isArray(schema.allOf)) return arbitraryOf(doc, Object.assign({}, ...(schema.allOf as Json[]).map((s) => resolve(doc, s))) as Json, depth + 1, examplesOnly);
    switch (schema.type) {
      case 'string': {
        const minLength = (schema.minLength as number | undefined) ?? 0;
        const maxLength = (schema.maxLength as number | undefined) ?? Math.max(minLength, 40);
        const length = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
        if (typeof schema.pattern === 'string') {
          const full = new RegExp(schema.pattern, 'u');
          return fc
            .stringMatching(new RegExp(withoutLookaheads(schema.pattern)))
            .map((s) => (s.length > maxLength ? s.slice(0, maxLength) : s))
            .filter((s) => length(s) && full.test(s));
        }
        return fc.string({ minLength, maxLength });
      }
      case 'integer': {
        const min = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : ((schema.minimum as number | undefined) ?? -1_000_000);
        const max = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : ((schema.maximum as number | undefined) ?? 1_000_000);
        return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
      }
      case 'number':
        if (typeof schema.multipleOf === 'number') {
          const step = schema.multipleOf;
          const places = Math.max(0, -Math.floor(Math.log10(step)));
          const lo = Math.ceil(((schema.minimum as number | undefined) ?? -1e9) / step);
          const hi = Math.floor(((schema.maximum as number | undefined) ?? 1e9) / step);
          return fc.integer({ min: Math.max(lo, Number.MIN_SAFE_INTEGER), max: Math.min(hi, Number.MAX_SAFE_INTEGER) }).map((k) => Number((k * step).toFixed(places)));
        }
        return fc.double({ min: (schema.minimum as number | undefined) ?? -1e9, max: (schema.maximum as number | undefined) ?? 1e9, noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const item = arbitraryOf(doc, (schema.items as Json | undefined) ?? {}, depth + 1, examplesOnly);
        const constraints = {
          minLength: (schema.minItems as number | undefined) ?? 0,
          maxLength: Math.min((schema.maxItems as number | undefined) ?? 5, Math.max(5, (schema.minItems as number | undefined) ?? 0)),
        };
        return schema.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(item, constraints);
      }
      case 'object':
      case undefined: {
        const properties = (schema.properties ?? {}) as Record<string, Json>;
        if (Object.keys(properties).length === 0) return fc.constant({});
        const required = (schema.required ?? []) as string[];
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, s] of Object.entries(properties)) model[name] = arbitraryOf(doc, s, depth + 1, examplesOnly);
        return fc.record(model, { requiredKeys: required.filter((r) => r in properties) });
      }
      default:
        return fc.constant(null);
    }
  })();
  // the document's examples are valid values too (with examplesOnly, the only values where it gives them) (the generator cannot invent some, e.g. a password that passes every rule)
  return examples ? (examplesOnly ? fc.constantFrom(...examples) : fc.oneof(fc.constantFrom(...examples), core)) : core;
}

interface Operation {
  readonly id: string;
  readonly path: string;
  readonly request: Json | undefined;
  readonly responses: Record<string, Json>;
  readonly links: Record<string, { operationId: string; requestBody: Json }>;
}

function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const post = item.post as Json | undefined;
    if (!post) continue;
    const request = (((post.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
    const responses = post.responses as Record<string, Json>;
    const links = ((responses['200'] as Json | undefined)?.links ?? {}) as Record<string, { operationId: string; requestBody: Json }>;
    out.push({ id: post.operationId as string, path, request, responses, links });
  }
  return out;
}

/** The value a runtime expression `$response.body#/json/pointer` names in a reply body, or undefined. */
export function fromReply(expression: unknown, body: unknown): unknown {
  if (Array.isArray(expression)) {
    const values = expression.map((e) => fromReply(e, body));
    return values.some((v) => v === undefined) ? undefined : values;
  }
  if (typeof expression !== 'string' || !expression.startsWith('$response.body#')) return expression;
  let node: unknown = body;
  for (const p of expression.slice('$response.body#'.length).split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

async function send(api: string, path: string, body: unknown, token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
}

export async function runSchemaFuzz(options: SchemaFuzzOptions): Promise<SchemaFuzzReport> {
  const api = options.api.replace(/\/+$/, '');
  const log = options.log ?? (() => undefined);
  const login = await fetch(`${api}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: options.user, password: options.password }) });
  let token = ((await login.json()) as { data?: { token?: string } }).data?.token ?? '';
  if (!token) throw new Error(`could not sign in as ${options.user} (${login.status})`);
  const docReply = await fetch(`${api}/api/openapi.json`, { headers: { authorization: `Bearer ${token}` } });
  if (!docReply.ok) throw new Error(`GET /api/openapi.json answered ${docReply.status}`);
  const doc = (await docReply.json()) as Json;

  // multipleOf 0.0001 on binary floating point: compared to 8 places
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, multipleOfPrecision: 8 });
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: Json): ValidateFunction => {
    const key = JSON.stringify(schema);
    let v = compiled.get(key);
    if (!v) {
      const rewritten = JSON.parse(key.replace(/"#\/components\//g, '"openapi#/components/')) as Json;
      v = ajv.compile(rewritten);
      compiled.set(key, v);
    }
    return v;
  };

  const skip = new Set(options.skip ?? []);
  const operations = operationsOf(doc).filter((o) => !skip.has(o.id));
  const byId = new Map(operations.map((o) => [o.id, o]));
  const results = new Map<string, OperationResult>(operations.map((o) => [o.id, { operationId: o.id, path: o.path, sent: 0, statuses: {}, violations: [], refusals: {}, forbidden: false }]));
  const unsatisfiable: string[] = [];
  let serverErrors = 0;
  let resets = 0;

  const check = async (op: Operation, body: unknown): Promise<{ status: number; body: unknown }> => {
    let answer: { status: number; body: unknown };
    try {
      try {
        answer = await send(api, op.path, body, token);
      } catch (err) {
        // a kept-alive connection the server closed as it was reused: reset before any byte of a reply, sent again once
        if ((err as { cause?: { code?: unknown } }).cause?.code !== 'ECONNRESET') throw err;
        resets++;
        answer = await send(api, op.path, body, token);
      }
    } catch (err) {
      // no reply at all (connection closed, timed out): as bad as a server error
      const cause = err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : String(err);
      log(`  no reply from ${op.path} for ${JSON.stringify(body).slice(0, 300)}: ${cause}`);
      answer = { status: 599, body: cause };
    }
    const result = results.get(op.id)!;
    // a reply that hands out a new session token (the background refresh) replaces the one in use
    const fresh = (answer.body as { data?: { token?: unknown } } | null)?.data?.token;
    if (answer.status === 200 && typeof fresh === 'string') token = fresh;
    if (answer.status >= 400 && answer.status < 500 && !(answer.status in result.refusals)) {
      result.refusals[answer.status] = `${String((answer.body as { data?: { message?: unknown } } | null)?.data?.message ?? '').slice(0, 160)} <- ${JSON.stringify(body).slice(0, 160)}`;
    }
    result.sent++;
    result.statuses[answer.status] = (result.statuses[answer.status] ?? 0) + 1;
    if (answer.status >= 500) {
      serverErrors++;
      log(`  ${answer.status} from ${op.path} for ${JSON.stringify(body).slice(0, 300)}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    const response = op.responses[String(answer.status)];
    if (!response) result.violations.push(`status ${answer.status} is not listed (${JSON.stringify(body).slice(0, 200)})`);
    else {
      const r = resolve(doc, response);
      const schema = ((r.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
      if (schema) {
        const validate = validatorOf(schema);
        if (!validate(answer.body)) result.violations.push(`${answer.status} body: ${ajv.errorsText(validate.errors).slice(0, 300)}`);
      }
    }
    return answer;
  };

  const requestValidator = (op: Operation) => (op.request ? validatorOf(op.request) : undefined);
  const samples = (op: Operation, n: number, seed: number): unknown[] => {
    if (!op.request) return Array.from({ length: n }, () => ({}));
    const valid = requestValidator(op)!;
    try {
      return fc.sample(
        arbitraryOf(doc, op.request).filter((v) => valid(v)),
        { numRuns: n, seed },
      );
    } catch {
      unsatisfiable.push(op.id);
      return [];
    }
  };

  let seed = options.seed;
  const lastOk = new Map<string, unknown>();
  const generated = async (op: Operation, n: number): Promise<void> => {
    for (const body of samples(op, n, seed++)) {
      const answer = await check(op, body);
      if (answer.status >= 200 && answer.status < 300) lastOk.set(op.id, answer.body);
    }
  };
  // each link: the linked operation sent with the values of a fresh reply of the operation it starts from
  const followLinks = async (): Promise<void> => {
    // in reverse order of path: an area's list before its get-for-edit and its create (whose new requests would come first)
    for (const op of [...operations].reverse()) {
      const links = Object.values(op.links);
      if (links.length === 0) continue;
      const resolves = (reply: unknown) => links.every((l) => Object.values(l.requestBody).every((e) => fromReply(e, reply) !== undefined));
      // the least filtered body first (no optional field, if the schema allows it), then generated ones, until a reply names what the links need
      const sources = [...(!op.request || requestValidator(op)!({}) ? [{}] : []), ...samples(op, 5, seed++)];
      let reply: unknown;
      for (const body of sources) {
        const answer = await check(op, body);
        if (answer.status < 200 || answer.status >= 300) continue;
        lastOk.set(op.id, answer.body);
        reply = answer.body;
        if (resolves(reply)) break;
      }
      // else the last reply that reached a 2xx (e.g. a get-for-edit a list's link opened)
      if (reply === undefined || !resolves(reply)) reply = lastOk.get(op.id) ?? reply;
      if (reply === undefined) continue;
      for (const link of links) {
        const target = byId.get(link.operationId);
        if (!target) continue;
        const fixed = Object.fromEntries(Object.entries(link.requestBody).map(([k, e]) => [k, fromReply(e, reply)]));
        if (Object.values(fixed).some((v) => v === undefined)) continue;
        const valid = requestValidator(target);
        const bodies = samples(target, Math.max(3, Math.ceil(options.cases / 4)), seed++)
          .map((b) => ({ ...(b as Json), ...fixed }))
          .filter((b) => !valid || valid(b));
        for (const body of bodies) {
          const answer = await check(target, body);
          if (answer.status >= 200 && answer.status < 300) lastOk.set(target.id, answer.body);
        }
      }
    }
  };
  // the links first, on the data as found; then each operation with the document's examples; then its
  // generated cases; then the links again
  await followLinks();
  for (const op of operations) {
    if (!op.request) continue;
    const valid = requestValidator(op)!;
    try {
      for (const body of fc.sample(
        arbitraryOf(doc, op.request, 0, true).filter((v) => valid(v)),
        { numRuns: 2, seed: seed++ },
      )) {
        const answer = await check(op, body);
        if (answer.status >= 200 && answer.status < 300) lastOk.set(op.id, answer.body);
      }
    } catch {
      // no body from the examples: the generated cases follow
    }
  }
  for (const op of operations) await generated(op, options.cases);
  await followLinks();

  const list = [...results.values()];
  for (const r of list) r.forbidden = r.sent > 0 && (r.statuses[403] ?? 0) === r.sent;
  const callable = list.filter((r) => !r.forbidden);
  return {
    operations: list,
    cases: list.reduce((n, r) => n + r.sent, 0),
    serverErrors,
    resets,
    violations: list.reduce((n, r) => n + r.violations.length, 0),
    reached: callable.filter((r) => Object.keys(r.statuses).some((s) => Number(s) >= 200 && Number(s) < 300)).length,
    callable: callable.length,
    unsatisfiable,
  };
}

export function reportLines(report: SchemaFuzzReport, verbose = false): string[] {
  const lines: string[] = [];
  for (const r of report.operations) {
    const statuses = Object.entries(r.statuses)
      .map(([s, n]) => `${s}x${n}`)
      .join(' ');
    const ok = Object.keys(r.statuses).some((s) => Number(s) >= 200 && Number(s) < 300);
    lines.push(`${ok ? '2xx ' : r.forbidden ? '403 ' : 'NONE'} ${r.path.padEnd(58)} ${String(r.sent).padStart(4)}  ${statuses}`);
    for (const v of r.violations.slice(0, 3)) lines.push(`     violation: ${v}`);
    if (!ok && verbose) for (const [s, m] of Object.entries(r.refusals)) lines.push(`     ${s}: ${m}`);
  }
  const pct = report.callable === 0 ? 0 : (100 * report.reached) / report.callable;
  lines.push(
    `${report.operations.length} operations, ${report.cases} cases: ${report.reached} of ${report.callable} the account may call reached a 2xx (${pct.toFixed(1)} %), ` +
      `${report.serverErrors} server errors, ${report.violations} replies outside the document` +
      (report.resets ? `, ${report.resets} sent again after a connection reset` : '') +
      (report.unsatisfiable.length ? `; no body generated for ${report.unsatisfiable.join(', ')}` : ''),
  );
  return lines;
}
