/**
 * The Prometheus metrics (src/server/observability/metrics.ts, docs/observability.md) as a scraper
 * sees them: `GET /metrics` on the main port with METRICS_TOKEN's bearer token and on the metrics port
 * (METRICS_PORT), after a failed sign-in, a lockout, a list call, a change request, money actions and
 * an export; each series present with its labels and its value moved. Without the token the main
 * port's /metrics is 401, and an app with neither setting has no /metrics at all.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { createReadRouting } from '../../src/server/db/readRouting';
import { MAX_FAILURES } from '../../src/server/auth/loginAttempts';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';
import { pngBase64 } from './masterDataHelpers';

const TOKEN = 'metrics-test-token-0123456789';
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
const filters = () => ({ from_date: `${day(-30)}T00:00:01`, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount: 99_999_999 });

let server: TestServer;
let app: FastifyInstance;
let url: string;
let metricsUrl: string;

async function post(path: string, body: unknown, token?: string): Promise<{ status: number; json: { statusCode: number; data: Record<string, unknown> } }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { statusCode: number; data: Record<string, unknown> } };
}

async function login(username: string, password = DEMO_PASSWORD): Promise<string> {
  const reply = await post('/api/auth/login', { username, password });
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json.data.token as string;
}

async function scrape(where = `${url}/metrics`): Promise<string> {
  const res = await fetch(where, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample of the exposition text (the labels given must all match), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Every label set of a series' samples. */
function labelSets(text: string, name: string): Record<string, string>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => Object.fromEntries([...line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]])));
}

