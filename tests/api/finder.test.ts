/**
 * Find by trace, ID or UID: a value is looked up across the five
 * services and all dates in one call; only the services the caller may view are searched, an IPG bank
 * user finds only their own provider's rows, and a bad body is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { findData } from '../../src/api/finder';

let server: TestServer;
let maker: string;
let auditor: string;
/** kasun_herath: IPG Bank Officer of provider 7010, who may view send money only. */
let boc: string;
/** A user whose role holds bill-payment-report-view only. */
let billOnly: string;

const DAY = 86_400_000;

interface Picked {
  id: number;
  trace: string;
  uid: string;
  provider_bank_code: string;
  initiated_time: Date;
}

/** A transaction of `table` initiated 30 to 31 days ago (optionally of one provider, or not of it). */
async function thirtyDaysOld(table: string, provider?: { is?: string; not?: string }): Promise<Picked> {
  const now = Date.now();
  const row = await server.db.one<Picked>(
    `SELECT id, trace, uid, provider_bank_code, initiated_time FROM ${table}
      WHERE initiated_time >= $1 AND initiated_time < $2
        AND ($3::text IS NULL OR provider_bank_code = $3) AND ($4::text IS NULL OR provider_bank_code IS DISTINCT FROM $4)
      ORDER BY id LIMIT 1`,
    [new Date(now - 31 * DAY), new Date(now - 30 * DAY), provider?.is ?? null, provider?.not ?? null],
  );
  if (!row) throw new Error(`no 30-day-old row in ${table}`);
  return row;
}

async function find(body: unknown, token: string) {
  return server.call('Transaction/find', body, token);
}

