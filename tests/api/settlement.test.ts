/**
 * Settlement through the real server: the arithmetic against an independent computation on a small
 * data set, exactly-once settlement under two concurrent generate calls (two server processes), the
 * rate confirmation, 409 for a second batch of the day, 422 code 36865 when nothing is pending, and
 * who sees which rows.
 */
import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { settlementScreen } from '../../screens/settlement';
import { listPartitions } from '../../src/server/db/partitions';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
const today = () => format(new Date(), 'yyyy-MM-dd');

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

async function batchesToday() {
  return server.db.query<{ id: number; kind: string; transaction_count: number; used_earlier_rates: boolean }>(
    'SELECT id, kind, transaction_count, used_earlier_rates FROM settlement_batches WHERE batch_date = $1::date ORDER BY id',
    [today()],
  );
}

describe('before today is settled (the demo data)', () => {
  it('has a settlement history and leaves the last days pending', async () => {
    const history = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM settlement_batches');
    expect(history!.n).toBeGreaterThan(10);
    expect(await batchesToday()).toEqual([]);
    const pending = await server.db.one<{ n: number }>(
      "SELECT count(*)::int AS n FROM ceft_transactions t WHERE status = 'SUCCESS' AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id)",
    );
    expect(pending!.n).toBeGreaterThan(0);
    // every stored row obeys the definition
    const wrong = await server.db.query('SELECT id FROM settlement_rows WHERE fc_net_amount <> fc_amount - fc_commission OR lkr_amount <> round(fc_net_amount * fc_rate, 2)');
    expect(wrong).toEqual([]);
  });

  it("refuses to generate when the caller declines earlier rates (useYesterdaysRates false) while today's rates are not approved, and says so in the list", async () => {
    await server.db.query('DELETE FROM ipg_provider_rate_approvals WHERE rate_date = $1::date AND provider_id = (SELECT min(id) FROM ipg_providers WHERE disabled = 0)', [today()]);
    const list = await server.call('report/get-settlement-report', { date: today(), fetchCount: 10 }, admin);
    expect(list.statusCode).toBe(200);
    expect(list.data.hasRatesUpdated).toBe(false);
    expect(list.data.messages.some((m: string) => m.includes("today's rates are not approved yet"))).toBe(true);
    expect(list.data.transactions).toEqual([]);
    expect(list.data.fields).toEqual(exportFieldsOf(settlementScreen));

    expect(await server.call('report/generate-settlement-report', { useYesterdaysRates: false }, admin)).toEqual({
      statusCode: 422,
      data: { message: "Today's Currency Rates has not been updated yet!" },
    });
    expect(await batchesToday()).toEqual([]);
  });
});

/** A small data set: everything pending so far is set aside, then these transactions are the pool. */
interface Tx {
  currency: string;
  account: string;
  amount: string;
  commission: string;
  charge: string;
  status?: string;
  /** The acquiring provider (provider_bank_code); 7010 unless given. */
  provider?: string;
}
const smallSet: Tx[] = [
  { currency: 'USD', account: '1001234567', amount: '100.00', commission: '1.25', charge: '0.50' },
  { currency: 'USD', account: '1001234567', amount: '250.55', commission: '3.13', charge: '0.50' },
  { currency: 'USD', account: '1001234567', amount: '19.99', commission: '0.25', charge: '0.75', provider: '7056' },
  { currency: 'USD', account: '2002345678', amount: '1000.00', commission: '12.50', charge: '1.00' },
  { currency: 'EUR', account: '1001234567', amount: '75.10', commission: '0.94', charge: '0.46' },
  { currency: 'EUR', account: '1001234567', amount: '0.05', commission: '0.00', charge: '0.00', provider: '7278' },
  { currency: 'JPY', account: '3003456789', amount: '123457.00', commission: '1543.21', charge: '105.00' },
  { currency: 'LKR', account: '4004567890', amount: '25000.00', commission: '312.50', charge: '0.00' },
  { currency: 'MVR', account: '5005678901', amount: '1500.00', commission: '18.75', charge: '10.00' },
  { currency: 'USD', account: '6006789012', amount: '500.00', commission: '6.25', charge: '0.50', status: 'FAILED' },
  { currency: 'USD', account: '6006789012', amount: '300.00', commission: '3.75', charge: '0.50', status: 'PENDING' },
];
const rates: Record<string, string> = { USD: '299.1234', EUR: '325.5678', JPY: '2.0457', LKR: '1.0000' };

