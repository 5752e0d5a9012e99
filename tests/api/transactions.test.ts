/**
 * The transaction lists and count cards through real HTTP, as different users: filters (range,
 * country, status, text, fetchCount), totals, reply shapes, permissions and bad inputs.
 * The expected values are computed from the database with plain SQL written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { startServer, type ApiReply, type TestServer } from './harness';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { ceftAuditScreen, ceftScreen, billScreen, insuranceScreen, eChannellingAuditScreen, thyagaScreen } from '../../screens/transactions';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import { transactionCalls, ceftRow, billRow, eChannellingRow, thyagaRow, insuranceRow, ceftAuditRow } from '../../src/api/transactions';
import { keysOf, listReplySql, resolveFilters } from '../../src/server/areas/transactions/query';
import { transactionKindSpecs } from '../../src/server/areas/transactions/kinds';
import { STREAM_ABOVE_ROWS } from '../../src/server/areas/transactions/handlers';
import { readCompactListStream } from '../../src/console/compactRows';
import { LIST_ROWS_ARRAYS, LIST_ROWS_HEADER, LIST_ROWS_LINES } from '../../src/api/listRows';

let server: TestServer;
let admin: string;
let maker: string;
let checker: string;
let auditor: string;

beforeAll(async () => {
  server = await startServer();
  [admin, maker, checker, auditor] = await Promise.all(['admin', 'maker', 'checker', 'auditor'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

const ALL = 99_999_999;
const local = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm:ss");
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
/** The console's default range for a day: From 00:00:01, To 23:59:00 (seconds as sent). */
const dayRange = (offset = 0) => ({ from_date: `${day(offset)}T00:00:01`, to_date: `${day(offset)}T23:59:00` });
const lastDays = (n: number) => ({ from_date: `${day(-n)}T00:00:01`, to_date: `${day(0)}T23:59:00` });
const body = (extra: Record<string, unknown> = {}) => ({ ...lastDays(30), country_code: '', data: '', status: '', fetchCount: ALL, ...extra });

const num = (v: unknown) => Number(v);
const round2 = (n: number) => Math.round(n * 100) / 100;

async function list(path: string, b: Record<string, unknown>, token = admin): Promise<ApiReply> {
  const reply = await server.call(path, b, token);
  expect(reply.statusCode, JSON.stringify(reply.data).slice(0, 300)).toBe(200);
  return reply;
}