beforeAll(async () => {
  server = await startServer();
  // a role and a user holding one service's view permission only (the demo password's hash copied from maker)
  await server.db.query(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('Bill Viewer', 'BACKEND', (SELECT id FROM user_levels ORDER BY level LIMIT 1), '["bill-payment-report-view"]'::jsonb)`,
  );
  await server.db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT 'Bill Only', 'bill.only@remit.lk', '0771234567', 'bill_only', 'BACKEND', 'HO', (SELECT id FROM roles WHERE role_name = 'Bill Viewer'), password_hash
       FROM console_users WHERE username = 'maker'`,
  );
  [maker, auditor, boc, billOnly] = await Promise.all(['maker', 'auditor', 'kasun_herath', 'bill_only'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

describe('Transaction/find', () => {
  it('finds a 30-day-old send-money transaction by its trace, in one call and without a date range', async () => {
    const picked = await thirtyDaysOld('ceft_transactions');
    const reply = await find({ value: picked.trace }, maker);
    expect(reply.statusCode).toBe(200);
    const data = findData.parse(reply.data);
    expect(data.searched).toEqual(['ceft', 'bill', 'echannelling', 'thyaga', 'insurance']);
    expect(data.matches).toHaveLength(1);
    expect(data.matches[0]).toMatchObject({ service: 'ceft', matchedBy: 'trace', row: { id: picked.id, trace: picked.trace, uid: picked.uid } });
    expect(new Date(data.matches[0].row.initiated_time).getTime()).toBe(new Date(picked.initiated_time).getTime());
    // lower case and surrounding spaces still find it
    const lower = findData.parse((await find({ value: `  ${picked.trace.toLowerCase()} ` }, maker)).data);
    expect(lower.matches.map((m) => m.row.id)).toEqual([picked.id]);
  });

  it('finds by ID in every service that has it, and by UID every transaction of the customer, newest first', async () => {
    const picked = await thirtyDaysOld('bill_transactions');
    const byId = findData.parse((await find({ value: String(picked.id) }, maker)).data);
    const billMatch = byId.matches.find((m) => m.service === 'bill');
    expect(billMatch).toMatchObject({ matchedBy: 'id', row: { id: picked.id, trace: picked.trace } });

    const byUid = findData.parse((await find({ value: picked.uid }, maker)).data);
    expect(byUid.matches.length).toBeGreaterThan(0);
    expect(byUid.matches.some((m) => m.service === 'bill' && m.row.id === picked.id)).toBe(true);
    for (const m of byUid.matches) expect(m.row.uid).toBe(picked.uid);
    const times = byUid.matches.map((m) => new Date(m.row.initiated_time).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // only by id: a trace is not looked up as one
    const onlyId = findData.parse((await find({ value: String(picked.id), service: 'bill', by: 'id' }, maker)).data);
    expect(onlyId.matches.map((m) => [m.service, m.row.id])).toEqual([['bill', picked.id]]);
  });

  it('the auditor finds send-money rows (auditor-report-view) but never insurance, which has no auditor screen', async () => {
    const picked = await thirtyDaysOld('ceft_transactions');
    const data = findData.parse((await find({ value: picked.trace }, auditor)).data);
    expect(data.searched).toEqual(['ceft', 'bill', 'echannelling', 'thyaga']);
    expect(data.matches.map((m) => m.row.id)).toEqual([picked.id]);
    const insurance = await thirtyDaysOld('insurance_transactions');
    const none = findData.parse((await find({ value: insurance.trace }, auditor)).data);
    expect(none.matches).toEqual([]);
    expect((await find({ value: insurance.trace, service: 'insurance' }, auditor)).statusCode).toBe(403);
  });

  it("a user without a service's view permission does not find its rows", async () => {
    const ceft = await thirtyDaysOld('ceft_transactions');
    const bill = await thirtyDaysOld('bill_transactions');
    // maker finds both
    expect(findData.parse((await find({ value: ceft.trace }, maker)).data).matches).toHaveLength(1);
    // the bill-only user searches bill payments only: the send-money trace is not found
    const asBillOnly = findData.parse((await find({ value: ceft.trace }, billOnly)).data);
    expect(asBillOnly.searched).toEqual(['bill']);
    expect(asBillOnly.matches).toEqual([]);
    expect(findData.parse((await find({ value: bill.trace }, billOnly)).data).matches.map((m) => m.row.id)).toEqual([bill.id]);
    // asking for the service by name is refused
    const refused = await find({ value: ceft.trace, service: 'ceft' }, billOnly);
    expect(refused.statusCode).toBe(403);
    // the IPG bank officer (send money only) does not find the bill payment
    const asBoc = findData.parse((await find({ value: bill.trace }, boc)).data);
    expect(asBoc.searched).toEqual(['ceft']);
    expect(asBoc.matches).toEqual([]);
  });

  it("a partner-bank (IPG bank) user does not find another provider's row, and finds their own", async () => {
    const other = await thirtyDaysOld('ceft_transactions', { not: '7010' });
    const own = await thirtyDaysOld('ceft_transactions', { is: '7010' });
    // maker (back office) finds the other provider's row
    expect(findData.parse((await find({ value: other.trace }, maker)).data).matches).toHaveLength(1);
    for (const value of [other.trace, String(other.id)]) {
      const data = findData.parse((await find({ value }, boc)).data);
      expect(data.matches.filter((m) => m.row.id === other.id)).toEqual([]);
    }
    expect((await find({ value: String(other.id), service: 'ceft', by: 'id' }, boc)).data.matches).toEqual([]);
    const mine = findData.parse((await find({ value: own.trace }, boc)).data);
    expect(mine.matches.map((m) => m.row.id)).toEqual([own.id]);
  });

  it('returns the newest 20 rows of a service for a UID with more, says so, and gives an IPG bank user the newest of their own provider', async () => {
    const busiest = await server.db.one<{ uid: string; n: number }>(`SELECT uid, count(*)::int AS n FROM ceft_transactions GROUP BY uid ORDER BY 2 DESC, 1 LIMIT 1`);
    expect(busiest!.n).toBeGreaterThan(20);
    const data = findData.parse((await find({ value: busiest!.uid }, maker)).data);
    expect(data.truncated).toBe(true);
    const ceft = data.matches.filter((m) => m.service === 'ceft');
    expect(ceft).toHaveLength(20);
    const newest = await server.db.query<{ id: number }>(`SELECT id FROM ceft_transactions WHERE uid = $1 ORDER BY initiated_time DESC, id DESC LIMIT 20`, [busiest!.uid]);
    expect(ceft.map((m) => m.row.id)).toEqual(newest.map((r) => r.id));
    // the IPG bank officer: the newest of provider 7010's rows of that customer, none of another provider's
    const own = await server.db.query<{ id: number }>(`SELECT id FROM ceft_transactions WHERE uid = $1 AND provider_bank_code = '7010' ORDER BY initiated_time DESC, id DESC LIMIT 20`, [busiest!.uid]);
    const asBoc = findData.parse((await find({ value: busiest!.uid }, boc)).data);
    expect(asBoc.matches.map((m) => m.row.id)).toEqual(own.map((r) => r.id));
  });

  it('needs a signed-in user holding a view permission', async () => {
    expect((await server.call('Transaction/find', { value: '1' })).statusCode).toBe(401);
  });

  it.each([
    [{}, 'value'],
    [{ value: '' }, 'value'],
    [{ value: '   ' }, 'value'],
    [{ value: 'x'.repeat(41) }, 'value'],
    [{ value: "1' OR '1'='1" }, 'value'],
    [{ value: 12 }, 'value'],
    [{ value: '1', service: 'loans' }, 'service'],
    [{ value: '1', by: 'name' }, 'by'],
    [{ value: 'ABC', by: 'id' }, 'value'],
    [{ value: '99999999999', by: 'id' }, 'value'],
    [{ value: '1', extra: true }, 'extra'],
  ])('a bad body %j is a 400 naming %s', async (body, field) => {
    const reply = await find(body, maker);
    expect(reply.statusCode).toBe(400);
    expect(String(reply.data.message)).toContain(field);
  });
});