const cents = (s: string) => BigInt(s.replace('.', ''));
/** round(net × rate, 2), half away from zero, in cents: net in cents, rate with 4 decimals. */
function lkrCents(net: bigint, rate: string): bigint {
  const r = BigInt(rate.replace('.', ''));
  const p = net * r;
  return (p + (p >= 0n ? 5000n : -5000n)) / 10000n;
}
const money = (c: bigint) => Number(c) / 100;

/** The expected rows, computed independently of the server: one per currency, account and the transactions' own provider. */
function expectedRows(set: Tx[]) {
  const groups = new Map<string, { currency: string; account: string; provider: string; amount: bigint; commission: bigint }>();
  for (const t of set) {
    if ((t.status ?? 'SUCCESS') !== 'SUCCESS' || !(t.currency in rates)) continue;
    const key = `${t.currency}|${t.account}|${t.provider ?? '7010'}`;
    const g = groups.get(key) ?? { currency: t.currency, account: t.account, provider: t.provider ?? '7010', amount: 0n, commission: 0n };
    g.amount += cents(t.amount);
    g.commission += cents(t.commission) + cents(t.charge);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({
      currency_code: g.currency,
      account_number: g.account,
      provider_bank_code: g.provider,
      fc_amount: money(g.amount),
      fc_commission: money(g.commission),
      fc_net_amount: money(g.amount - g.commission),
      fc_rate: Number(rates[g.currency]),
      lkr_amount: money(lkrCents(g.amount - g.commission, rates[g.currency])),
    }))
    .sort((a, b) => `${a.currency_code}|${a.account_number}|${a.provider_bank_code}`.localeCompare(`${b.currency_code}|${b.account_number}|${b.provider_bank_code}`));
}

let txIds: number[] = [];

async function insertSmallSet(set: Tx[], tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, t] of set.entries()) {
    const row = await server.db.one<{ id: number }>(
      `INSERT INTO ceft_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, account_number, initiated_time,
                                      card_payment_status, ceft_payment_status, ipg_commission, bank_charge, status, tran_type, bank_code, created_at, updated_at, provider_bank_code)
       VALUES ($1, '851157480V', 'AE', $2, $3::numeric, $3::numeric, $3::numeric, $4, $5, 'SUCCESS', $6, $7::numeric, $8::numeric, $9, 'CEFT', '7010', $5, $5, $10)
       RETURNING id`,
      [
        `SETTLE${tag}${i}`,
        t.currency,
        t.amount,
        t.account,
        new Date(Date.now() - 3_600_000),
        t.status === 'FAILED' ? 'FAILED' : t.status === 'PENDING' ? null : 'SUCCESS',
        t.commission,
        t.charge,
        t.status ?? 'SUCCESS',
        t.provider ?? '7010',
      ],
    );
    ids.push(row!.id);
  }
  return ids;
}