beforeAll(async () => {
  server = await startServer({ businessTimeZone: zone });
  app = await buildApp({
    db: server.db,
    secret: server.secret,
    clock: server.now,
    scryptN: TEST_SCRYPT_N,
    businessTimeZone: zone,
    metrics: { token: TOKEN, port: 0, host: '127.0.0.1' },
    exportWorker: { pollMs: 200 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const address = app.remitMetrics?.listenerAddress();
  if (!address) throw new Error('the metrics listener is not listening');
  metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

describe('the metrics endpoint', () => {
  it('asks for the token on the main port: none or a wrong one is 401, the right one 200', async () => {
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.text()).not.toMatch(/remit_/);
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(await scrape()).toMatch(/^# HELP remit_/m);
  });

  it('serves the same registry on the metrics port (the token asked there too, since it is set)', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    const text = await scrape(metricsUrl);
    expect(sample(text, 'remit_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('does not exist on an app with neither a port nor a token', async () => {
    const plain = await buildApp({ db: server.db, secret: server.secret, scryptN: TEST_SCRYPT_N, businessTimeZone: zone });
    try {
      const reply = await plain.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(reply.statusCode).toBe(404);
      expect(plain.remitMetrics).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it("carries Node's own metrics, the event-loop lag among them, and the database pool gauges", async () => {
    const text = await scrape();
    expect(sample(text, 'remit_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'remit_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // the embedded database has no pool: 0; a PostgreSQL pool: the connections in use (none between calls)
    expect(sample(text, 'remit_db_pool_in_use')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'remit_db_pool_waiting')).toBe(0);
    if (server.backend === 'pg') expect(server.db.poolStats).toBeTypeOf('function');
  });
});

describe('what the series count', () => {
  it("requests by the call they name: no query string, no id, the contract's own spelling; unknown routes as unmatched", async () => {
    const admin = await login('admin');
    const before = await scrape();
    const label = { route: '/api/Transaction/get-ceftTransaction', method: 'POST', status_class: '2xx' };
    const was = sample(before, 'remit_http_requests_total', label) ?? 0;
    // the path in another case and with a query string: counted under the contract's path
    const list = await post('/api/transaction/GET-CEFTTRANSACTION?page=2&x=1', filters(), admin);
    expect(list.status).toBe(200);
    expect((await fetch(`${url}/no/such/page?id=42`)).status).toBe(404);
    expect((await post('/api/Transaction/no-such-call', {}, admin)).status).toBe(404);

    const after = await scrape();
    expect(sample(after, 'remit_http_requests_total', label)).toBe(was + 1);
    expect(sample(after, 'remit_http_request_duration_seconds_count', { route: label.route, method: 'POST' })).toBeGreaterThanOrEqual(was + 1);
    expect(sample(after, 'remit_http_request_duration_seconds_bucket', { route: label.route, method: 'POST', le: '+Inf' })).toBeGreaterThanOrEqual(was + 1);
    expect(sample(after, 'remit_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'remit_http_requests_total', { route: 'unmatched', method: 'POST', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    const routes = labelSets(after, 'remit_http_requests_total').map((l) => l.route);
    for (const route of routes) {
      expect(route).not.toMatch(/[?]/);
      expect(route).not.toMatch(/no-such|no\/such|\/42\b/);
    }
  });

  it('failed sign-ins by reason, and a lockout', async () => {
    const before = await scrape();
    const password = sample(before, 'remit_signin_failures_total', { reason: 'password' }) ?? 0;
    const locked = sample(before, 'remit_signin_failures_total', { reason: 'locked' }) ?? 0;
    const lockouts = sample(before, 'remit_signin_lockouts_total') ?? 0;
    for (let i = 0; i < MAX_FAILURES; i++) expect((await post('/api/auth/login', { username: 'metrics_nobody', password: 'wrong' })).status).toBe(401);
    // locked from this address now: refused before its password is checked
    expect((await post('/api/auth/login', { username: 'metrics_nobody', password: 'wrong' })).json.data.message).toMatch(/locked/i);

    const after = await scrape();
    expect(sample(after, 'remit_signin_failures_total', { reason: 'password' })).toBe(password + MAX_FAILURES);
    expect(sample(after, 'remit_signin_failures_total', { reason: 'locked' })).toBe(locked + 1);
    expect(sample(after, 'remit_signin_lockouts_total')).toBe(lockouts + 1);
  });

  it('pending change requests by area, counted at the scrape', async () => {
    const maker = await login('maker');
    const created = await post('/api/bank/create', { bank_code: 'METRICS_1', bank_name: 'Metrics Bank', logo: pngBase64(), disabled: 0 }, maker);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.data.changeRequestId as number;
    const { area } = (await server.db.one<{ area: string }>('SELECT entity_type AS area FROM change_requests WHERE id = $1', [id]))!;
    const expected = (await server.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM change_requests WHERE status = 'PENDING' AND entity_type = $1`, [area]))!.n;
    expect(expected).toBeGreaterThanOrEqual(1);
    expect(sample(await scrape(), 'remit_change_requests_pending', { area })).toBe(expected);
    // decided: the area stays, at one less
    const checker = await login('checker');
    expect((await post('/api/bank/approve', { changeRequestID: id, actionTaken: 'reject', comment: 'metrics test' }, checker)).status).toBe(200);
    expect(sample(await scrape(), 'remit_change_requests_pending', { area })).toBe(expected - 1);
  });

  it('money actions by kind and outcome: a hold carried out, a hold its guard refuses', async () => {
    const maker = await login('maker');
    const holdable = await server.db.one<{ id: number }>(
      `SELECT id FROM ceft_transactions WHERE card_payment_status = 'SUCCESS' AND ceft_payment_status IN ('PENDING', 'FAILED') AND coalesce(ipg_void_status, '') <> 'SUCCESS'
        AND coalesce(ipg_refund_status, '') <> 'SUCCESS' AND ceft_try_count < 100 AND locked = 0 ORDER BY id DESC LIMIT 1`,
    );
    const paidOut = await server.db.one<{ id: number }>(`SELECT id FROM ceft_transactions WHERE ceft_payment_status = 'SUCCESS' AND locked = 0 ORDER BY id DESC LIMIT 1`);
    const before = await scrape();
    const ok = sample(before, 'remit_money_actions_total', { kind: 'hold', outcome: 'ok' }) ?? 0;
    const refused = sample(before, 'remit_money_actions_total', { kind: 'hold', outcome: 'refused' }) ?? 0;

    expect((await post('/api/Transaction/ceft/hold', { id: holdable!.id, description: '' }, maker)).status).toBe(200);
    // the same request again replays the answer: not a second action
    expect((await post('/api/Transaction/ceft/hold', { id: holdable!.id, description: '' }, maker)).status).toBe(200);
    expect((await post('/api/Transaction/ceft/hold', { id: paidOut!.id, description: '' }, maker)).status).toBe(422);

    const after = await scrape();
    expect(sample(after, 'remit_money_actions_total', { kind: 'hold', outcome: 'ok' })).toBe(ok + 1);
    expect(sample(after, 'remit_money_actions_total', { kind: 'hold', outcome: 'refused' })).toBe(refused + 1);
  });

  it("export jobs by state and the bytes of export files written; the file's route is its pattern", async () => {
    const admin = await login('admin');
    const before = await scrape();
    expect(
      labelSets(before, 'remit_export_jobs')
        .map((l) => l.state)
        .sort(),
    ).toEqual(['done', 'failed', 'queued', 'running']);
    const done = sample(before, 'remit_export_jobs', { state: 'done' })!;
    const bytes = sample(before, 'remit_export_bytes_written_total') ?? 0;

    const started = await post('/api/export/start-job', { call: 'Transaction/get-ceftTransaction', body: filters(), format: 'csv' }, admin);
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const jobId = started.json.data.id as number;
    await expect.poll(async () => (await post('/api/export/job-status', { jobId }, admin)).json.data.state, { timeout: 60_000, interval: 200 }).toBe('done');
    const fileBytes = (await server.db.one<{ file_bytes: number }>('SELECT file_bytes FROM export_jobs WHERE id = $1', [jobId]))!.file_bytes;
    expect(fileBytes).toBeGreaterThan(0);

    const link = await post('/api/export/download-link', { jobId }, admin);
    const file = await fetch(`${url}${link.json.data.url as string}`);
    expect(file.status).toBe(200);
    await file.arrayBuffer();

    const after = await scrape();
    expect(sample(after, 'remit_export_jobs', { state: 'done' })).toBe(done + 1);
    expect(sample(after, 'remit_export_bytes_written_total')).toBe(bytes + fileBytes);
    expect(sample(after, 'remit_http_requests_total', { route: '/api/export-file/:id', method: 'GET', status_class: '2xx' })).toBe(1);
  });

  it('where reads go and the replica lag: on the primary, lag 0, without a replica', async () => {
    const text = await scrape();
    expect(sample(text, 'remit_reads_from', { target: 'primary' })).toBe(1);
    expect(sample(text, 'remit_reads_from', { target: 'replica' })).toBe(0);
    expect(text).toMatch(/^# TYPE remit_replica_lag_seconds gauge$/m);
    expect(sample(text, 'remit_replica_lag_seconds')).toBe(0);
  });

  it('with a replica: NaN lag and reads on the primary before its first check, then reads on it and its lag', async () => {
    // the primary standing in for its replica (not in recovery: it has replayed everything)
    const reads = createReadRouting(server.db, server.db, { warn: () => {} });
    const withReplica = await buildApp({ db: server.db, secret: server.secret, scryptN: TEST_SCRYPT_N, businessTimeZone: zone, reads, metrics: { token: TOKEN } });
    try {
      const get = async () => (await withReplica.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      const starting = await get();
      expect(sample(starting, 'remit_replica_lag_seconds')).toBeNaN();
      expect(sample(starting, 'remit_reads_from', { target: 'primary' })).toBe(1);
      expect((await reads.check()).state).toBe('ok');
      const well = await get();
      expect(sample(well, 'remit_replica_lag_seconds')).toBe(0);
      expect(sample(well, 'remit_reads_from', { target: 'replica' })).toBe(1);
      expect(sample(well, 'remit_reads_from', { target: 'primary' })).toBe(0);
    } finally {
      await withReplica.close();
    }
  });
});
