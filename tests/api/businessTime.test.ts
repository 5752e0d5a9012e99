/**
 * The business time zone (docs/business-time.md) through real HTTP, with the server process in
 * another zone than the business one, both ways round: the process in UTC with the business in
 * Asia/Colombo, and the process in Asia/Colombo with the business in UTC. The case: a
 * send-money row paid at 22:18 UTC is paid "today" in Colombo's next day: Void is accepted, Refund
 * refused; a filter for one business day returns exactly the rows shown on that day.
 */
// the server process's own zone, set before anything reads the clock (Node rereads TZ when it is set)
process.env.TZ = 'UTC';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { startExtraApp, type ExtraApp } from './extraApp';
import { formatDateTime } from '../../src/console/format';
import { refundRefusal, voidRefusal } from '../../src/domain/transactionGuards';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';

const COLOMBO = 'Asia/Colombo';
/** The calendar day after a yyyy-MM-dd day. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

let server: TestServer;
const apps: ExtraApp[] = [];

beforeAll(async () => {
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  delete process.env.PAYMENT_ADAPTER;
  server = await startServer({ businessTimeZone: COLOMBO });
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await server?.close();
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
  process.env.TZ = 'UTC';
});

/** An app on the test database whose clock stands still at `now`, in business zone `zone`. */
async function appAt(now: Date, zone: string): Promise<{ app: ExtraApp; token: string }> {
  const app = await startExtraApp(server, { clock: () => now, businessTimeZone: zone });
  apps.push(app);
  const login = await app.post('auth/login', { username: 'maker', password: DEMO_PASSWORD });
  expect(login.status).toBe(200);
  return { app, token: login.json.data.token as string };
}

const used = new Set<number>();
const refundable = `card_payment_status = 'SUCCESS' AND ceft_payment_status = 'FAILED' AND ipg_void_status IS NULL AND ipg_refund_status IS NULL AND ipg_transaction_id IS NOT NULL`;

/** A send-money row whose refund was requested, its card paid at `paidAt`. */
async function refundableRow(paidAt: Date): Promise<number> {
  const rows = await server.db.query<{ id: number }>(`SELECT id FROM ceft_transactions WHERE ${refundable} ORDER BY id DESC LIMIT 50`);
  const row = rows.find((r) => !used.has(r.id));
  if (!row) throw new Error('no refundable transaction');
  used.add(row.id);
  await server.db.query('UPDATE ceft_transactions SET refund_requested = true, card_payment_time = $2 WHERE id = $1', [row.id, paidAt]);
  return row.id;
}

const maker = { permissions: ['transaction-refund'] };

describe('Void or Refund: "today" is the business day, not the server process\'s', () => {
  it('server in UTC, business in Asia/Colombo: a card paid at 22:18 UTC is voided at 00:30 UTC the next day (06:00 in Colombo)', async () => {
    const paidAt = new Date('2026-11-19T22:18:00Z'); // 2026-11-20 03:48 in Colombo
    const now = new Date('2026-11-20T00:30:00Z'); // 2026-11-20 06:00 in Colombo
    const id = await refundableRow(paidAt);
    const { app, token } = await appAt(now, COLOMBO);
    // the server accepts Void and refuses Refund
    const refund = await app.post('Transaction/ceft/refund', { transactionID: id }, { token });
    expect(refund.json).toEqual({ statusCode: 422, data: { message: 'The card payment was made today: void it instead' } });
    const voided = await app.post('Transaction/ceft/void', { transactionID: id }, { token });
    expect(voided.json).toEqual({ statusCode: 200, data: { message: `Transaction voided successfully: Id - ${id}` } });
    // the console's guard (same domain predicate, same zone, the browser's clock at `now`) offers the same: Void, not Refund
    const row = {
      card_payment_status: 'SUCCESS',
      card_payment_time: paidAt.toISOString(),
      ceft_payment_status: 'FAILED',
      ceft_try_count: 1,
      refund_requested: true,
      ipg_void_status: null,
      ipg_refund_status: null,
    };
    expect(voidRefusal(row, maker, COLOMBO, now)).toBeUndefined();
    expect(refundRefusal(row, maker, COLOMBO, now)).toBe('The card payment was made today: void it instead');
  });

  it('server in Asia/Colombo, business in UTC: a card paid at 18:00 UTC (23:30 in Colombo) is voided at 19:00 UTC (00:30 next day in Colombo)', async () => {
    process.env.TZ = COLOMBO;
    try {
      const paidAt = new Date('2026-11-18T18:00:00Z');
      const now = new Date('2026-11-18T19:00:00Z');
      const id = await refundableRow(paidAt);
      const { app, token } = await appAt(now, 'UTC');
      const refund = await app.post('Transaction/ceft/refund', { transactionID: id }, { token });
      expect(refund.json).toEqual({ statusCode: 422, data: { message: 'The card payment was made today: void it instead' } });
      const voided = await app.post('Transaction/ceft/void', { transactionID: id }, { token });
      expect(voided.json).toEqual({ statusCode: 200, data: { message: `Transaction voided successfully: Id - ${id}` } });

      // a card paid the business day before is refunded, not voided
      const older = await refundableRow(new Date('2026-11-17T23:30:00Z')); // 05:00 on the 18th in Colombo
      expect((await app.post('Transaction/ceft/void', { transactionID: older }, { token })).json).toEqual({
        statusCode: 422,
        data: { message: 'The card payment was not made today: refund it instead' },
      });
      expect((await app.post('Transaction/ceft/refund', { transactionID: older }, { token })).json.statusCode).toBe(200);
    } finally {
      process.env.TZ = 'UTC';
      // the app above made the roll-ups' days UTC days: back to the business zone of this file's server
      await startExtraApp(server, { businessTimeZone: COLOMBO }).then((a) => a.close());
    }
  });
});

