/**
 * The top-level `matching` of the list calls that take a fetchCount: for the same filter, the count a capped call answers equals the rows the same call
 * returns with fetch count All; it is sent beside statusCode and data, the documented fields
 * unchanged. Through real HTTP, as the administrator, on PGlite or PostgreSQL (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { startServer, type ApiReply, type TestServer } from './harness';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

const ALL = 99_999_999;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};

async function list(path: string, body: Record<string, unknown>): Promise<ApiReply> {
  const reply = await server.call(path, body, admin);
  expect(reply.statusCode, `${path}: ${JSON.stringify(reply.data).slice(0, 300)}`).toBe(200);
  return reply;
}

/**
 * Calls `path` capped at `cap` and with fetch count All; expects the capped reply's `matching` to be
 * the number of rows of the uncapped one (and that one's own `matching` too). Returns both counts.
 */
async function expectMatching(path: string, body: Record<string, unknown>, rowsOf: (data: { [k: string]: unknown[] }) => unknown[], cap = 10) {
  const capped = await list(path, { ...body, fetchCount: cap });
  const all = await list(path, { ...body, fetchCount: ALL });
  const allRows = rowsOf(all.data).length;
  expect(capped.matching, `${path} ${JSON.stringify(body)}`).toBe(allRows);
  expect(all.matching, `${path} ${JSON.stringify(body)} (All)`).toBe(allRows);
  expect(rowsOf(capped.data).length).toBe(Math.min(cap, allRows));
  return { matching: capped.matching as number, returned: rowsOf(capped.data).length };
}

const filtered = (d: { [k: string]: unknown[] }) => d.filteredList;

describe('transaction lists: matching equals the rows of fetch count All for the same filter', () => {
  // whole days (00:00:00 to 23:59:59, counted from the daily roll-up) and a range that is not (counted from the rows)
  const wholeDays = { from_date: `${day(-6)}T00:00:00`, to_date: `${day(0)}T23:59:59`, country_code: '', data: '', status: '' };
  const partDays = { ...wholeDays, from_date: `${day(-6)}T00:00:01`, to_date: `${day(0)}T23:58:00` };

  it('send money: whole days, part days, by status, by country, by search text', async () => {
    const r = await expectMatching('Transaction/get-ceftTransaction', wholeDays, filtered);
    // the filter matches more than the cap: the count says how many more
    expect(r.matching).toBeGreaterThan(r.returned);
    const p = await expectMatching('Transaction/get-ceftTransaction', partDays, filtered);
    expect(p.matching).toBeGreaterThan(p.returned);
    for (const extra of [{ status: 'SUCCESS' }, { status: 'FAILED' }, { country_code: 'AE' }, { data: '19' }]) {
      await expectMatching('Transaction/get-ceftTransaction', { ...wholeDays, ...extra }, filtered);
      await expectMatching('Transaction/get-ceftTransaction', { ...partDays, ...extra }, filtered);
    }
  });

  it('a filter matching fewer rows than the cap answers exactly those rows', async () => {
    const reply = await list('Transaction/get-ceftTransaction', { ...wholeDays, data: 'NO-SUCH-TRACE', fetchCount: 10 });
    expect(reply.data.filteredList).toEqual([]);
    expect(reply.matching).toBe(0);
  });

  it('the other transaction lists (operational, auditor, refunded, insurance)', async () => {
    const withoutStatus = { from_date: wholeDays.from_date, to_date: wholeDays.to_date, country_code: '', data: '' };
    for (const path of ['Transaction/billTransactions', 'Transaction/thyagaTransactions', 'Transaction/echannellingTransactions', 'Transaction/insuranceTransactions', 'dashboard/ThayagaList']) {
      await expectMatching(path, withoutStatus, filtered);
    }
    for (const path of ['dashboard/CeftList', 'dashboard/CeftRefundedList', 'dashboard/BillList']) await expectMatching(path, wholeDays, filtered);
  });

  it('adds matching beside the documented fields: data and the totals are what they were', async () => {
    const reply = await list('Transaction/get-ceftTransaction', { ...wholeDays, fetchCount: 10 });
    expect(Object.keys(reply).sort()).toEqual(['data', 'filteredTotalAmount', 'matching', 'statusCode', 'totalAmount']);
    expect(Object.keys(reply.data).sort()).toEqual(['countries', 'fields', 'filteredList', 'transactions']);
  });
});

describe('other lists: a count with the list’s own filter', () => {
  it('console users, with and without search text', async () => {
    const all = await expectMatching('user/list', { data: '' }, (d) => d.users, 3);
    expect(all.matching).toBeGreaterThan(3);
    await expectMatching('user/list', { data: 'er' }, (d) => d.users, 2);
    const none = await list('user/list', { data: 'no-such-user-xyz', fetchCount: 10 });
    expect(none.matching).toBe(0);
    // the documented reply is unchanged beside it
    expect(Object.keys(none).sort()).toEqual(['data', 'matching', 'statusCode']);
    expect(Object.keys(none.data).sort()).toEqual(['changeRequests', 'fields', 'users']);
  });

  it('app users (by country), KYC (by status) and the activity log', async () => {
    const appUsers = await expectMatching('AppUser/list', { data: '', countryCode: '' }, (d) => d.appUsers);
    expect(appUsers.matching).toBeGreaterThan(appUsers.returned);
    await expectMatching('AppUser/list', { data: '', countryCode: 'AE' }, (d) => d.appUsers, 2);
    await expectMatching('kyc/get-all', { data: '', kycStatus: '' }, (d) => d.kycList, 3);
    await expectMatching('kyc/get-all', { data: '', kycStatus: 'PENDING' }, (d) => d.kycList, 2);
    await expectMatching('report/get-activity-report', { from: `${day(-30)}T00:00:00`, to: `${day(0)}T23:59:59`, username: '' }, (d) => d.logs, 2);
  });
});
