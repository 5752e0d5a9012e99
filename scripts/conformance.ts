/**
 * `npm run conformance -- --api <url> --user <name> [--password <pw>] [--write]`: checks a backend
 * against the console's contract (src/api/), call for call, and prints what differs.
 *
 * For every call of the contract it sends the call's sample body (tests/api/samples.ts) signed in as
 * the account given, and checks what comes back as the console reads it:
 *   - the HTTP status equals the body's `statusCode`;
 *   - a 200's `data` (and the top-level extras of the calls that have them) has the documented shape
 *     (the contract's zod schemas, the same the console's types and the OpenAPI document come from);
 *   - any other status is one the call documents (src/api/openapi.ts statusesOf), with a `data.message`;
 *     a 403 counts as "not permitted for this account", not as a difference;
 *   - without a token, a call that needs one answers 401; a body that is not an object answers 400.
 * Calls that change data (create, edit, approve, money actions, ...) are sent only with `--write`: use
 * it against a test backend with demo data, never against production. The account's own password
 * change is sent with a wrong current password, so that its refusal is checked and the password stays. The password is `--password`,
 * else CONFORMANCE_PASSWORD, else the demo accounts' Demo@Pass1.
 * Exit code 0 when nothing differs, 1 when something does, 2 when it could not sign in.
 */
import type { z } from 'zod';
import type { CallContract } from '../src/api/contract';
import { errorData } from '../src/api/contract';
import { allCalls } from '../src/api/index';
import { statusesOf } from '../src/api/openapi';
import { sampleBodies } from '../tests/api/samples';

/** Calls that change data: sent only with --write. auth/logout ends the session: sent last, always. */
const WRITES =
  /(^|\/)(create|edit|approve|change-password|reset-password|unlock|update-status|create-request|generate-settlement-report|generate-instant-settlement-report|log-export|void|refund|manualFundTransfer|hold|disable|save|withdraw|decide|decide-many|start-job|cancel-job)$/;

export function changesData(path: string): boolean {
  return WRITES.test(path);
}

export interface Finding {
  call: string;
  /** ok: as documented; refused: 403 for this account; skipped: changes data (no --write); differs: see `what`. */
  result: 'ok' | 'refused' | 'skipped' | 'differs';
  status?: number;
  what?: string;
}

export interface ConformanceOptions {
  api: string;
  user: string;
  password: string;
  write: boolean;
  /** The calls to check (default: all of the contract). */
  calls?: readonly CallContract[];
}

interface Answer {
  status: number;
  body: unknown;
}

async function post(api: string, path: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${api}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

function issues(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  return r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** What differs between an answer and the call's documentation, or undefined. */
export function differenceOf(call: CallContract, answer: Answer): string | undefined {
  const body = answer.body as Record<string, unknown> | string;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `the body is not a JSON object: ${String(body).slice(0, 120)}`;
  if (body.statusCode !== answer.status) return `HTTP status ${answer.status} but statusCode ${JSON.stringify(body.statusCode)}`;
  if (answer.status === 200) {
    const data = issues(call.data, body.data);
    if (data) return `data does not match the contract: ${data}`;
    if (call.top) {
      const { statusCode: _s, data: _d, ...top } = body;
      const extra = issues(call.top, top);
      if (extra) return `the top-level fields do not match the contract: ${extra}`;
    }
    return undefined;
  }
  if (!statusesOf(call).includes(answer.status)) return `status ${answer.status} is not one the call documents (${statusesOf(call).join(', ')})`;
  const error = issues(errorData, body.data);
  if (error) return `the ${answer.status} reply has no message: ${error}`;
  return undefined;
}

export async function checkConformance(options: ConformanceOptions): Promise<Finding[]> {
  const api = options.api.replace(/\/+$/, '');
  const login = await post(api, 'auth/login', { username: options.user, password: options.password });
  const token0 = (login.body as { data?: { token?: unknown } })?.data?.token;
  if (login.status !== 200 || typeof token0 !== 'string') throw new Error(`could not sign in as ${options.user}: ${login.status} ${JSON.stringify(login.body).slice(0, 200)}`);
  let token: string = token0;
  const findings: Finding[] = [];
  const calls = (options.calls ?? allCalls).filter((c) => c.path !== 'auth/logout');
  for (const call of calls) {
    if (changesData(call.path) && !options.write) {
      findings.push({ call: call.path, result: 'skipped' });
      continue;
    }
    // the account's own password change is sent with a wrong current password: its refusal is checked, the password stays
    const sample = call.path === 'user/reset-password' ? { username: options.user, old_password: `not-${options.password}`, new_password: 'Conformance@Pass12' } : (sampleBodies[call.path] ?? {});
    const problems: string[] = [];
    // without a token
    if (call.access !== 'public') {
      const anonymous = await post(api, call.path, sample);
      if (anonymous.status !== 401) problems.push(`without a token it answered ${anonymous.status}, not 401`);
    }
    const answer = await post(api, call.path, sample, token);
    const difference = differenceOf(call, answer);
    if (difference) problems.push(difference);
    // a body that is not an object: 400 (or 403, for an account the call refuses whatever the body)
    const bad = await post(api, call.path, [1], call.access === 'public' ? undefined : token);
    if (bad.status !== 400 && !(bad.status === 403 && answer.status === 403)) problems.push(`a body that is not an object answered ${bad.status}, not 400`);
    // the background refresh replaces the session's token
    const fresh = (answer.body as { data?: { token?: unknown } })?.data?.token;
    if (call.path === 'auth/token' && answer.status === 200 && typeof fresh === 'string') token = fresh;
    findings.push(
      problems.length > 0
        ? { call: call.path, result: 'differs', status: answer.status, what: problems.join('; ') }
        : { call: call.path, result: answer.status === 403 ? 'refused' : 'ok', status: answer.status },
    );
  }
  const logout = allCalls.find((c) => c.path === 'auth/logout');
  if (logout && (!options.calls || options.calls.includes(logout))) {
    const answer = await post(api, logout.path, {}, token);
    const difference = differenceOf(logout, answer);
    findings.push(difference ? { call: logout.path, result: 'differs', status: answer.status, what: difference } : { call: logout.path, result: 'ok', status: answer.status });
    const after = await post(api, 'config', {}, token);
    if (after.status !== 401) findings.push({ call: 'auth/logout', result: 'differs', status: after.status, what: `the token still works after sign-out (config answered ${after.status})` });
  }
  return findings;
}

export function summaryOf(findings: readonly Finding[]): string {
  const count = (r: Finding['result']) => findings.filter((f) => f.result === r).length;
  return `${findings.length} calls: ${count('ok')} as documented, ${count('refused')} refused for this account (403), ${count('skipped')} not sent (they change data; --write sends them), ${count('differs')} differ`;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const api = arg('api');
  const user = arg('user');
  if (!api || !user) {
    console.error('usage: npm run conformance -- --api <url> --user <name> [--password <pw>] [--write]');
    process.exit(2);
  }
  const password = arg('password') ?? process.env.CONFORMANCE_PASSWORD ?? 'Demo@Pass1';
  let findings: Finding[];
  try {
    findings = await checkConformance({ api, user, password, write: process.argv.includes('--write') });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  }
  for (const f of findings) {
    if (f.result === 'differs') console.log(`DIFFERS  ${f.call} (${f.status}): ${f.what}`);
  }
  console.log(summaryOf(findings));
  process.exit(findings.some((f) => f.result === 'differs') ? 1 : 0);
}

if (process.argv[1] && /conformance\.ts$/.test(process.argv[1])) void main();
