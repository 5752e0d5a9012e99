/**
 * Every call that takes a date-time range
 * (the ten transaction lists, operational and auditor, and the two activity reports) reads it as
 * wall-clock times of the business time zone, with the server process in another zone (UTC, business
 * Asia/Colombo, 5 h 30 ahead). Each call's rows for three whole business days are exactly the rows of
 * the table whose time falls in those days in Colombo; read in the process's zone they would be another
 * set (the rows of the 5 h 30 at either end).
 */
// the server process's own zone, set before anything reads the clock (Node rereads TZ when it is set)
process.env.TZ = 'UTC';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { businessDay, nextDay, startOfBusinessDay } from '../../src/domain/businessTime';

const COLOMBO = 'Asia/Colombo';

let server: TestServer;
let token: string;
/** Three whole business days ending yesterday (Colombo), as the console's filter bar sends them, and their instants. */
let range: { from: string; to: string; start: Date; end: Date };

beforeAll(async () => {
  server = await startServer({ businessTimeZone: COLOMBO });
  token = await server.login('admin');
  const today = businessDay(new Date(), COLOMBO);
  const first = nextDay(today, -3);
  range = { from: `${first}T00:00:00`, to: `${nextDay(today, -1)}T23:59:59`, start: startOfBusinessDay(first, COLOMBO), end: startOfBusinessDay(today, COLOMBO) };
  // one row of each table in the first 5 h 30 of the range (in Colombo's first day, still the day
  // before in UTC), whatever the time of day the seed put its rows at: the two readings always differ
  const early = new Date(range.start.getTime() + 30 * 60_000);
  for (const table of ['ceft_transactions', 'bill_transactions', 'thyaga_transactions', 'echannelling_transactions', 'insurance_transactions']) {
    await server.db.query(`UPDATE ${table} SET initiated_time = $1 WHERE id = (SELECT min(id) FROM ${table} WHERE initiated_time >= $2 AND initiated_time < $3)`, [early, range.start, range.end]);
  }
});
afterAll(async () => {
  await server?.close();
});

const withStatus = { country_code: '', data: '', status: '', fetchCount: 99999999 };
const plain = { country_code: '', data: '', fetchCount: 99999999 };
const noFetchCount = { country_code: '', data: '' };

/** Every list call with a from_date/to_date range: its body (less the range), its table, and the rows it lists. */
const lists = [
  { path: 'Transaction/get-ceftTransaction', body: withStatus, table: 'ceft_transactions' },
  { path: 'Transaction/billTransactions', body: plain, table: 'bill_transactions' },
  { path: 'Transaction/thyagaTransactions', body: plain, table: 'thyaga_transactions' },
  { path: 'Transaction/echannellingTransactions', body: plain, table: 'echannelling_transactions' },
  { path: 'Transaction/insuranceTransactions', body: plain, table: 'insurance_transactions' },
  { path: 'dashboard/CeftList', body: withStatus, table: 'ceft_transactions' },
  { path: 'dashboard/CeftRefundedList', body: withStatus, table: 'ceft_transactions', where: "status = 'REFUNDED'" },
  { path: 'dashboard/BillList', body: withStatus, table: 'bill_transactions' },
  { path: 'dashboard/E-ChannellingList', body: noFetchCount, table: 'echannelling_transactions' },
  { path: 'dashboard/ThayagaList', body: plain, table: 'thyaga_transactions' },
] as const;

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** The ids of a table's rows whose `column` falls in [start, end). */
async function idsBetween(table: string, column: string, start: Date, end: Date, where = 'true'): Promise<number[]> {
  const rows = await server.db.query<{ id: number }>(`SELECT id FROM ${table} WHERE ${column} >= $1 AND ${column} < $2 AND ${where}`, [start, end]);
  return sorted(rows.map((r) => Number(r.id)));
}

describe('from_date and to_date on every call are wall-clock times of the business zone (process in UTC, business in Asia/Colombo)', () => {
  it.each(lists.map((l) => [l.path, l] as const))('%s lists exactly the rows of those business days', async (_path, list) => {
    const reply = await server.call(list.path, { ...list.body, from_date: range.from, to_date: range.to }, token);
    expect(reply.statusCode, JSON.stringify(reply.data).slice(0, 300)).toBe(200);
    const got = sorted((reply.data.filteredList as { id: number }[]).map((r) => r.id));
    const want = await idsBetween(list.table, 'initiated_time', range.start, range.end, 'where' in list ? list.where : undefined);
    expect(got).toEqual(want);
    // the same days read in the process's zone (UTC) would be another set of rows: the test can tell them apart
    const utcStart = new Date(`${range.from}Z`);
    const utcEnd = new Date(Date.parse(`${range.to}Z`) + 1000);
    if (!('where' in list)) {
      expect(want.length, `${list.table} has rows in the range`).toBeGreaterThan(0);
      expect(await idsBetween(list.table, 'initiated_time', utcStart, utcEnd)).not.toEqual(want);
    }
  });

  it.each([
    ['report/get-activity-report', { fetchCount: 99999999, username: '' }, 'activity_logs', 'logs'],
    ['Report/get-mobile-activity-report', { fetchCount: 99999999, searchParameter: '' }, 'mobile_activity_logs', 'filteredList'],
  ] as const)('%s lists exactly the events of those business days', async (path, body, table, key) => {
    // the reports' range is whole minutes: From's minute to the end of To's minute
    const reply = await server.call(path, { ...body, from: range.from, to: range.to.slice(0, 16) + ':00' }, token);
    expect(reply.statusCode, JSON.stringify(reply.data).slice(0, 300)).toBe(200);
    const got = sorted((reply.data[key] as { id: number }[]).map((r) => r.id));
    const want = await idsBetween(table, 'created_at', range.start, range.end);
    expect(got).toEqual(want);
    if (table === 'mobile_activity_logs') {
      expect(want.length).toBeGreaterThan(0);
      expect(await idsBetween(table, 'created_at', new Date(`${range.from}Z`), new Date(Date.parse(`${range.to}Z`) + 1000))).not.toEqual(want);
    }
  });
});
