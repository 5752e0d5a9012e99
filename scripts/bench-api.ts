/**
 * `npm run bench:api [-- --transactions 1000000 --runs 30 --reseed --json results.json]`
 *
 * Goal 4 of the benchmark (list calls). Seeds or reuses N transactions in PostgreSQL (scripts/benchData.ts,
 * schema `bench`, shared with bench-dashboard.ts), starts the API on the same pool, and times every
 * transaction list and count call through HTTP beside the very same SQL run directly on that pool:
 * the statements the call runs, one after the other, as the server runs them: the session lookup of
 * every signed-in call (src/server/auth/sessionUser.ts) and the call's one statement
 * (src/server/areas/transactions/query.ts builds it for both).
 *
 * HTTP is the time from sending the request to holding the whole reply body (compressed as a browser
 * asks: Accept-Encoding gzip, deflate, br; decompressed by the client), the client's JSON.parse not
 * included: the SQL side ends with the statement's result in hand, not parsed into objects either.
 * The client (scripts/benchHttpClient.ts) speaks HTTP/1.1 on a kept-alive TCP connection and
 * decompresses in one call, as a browser's native network stack does; `--node-http` uses Node's http
 * client instead (~0.1 ms of its own per call here: request and response objects, streams, events)
 * and `--fetch` Node's fetch (~1.5 ms: WHATWG streams and a decompression stream). The two sides are
 * timed alternately, one call each in turn, so that both meet the same moments of the machine.
 * The ratio is HTTP p95 / SQL p95. The goal is a one-day window with country,
 * status and text filters: p95 under 50 ms and within 1.3x. The same calls without filters (every
 * row of the day, fetch count All) are measured beside them for information.
 *
 * A last case asks one list for ~100,000 rows (fetch count All over a wide range) and prints the
 * reply's size and times: the statement alone, the reply over HTTP, and JSON.parse on the client.
 *
 * With --json <file>, writes the rows {goal, measure, ours, baseline, unit, target, met}.
 */
import { readBusinessTimeZone } from '../src/server/environment';
import { businessDay } from '../src/domain/businessTime';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { subDays } from 'date-fns';
import Fastify from 'fastify';
import type { z } from 'zod';
import { buildApp } from '../src/server/app';
import { BenchHttpClient } from './benchHttpClient';
import { FIRST_PAGE, STREAM_ABOVE_ROWS } from '../src/server/areas/transactions/handlers';
import { countsSql, keysOf, listHeadSql, listReplySql, listRowsSql, resolveFilters } from '../src/server/areas/transactions/query';
import { transactionKindSpecs } from '../src/server/areas/transactions/kinds';
import { billRow, ceftAuditRow, ceftRow, eChannellingRow, insuranceRow, thyagaRow, type ListFilters } from '../src/api/transactions';
import { SUCCESS, type TransactionKind } from '../src/domain/transactionStatus';
import { loadSessionUser } from '../src/server/auth/sessionUser';
import { BENCH_SCHEMA, benchToday, openBenchDb, jsonArg, numberArg, printTable, quantile, timeIt, type BenchRow } from './benchData';

const N = numberArg('transactions', 1_000_000);
const RUNS = numberArg('runs', 200);
/** Rounds of the goal's (filtered) cases: 3x --runs. */
const FILTERED_RUNS = 3 * RUNS;
const CLIENT = process.argv.includes('--fetch') ? 'Node fetch' : process.argv.includes('--node-http') ? 'node:http, kept alive' : 'HTTP/1.1, kept alive (benchHttpClient)';
const JSON_FILE = jsonArg();
const GOAL = '4 list calls';
const P95_TARGET_MS = 50;
const RATIO_TARGET = 1.3;

interface Case {
  readonly path: string;
  readonly kind: TransactionKind;
  readonly row: z.ZodObject;
  readonly body: Record<string, unknown>;
  readonly refunded?: boolean;
  readonly firstPage: boolean;
  readonly scenario: string;
  /** The goal's case (country, status where the call has one, text); false: every row of the day. */
  readonly filtered: boolean;
}

/**
 * The statements a list call runs, as the handler builds them (src/server/areas/transactions/handlers.ts
 * runList): one; or, when the cap allows more than STREAM_ABOVE_ROWS rows, one for up to that many,
 * then (`rows` above it: a streamed list) the head and the rows.
 */