/** The ids of the rows the database holds for a filter, in initiated order. */
async function idsWhere(table: string, where: string, params: unknown[]): Promise<number[]> {
  const rows = await server.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE ${where} ORDER BY initiated_time, id`, params);
  return rows.map((r) => r.id);
}

const rangeParams = (r: { from_date: string; to_date: string }) => {
  const from = new Date(r.from_date.slice(0, 16) + ':00');
  const to = new Date(new Date(r.to_date.slice(0, 16) + ':00').getTime() + 60_000);
  return [from, to];
};

describe('the default filter (today)', () => {
  it('shows today’s send-money transactions, with totals at the top level', async () => {
    const reply = await list('Transaction/get-ceftTransaction', { ...dayRange(), country_code: '', data: '', status: '', fetchCount: ALL });
    const expected = await idsWhere('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2', rangeParams(dayRange()));
    expect(expected.length).toBeGreaterThan(0);
    expect(reply.data.filteredList.map((r: { id: number }) => r.id)).toEqual(expected);
    expect(typeof reply.totalAmount).toBe('number');
    expect(typeof reply.filteredTotalAmount).toBe('number');
    expect(Object.keys(reply.data).sort()).toEqual(['countries', 'fields', 'filteredList', 'transactions']);
  });

  it('answers every list of both families for today', async () => {
    const withStatus = { ...dayRange(), country_code: '', data: '', status: '', fetchCount: 10 };
    const { status: _s, ...counted } = withStatus;
    const { fetchCount: _f, ...uncounted } = counted;
    for (const [path, b] of [
      ['dashboard/CeftList', withStatus],
      ['dashboard/CeftRefundedList', withStatus],
      ['dashboard/BillList', withStatus],
      ['dashboard/E-ChannellingList', uncounted],
      ['dashboard/ThayagaList', counted],
      ['Transaction/get-ceftTransaction', withStatus],
      ['Transaction/billTransactions', counted],
      ['Transaction/thyagaTransactions', counted],
      ['Transaction/echannellingTransactions', counted],
      ['Transaction/insuranceTransactions', counted],
    ] as const) {
      const reply = await list(path, b, path.startsWith('dashboard/') ? auditor : maker);
      expect(Array.isArray(reply.data.filteredList), path).toBe(true);
      expect(reply.data.countries.length, path).toBeGreaterThan(10);
    }
  });
});

describe('filters', () => {
  it('returns exactly the rows of the date range, compared to the minute', async () => {
    const from = new Date();
    from.setDate(from.getDate() - 5);
    from.setHours(9, 30, 0, 0);
    const to = new Date(from.getTime() + 3 * 86_400_000 + 2 * 3600_000);
    const range = { from_date: local(new Date(from.getTime() + 1000)), to_date: local(to) };
    const reply = await list('Transaction/get-ceftTransaction', body(range));
    const expected = await idsWhere('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2', [from, new Date(to.getTime() + 60_000)]);
    expect(expected.length).toBeGreaterThan(10);
    expect(reply.data.filteredList.map((r: { id: number }) => r.id)).toEqual(expected);
    for (const r of reply.data.filteredList) {
      const t = Date.parse(r.initiated_time);
      expect(t).toBeGreaterThanOrEqual(from.getTime());
      expect(t).toBeLessThan(to.getTime() + 60_000);
    }
  });

  it('filters by country', async () => {
    const reply = await list('Transaction/billTransactions', { ...lastDays(60), country_code: 'SA', data: '', fetchCount: ALL });
    const expected = await idsWhere('bill_transactions', 'initiated_time >= $1 AND initiated_time < $2 AND country = $3', [...rangeParams(lastDays(60)), 'SA']);
    expect(expected.length).toBeGreaterThan(0);
    expect(reply.data.filteredList.map((r: { id: number }) => r.id)).toEqual(expected);
    expect(new Set(reply.data.filteredList.map((r: { country: string }) => r.country))).toEqual(new Set(['SA']));
  });

  it('filters send money by status', async () => {
    for (const status of ['SUCCESS', 'PENDING', 'FAILED'] as const) {
      const reply = await list('Transaction/get-ceftTransaction', body({ ...lastDays(120), status }));
      const expected = await idsWhere('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2 AND status = $3', [...rangeParams(lastDays(120)), status]);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(
        reply.data.filteredList.map((r: { id: number }) => r.id),
        status,
      ).toEqual(expected);
    }
  });

  it('searches by a prefix of the NIC/passport, the trace or the account number, case-insensitively', async () => {
    const sample = await server.db.one<{ id: number; trace: string; uid: string; account_number: string }>(
      `SELECT id, trace, uid, account_number FROM ceft_transactions WHERE initiated_time > now() - interval '30 days' ORDER BY id LIMIT 1`,
    );
    expect(sample).toBeDefined();
    const byTrace = await list('dashboard/CeftList', body({ data: sample!.trace }), auditor);
    expect(byTrace.data.filteredList.map((r: { id: number }) => r.id)).toEqual([sample!.id]);

    const byAccount = await list('Transaction/get-ceftTransaction', body({ data: sample!.account_number }));
    expect(byAccount.data.filteredList.map((r: { id: number }) => r.id)).toContain(sample!.id);
    for (const r of byAccount.data.filteredList) expect([r.uid, r.trace, r.account_number].some((v: string) => v.startsWith(sample!.account_number))).toBe(true);

    const prefix = sample!.uid.slice(0, 6).toLowerCase();
    const byUid = await list('Transaction/get-ceftTransaction', body({ data: prefix }));
    const expected = await idsWhere('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2 AND (uid LIKE $3 OR trace LIKE $3 OR account_number LIKE $3)', [
      ...rangeParams(lastDays(30)),
      `${prefix.toUpperCase()}%`,
    ]);
    expect(byUid.data.filteredList.map((r: { id: number }) => r.id)).toEqual(expected);
  });

  it('treats % and _ in the search text as text, not wildcards', async () => {
    const reply = await list('Transaction/get-ceftTransaction', body({ data: '%' }));
    expect(reply.data.filteredList).toEqual([]);
    const underscore = await list('Transaction/thyagaTransactions', { ...lastDays(30), country_code: '', data: '_', fetchCount: ALL });
    expect(underscore.data.filteredList).toEqual([]);
  });

  it('searches E-Channelling and Thyaga by NIC/passport or trace, insurance by user UID', async () => {
    for (const [path, table, key] of [
      ['Transaction/echannellingTransactions', 'echannelling_transactions', 'trace'],
      ['Transaction/thyagaTransactions', 'thyaga_transactions', 'uid'],
      ['Transaction/insuranceTransactions', 'insurance_transactions', 'uid'],
    ] as const) {
      const sample = await server.db.one<Record<string, string>>(`SELECT id, ${key} FROM ${table} WHERE initiated_time > now() - interval '60 days' ORDER BY id LIMIT 1`);
      const reply = await list(path, { ...lastDays(60), country_code: '', data: sample![key], fetchCount: ALL });
      expect(reply.data.filteredList.length, path).toBeGreaterThan(0);
      expect(
        reply.data.filteredList.map((r: { id: number }) => r.id),
        path,
      ).toContain(sample!.id);
      for (const r of reply.data.filteredList) expect(r[key].startsWith(sample![key]), path).toBe(true);
    }
  });

  it('limits the rows with fetchCount, keeping the earliest, All included', async () => {
    const all = await idsWhere('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2', rangeParams(lastDays(30)));
    expect(all.length).toBeGreaterThan(100);
    for (const fetchCount of [10, 25, 50, 100]) {
      const reply = await list('Transaction/get-ceftTransaction', body({ fetchCount }));
      expect(reply.data.filteredList.map((r: { id: number }) => r.id)).toEqual(all.slice(0, fetchCount));
      // the first page: up to 50 rows by id
      expect(reply.data.transactions.map((r: { id: number }) => r.id)).toEqual(
        all
          .slice(0, fetchCount)
          .sort((a, b) => a - b)
          .slice(0, 50),
      );
    }
    const everything = await list('Transaction/get-ceftTransaction', body({ fetchCount: ALL }));
    expect(everything.data.filteredList).toHaveLength(all.length);
  });

  it('returns every row of the range on the auditor E-Channelling call (no fetch count)', async () => {
    const { fetchCount: _f, status: _s, ...b } = body({ ...lastDays(20) });
    const reply = await list('dashboard/E-ChannellingList', b, auditor);
    const expected = await idsWhere('echannelling_transactions', 'initiated_time >= $1 AND initiated_time < $2', rangeParams(lastDays(20)));
    expect(reply.data.filteredList.map((r: { id: number }) => r.id)).toEqual(expected);
  });
});

describe('totals', () => {
  async function successTotal(table: string, where: string, params: unknown[], column = 'amount_usd', status = 'SUCCESS') {
    const row = await server.db.one<{ total: number }>(`SELECT coalesce(sum(${column}), 0) AS total FROM ${table} WHERE ${where} AND status = '${status}'`, params);
    return round2(num(row!.total));
  }

  it('totals the successful transactions in USD: all of the filter, and those in the capped list', async () => {
    for (const range of [lastDays(30), { from_date: `${day(-9)}T10:15:01`, to_date: `${day(-2)}T16:45:00` }]) {
      const reply = await list('Transaction/get-ceftTransaction', body({ ...range, country_code: 'AE', fetchCount: 25 }));
      const [from, to] = rangeParams(range);
      expect(reply.totalAmount).toBeCloseTo(await successTotal('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2 AND country = $3', [from, to, 'AE']), 2);
      const ids = reply.data.filteredList.map((r: { id: number }) => r.id);
      expect(ids).toHaveLength(25);
      expect(reply.filteredTotalAmount).toBeCloseTo(await successTotal('ceft_transactions', "id = ANY (string_to_array($1, ',')::int[])", [ids.join(',')]), 2);
      expect(reply.filteredTotalAmount as number).toBeLessThanOrEqual(reply.totalAmount as number);
    }
  });

  it('gives the same total from the daily roll-up (whole days) as from the rows', async () => {
    const wholeDays = await list('Transaction/billTransactions', { ...lastDays(45), country_code: '', data: '', fetchCount: 10 });
    expect(wholeDays.totalAmount).toBeCloseTo(await successTotal('bill_transactions', 'initiated_time >= $1 AND initiated_time < $2', rangeParams(lastDays(45))), 2);
    // and for another kind, with a country
    const thyaga = await list('Transaction/thyagaTransactions', { ...lastDays(45), country_code: 'AE', data: '', fetchCount: 10 });
    expect(thyaga.totalAmount).toBeCloseTo(await successTotal('thyaga_transactions', 'initiated_time >= $1 AND initiated_time < $2 AND country = $3', [...rangeParams(lastDays(45)), 'AE']), 2);
    expect(thyaga.totalAmount).toBeGreaterThan(0);
  });

  it('puts the refunded tab’s totals inside data, in LKR, over refunded rows only', async () => {
    const b = body({ ...lastDays(365), fetchCount: 10 });
    const reply = await list('dashboard/CeftRefundedList', b, auditor);
    expect(reply.totalAmount).toBeUndefined();
    expect(reply.data.filteredList.length).toBeGreaterThan(0);
    for (const r of reply.data.filteredList) {
      expect(r.status).toBe('REFUNDED');
      expect([r.ipg_void_status, r.ipg_refund_status]).toContain('SUCCESS');
    }
    const [from, to] = rangeParams(lastDays(365));
    expect(reply.data.totalAmount).toBeCloseTo(await successTotal('ceft_transactions', 'initiated_time >= $1 AND initiated_time < $2', [from, to], 'amount_lkr', 'REFUNDED'), 2);
    const ids = reply.data.filteredList.map((r: { id: number }) => r.id);
    expect(reply.data.filteredTotalAmount).toBeCloseTo(await successTotal('ceft_transactions', "id = ANY (string_to_array($1, ',')::int[])", [ids.join(',')], 'amount_lkr', 'REFUNDED'), 2);
  });

  it('puts the insurance totals inside data, with the dependants of each row', async () => {
    const reply = await list('Transaction/insuranceTransactions', { ...lastDays(365), country_code: '', data: '', fetchCount: ALL });
    expect(Object.keys(reply.data).sort()).toEqual(['countries', 'fields', 'filteredList', 'filteredTotalAmount', 'totalAmount']);
    expect(reply.data.filteredTotalAmount).toBeCloseTo(reply.data.totalAmount, 2);
    const withDependants = reply.data.filteredList.find((r: { dependants: unknown[] }) => r.dependants.length > 0);
    expect(withDependants).toBeDefined();
    const stored = await server.db.query('SELECT id, title, name, nic_number, relation_type, mobile_number, email FROM insurance_dependants WHERE insurance_transaction_id = $1 ORDER BY id', [
      withDependants.id,
    ]);
    expect(withDependants.dependants).toEqual(stored);
  });
});

describe('reply shapes', () => {
  it('returns the export fields of the screen and the countries with codes and names', async () => {
    const cases = [
      ['Transaction/get-ceftTransaction', ceftScreen, body(), maker],
      ['dashboard/CeftList', ceftAuditScreen, body(), auditor],
      ['Transaction/billTransactions', billScreen, { ...lastDays(3), country_code: '', data: '', fetchCount: 10 }, maker],
      ['Transaction/thyagaTransactions', thyagaScreen, { ...lastDays(3), country_code: '', data: '', fetchCount: 10 }, maker],
      ['dashboard/E-ChannellingList', eChannellingAuditScreen, { ...lastDays(3), country_code: '', data: '' }, auditor],
      ['Transaction/insuranceTransactions', insuranceScreen, { ...lastDays(3), country_code: '', data: '', fetchCount: 10 }, maker],
    ] as const;
    for (const [path, screen, b, token] of cases) {
      const reply = await list(path, b, token);
      expect(reply.data.fields, path).toEqual(exportFieldsOf(screen));
      expect(reply.data.countries).toContainEqual({ code: 'AE', name: 'United Arab Emirates' });
    }
  });

  it('sends only the columns of the screen: bank name on the operational screen, bank code for the auditor', async () => {
    const ops = await list('Transaction/get-ceftTransaction', body({ fetchCount: 1 }), maker);
    const audit = await list('dashboard/CeftList', body({ fetchCount: 1 }), auditor);
    expect(ops.data.filteredList[0].bank_name).toMatch(/Bank|Finance|Corporation/);
    expect(ops.data.filteredList[0].bank_code).toBeUndefined();
    expect(audit.data.filteredList[0].bank_code).toMatch(/^\d{4}$/);
    expect(audit.data.filteredList[0].bank_name).toBeUndefined();
    for (const key of ['amount_usd', 'amount_lkr', 'app_user_id', 'action_seq', '__status', '__amount']) expect(ops.data.filteredList[0][key], key).toBeUndefined();
  });

  it('sends times as ISO text, placeholders before year 1000 included', async () => {
    const placeholder = await server.db.one<{ id: number; initiated_time: Date }>(`SELECT id, initiated_time FROM thyaga_transactions WHERE thyaga_payment_time < '1000-01-01' ORDER BY id LIMIT 1`);
    if (!placeholder) return; // no scheduled gift in this data set
    const t = placeholder.initiated_time;
    const reply = await list('Transaction/thyagaTransactions', {
      from_date: local(new Date(t.getTime() - 60_000)),
      to_date: local(new Date(t.getTime() + 60_000)),
      country_code: '',
      data: '',
      fetchCount: ALL,
    });
    const row = reply.data.filteredList.find((r: { id: number }) => r.id === placeholder.id);
    expect(row.thyaga_payment_time).toBe('0001-01-01T00:00:00.000Z');
    expect(row.initiated_time).toBe(t.toISOString());
  });
});

/** Parses with the contract, then checks nothing was dropped or changed: the exact fields, the exact types. */
function expectExactly(schema: z.ZodType, value: unknown, what: string) {
  const parsed = schema.safeParse(value);
  expect(parsed.success, `${what}: ${parsed.success ? '' : parsed.error.message}`).toBe(true);
  expect(parsed.data, what).toEqual(value);
}

describe('the wire contract of the list replies (built as JSON text by the database)', () => {
  it('every list call replies exactly its contract (data and top-level totals), on a range with rows', async () => {
    const lists = transactionCalls.filter((c) => /List|Transaction\//.test(c.path) && !c.path.includes('/ceft/'));
    expect(lists.length).toBe(10);
    for (const contract of lists) {
      // the body each call takes: status and fetchCount where the call has them
      const b: Record<string, unknown> = { ...lastDays(3), country_code: '', data: '', status: '', fetchCount: ALL };
      if (!contract.request.safeParse(b).success) delete b.status;
      if (!contract.request.safeParse(b).success) delete b.fetchCount;
      expect(contract.request.safeParse(b).success, contract.path).toBe(true);
      const reply = await list(contract.path, b, admin);
      expectExactly(contract.data, reply.data, contract.path);
      if (contract.top) {
        const { statusCode: _s, data: _d, ...top } = reply;
        expectExactly(contract.top, top, `${contract.path} top`);
      } else {
        expect(Object.keys(reply).sort(), contract.path).toEqual(['data', 'statusCode']);
      }
      expect(reply.data.filteredList.length, contract.path).toBeGreaterThan(0);
    }
  });

  it('selects exactly the row schema’s columns, nothing else (no SELECT *)', () => {
    const filters = resolveFilters({ ...lastDays(1), country_code: 'AE', data: '19', status: 'SUCCESS', fetchCount: 10 }, 'Asia/Colombo');
    for (const [kind, row] of [
      ['ceft', ceftRow],
      ['ceft', ceftAuditRow],
      ['bill', billRow],
      ['echannelling', eChannellingRow],
      ['thyaga', thyagaRow],
      ['insurance', insuranceRow],
    ] as const) {
      const q = listReplySql(transactionKindSpecs[kind], filters, { keys: keysOf(row), amountColumn: 'amount_usd', totalStatus: 'SUCCESS', firstPage: 50 });
      expect(q.sql, kind).not.toMatch(/\*\s*FROM|\bt\.\*|row_to_json\(t\)/);
      const built = q.sql.match(/row_to_json\(x\)::text FROM \(SELECT (.*?)\) x\) AS j/s)![1];
      // the columns of the row (the insurance dependants' own JSON, built from d.*, aside)
      const keys = [...built.matchAll(/ AS ([a-z_]+)(?=, |$)/g)].map((m) => m[1]);
      expect(keys, kind).toEqual(keysOf(row));
    }
  });
});

describe('compression', () => {
  /** The raw reply bytes of a POST with a given Accept-Encoding (no decoding by the client). */
  function rawPost(path: string, b: unknown, token: string, acceptEncoding?: string): Promise<{ encoding: string | undefined; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
      const req = httpRequest(`${server.url}/api/${path}`, { method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify(b));
    });
  }

  it('compresses a large list reply as the client accepts (br, gzip), and not at all when it accepts none', async () => {
    const b = body();
    const plain = await rawPost('Transaction/get-ceftTransaction', b, maker);
    expect(plain.encoding).toBeUndefined();
    const expected = JSON.parse(plain.body.toString('utf8'));
    expect(expected.data.filteredList.length).toBeGreaterThan(100);
    expect(plain.body.length).toBeGreaterThan(100_000);

    const gzip = await rawPost('Transaction/get-ceftTransaction', b, maker, 'gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(expected);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4);

    const br = await rawPost('Transaction/get-ceftTransaction', b, maker, 'br');
    expect(br.encoding).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(expected);

    const browser = await rawPost('Transaction/get-ceftTransaction', b, maker, 'gzip, deflate, br, zstd');
    expect(['br', 'gzip']).toContain(browser.encoding);

    const identity = await rawPost('Transaction/get-ceftTransaction', b, maker, 'identity');
    expect(identity.encoding).toBeUndefined();
    expect(JSON.parse(identity.body.toString('utf8'))).toEqual(expected);
  });
});

describe('count cards', () => {
  it('count every transaction of a kind by status, equal to the rows', async () => {
    for (const [path, table] of [
      ['dashboard/CeftCount', 'ceft_transactions'],
      ['dashboard/BillCount', 'bill_transactions'],
      ['dashboard/E-ChannellingCount', 'echannelling_transactions'],
      ['dashboard/ThayagaCount', 'thyaga_transactions'],
    ] as const) {
      const reply = await server.call(path, {}, auditor);
      expect(reply.statusCode).toBe(200);
      const rows = await server.db.query<{ status: string; n: number }>(`SELECT status, count(*) AS n FROM ${table} GROUP BY status`);
      const n = (s: string) => num(rows.find((r) => r.status === s)?.n ?? 0);
      expect(reply.data, path).toMatchObject({ completeTranCount: n('SUCCESS'), pendingTranCount: n('PENDING'), failedTranCount: n('FAILED'), refundTranCount: n('REFUNDED') });
      expect(reply.data.completeTranCount).toBeGreaterThan(0);
      if (path === 'dashboard/CeftCount') expect(reply.data.holdTranCount).toBe(n('HOLD'));
      else expect(reply.data.holdTranCount).toBeUndefined();
    }
  });

  it('serve the operational screens too, to holders of the kind’s view permission', async () => {
    expect((await server.call('dashboard/CeftCount', {}, maker)).statusCode).toBe(200);
    expect((await server.call('dashboard/BillCount', {}, checker)).statusCode).toBe(200);
    expect((await server.call('dashboard/CeftCount', {}, await server.login('kasun_herath'))).statusCode).toBe(200); // IPG bank officer: send-money-report-view
    expect((await server.call('dashboard/BillCount', {}, await server.login('kasun_herath'))).statusCode).toBe(403);
  });
});

describe('permissions', () => {
  it('keeps the auditor lists to auditor-report-view (and super-permission)', async () => {
    const { status: _s, ...noStatus } = body({ fetchCount: 10 });
    for (const [path, b] of [
      ['dashboard/CeftList', body({ fetchCount: 10 })],
      ['dashboard/CeftRefundedList', body({ fetchCount: 10 })],
      ['dashboard/BillList', body({ fetchCount: 10 })],
      ['dashboard/ThayagaList', noStatus],
    ] as const) {
      expect((await server.call(path, b, maker)).statusCode, path).toBe(403);
      expect((await server.call(path, b, admin)).statusCode, path).toBe(200);
    }
  });

  it('keeps the operational lists to their view permission', async () => {
    const counted = { ...lastDays(3), country_code: '', data: '', fetchCount: 10 };
    for (const [path, b] of [
      ['Transaction/get-ceftTransaction', { ...counted, status: '' }],
      ['Transaction/billTransactions', counted],
      ['Transaction/thyagaTransactions', counted],
      ['Transaction/echannellingTransactions', counted],
      ['Transaction/insuranceTransactions', counted],
    ] as const) {
      const reply = await server.call(path, b, auditor);
      expect(reply.statusCode, path).toBe(403);
      expect((await server.call(path, b, checker)).statusCode, path).toBe(200);
      expect((await server.call(path, b)).statusCode, path).toBe(401);
    }
  });
});

describe('bad inputs get 400 naming the field, never 500', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['To before From', { from_date: `${day(0)}T10:00:01`, to_date: `${day(0)}T09:59:00` }, /^to_date: To cannot be earlier than From$/],
    ['To before From by days', { from_date: `${day(0)}T00:00:01`, to_date: `${day(-3)}T23:59:00` }, /^to_date: /],
    ['unknown country', { country_code: 'XX' }, /^country_code: Unknown country 'XX'$/],
    ['lower-case country', { country_code: 'ae' }, /^country_code: /],
    ['negative fetch count', { fetchCount: -5 }, /^fetchCount: /],
    ['zero fetch count', { fetchCount: 0 }, /^fetchCount: /],
    ['fractional fetch count', { fetchCount: 2.5 }, /^fetchCount: /],
    ['fetch count above All', { fetchCount: ALL + 1 }, /^fetchCount: /],
    ['an impossible date', { from_date: '2026-02-30T00:00:01' }, /^from_date: /],
    ['a date without time', { to_date: '2026-02-03' }, /^to_date: /],
    ['a date with an offset', { from_date: '2026-02-03T00:00:01Z' }, /^from_date: /],
    ['an unknown status', { status: 'DONE' }, /^status: /],
    ['a search text over 30 characters', { data: 'x'.repeat(31) }, /^data: /],
  ];
  it.each(cases)('%s', async (_d, change, message) => {
    const reply = await server.call('Transaction/get-ceftTransaction', body(change), admin);
    expect(reply.statusCode).toBe(400);
    expect(reply.data.message).toMatch(message);
  });

  it('accepts To equal to From within the same minute (From has seconds 1, To seconds 0)', async () => {
    const reply = await server.call('Transaction/get-ceftTransaction', body({ from_date: `${day(0)}T00:00:01`, to_date: `${day(0)}T00:00:00` }), admin);
    expect(reply.statusCode).toBe(200);
  });

  it('needs the date range', async () => {
    const { from_date: _f, ...noFrom } = body();
    const reply = await server.call('dashboard/CeftList', noFrom, auditor);
    expect(reply.statusCode).toBe(400);
    expect(reply.data.message).toMatch(/^from_date: /);
  });
});

describe('large lists are streamed (more rows than the stream limit)', () => {
  // a small limit (LIST_STREAM_ABOVE_ROWS), so that the test data's lists stream
  const LIMIT = 50;
  async function streaming<T>(fn: () => Promise<T>): Promise<T> {
    process.env.LIST_STREAM_ABOVE_ROWS = String(LIMIT);
    try {
      return await fn();
    } finally {
      delete process.env.LIST_STREAM_ABOVE_ROWS;
    }
  }

  it('reply exactly what the one-statement reply of the same rows says, for every list call', async () => {
    const lists = transactionCalls.filter((c) => /List|Transaction\//.test(c.path) && !c.path.includes('/ceft/'));
    for (const contract of lists) {
      const b: Record<string, unknown> = { ...lastDays(120), country_code: '', data: '', status: '', fetchCount: ALL };
      if (!contract.request.safeParse(b).success) delete b.status;
      if (!contract.request.safeParse(b).success) delete b.fetchCount;
      const streamed = await streaming(() => list(contract.path, b, admin));
      expect(streamed.data.filteredList.length, contract.path).toBeGreaterThan(LIMIT);
      expect(streamed.data.filteredList.length, contract.path).toBeLessThanOrEqual(STREAM_ABOVE_ROWS);
      // fetch count All under the usual limit: one statement for up to that many rows
      expect(await list(contract.path, b, admin), contract.path).toEqual(streamed);
      // a cap of at most the usual limit: one statement
      if ('fetchCount' in b) expect(await list(contract.path, { ...b, fetchCount: STREAM_ABOVE_ROWS }, admin), contract.path).toEqual(streamed);
      expectExactly(contract.data, streamed.data, contract.path);
    }
  });

  it('keeps the first page, the totals and the countries ahead of the rows in the text', async () => {
    const text = await streaming(async () => {
      const res = await server.raw('/api/Transaction/get-ceftTransaction', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify(body()),
      });
      return res.text();
    });
    const rowsAt = text.indexOf('"filteredList":[');
    expect(rowsAt).toBeGreaterThan(0);
    for (const key of ['"totalAmount":', '"filteredTotalAmount":', '"transactions":[', '"countries":[', '"fields":[']) {
      expect(text.indexOf(key), key).toBeGreaterThanOrEqual(0);
      expect(text.indexOf(key), key).toBeLessThan(rowsAt);
    }
    expect(JSON.parse(text).data.filteredList.length).toBeGreaterThan(LIMIT);
  });

  it.each([
    ['documented', {}],
    // on PostgreSQL, the rows of a lines reply come from a COPY: dropped half-way, its connection is closed, not reused
    ['lines', { [LIST_ROWS_HEADER]: `${LIST_ROWS_LINES}, ${LIST_ROWS_ARRAYS}` }],
  ])('gives its database connection back whether the reply is read to the end or dropped half-way (%s rows)', async (form, headers) => {
    const post = (signal?: AbortSignal) =>
      fetch(`${server.url}/api/Transaction/get-ceftTransaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, ...headers },
        body: JSON.stringify({ ...body(), from_date: `${day(-400)}T00:00:01` }),
        signal,
      });
    // more streams than the pool has connections (10): dropped after the first bytes, and read whole
    await streaming(async () => {
      for (let i = 0; i < 12; i++) {
        const controller = new AbortController();
        const res = await post(controller.signal);
        const reader = res.body!.getReader();
        await reader.read();
        controller.abort();
        await reader.closed.catch(() => {});
      }
      for (let i = 0; i < 12; i++) {
        const res = await post();
        const lines = res.headers.get(LIST_ROWS_HEADER) === LIST_ROWS_LINES;
        // (the embedded database has no COPY to stream from: its lists answer with the compact arrays)
        expect(lines).toBe(form === 'lines' && server.backend === 'pg');
        const reply = (await (form === 'lines' ? readCompactListStream(res, undefined, lines) : res.json())) as ApiReply;
        expect(reply.statusCode).toBe(200);
        expect((reply.data as { filteredList: unknown[] }).filteredList.length).toBeGreaterThan(LIMIT);
      }
    });
    // the server still answers every other call, and no connection is left in a transaction
    const counts = await list('dashboard/CeftCount', {}, admin);
    expect(counts.data.completeTranCount).toBeGreaterThan(0);
    if (server.backend === 'pg') {
      await expect
        .poll(async () => (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`))[0].n, {
          timeout: 10_000,
        })
        .toBe(0);
    }
  });
});