describe('generating today', () => {
  beforeAll(async () => {
    // set aside what the demo data left pending, so that the small data set is the whole pool
    await server.db.tx(async (tx) => {
      const b = await tx.one<{ id: number }>(
        "INSERT INTO settlement_batches (kind, batch_date, generated_by, generated_at, transaction_count) VALUES ('SCHEDULED', '2000-01-01', 'test', now(), 1) RETURNING id",
      );
      const r = await tx.one<{ id: number }>(
        `INSERT INTO settlement_rows (batch_id, tran_date, currency_code, account_number, provider_bank_code, transaction_count, fc_amount, fc_commission, fc_net_amount, fc_rate, lkr_amount)
         VALUES ($1, '2000-01-01', 'USD', 'set-aside', '7010', 1, 0, 0, 0, 1, 0) RETURNING id`,
        [b!.id],
      );
      await tx.query(
        `INSERT INTO settled_transactions (transaction_id, batch_id, row_id)
         SELECT t.id, $1, $2 FROM ceft_transactions t WHERE t.status = 'SUCCESS' AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id)`,
        [b!.id, r!.id],
      );
    });
    for (const [currency, rate] of Object.entries(rates)) {
      await server.db.query('UPDATE ipg_provider_currencies SET settlement_rate = $2::numeric WHERE currency_code = $1', [currency, rate]);
    }
    await server.db.query('UPDATE ipg_provider_currencies SET disabled = 1 WHERE currency_code = $1', ['MVR']);
    await server.db.query(
      `INSERT INTO ipg_provider_rate_approvals (provider_id, rate_date, approved_by, approved_at)
       SELECT id, $1::date, 'checker', now() FROM ipg_providers WHERE disabled = 0`,
      [today()],
    );
    txIds = await insertSmallSet(smallSet, 'A');
  });

  it('two generate calls at once on two servers give one batch; every transaction is settled once', async () => {
    const peer = await server.startPeer();
    try {
      const other = await peer.login('mahesh_s');
      const replies = await Promise.all([server.call('report/generate-settlement-report', {}, admin), peer.call('report/generate-settlement-report', {}, other)]);
      expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const ok = replies.find((r) => r.statusCode === 200)!;
      const refused = replies.find((r) => r.statusCode === 409)!;
      expect(refused.data).toEqual({ message: 'The settlement report for today has already been generated' });
      const expected = expectedRows(smallSet);
      expect(ok.data).toMatchObject({ message: 'Settlement report generated successfully', rows: expected.length, transactions: 8, usedEarlierRates: false });
    } finally {
      await peer.close();
    }
    const batches = await batchesToday();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ kind: 'SCHEDULED', transaction_count: 8, used_earlier_rates: false });
    const links = await server.db.query<{ transaction_id: number; n: number }>(
      'SELECT transaction_id, count(*)::int AS n FROM settled_transactions WHERE transaction_id IN (SELECT value::int FROM json_array_elements_text($1::json)) GROUP BY transaction_id ORDER BY transaction_id',
      [txIds],
    );
    // the 8 successful ones with a rate, once each; not the failed, the pending nor the MVR one
    expect(links.map((l) => l.n)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(links.map((l) => l.transaction_id)).toEqual(txIds.slice(0, 8).filter((_, i) => smallSet[i].currency !== 'MVR'));
  });

  it('computes each row as the definition says, equal to an independent computation', async () => {
    const reply = await server.call('report/get-settlement-report', { date: today(), fetchCount: 99999999 }, admin);
    expect(reply.statusCode).toBe(200);
    // the provider of each row is not on the wire: read from the database
    const providers = new Map(
      (
        await server.db.query<{ id: number; provider_bank_code: string }>(
          'SELECT id, provider_bank_code FROM settlement_rows WHERE id IN (SELECT value::int FROM json_array_elements_text($1::json))',
          [(reply.data.transactions as { id: number }[]).map((r) => r.id)],
        )
      ).map((r) => [r.id, r.provider_bank_code]),
    );
    const rows = (reply.data.transactions as Record<string, unknown>[])
      .map((r) => ({
        currency_code: r.currency_code,
        account_number: r.account_number,
        provider_bank_code: providers.get(r.id as number),
        fc_amount: r.fc_amount,
        fc_commission: r.fc_commission,
        fc_net_amount: r.fc_net_amount,
        fc_rate: r.fc_rate,
        lkr_amount: r.lkr_amount,
      }))
      .sort((a, b) => `${a.currency_code}|${a.account_number}|${a.provider_bank_code}`.localeCompare(`${b.currency_code}|${b.account_number}|${b.provider_bank_code}`));
    expect(rows).toEqual(expectedRows(smallSet));
    for (const r of reply.data.transactions) {
      expect(r.batch_date).toBe(today());
      expect(r.tran_date).toBe(format(new Date(Date.now() - 3_600_000), 'yyyy-MM-dd'));
    }
    expect(reply.data.filteredList).toEqual(reply.data.transactions);
    expect(reply.data.hasRatesUpdated).toBe(true);
    expect(reply.data.messages).toContain('1 successful MVR transaction of Bank of Ceylon IPG cannot be settled: the provider has no active settlement rate for MVR');
    const limited = await server.call('report/get-settlement-report', { date: today(), fetchCount: 2 }, admin);
    expect(limited.data.transactions).toEqual(reply.data.transactions.slice(0, 2));
  });

  it('refuses a second scheduled batch today, and the instant one finds nothing pending (422, code 36865)', async () => {
    expect(await server.call('report/generate-settlement-report', { useYesterdaysRates: true }, admin)).toEqual({
      statusCode: 409,
      data: { message: 'The settlement report for today has already been generated' },
    });
    expect(await server.call('report/generate-instant-settlement-report', {}, admin)).toEqual({
      statusCode: 422,
      data: { message: 'No pending Send Money transactions', code: 36865 },
    });
    expect(await batchesToday()).toHaveLength(1);
  });

  it('settles a later transaction in the instant batch only: the documented empty body uses the earlier rates and the batch records it; an explicit false refuses', async () => {
    const [late] = await insertSmallSet([{ currency: 'EUR', account: '7007890123', amount: '42.42', commission: '0.53', charge: '0.46' }], 'B');
    await server.db.query('DELETE FROM ipg_provider_rate_approvals WHERE rate_date = $1::date AND provider_id = (SELECT min(id) FROM ipg_providers WHERE disabled = 0)', [today()]);
    // a caller that did not confirm (the console before its dialog) is refused, and nothing is settled
    expect(await server.call('report/generate-instant-settlement-report', { useYesterdaysRates: false }, admin)).toEqual({
      statusCode: 422,
      data: { message: "Today's Currency Rates has not been updated yet!" },
    });
    expect(await batchesToday()).toHaveLength(1);
    // spec 002 §7: generate-instant-settlement-report with an empty body
    const reply = await server.call('report/generate-instant-settlement-report', {}, admin);
    expect(reply).toMatchObject({ statusCode: 200, data: { rows: 1, transactions: 1, usedEarlierRates: true } });
    const instant = await server.call('Report/get-instant-settlement-report', { date: today() }, admin);
    expect(instant.data.transactions).toHaveLength(1);
    expect(instant.data.transactions[0]).toMatchObject({ currency_code: 'EUR', account_number: '7007890123', fc_amount: 42.42, fc_commission: 0.99, fc_net_amount: 41.43 });
    expect(instant.data.transactions[0].lkr_amount).toBe(money(lkrCents(4143n, rates.EUR)));
    const batches = await batchesToday();
    expect(batches.map((b) => [b.kind, b.transaction_count, b.used_earlier_rates])).toEqual([
      ['SCHEDULED', 8, false],
      ['INSTANT', 1, true],
    ]);
    const link = await server.db.query('SELECT batch_id FROM settled_transactions WHERE transaction_id = $1', [late]);
    expect(link).toEqual([{ batch_id: batches[1].id }]);
  });

  it('writes each generation to the activity log', async () => {
    const logs = await server.db.query<{ username: string; description: string }>(
      "SELECT username, description FROM activity_logs WHERE type = 'SETTLEMENT_GENERATED' AND created_at > now() - interval '1 hour' ORDER BY id",
    );
    expect(logs.map((l) => l.description.replace(/LKR [\d,.]+/, 'LKR x'))).toEqual([
      `Generated the scheduled settlement report for ${today()}: 8 transactions in ${expectedRows(smallSet).length} rows, LKR x`,
      `Generated the instant settlement report for ${today()}: 1 transaction in 1 row, LKR x (today's rates were not approved: the earlier settlement rates were used)`,
    ]);
  });
});

