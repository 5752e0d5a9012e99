/**
 * The send-money actions through real HTTP: allowed, refused by the guard, refused without the
 * permission, idempotent, concurrent, recorded (row, daily roll-up, action log, activity log), and
 * the payment network chosen by configuration.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let maker: string;
let checker: string;
let auditor: string;
let admin: string;

const fixture = (name: string) => `module:${resolve('tests/fixtures/payments', name)}`;

beforeAll(async () => {
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  delete process.env.PAYMENT_ADAPTER;
  server = await startServer();
  [maker, checker, auditor, admin] = await Promise.all(['maker', 'checker', 'auditor', 'admin'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
  delete process.env.PAYMENT_ADAPTER;
});
afterEach(() => {
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  delete process.env.PAYMENT_ADAPTER;
  server.resetClock();
});

interface CeftState {
  id: number;
  trace: string;
  status: string;
  card_payment_status: string;
  ceft_payment_status: string | null;
  ceft_payment_description: string | null;
  ceft_transaction_id: string | null;
  ceft_try_count: number;
  refund_requested: boolean;
  ipg_void_status: string | null;
  ipg_void_tran_id: string | null;
  ipg_refund_status: string | null;
  ipg_refund_tran_id: string | null;
  action_seq: number;
}

async function state(id: number): Promise<CeftState> {
  return (await server.db.one<CeftState>('SELECT * FROM ceft_transactions WHERE id = $1', [id]))!;
}

/** Ids already used by a test, so that each test works on a transaction of its own. */
const used = new Set<number>();

/** A send-money transaction in the given state, not used by another test yet. */
async function pick(where: string): Promise<CeftState> {
  const rows = await server.db.query<CeftState>(`SELECT * FROM ceft_transactions WHERE ${where} ORDER BY id DESC LIMIT 50`);
  const row = rows.find((r) => !used.has(r.id));
  if (!row) throw new Error(`no transaction where ${where}`);
  used.add(row.id);
  return row;
}

const holdable = `card_payment_status = 'SUCCESS' AND ceft_payment_status IN ('PENDING', 'FAILED') AND coalesce(ipg_void_status, '') <> 'SUCCESS'
  AND coalesce(ipg_refund_status, '') <> 'SUCCESS' AND ceft_try_count < 100`;

/** Makes a transaction one whose refund was requested and whose card payment was made `daysAgo` days ago (the overall status stays). */
async function requestRefund(id: number, daysAgo: number) {
  await server.db.query(`UPDATE ceft_transactions SET refund_requested = true, card_payment_time = now() - ($2 || ' days')::interval WHERE id = $1`, [id, daysAgo]);
}

async function actions(id: number) {
  return server.db.query<{ action: string; outcome: string; username: string; status_before: string; status_after: string }>(
    "SELECT action, outcome, username, status_before, status_after FROM transaction_actions WHERE kind = 'ceft' AND transaction_id = $1 ORDER BY id",
    [id],
  );
}

async function activity(id: number) {
  return server.db.query<{ type: string; username: string; level: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
    `SELECT type, username, level, before, after FROM activity_logs WHERE type LIKE 'TRANSACTION_%' AND description LIKE $1 ORDER BY id`,
    [`% transaction ${id} (%`],
  );
}

/** The daily roll-up equals the send-money rows, status by status and day by day. */
async function expectRollUpConsistent() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const diff = await server.db.query(
    `
    WITH t AS (SELECT to_char(initiated_time AT TIME ZONE $1, 'YYYY-MM-DD') AS day, country, currency_code, status, count(*) AS n, sum(amount_usd) AS usd
                 FROM ceft_transactions GROUP BY 1, 2, 3, 4),
         s AS (SELECT to_char(day, 'YYYY-MM-DD') AS day, country, currency_code, status, count AS n, amount_usd AS usd
                 FROM transaction_daily_stats WHERE kind = 'ceft' AND count <> 0)
    SELECT * FROM t FULL JOIN s USING (day, country, currency_code, status) WHERE t.n IS DISTINCT FROM s.n OR t.usd IS DISTINCT FROM s.usd`,
    [zone],
  );
  expect(diff).toEqual([]);
}

