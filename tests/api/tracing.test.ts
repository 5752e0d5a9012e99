/**
 * OpenTelemetry traces (src/server/observability/tracing.ts, docs/observability.md) as a collector
 * receives them: an in-process OTLP/HTTP receiver (POST /v1/traces, the exporter's JSON) gets, for a
 * list call, a SERVER span named by the call and child `db.query` spans with the statement's text
 * (no parameter values); a log line of the request carries the same trace id; a 500's correlationId
 * (and its x-correlation-id header) is the trace id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { format } from 'date-fns';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/db';
import { startTracing, type Tracing } from '../../src/server/observability/tracing';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  status?: { code?: number };
}
const SERVER = 2;
const CLIENT = 3;

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
const FROM = `${day(-30)}T00:00:01`;
const filters = () => ({ from_date: FROM, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount: 50 });

let server: TestServer;
let receiver: Server;
let tracing: Tracing;
let app: FastifyInstance;
let url: string;
const spans: OtlpSpan[] = [];
const contentTypes: string[] = [];
const lines: Record<string, unknown>[] = [];
const link = { fail: false };

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

/** A database that fails every statement (as a lost connection would) while `link.fail` is set. */
function failing(db: Db): Db {
  const check = () => {
    if (link.fail) throw new Error('the database went away');
  };
  return {
    ...db,
    query: async (sql, params) => (check(), db.query(sql, params)),
    one: async (sql, params) => (check(), db.one(sql, params)),
  };
}

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as { statusCode: number; data: Record<string, unknown> } };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        contentTypes.push(String(req.headers['content-type']));
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  server = await startServer({ businessTimeZone: zone });
  tracing = startTracing({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`, serviceName: 'remit-console-test', scheduledDelayMillis: 50 });
  app = await buildApp({
    db: failing(server.db),
    secret: server.secret,
    clock: server.now,
    scryptN: TEST_SCRYPT_N,
    businessTimeZone: zone,
    tracing,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // the run's first file builds the database template: minutes on a busy machine
}, 600_000);
afterAll(async () => {
  await app?.close();
  await tracing?.shutdown();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('traces', () => {
  it('a list call: a SERVER span named by the call, child SQL spans with the statement and no values, its trace id in the logs', async () => {
    const token = (await post('/api/auth/login', { username: 'admin', password: DEMO_PASSWORD })).json.data.token as string;
    const list = await post('/api/transaction/GET-CEFTTRANSACTION?page=2', filters(), token);
    expect(list.status).toBe(200);
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    // a batch the timer started may still be on its way: flush until the span is in
    await expect.poll(async () => (await tracing.flush(), spans.some((s) => s.name === 'POST /api/Transaction/get-ceftTransaction')), { timeout: 10_000 }).toBe(true);

    expect(contentTypes[0]).toMatch(/^application\/json/);
    const request = spans.find((s) => s.name === 'POST /api/Transaction/get-ceftTransaction');
    expect(request, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(request!.kind).toBe(SERVER);
    expect(request!.parentSpanId ?? '').toBe('');
    expect(attr(request!, 'http.route')).toBe('/api/Transaction/get-ceftTransaction');
    expect(attr(request!, 'url.path')).toBe('/api/transaction/GET-CEFTTRANSACTION');
    expect(attr(request!, 'http.response.status_code')).toBe(200);
    const traceId = request!.traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    // the correlation id the caller was given is the trace id
    expect(list.headers.get('x-correlation-id')).toBe(traceId);

    const inTrace = spans.filter((s) => s.traceId === traceId);
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));
    const underRequest = (s: OtlpSpan): boolean => {
      for (let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) if (p === request) return true;
      return false;
    };
    const sql = inTrace.filter((s) => s.name === 'db.query');
    expect(sql.length).toBeGreaterThan(0);
    for (const s of sql) {
      expect(s.kind).toBe(CLIENT);
      expect(underRequest(s)).toBe(true);
      const statement = String(attr(s, 'db.statement'));
      expect(statement.length).toBeGreaterThan(0);
      expect(statement.length).toBeLessThanOrEqual(200);
      expect(statement).not.toContain(FROM.slice(0, 10));
    }
    // the statements as written, their parameters as placeholders
    expect(sql.some((s) => /^SELECT\b.*\$1\b/i.test(String(attr(s, 'db.statement'))))).toBe(true);
    expect(sql.every((s) => attr(s, 'remit.db.backend') === server.backend)).toBe(true);
    // the health and metrics endpoints are not traced
    expect(spans.some((s) => String(attr(s, 'url.path')).startsWith('/health'))).toBe(false);

    const logged = lines.filter((l) => l.trace_id === traceId);
    expect(logged.map((l) => l.msg)).toContain('request completed');
  });

  it('a 500: its correlationId, its header and its error log line are the trace id of its request span', async () => {
    const token = (await post('/api/auth/login', { username: 'admin', password: DEMO_PASSWORD })).json.data.token as string;
    link.fail = true;
    let reply: Awaited<ReturnType<typeof post>>;
    try {
      reply = await post('/api/transaction/get-ceftTransaction', filters(), token);
    } finally {
      link.fail = false;
    }
    expect(reply.status).toBe(500);
    const correlationId = reply.json.data.correlationId as string;
    expect(correlationId).toMatch(/^[0-9a-f]{32}$/);
    expect(reply.headers.get('x-correlation-id')).toBe(correlationId);
    // a batch the timer started may still be on its way: flush until the span is in
    const serverSpan = () => spans.find((s) => s.traceId === correlationId && s.kind === SERVER);
    await expect.poll(async () => (await tracing.flush(), serverSpan()?.name), { timeout: 10_000 }).toBe('POST /api/Transaction/get-ceftTransaction');
    const request = serverSpan();
    expect(request?.status?.code).toBe(2);
    const failedSql = spans.find((s) => s.traceId === correlationId && s.name === 'db.query');
    expect(failedSql?.status?.code).toBe(2);
    const error = lines.find((l) => l.msg === 'unexpected error' && l.correlationId === correlationId);
    expect(error?.trace_id).toBe(correlationId);
  });
});