describe('from_date and to_date are business-zone wall-clock times', () => {
  it('a filter for one business day returns exactly the rows shown on that day (server in UTC, business in Asia/Colombo)', async () => {
    process.env.TZ = 'UTC';
    // two rows either side of Colombo's midnight (18:30 UTC)
    const ids = (await server.db.query<{ id: number }>('SELECT id FROM ceft_transactions ORDER BY id LIMIT 2')).map((r) => r.id);
    const inside = new Date('2026-10-05T18:45:00Z'); // 2026-10-06 00:15 in Colombo
    const before = new Date('2026-10-05T18:15:00Z'); // 2026-10-05 23:45 in Colombo
    await server.db.query(`UPDATE ceft_transactions SET initiated_time = $2, uid = 'TZCASE1' WHERE id = $1`, [ids[0], inside]);
    await server.db.query(`UPDATE ceft_transactions SET initiated_time = $2, uid = 'TZCASE2' WHERE id = $1`, [ids[1], before]);
    const token = await server.login('admin');
    const day = { from_date: '2026-10-06T00:00:01', to_date: '2026-10-06T23:59:00', country_code: '', status: '', fetchCount: 99999999 };
    const reply = await server.call('Transaction/get-ceftTransaction', { ...day, data: 'TZCASE' }, token);
    expect(reply.statusCode).toBe(200);
    const rows = reply.data.filteredList as { id: number; initiated_time: string }[];
    expect(rows.map((r) => r.id)).toEqual([ids[0]]);
    expect(formatDateTime(rows[0].initiated_time, COLOMBO)).toBe('2026-10-06 00:15:00');

    // every row of the whole business day (no text: the total comes from the roll-up) is shown on that day,
    // and the total is the sum of the successful rows listed
    const whole = await server.call('Transaction/get-ceftTransaction', { ...day, from_date: '2026-10-06T00:00:00', data: '' }, token);
    expect(whole.statusCode).toBe(200);
    const all = whole.data.filteredList as { id: number; initiated_time: string; status: string; amount_usd: number }[];
    expect(all.map((r) => r.id)).toContain(ids[0]);
    expect(all.map((r) => r.id)).not.toContain(ids[1]);
    for (const r of all) expect(formatDateTime(r.initiated_time, COLOMBO).slice(0, 10)).toBe('2026-10-06');
    const expected = await server.db.one<{ usd: string; n: number }>(
      `SELECT coalesce(sum(amount_usd), 0)::text AS usd, count(*)::int AS n FROM ceft_transactions
        WHERE initiated_time >= '2026-10-05T18:30:00Z' AND initiated_time < '2026-10-06T18:30:00Z' AND status = 'SUCCESS'`,
    );
    expect(all.filter((r) => r.status === 'SUCCESS')).toHaveLength(expected!.n);
    expect(whole.totalAmount as number).toBeCloseTo(Number(expected!.usd), 2);
  });
});