describe('hold', () => {
  it('holds the fund transfer as maker: row, counts, action log and activity log follow', async () => {
    const row = await pick(holdable);
    const countsBefore = (await server.call('dashboard/CeftCount', {}, maker)).data;
    const reply = await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker);
    expect(reply).toEqual({ statusCode: 200, data: { message: `Transaction hold successful: Id - ${row.id}` } });

    const after = await state(row.id);
    expect(after).toMatchObject({ ceft_payment_status: 'HOLD', status: 'HOLD', action_seq: row.action_seq + 1, ceft_payment_description: 'Held by maker' });
    const countsAfter = (await server.call('dashboard/CeftCount', {}, maker)).data;
    expect(countsAfter.holdTranCount).toBe(countsBefore.holdTranCount + 1);
    const key = row.status === 'PENDING' ? 'pendingTranCount' : 'failedTranCount';
    expect(countsAfter[key]).toBe(countsBefore[key] - 1);

    expect(await actions(row.id)).toEqual([{ action: 'HOLD', outcome: 'SUCCESS', username: 'maker', status_before: row.status, status_after: 'HOLD' }]);
    const log = await activity(row.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ type: 'TRANSACTION_HOLD', username: 'maker', level: 'INFO' });
    expect(log[0].before).toMatchObject({ ceft_payment_status: row.ceft_payment_status, status: row.status });
    expect(log[0].after).toMatchObject({ ceft_payment_status: 'HOLD', status: 'HOLD' });
    await expectRollUpConsistent();
  });

  it('keeps the description the client sends', async () => {
    const row = await pick(holdable);
    expect((await server.call('Transaction/ceft/hold', { id: row.id, description: 'Compliance review' }, admin)).statusCode).toBe(200);
    expect((await state(row.id)).ceft_payment_description).toBe('Held by admin: Compliance review');
  });

  it('takes the description as the reason: trimmed, shown with the row and written to the activity log; blank is none; longer than 200 is refused', async () => {
    const row = await pick(holdable);
    const reason = `  Beneficiary name does not match the account ${'x'.repeat(150)}  `;
    expect((await server.call('Transaction/ceft/hold', { id: row.id, description: reason }, maker)).statusCode).toBe(200);
    // what the lists and the row drawer read
    const found = await server.call('Transaction/find', { value: String(row.id), service: 'ceft', by: 'id' }, maker);
    const match = (found.data.matches as { service: string; row: { id: number; ceft_payment_description: string; ceft_payment_status: string } }[]).find((m) => m.row.id === row.id);
    expect(match?.row).toMatchObject({ ceft_payment_status: 'HOLD', ceft_payment_description: `Held by maker: ${reason.trim()}` });
    const log = await server.db.query<{ description: string }>(`SELECT description FROM activity_logs WHERE type = 'TRANSACTION_HOLD' AND description LIKE $1`, [`% transaction ${row.id} (%`]);
    expect(log).toHaveLength(1);
    expect(log[0]!.description).toMatch(new RegExp(`succeeded through simulator; reason: ${reason.trim()}$`));

    // only spaces: no reason
    const blank = await pick(holdable);
    expect((await server.call('Transaction/ceft/hold', { id: blank.id, description: '   ' }, maker)).statusCode).toBe(200);
    expect((await state(blank.id)).ceft_payment_description).toBe('Held by maker');
    const blankLog = await server.db.query<{ description: string }>(`SELECT description FROM activity_logs WHERE type = 'TRANSACTION_HOLD' AND description LIKE $1`, [`% transaction ${blank.id} (%`]);
    expect(blankLog[0]!.description).not.toContain('reason');

    // 200 characters are taken, 201 are refused with the message the console shows, and nothing changes
    const long = await pick(holdable);
    expect(await server.call('Transaction/ceft/hold', { id: long.id, description: 'y'.repeat(201) }, maker)).toEqual({
      statusCode: 400,
      data: { message: 'description: Hold reason can have at most 200 characters' },
    });
    expect(await state(long.id)).toEqual(long);
    expect((await server.call('Transaction/ceft/hold', { id: long.id, description: 'y'.repeat(200) }, maker)).statusCode).toBe(200);
    expect((await state(long.id)).ceft_payment_description).toBe(`Held by maker: ${'y'.repeat(200)}`);
  });

  it('does not act twice on a second identical request', async () => {
    const row = await pick(holdable);
    const first = await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker);
    const second = await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker);
    expect(second).toEqual(first);
    expect((await state(row.id)).action_seq).toBe(row.action_seq + 1);
    expect(await actions(row.id)).toHaveLength(1);
    expect(await activity(row.id)).toHaveLength(1);
  });

  it('is refused by the guard after the transfer succeeded, or at 100 tries, changing nothing', async () => {
    const done = await pick(`card_payment_status = 'SUCCESS' AND ceft_payment_status = 'SUCCESS'`);
    expect(await server.call('Transaction/ceft/hold', { id: done.id, description: '' }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'The fund transfer of this transaction has already succeeded' },
    });
    const tried = await pick(`${holdable.replace('ceft_try_count < 100', 'ceft_try_count >= 0')} AND ceft_payment_status = 'FAILED'`);
    await server.db.query('UPDATE ceft_transactions SET ceft_try_count = 100 WHERE id = $1', [tried.id]);
    expect(await server.call('Transaction/ceft/hold', { id: tried.id, description: '' }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'Hold is not allowed after 100 or more CEFT tries' },
    });
    const failedCard = await pick(`card_payment_status = 'FAILED'`);
    expect((await server.call('Transaction/ceft/hold', { id: failedCard.id, description: '' }, maker)).data.message).toBe('The card payment of this transaction has not succeeded');
    for (const r of [done, tried, failedCard]) {
      expect((await state(r.id)).action_seq).toBe(r.action_seq);
      expect(await actions(r.id)).toEqual([]);
    }
  });

  it('is refused without transaction-hold (403) and for unknown transactions (404)', async () => {
    const row = await pick(holdable);
    for (const token of [checker, auditor]) {
      expect(await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, token)).toEqual({
        statusCode: 403,
        data: { message: 'Forbidden: needs one of transaction-hold' },
      });
    }
    expect((await server.call('Transaction/ceft/hold', { id: row.id, description: '' })).statusCode).toBe(401);
    expect(await server.call('Transaction/ceft/hold', { id: 99_999_999, description: '' }, maker)).toEqual({ statusCode: 404, data: { message: 'Transaction not found' } });
    expect((await state(row.id)).action_seq).toBe(row.action_seq);
  });
});