describe('who may see and generate', () => {
  it('refuses users without settlement-report-view (viewing) or settlement-report-generate (generating)', async () => {
    const auditor = await server.login('auditor');
    for (const [path, body, permission] of [
      ['report/get-settlement-report', { date: today() }, 'settlement-report-view'],
      ['Report/get-instant-settlement-report', { date: today() }, 'settlement-report-view'],
      ['report/generate-settlement-report', {}, 'settlement-report-generate'],
      ['report/generate-instant-settlement-report', {}, 'settlement-report-generate'],
    ] as const) {
      expect(await server.call(path, body, auditor)).toEqual({ statusCode: 403, data: { message: `Forbidden: needs one of ${permission}` } });
    }
  });

  it("shows an IPG bank user only their own provider's rows", async () => {
    const acquirer = await server.db.one<{ provider_bank_code: string }>(
      'SELECT provider_bank_code FROM settlement_rows r JOIN settlement_batches b ON b.id = r.batch_id WHERE b.batch_date = $1::date LIMIT 1',
      [today()],
    );
    const own = await server.db.one<{ username: string }>("SELECT username FROM console_users WHERE user_type = 'IPGBANK' AND branch_code = $1 AND disabled = 0 LIMIT 1", [
      acquirer!.provider_bank_code,
    ]);
    const otherUser = await server.db.one<{ username: string }>("SELECT username FROM console_users WHERE user_type = 'IPGBANK' AND branch_code <> $1 AND disabled = 0 LIMIT 1", [
      acquirer!.provider_bank_code,
    ]);
    const all = (await server.call('report/get-settlement-report', { date: today(), fetchCount: 99999999 }, admin)).data.transactions;
    const mine = (await server.call('report/get-settlement-report', { date: today(), fetchCount: 99999999 }, await server.login(own!.username))).data.transactions;
    const theirs = (await server.call('report/get-settlement-report', { date: today(), fetchCount: 99999999 }, await server.login(otherUser!.username))).data.transactions;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length + theirs.length).toBeLessThanOrEqual(all.length);
    expect(theirs.every((r: { id: number }) => !mine.some((m: { id: number }) => m.id === r.id))).toBe(true);
  });

  it('refuses a bad date, naming the field', async () => {
    expect(await server.call('report/get-settlement-report', { date: '2024-13-45', fetchCount: 10 }, admin)).toEqual({ statusCode: 400, data: { message: 'date: Please enter a valid date' } });
  });
});