describe('dashboards and the settlement batch: days of the business zone (server in UTC, business in Asia/Colombo)', () => {
  it("counts an app user created at 18:45 UTC in Colombo's next day: today, this week, this month", async () => {
    process.env.TZ = 'UTC';
    const now = new Date('2026-10-31T19:00:00Z'); // 2026-11-01 00:30 in Colombo: a new day, a new month
    const { app } = await appAt(now, COLOMBO);
    const auditorToken = (await app.post('auth/login', { username: 'auditor', password: DEMO_PASSWORD })).json.data.token as string;
    const user = (await server.db.one<{ id: number; created_at: Date }>('SELECT id, created_at FROM app_users ORDER BY id LIMIT 1'))!;
    const counts = async (createdAt: string) => {
      await server.db.query('UPDATE app_users SET created_at = $2 WHERE id = $1', [user.id, createdAt]);
      const reply = await app.post('dashboard/getAppUsersAndBeneficiariesCount', {}, { token: auditorToken });
      expect(reply.status).toBe(200);
      return reply.json.data.appUsersValues as { today: number; month: number };
    };
    try {
      const inside = await counts('2026-10-31T18:45:00Z'); // 2026-11-01 00:15 in Colombo
      const before = await counts('2026-10-31T18:15:00Z'); // 2026-10-31 23:45 in Colombo
      expect(inside.today - before.today).toBe(1);
      expect(inside.month - before.month).toBe(1);
    } finally {
      await server.db.query('UPDATE app_users SET created_at = $2 WHERE id = $1', [user.id, user.created_at]);
    }
  });

  it("puts a transaction initiated at 18:45 UTC in Colombo's next day's period, and an app user in that month's bucket", async () => {
    process.env.TZ = 'UTC';
    const now = new Date('2026-10-31T19:00:00Z'); // 2026-11-01 00:30 in Colombo: a new day, a new month
    const { app } = await appAt(now, COLOMBO);
    const adminToken = (await app.post('auth/login', { username: 'admin', password: DEMO_PASSWORD })).json.data.token as string;
    const row = (await server.db.one<{ id: number; initiated_time: Date }>('SELECT id, initiated_time FROM ceft_transactions ORDER BY id DESC LIMIT 1'))!;
    const user = (await server.db.one<{ id: number; created_at: Date }>('SELECT id, created_at FROM app_users ORDER BY id DESC LIMIT 1'))!;
    // the period is the business day 2026-11-01 (a custom range of one day): the app dashboard's table and count
    const periodCount = async (initiatedAt: string) => {
      await server.db.query('UPDATE ceft_transactions SET initiated_time = $2 WHERE id = $1', [row.id, initiatedAt]);
      const reply = await app.post('dashboard/totalTransactionValues', { range: 0, fromDate: '2026-11-01', toDate: '2026-11-01' }, { token: adminToken });
      expect(reply.status, reply.text).toBe(200);
      const data = reply.json.data as { count: number; transactions: { id: number; type: string }[] };
      return { count: data.count, listed: data.transactions.some((t) => t.id === row.id && t.type === 'Remittance') };
    };
    const monthBuckets = async (createdAt: string) => {
      await server.db.query('UPDATE app_users SET created_at = $2 WHERE id = $1', [user.id, createdAt]);
      const reply = await app.post('dashboard/getTotalAppUsersByMonth', {}, { token: adminToken });
      expect(reply.status, reply.text).toBe(200);
      return reply.json.data as { users: number[]; monthNames: string[] };
    };
    try {
      // the day's first minutes: 00:15 on the 1st in Colombo is in, 23:45 on the 31st is not (the count)
      expect((await periodCount('2026-10-31T18:45:00Z')).count - (await periodCount('2026-10-31T18:15:00Z')).count).toBe(1);
      // its last minutes: 23:45 on the 1st in Colombo is listed (newest first), 00:15 on the 2nd is not
      const lastMinutes = await periodCount('2026-11-01T18:15:00Z');
      const nextDayStart = await periodCount('2026-11-01T18:45:00Z');
      expect([lastMinutes.listed, nextDayStart.listed]).toEqual([true, false]);
      expect(lastMinutes.count - nextDayStart.count).toBe(1);
      const inside = await monthBuckets('2026-10-31T18:45:00Z'); // November in Colombo
      const before = await monthBuckets('2026-10-31T18:15:00Z'); // October in Colombo
      // the last bucket is Colombo's current month, November
      expect(inside.users.at(-1)! - before.users.at(-1)!).toBe(1);
      expect(inside.users.at(-2)! - before.users.at(-2)!).toBe(-1);
    } finally {
      await server.db.query('UPDATE ceft_transactions SET initiated_time = $2 WHERE id = $1', [row.id, row.initiated_time]);
      await server.db.query('UPDATE app_users SET created_at = $2 WHERE id = $1', [user.id, user.created_at]);
    }
  });

  it("dates a batch generated at 19:00 UTC with Colombo's date (the next day)", async () => {
    process.env.TZ = 'UTC';
    // 19:00 UTC three days ahead (no batch of the seeded history is on that day): 00:30 the next day in Colombo
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const now = new Date(`${day}T19:00:00Z`);
    const { app } = await appAt(now, COLOMBO);
    const adminToken = (await app.post('auth/login', { username: 'admin', password: DEMO_PASSWORD })).json.data.token as string;
    // the documented empty body (spec 002 §7): that day's rates are not approved, so the earlier ones are used, and the batch says so
    const reply = await app.post('report/generate-settlement-report', {}, { token: adminToken });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.usedEarlierRates).toBe(true);
    const batch = await server.db.one<{ day: string; used_earlier_rates: boolean }>("SELECT to_char(batch_date, 'YYYY-MM-DD') AS day, used_earlier_rates FROM settlement_batches WHERE id = $1", [
      reply.json.data.batchId,
    ]);
    expect(batch!.day).toBe(nextDay(day));
    expect(batch!.used_earlier_rates).toBe(true);
  });
});

describe('the console learns the zone from the server', () => {
  it('config names the business time zone to any signed-in user, and to nobody else', async () => {
    const token = await server.login('auditor');
    expect(await server.call('config', {}, token)).toEqual({ statusCode: 200, data: { businessTimeZone: COLOMBO, moneyActionApprovalAboveUsd: null } });
    expect((await server.call('config', {})).statusCode).toBe(401);
  });
});