describe('manual fund transfer', () => {
  it('transfers by trace, without a try limit, then the transfer cannot be held', async () => {
    const row = await pick(`${holdable.replace('ceft_try_count < 100', 'ceft_try_count >= 0')} AND ceft_payment_status = 'FAILED'`);
    await server.db.query('UPDATE ceft_transactions SET ceft_try_count = 120 WHERE id = $1', [row.id]);
    const reply = await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker);
    expect(reply).toEqual({ statusCode: 200, data: { message: `Fund transfer successful: Id - ${row.id}` } });
    const after = await state(row.id);
    expect(after).toMatchObject({ ceft_payment_status: 'SUCCESS', status: 'SUCCESS', ceft_try_count: 121 });
    expect(after.ceft_transaction_id).toMatch(/^CEFT\d{12}$/);
    expect((await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker)).statusCode).toBe(422);
    // the same request again is answered as the first time, without a second transfer
    expect(await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker)).toEqual(reply);
    expect((await state(row.id)).ceft_try_count).toBe(121);
    expect(await actions(row.id)).toHaveLength(1);
    await expectRollUpConsistent();
  });

  it('records a failed transfer, replays it to a repeated request, and lets a later retry act', async () => {
    const row = await pick(`${holdable} AND ceft_payment_status = 'PENDING'`);
    process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '1';
    const failed = await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker);
    expect(failed.statusCode).toBe(422);
    expect(failed.data.message).toMatch(/^Fund transfer failed: /);
    const after = await state(row.id);
    expect(after).toMatchObject({ ceft_payment_status: 'FAILED', status: 'FAILED', ceft_try_count: row.ceft_try_count + 1, ceft_payment_description: failed.data.message });

    expect(await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker)).toEqual(failed);
    expect((await state(row.id)).ceft_try_count).toBe(row.ceft_try_count + 1);

    server.advanceClock(61_000);
    process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker)).statusCode).toBe(200);
    expect(await state(row.id)).toMatchObject({ ceft_payment_status: 'SUCCESS', status: 'SUCCESS', ceft_try_count: row.ceft_try_count + 2 });
    expect((await actions(row.id)).map((a) => a.outcome)).toEqual(['FAILED', 'SUCCESS']);
    const log = await activity(row.id);
    expect(log.map((l) => [l.type, l.level])).toEqual([
      ['TRANSACTION_MANUAL_FUND_TRANSFER', 'WARN'],
      ['TRANSACTION_MANUAL_FUND_TRANSFER', 'INFO'],
    ]);
    await expectRollUpConsistent();
  });

  it('is refused without transaction-retry and for an unknown trace', async () => {
    const row = await pick(holdable);
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, checker)).statusCode).toBe(403);
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, auditor)).statusCode).toBe(403);
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: 'NO-SUCH-TRACE' }, maker)).statusCode).toBe(404);
    expect((await state(row.id)).action_seq).toBe(row.action_seq);
  });
});

