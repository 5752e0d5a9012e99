/**
 * Settlement belongs to whoever is allowed to settle (docs/settlement.md): generating needs
 * settlement-report-generate (an IPG bank officer, who views settlement, may not generate, nor may an
 * IPG bank user given the permission by hand), transactions carry their acquiring provider
 * (provider_bank_code) and settlement uses it, and an IPG bank user sees only their own provider's
 * transactions (lists, totals, count cards) and settlement rows, however they filter, while the
 * back-office staff and a super user see every provider's.
 */
import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
let maker: string;
/** Two active IPG bank officers of different providers (demo: Bank of Ceylon IPG and Commercial Bank IPG). */
let boc: string;
let combank: string;
const BOC = '7010';
const COMBANK = '7056';

const ALL = 99_999_999;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
const today = () => day(0);
const listBody = (extra: Record<string, unknown> = {}) => ({ from_date: `${day(-30)}T00:00:01`, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount: ALL, ...extra });

beforeAll(async () => {
  server = await startServer();
  [admin, maker, boc, combank] = await Promise.all(['admin', 'maker', 'kasun_herath', 'ishara_d'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

/** provider_bank_code of each id, from the database. */
async function providersOf(table: string, ids: number[]): Promise<Map<number, string | null>> {
  const rows = await server.db.query<{ id: number; provider_bank_code: string | null }>(
    `SELECT id, provider_bank_code FROM ${table} WHERE id IN (SELECT value::int FROM json_array_elements_text($1::json))`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.provider_bank_code]));
}

const ceftIds = async (token: string, extra: Record<string, unknown> = {}) => {
  const reply = await server.call('Transaction/get-ceftTransaction', listBody(extra), token);
  expect(reply.statusCode, JSON.stringify(reply.data).slice(0, 200)).toBe(200);
  return { ids: (reply.data.filteredList as { id: number }[]).map((r) => r.id), reply };
};

describe('transactions carry their acquiring provider', () => {
  it('the seeder gives every transaction of a settled currency one of the providers that settle it, and every active provider takes a share', async () => {
    const rows = await server.db.query<{ provider_bank_code: string | null; n: number }>('SELECT provider_bank_code, count(*)::int AS n FROM ceft_transactions GROUP BY 1 ORDER BY 1');
    const codes = rows.map((r) => r.provider_bank_code);
    for (const code of [BOC, COMBANK]) expect(codes).toContain(code);
    // no transaction names a provider that does not settle its currency
    const wrong = await server.db.query(
      `SELECT t.id FROM ceft_transactions t WHERE t.provider_bank_code IS NOT NULL AND t.currency_code <> 'LKR' AND NOT EXISTS (
         SELECT 1 FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
          WHERE p.provider_bank_code = t.provider_bank_code AND c.currency_code = t.currency_code) LIMIT 1`,
    );
    expect(wrong).toEqual([]);
  });
});

describe("an IPG bank user sees their own provider's transactions only", () => {
  it("the send-money list: each officer exactly their provider's rows, the maker and the admin every row", async () => {
    const [mine, theirs, everyone, all] = await Promise.all([ceftIds(boc), ceftIds(combank), ceftIds(maker), ceftIds(admin)]);
    expect(everyone.ids.length).toBeGreaterThan(100);
    expect(new Set(all.ids)).toEqual(new Set(everyone.ids));
    const providers = await providersOf('ceft_transactions', everyone.ids);
    const expected = (code: string) => everyone.ids.filter((id) => providers.get(id) === code).sort((a, b) => a - b);
    expect(mine.ids.length).toBeGreaterThan(0);
    expect(theirs.ids.length).toBeGreaterThan(0);
    expect([...mine.ids].sort((a, b) => a - b)).toEqual(expected(BOC));
    expect([...theirs.ids].sort((a, b) => a - b)).toEqual(expected(COMBANK));
    // the first page and the totals are of the same rows
    for (const t of mine.reply.data.transactions as { id: number }[]) expect(providers.get(t.id)).toBe(BOC);
    const usd = await server.db.one<{ total: string }>(
      `SELECT coalesce(sum(amount_usd), 0)::text AS total FROM ceft_transactions WHERE provider_bank_code = $1 AND status = 'SUCCESS'
          AND initiated_time >= $2 AND initiated_time < $3`,
      [BOC, new Date(`${day(-30)}T00:00:00`), new Date(`${day(1)}T00:00:00`)],
    );
    expect(mine.reply.totalAmount).toBeCloseTo(Number(usd!.total), 2);
    expect(mine.reply.totalAmount).toBeLessThan(everyone.reply.totalAmount as number);
  });

  it("cannot reach another provider's row by searching its trace, customer id or account number", async () => {
    const other = await server.db.one<{ id: number; trace: string; uid: string; account_number: string }>(
      `SELECT id, trace, uid, account_number FROM ceft_transactions WHERE provider_bank_code = $1 AND initiated_time > now() - interval '20 days' ORDER BY id DESC LIMIT 1`,
      [COMBANK],
    );
    for (const data of [other!.trace, other!.account_number]) {
      expect((await ceftIds(maker, { data })).ids, data).toContain(other!.id);
      expect((await ceftIds(combank, { data })).ids, data).toContain(other!.id);
      expect((await ceftIds(boc, { data })).ids, data).not.toContain(other!.id);
    }
    const byUid = await ceftIds(boc, { data: other!.uid });
    expect(byUid.ids).not.toContain(other!.id);
    const providers = await providersOf('ceft_transactions', byUid.ids);
    for (const id of byUid.ids) expect(providers.get(id)).toBe(BOC);
    // by status too
    const failed = await ceftIds(boc, { status: 'FAILED' });
    for (const [, code] of await providersOf('ceft_transactions', failed.ids)) expect(code).toBe(BOC);
  });

  it('the count cards count their provider only', async () => {
    const counts = (await server.call('dashboard/CeftCount', undefined, boc)).data;
    const db = await server.db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM ceft_transactions WHERE provider_bank_code = $1 GROUP BY status', [BOC]);
    const n = (s: string) => db.find((r) => r.status === s)?.n ?? 0;
    expect(counts).toMatchObject({ completeTranCount: n('SUCCESS'), pendingTranCount: n('PENDING'), failedTranCount: n('FAILED'), refundTranCount: n('REFUNDED'), holdTranCount: n('HOLD') });
    const everyone = (await server.call('dashboard/CeftCount', undefined, maker)).data;
    expect(everyone.completeTranCount).toBeGreaterThan(counts.completeTranCount);
  });

  it('the scoped list of 30 days is read through an index, not a scan of the table (the plan)', async () => {
    await server.db.exec('ANALYZE ceft_transactions');
    const plan = await server.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM ceft_transactions t WHERE t.initiated_time >= now() - interval '30 days' AND t.initiated_time < now() AND t.provider_bank_code = $1
        ORDER BY t.initiated_time, t.id LIMIT 100`,
      [BOC],
    );
    const text = plan.map((p) => p['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/Seq Scan on ceft_transactions/);
  });
});

describe('settlement: generated by the operations staff for every provider, seen by an IPG bank user for their own', () => {
  beforeAll(async () => {
    await server.db.query(
      `INSERT INTO ipg_provider_rate_approvals (provider_id, rate_date, approved_by, approved_at) SELECT id, $1::date, 'checker', now() FROM ipg_providers WHERE disabled = 0 ON CONFLICT DO NOTHING`,
      [today()],
    );
  });

  it('an IPG bank officer (settlement-report-view) may not generate: 403, nothing generated', async () => {
    for (const path of ['report/generate-settlement-report', 'report/generate-instant-settlement-report']) {
      expect(await server.call(path, { useYesterdaysRates: true }, boc)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of settlement-report-generate' } });
    }
    expect(await server.db.query('SELECT id FROM settlement_batches WHERE batch_date = $1::date', [today()])).toEqual([]);
  });

  it('nor may an IPG bank user whose role was given settlement-report-generate by hand', async () => {
    const role = await server.db.one<{ id: number }>(
      `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('IPG settler (forged)', 'IPGBANK', (SELECT min(id) FROM user_levels), '["settlement-report-view", "settlement-report-generate"]') RETURNING id`,
    );
    await server.db.query("UPDATE console_users SET role_id = $1 WHERE username = 'sanduni_k'", [role!.id]);
    const sanduni = await server.login('sanduni_k');
    expect(await server.call('report/generate-settlement-report', { useYesterdaysRates: true }, sanduni)).toEqual({
      statusCode: 403,
      data: { message: 'Forbidden: an IPG bank user may not generate the settlement of every provider' },
    });
    expect(await server.db.query('SELECT id FROM settlement_batches WHERE batch_date = $1::date', [today()])).toEqual([]);
  });

  it("the maker generates; each row is one provider's, at that provider's rate; each officer sees exactly their provider's rows", async () => {
    const reply = await server.call('report/generate-settlement-report', { useYesterdaysRates: true }, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'Settlement report generated successfully' } });

    // every settled transaction sits in a row of its own provider, at that provider's settlement rate
    const mismatched = await server.db.query(
      `SELECT s.transaction_id FROM settled_transactions s JOIN settlement_rows r ON r.id = s.row_id JOIN ceft_transactions t ON t.id = s.transaction_id
        WHERE s.batch_id = $1 AND (r.provider_bank_code IS DISTINCT FROM t.provider_bank_code OR r.currency_code <> t.currency_code OR r.fc_rate <> (
          CASE WHEN t.currency_code = 'LKR' AND NOT EXISTS (SELECT 1 FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
                                                             WHERE p.provider_bank_code = t.provider_bank_code AND c.currency_code = 'LKR') THEN 1
               ELSE (SELECT c.settlement_rate FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
                      WHERE p.provider_bank_code = t.provider_bank_code AND c.currency_code = t.currency_code) END))`,
      [reply.data.batchId],
    );
    expect(mismatched).toEqual([]);
    const byProvider = await server.db.query<{ provider_bank_code: string; n: number }>(
      'SELECT provider_bank_code, count(*)::int AS n FROM settlement_rows WHERE batch_id = $1 GROUP BY 1 ORDER BY 1',
      [reply.data.batchId],
    );
    expect(byProvider.length).toBeGreaterThan(1);

    const rowsOf = async (token: string) => {
      const r = await server.call('report/get-settlement-report', { date: today(), fetchCount: ALL }, token);
      expect(r.statusCode).toBe(200);
      return r.data as { transactions: { id: number }[]; messages: string[] };
    };
    const [all, mine, theirs] = await Promise.all([rowsOf(admin), rowsOf(boc), rowsOf(combank)]);
    const providers = new Map(
      (await server.db.query<{ id: number; provider_bank_code: string }>('SELECT id, provider_bank_code FROM settlement_rows WHERE batch_id = $1', [reply.data.batchId])).map((r) => [
        r.id,
        r.provider_bank_code,
      ]),
    );
    expect(all.transactions.map((r) => r.id).sort((a, b) => a - b)).toEqual([...providers.keys()].sort((a, b) => a - b));
    const expected = (code: string) =>
      [...providers]
        .filter(([, p]) => p === code)
        .map(([id]) => id)
        .sort((a, b) => a - b);
    expect(mine.transactions.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected(BOC));
    expect(theirs.transactions.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected(COMBANK));
    expect(expected(BOC).length).toBeGreaterThan(0);
    // the rate lines name their own provider only
    expect(mine.messages.every((m) => !m.startsWith('Commercial Bank IPG') && !m.startsWith('Sampath Bank IPG'))).toBe(true);
    expect(all.messages.some((m) => m.startsWith('Commercial Bank IPG'))).toBe(true);
  });

  it('a transaction whose provider has no rate for its currency stays pending, and the report says so', async () => {
    const t = await server.db.one<{ id: number }>(
      `INSERT INTO ceft_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, account_number, initiated_time,
                                      card_payment_status, ceft_payment_status, status, tran_type, bank_code, provider_bank_code)
       VALUES ('SCOPE1', '851157480V', 'AE', 'CHF', 10, 10, 3000, '1234567890', now() - interval '1 hour', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'CEFT', '7010', $1) RETURNING id`,
      [COMBANK],
    );
    const reply = await server.call('report/generate-instant-settlement-report', { useYesterdaysRates: true }, maker);
    expect([200, 422]).toContain(reply.statusCode);
    expect(await server.db.query('SELECT 1 FROM settled_transactions WHERE transaction_id = $1', [t!.id])).toEqual([]);
    const list = await server.call('report/get-settlement-report', { date: today(), fetchCount: 10 }, admin);
    expect(list.data.messages).toContain('1 successful CHF transaction of Commercial Bank IPG cannot be settled: the provider has no active settlement rate for CHF');
    // and only Commercial Bank's officer is told
    expect((await server.call('report/get-settlement-report', { date: today(), fetchCount: 10 }, combank)).data.messages).toContain(
      '1 successful CHF transaction of Commercial Bank IPG cannot be settled: the provider has no active settlement rate for CHF',
    );
    expect((await server.call('report/get-settlement-report', { date: today(), fetchCount: 10 }, boc)).data.messages.some((m: string) => m.includes('CHF'))).toBe(false);
  });
});