describe('the pending transactions, without reading the settled history (migrations 180 and 200)', () => {
  /** Send-money rows whose `settled` disagrees with settled_transactions, or whose `awaiting_settlement` with "successful and not settled". */
  const mismatched = () =>
    server.db.query(
      `SELECT t.id, t.status, t.settled, t.awaiting_settlement FROM ceft_transactions t
        CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id AND s.transaction_initiated_time = t.initiated_time) AS linked) l
        WHERE t.settled IS DISTINCT FROM l.linked OR t.awaiting_settlement IS DISTINCT FROM (t.status = 'SUCCESS' AND NOT l.linked) LIMIT 5`,
    );
  const awaiting = async () => Number((await server.db.one<{ n: string }>('SELECT count(*) AS n FROM ceft_transactions WHERE awaiting_settlement'))!.n);
  const settledCount = async () => Number((await server.db.one<{ n: string }>('SELECT count(*) AS n FROM ceft_transactions WHERE settled'))!.n);

  it('each transaction says it is settled exactly while a settlement row names it: through generation, deletion, re-insertion and a moved link', async () => {
    expect(await mismatched()).toEqual([]);
    const before = await settledCount();
    expect(before).toBeGreaterThan(0);
    const batch = (await server.db.one<{ id: number; n: number }>('SELECT batch_id AS id, count(*)::int AS n FROM settled_transactions GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'))!;
    const links = await server.db.query<{ transaction_id: number; batch_id: number; row_id: number }>('SELECT transaction_id, batch_id, row_id FROM settled_transactions WHERE batch_id = $1', [
      batch.id,
    ]);
    await server.db.query('DELETE FROM settled_transactions WHERE batch_id = $1', [batch.id]);
    expect(await mismatched()).toEqual([]);
    expect(await settledCount()).toBe(before - batch.n);
    await server.db.query(
      `INSERT INTO settled_transactions (transaction_id, batch_id, row_id) SELECT x.transaction_id, x.batch_id, x.row_id FROM json_to_recordset($1::json) AS x(transaction_id integer, batch_id integer, row_id integer)`,
      [links],
    );
    expect(await mismatched()).toEqual([]);
    expect(await settledCount()).toBe(before);
    // a link moved to another transaction: the old one is pending again, the new one settled
    const free = (await server.db.one<{ id: number; initiated_time: Date }>('SELECT id, initiated_time FROM ceft_transactions WHERE NOT settled ORDER BY id LIMIT 1'))!;
    await server.db.query('UPDATE settled_transactions SET transaction_id = $1, transaction_initiated_time = $2 WHERE transaction_id = $3', [free.id, free.initiated_time, links[0].transaction_id]);
    expect(await mismatched()).toEqual([]);
    expect(await settledCount()).toBe(before);
  });

  it('a transaction awaits settlement exactly while it is successful and not settled, whatever changes its status', async () => {
    const pending = (await server.db.one<{ id: number; status: string }>("SELECT id, status FROM ceft_transactions WHERE status = 'SUCCESS' AND NOT settled ORDER BY id LIMIT 1"))!;
    const n = await awaiting();
    await server.db.query("UPDATE ceft_transactions SET status = 'REFUNDED' WHERE id = $1", [pending.id]);
    expect(await awaiting()).toBe(n - 1);
    expect(await mismatched()).toEqual([]);
    await server.db.query("UPDATE ceft_transactions SET status = 'SUCCESS' WHERE id = $1", [pending.id]);
    expect(await awaiting()).toBe(n);
    expect(await mismatched()).toEqual([]);
    // it is PostgreSQL's to compute: a statement cannot set it
    await expect(server.db.query('UPDATE ceft_transactions SET awaiting_settlement = false WHERE id = $1', [pending.id])).rejects.toThrow(/awaiting_settlement/);
  });

  it('the planner expects about as many pending rows as there are (it plans the search by them)', async () => {
    await server.db.exec('ANALYZE ceft_transactions');
    const actual = await awaiting();
    expect(actual).toBeGreaterThan(0);
    /** How many rows the planner expects the search to find. */
    const expected = async (where: string) =>
      ((await server.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT t.id FROM ceft_transactions t WHERE ${where}`))[0]['QUERY PLAN'] as { Plan: { 'Plan Rows': number } }[])[0].Plan[
        'Plan Rows'
      ];
    const estimate = await expected('t.awaiting_settlement');
    // PostgreSQL expects at least one row of every month partition it reads, found or not
    const months = (await listPartitions(server.db)).filter((p) => p.table === 'ceft_transactions').length;
    // the two conditions estimated apart, as migration 180's search was: (successful) x (not settled)
    const apart = await expected("t.status = 'SUCCESS' AND NOT t.settled");
    const why = `estimated ${estimate} pending rows (${apart} from the two conditions apart), there are ${actual}, in ${months} months`;
    expect(estimate, why).toBeGreaterThanOrEqual(actual / 3);
    expect(estimate, why).toBeLessThanOrEqual(actual * 3 + months);
  });
});