describe('void and refund', () => {
  const refundable = `card_payment_status = 'SUCCESS' AND ceft_payment_status = 'FAILED' AND ipg_void_status IS NULL AND ipg_refund_status IS NULL`;

  it('voids a card payment made today', async () => {
    const row = await pick(refundable);
    await requestRefund(row.id, 0);
    expect(await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'The card payment was made today: void it instead' },
    });
    const reply = await server.call('Transaction/ceft/void', { transactionID: row.id }, maker);
    expect(reply).toEqual({ statusCode: 200, data: { message: `Transaction voided successfully: Id - ${row.id}` } });
    const after = await state(row.id);
    expect(after).toMatchObject({ ipg_void_status: 'SUCCESS', status: 'REFUNDED' });
    expect(after.ipg_void_tran_id).toMatch(/^VD\d{10}$/);
    expect(await server.call('Transaction/ceft/void', { transactionID: row.id }, maker)).toEqual(reply);
    expect(await actions(row.id)).toHaveLength(1);
    await expectRollUpConsistent();
  });

  it('refunds an earlier card payment; then neither void nor refund is offered', async () => {
    const row = await pick(refundable);
    await requestRefund(row.id, 3);
    expect(await server.call('Transaction/ceft/void', { transactionID: row.id }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'The card payment was not made today: refund it instead' },
    });
    const reply = await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker);
    expect(reply).toEqual({ statusCode: 200, data: { message: `Transaction refunded successfully: Id - ${row.id}` } });
    expect(await state(row.id)).toMatchObject({ ipg_refund_status: 'SUCCESS', status: 'REFUNDED' });
    // a hold is no longer allowed, and a manual transfer neither
    expect((await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker)).data.message).toBe('The card payment of this transaction has been refunded');
    expect((await server.call('Transaction/ceft/manualFundTransfer', { trace: row.trace }, maker)).statusCode).toBe(422);
    await expectRollUpConsistent();
  });

  it('is refused when no refund was requested, and without transaction-refund', async () => {
    const row = await pick(`${refundable} AND refund_requested = false`);
    expect(await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'No refund has been requested for this transaction' },
    });
    await requestRefund(row.id, 2);
    for (const token of [checker, auditor]) {
      expect((await server.call('Transaction/ceft/refund', { transactionID: row.id }, token)).statusCode).toBe(403);
      expect((await server.call('Transaction/ceft/void', { transactionID: row.id }, token)).statusCode).toBe(403);
    }
    expect((await state(row.id)).action_seq).toBe(row.action_seq);
  });

  it('gives one refund for 20 parallel refund requests on two server processes', async () => {
    const row = await pick(refundable);
    await requestRefund(row.id, 5);
    process.env.PAYMENT_ADAPTER = fixture('recordingNetwork.mjs');
    const calls = ((globalThis as { __paymentCalls?: { op: string; reference: string }[] }).__paymentCalls ??= []);
    const peer = await server.startPeer();
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : server).call('Transaction/ceft/refund', { transactionID: row.id }, maker)));
      expect(new Set(replies.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ statusCode: 200, data: { message: `Transaction refunded successfully: Id - ${row.id}` } })]));
    } finally {
      await peer.close();
    }
    expect(calls.filter((c) => c.reference === row.trace)).toEqual([{ op: 'refund', reference: row.trace }]);
    expect(await actions(row.id)).toHaveLength(1);
    expect(await activity(row.id)).toHaveLength(1);
    expect(await state(row.id)).toMatchObject({ ipg_refund_status: 'SUCCESS', status: 'REFUNDED', action_seq: row.action_seq + 1 });
    await expectRollUpConsistent();
  });
});

describe('the payment network by configuration', () => {
  it('uses a real adapter given as a module; an unreachable network changes nothing (502)', async () => {
    const row = await pick(holdable);
    process.env.PAYMENT_ADAPTER = fixture('unreachableNetwork.mjs');
    expect(await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker)).toEqual({
      statusCode: 502,
      data: { message: 'The payment network could not be reached; nothing was changed' },
    });
    expect(await state(row.id)).toEqual(row);
    expect(await actions(row.id)).toEqual([]);
  });

  it('refuses a configuration it cannot honour with a 500 and changes nothing', async () => {
    const row = await pick(holdable);
    process.env.PAYMENT_ADAPTER = 'carrier-pigeon';
    const reply = await server.call('Transaction/ceft/hold', { id: row.id, description: '' }, maker);
    expect(reply.statusCode).toBe(500);
    expect(await state(row.id)).toEqual(row);
  });
});

describe('bad bodies', () => {
  it.each([
    ['Transaction/ceft/hold', { id: -1, description: '' }, /^id: /],
    ['Transaction/ceft/hold', { id: 1, description: 'x'.repeat(201) }, /^description: /],
    ['Transaction/ceft/void', { transactionID: 'abc' }, /^transactionID: /],
    ['Transaction/ceft/refund', { transactionID: 1.5 }, /^transactionID: /],
    ['Transaction/ceft/manualFundTransfer', { trace: '' }, /^trace: /],
  ] as const)('%s %j → 400', async (path, b, message) => {
    const reply = await server.call(path, b, admin);
    expect(reply.statusCode).toBe(400);
    expect(reply.data.message).toMatch(message);
  });
});