function statementsOf(c: Case, rows: number) {
  const filters = resolveFilters(c.body as unknown as ListFilters, readBusinessTimeZone(), c.refunded ? 'REFUNDED' : undefined);
  const options = {
    keys: keysOf(c.row),
    amountColumn: c.refunded ? ('amount_lkr' as const) : ('amount_usd' as const),
    totalStatus: c.refunded ? 'REFUNDED' : SUCCESS,
    firstPage: c.firstPage ? FIRST_PAGE : 0,
  };
  if (filters.fetchCount <= STREAM_ABOVE_ROWS) return [listReplySql(transactionKindSpecs[c.kind], filters, options)];
  const upTo = listReplySql(transactionKindSpecs[c.kind], filters, options, STREAM_ABOVE_ROWS);
  if (rows <= STREAM_ABOVE_ROWS) return [upTo];
  return [upTo, listHeadSql(transactionKindSpecs[c.kind], filters, options), listRowsSql(transactionKindSpecs[c.kind], filters, options.keys)];
}

async function main(): Promise<void> {
  const db = await openBenchDb(N);
  const results: BenchRow[] = [];
  try {
    const app = await buildApp({ db, secret: randomBytes(32), scryptN: 2 ** 10 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `http://127.0.0.1:${address.port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const clients: BenchHttpClient[] = [];
    /** POSTs to a server on `port` with the chosen client: the whole reply body as text (decompressed), its encoding and size as sent. */
    const poster = (port: number) => {
      const client = new BenchHttpClient('127.0.0.1', port);
      clients.push(client);
      const origin = `http://127.0.0.1:${port}`;
      return (path: string, body: unknown, token?: string): Promise<{ text: string; encoding: string }> =>
        CLIENT === 'Node fetch'
          ? postWithFetch(`${origin}${path}`, body, token)
          : CLIENT.startsWith('node:http')
            ? postWithHttp(agent, `${origin}${path}`, body, token)
            : postWithClient(client, path, body, token);
    };
    const postToApp = poster(address.port);
    const post = (path: string, body: unknown, token?: string) => postToApp(`/api/${path}`, body, token);
    const token = (JSON.parse((await post('auth/login', { username: 'admin', password: 'Demo@Pass1' })).text) as { data: { token: string } }).data.token;
    const me = (await db.one<{ id: number; session_version: number }>(`SELECT id, session_version FROM console_users WHERE username = 'admin'`))!;
    /** What the server runs on the pool for a signed-in call: the session lookup, then the call's statement. */
    const direct = async (statements: readonly { sql: string; params: unknown[] }[]) => {
      if (!(await loadSessionUser(db, me.id, me.session_version))) throw new Error('no session');
      for (const q of statements) await db.query(q.sql, q.params);
    };

    const day = benchToday();
    const range = { from_date: `${day}T00:00:01`, to_date: `${day}T23:59:00` };
    const narrow = { ...range, country_code: 'AE', data: '19' };
    const wide = { ...range, country_code: '', data: '' };
    const lists: [string, TransactionKind, z.ZodObject, 'status' | 'counted' | 'plain', boolean, boolean?][] = [
      ['Transaction/get-ceftTransaction', 'ceft', ceftRow, 'status', true],
      ['dashboard/CeftList', 'ceft', ceftAuditRow, 'status', true],
      ['dashboard/CeftRefundedList', 'ceft', ceftAuditRow, 'status', true, true],
      ['Transaction/billTransactions', 'bill', billRow, 'counted', true],
      ['dashboard/BillList', 'bill', billRow, 'status', true],
      ['Transaction/echannellingTransactions', 'echannelling', eChannellingRow, 'counted', true],
      ['dashboard/E-ChannellingList', 'echannelling', eChannellingRow, 'plain', true],
      ['Transaction/thyagaTransactions', 'thyaga', thyagaRow, 'counted', true],
      ['dashboard/ThayagaList', 'thyaga', thyagaRow, 'counted', true],
      ['Transaction/insuranceTransactions', 'insurance', insuranceRow, 'counted', false],
    ];
    const cases: Case[] = [];
    for (const [path, kind, row, shape, firstPage, refunded] of lists) {
      const scenarios =
        shape === 'plain'
          ? ([
              ['1 day, AE, text "19", every row', narrow, undefined],
              ['1 day, all countries, every row', wide, undefined],
            ] as const)
          : shape === 'status'
            ? ([
                ['1 day, AE, SUCCESS, text "19", fetch 10', { ...narrow, status: 'SUCCESS' }, 10],
                ['1 day, all countries, fetch All', { ...wide, status: '' }, 99_999_999],
              ] as const)
            : ([
                ['1 day, AE, text "19", fetch 10', narrow, 10],
                ['1 day, all countries, fetch All', wide, 99_999_999],
              ] as const);
      for (const [scenario, base, fetchCount] of scenarios) {
        const body: Record<string, unknown> = { ...base };
        // the refunded tab already requires REFUNDED: its case filters by country and text
        if (refunded && 'status' in body) body.status = '';
        if (fetchCount !== undefined) body.fetchCount = fetchCount;
        const label = refunded ? scenario.replace('SUCCESS, ', '') : scenario;
        cases.push({ path, kind, row, body, refunded, firstPage, scenario: label, filtered: (base as { data?: string }).data === '19' });
      }
    }

    // The stack's own cost, for reference: a bare Fastify route on the same pool that runs the same
    // statements (the session lookup, then the call's) and sends the last one's texts, with no token
    // check, validation, hooks or compression.
    const bare = Fastify();
    const bareStatements: { sql: string; params: unknown[] }[][] = [];
    bare.post<{ Params: { i: string } }>('/bare/:i', async (req, reply) => {
      const statements = bareStatements[Number(req.params.i)];
      if (!(await loadSessionUser(db, me.id, me.session_version))) throw new Error('no session');
      let last: Record<string, unknown> | undefined;
      for (const q of statements) last = (await db.query<Record<string, unknown>>(q.sql, q.params))[0];
      return reply.type('application/json').send(
        `[${Object.values(last ?? {})
          .map((v) => JSON.stringify(String(v)))
          .join(',')}]`,
      );
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const postToBare = poster((bare.server.address() as { port: number }).port);

    const out: string[][] = [['call', 'filter', 'rows', 'KB', 'HTTP p50', 'HTTP p95', 'SQL p50', 'SQL p95', 'ratio p95', 'bare route p95', 'met']];
    for (const c of cases) {
      const first = await post(c.path, c.body, token);
      const rows = (JSON.parse(first.text) as { data: { filteredList: unknown[] } }).data.filteredList.length;
      const statements = statementsOf(c, rows);
      bareStatements.push(statements);
      const barePath = `/bare/${bareStatements.length - 1}`;
      const barePost = () => postToBare(barePath, {}, token);
      // the goal's cases, a few milliseconds each, get more rounds: their p95 is then not a handful of calls
      const [http, sql, bareRoute] = await timeInTurn([() => post(c.path, c.body, token), () => direct(statements), barePost], c.filtered ? FILTERED_RUNS : RUNS);
      const ratio = http.p95 / sql.p95;
      const met = c.filtered ? http.p95 < P95_TARGET_MS && ratio <= RATIO_TARGET : null;
      out.push([
        c.path,
        c.scenario,
        String(rows),
        (first.text.length / 1024).toFixed(0),
        http.p50.toFixed(1),
        http.p95.toFixed(1),
        sql.p50.toFixed(1),
        sql.p95.toFixed(1),
        ratio.toFixed(2),
        `${bareRoute.p95.toFixed(1)} (${(bareRoute.p95 / sql.p95).toFixed(2)}x)`,
        met === null ? 'info' : met ? 'yes' : 'NO',
      ]);
      results.push({
        goal: GOAL,
        measure: `${c.path}, ${c.scenario}: HTTP p95 (baseline: the same SQL run directly, p95; ratio ${ratio.toFixed(2)}x)`,
        ours: round1(http.p95),
        baseline: round1(sql.p95),
        unit: 'ms',
        target: c.filtered ? `< ${P95_TARGET_MS} ms, ≤ ${RATIO_TARGET}x` : 'informational (no filters)',
        met,
      });
    }
    for (const [path, kind] of [
      ['dashboard/CeftCount', 'ceft'],
      ['dashboard/BillCount', 'bill'],
      ['dashboard/E-ChannellingCount', 'echannelling'],
      ['dashboard/ThayagaCount', 'thyaga'],
    ] as const) {
      const q = countsSql(kind);
      const [http, sql] = await timeInTurn([() => post(path, {}, token), () => direct([q])], RUNS);
      const met = http.p95 < P95_TARGET_MS;
      out.push([path, 'all time, by status', '-', '-', http.p50.toFixed(1), http.p95.toFixed(1), sql.p50.toFixed(1), sql.p95.toFixed(1), (http.p95 / sql.p95).toFixed(2), '-', met ? 'yes' : 'NO']);
      results.push({
        goal: GOAL,
        measure: `${path}, all time by status: p95 (baseline: its statement run directly)`,
        ours: round1(http.p95),
        baseline: round1(sql.p95),
        unit: 'ms',
        target: `< ${P95_TARGET_MS} ms`,
        met,
      });
    }

    const totals = await db.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
            + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS n`,
    );
    console.log(
      `\n${Number(totals?.n).toLocaleString('en-US')} transactions in PostgreSQL (schema ${BENCH_SCHEMA}); ${FILTERED_RUNS} timed runs of each side for the goal's (filtered) cases, ${RUNS} for the others, alternating, after ${WARMUP} warm-up runs; milliseconds.`,
    );
    console.log(
      `HTTP (${CLIENT}): request sent to the whole (decompressed) body in hand; SQL: the same statements (session lookup, then the call's one statement) on the same pool; ratio = HTTP p95 / SQL p95.`,
    );
    console.log("bare route: a Fastify route on the same pool running the same statements, no token, validation, hooks or compression (the stack's own cost), with its ratio to SQL.");
    console.log("met: the goal's case (1 day with country, status and text filters) p95 < 50 ms and ratio <= 1.3; info: measured, no target.\n");
    printTable(out);

    // fetch count All over a wide range: ~100,000 send-money rows
    const wideDays = await daysForRows(db, 100_000);
    const big: Case = {
      path: 'Transaction/get-ceftTransaction',
      kind: 'ceft',
      row: ceftRow,
      body: { from_date: `${wideDays}T00:00:01`, to_date: `${day}T23:59:00`, country_code: '', data: '', status: '', fetchCount: 99_999_999 },
      firstPage: true,
      scenario: `${wideDays} to today, fetch All`,
      filtered: false,
    };
    const bigRuns = Math.max(3, Math.min(RUNS, 5));
    const reply = await post(big.path, big.body, token);
    let rows = 0;
    const parse = await timeIt(
      async () => {
        rows = (JSON.parse(reply.text) as { data: { filteredList: unknown[] } }).data.filteredList.length;
      },
      bigRuns,
      1,
    );
    const bigSql = await timeIt(() => direct(statementsOf(big, rows)), bigRuns, 1);
    // a streamed list: the reply's head (totals, first page, countries) arrives before the rows
    const untilRows = await timeIt(() => timeToRows(`${url}/api/${big.path}`, big.body, token), bigRuns, 1);
    const bigHttp = await timeIt(() => post(big.path, big.body, token), bigRuns, 1);
    const mb = reply.text.length / 1e6;
    const compressed = await compressedSize(address.port, `/api/${big.path}`, big.body, token);
    console.log(
      `\nFetch count All, send money ${big.scenario}: ${rows.toLocaleString('en-US')} rows, ${mb.toFixed(1)} MB of JSON, ${(compressed.bytes / 1e6).toFixed(1)} MB as ${compressed.encoding} on the wire.`,
    );
    printTable([
      ['step', 'what', 'p50 ms', 'p95 ms'],
      [
        'statements',
        'the one for up to 5,000 rows (more: nothing sent), the head (totals, first page) and the rows as JSON text built by PostgreSQL, run whole',
        bigSql.p50.toFixed(0),
        bigSql.p95.toFixed(0),
      ],
      ['HTTP head', 'the same call, until the first page and totals are in hand (the rows still streaming)', untilRows.p50.toFixed(0), untilRows.p95.toFixed(0)],
      ['HTTP', `the same call, ${compressed.encoding}, until the whole body is in hand`, bigHttp.p50.toFixed(0), bigHttp.p95.toFixed(0)],
      ['JSON.parse', 'the client parsing the reply', parse.p50.toFixed(0), parse.p95.toFixed(0)],
    ]);
    // the issue's baseline: JSON.stringify of 100,000 x 30 fields about 0.6 s plus gzip about 1 s, before any query
    const BIG_BASELINE_MS = 1600;
    results.push({
      goal: GOAL,
      measure: `fetch count All, ${rows.toLocaleString('en-US')} send-money rows (${mb.toFixed(0)} MB JSON, ${compressed.encoding}): HTTP p95 (baseline: stringify 0.6 s + gzip 1 s of the issue)`,
      ours: Math.round(bigHttp.p95),
      baseline: BIG_BASELINE_MS,
      unit: 'ms',
      target: 'informational',
      met: null,
    });
    results.push({
      goal: GOAL,
      measure: `fetch count All, ${rows.toLocaleString('en-US')} rows: the statements alone (JSON built in PostgreSQL), p95`,
      ours: Math.round(bigSql.p95),
      baseline: null,
      unit: 'ms',
      target: 'informational',
      met: null,
    });
    results.push({
      goal: GOAL,
      measure: `fetch count All, ${rows.toLocaleString('en-US')} rows: HTTP until the first page and totals are in hand, p95`,
      ours: Math.round(untilRows.p95),
      baseline: null,
      unit: 'ms',
      target: 'informational',
      met: null,
    });

    const failed = results.filter((r) => r.met === false);
    console.log(failed.length === 0 ? '\nEvery goal-4 measure met.' : `\n${failed.length} goal-4 measure(s) NOT met:\n${failed.map((r) => `  ${r.measure}: ${r.ours} ${r.unit}`).join('\n')}`);
    if (JSON_FILE) await writeFile(JSON_FILE, `${JSON.stringify(results, null, 2)}\n`);
    agent.destroy();
    for (const client of clients) client.close();
    // a kept-alive or aborted socket can hold a server's close open: give the close a few seconds, then
    // exit anyway (the results are written; `npm run bench` waits for this process to end)
    await Promise.race([Promise.all([bare.close(), app.close()]), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  } finally {
    await Promise.race([db.close(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const WARMUP = 20;

/** Times the functions in turn, one call each per round, `runs` rounds (after WARMUP): p50 and p95 of each. */
async function timeInTurn(fns: readonly (() => Promise<unknown>)[], runs: number): Promise<{ p50: number; p95: number }[]> {
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < WARMUP + runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = process.hrtime.bigint();
      await fn();
      if (i >= WARMUP) times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  return times.map((ms) => {
    ms.sort((x, y) => x - y);
    return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
  });
}

/** POST with node:http on a kept-alive connection (--node-http); the body decompressed in one call. */
function postWithHttp(agent: Agent, url: string, body: unknown, token?: string): Promise<{ text: string; encoding: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'accept-encoding': 'gzip, deflate, br',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const encoding = String(res.headers['content-encoding'] ?? 'identity');
          const raw = Buffer.concat(chunks);
          const text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw).toString();
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode} ${text.slice(0, 200)}`));
          else resolve({ text, encoding });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** POST with the bench's client (benchHttpClient.ts). */
async function postWithClient(client: BenchHttpClient, path: string, body: unknown, token?: string): Promise<{ text: string; encoding: string }> {
  const reply = await client.post(path, JSON.stringify(body), token ? { authorization: `Bearer ${token}` } : {});
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text.slice(0, 200)}`);
  return reply;
}

/** POST with Node's fetch (--fetch), for comparison. */
async function postWithFetch(url: string, body: unknown, token?: string): Promise<{ text: string; encoding: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return { text, encoding: res.headers.get('content-encoding') ?? 'identity' };
}

/** The first day of the shortest range ending today that holds at least `rows` send-money transactions. */
async function daysForRows(db: Awaited<ReturnType<typeof openBenchDb>>, rows: number): Promise<string> {
  const r = await db.one<{ t: Date | null }>(`SELECT initiated_time AS t FROM ceft_transactions ORDER BY initiated_time DESC OFFSET $1 LIMIT 1`, [rows - 1]);
  return businessDay(r?.t ?? subDays(new Date(), 365), readBusinessTimeZone());
}

/** The reply's size on the wire and its encoding, as a browser asks for it. */
async function compressedSize(port: number, path: string, body: unknown, token: string): Promise<{ bytes: number; encoding: string }> {
  const client = new BenchHttpClient('127.0.0.1', port);
  try {
    const reply = await client.post(path, JSON.stringify(body), { authorization: `Bearer ${token}` });
    return { bytes: reply.wireBytes, encoding: reply.encoding };
  } finally {
    client.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

/** Reads a list reply until its rows begin (`"filteredList":[`), then drops the connection. */
async function timeToRows(url: string, body: unknown, token: string): Promise<void> {
  const controller = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'br', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes('"filteredList":[')) break;
  }
  controller.abort();
  if (!text.includes('"filteredList":[')) throw new Error('the reply has no filteredList');
}
