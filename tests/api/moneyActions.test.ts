/**
 * The send-money actions (hold, manual fund transfer, void, refund) under concurrency, retries and
 * states the console would not offer, through real HTTP on two server instances on one database.
 * The payment network is a recording adapter (tests/fixtures/payments/recordingNetwork.mjs) that
 * approves everything and counts what it was asked, so "the network acted once" is observable.
 *
 * The 20-parallel refund race is in tests/api/transactionsActions.test.ts; here: the same for void,
 * hold and manual transfer, all four actions racing on one transaction (the result must be a serial
 * history), retries, and a property test of the server-side guards against an oracle written from
 * spec 001 §4; and a fault after the network answered (the server stops before it records the
 * answer): nothing is recorded, and the retry carries the same idempotency key, so a network that honours
 * it does not move the money twice.
 */
import fc from 'fast-check';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer } from './harness';
import { CEFT_ACTIONS, callCeftAction, type CeftAction } from './ceftActions';

let server: TestServer;
let peer: ApiClient & { close(): Promise<void> };
let maker: string;
let admin: string;

const calls = ((globalThis as { __paymentCalls?: { op: string; reference: string }[] }).__paymentCalls ??= []);

beforeAll(async () => {
  process.env.PAYMENT_ADAPTER = `module:${resolve('tests/fixtures/payments/recordingNetwork.mjs')}`;
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
  server = await startServer();
  peer = await server.startPeer();
  [maker, admin] = await Promise.all([server.login('maker'), server.login('admin')]);
});
afterAll(async () => {
  await peer?.close();
  await server?.close();
  delete process.env.PAYMENT_ADAPTER;
});

type Action = CeftAction;
const ACTIONS = CEFT_ACTIONS;
const OP: Record<Action, string> = { hold: 'hold', manualFundTransfer: 'transfer', void: 'void', refund: 'refund' };
const ACTION_NAME: Record<Action, string> = { hold: 'HOLD', manualFundTransfer: 'MANUAL_FUND_TRANSFER', void: 'VOID', refund: 'REFUND' };

interface Row {
  id: number;
  trace: string;
  action_seq: number;
  [column: string]: unknown;
}

const rowOf = async (id: number) => (await server.db.one<Row>('SELECT * FROM ceft_transactions WHERE id = $1', [id]))!;

const act = (client: ApiClient, action: Action, row: Pick<Row, 'id' | 'trace'>, token = maker) => callCeftAction(client, action, row, token);

const networkCalls = (trace: string) => calls.filter((c) => c.reference === trace).map((c) => c.op);
const actionRows = (id: number) =>
  server.db.query<{ action: string; seq_before: number; seq_after: number; outcome: string; status_code: number }>(
    "SELECT action, seq_before, seq_after, outcome, status_code FROM transaction_actions WHERE kind = 'ceft' AND transaction_id = $1 ORDER BY id",
    [id],
  );
const activityRows = (id: number) =>
  server.db.query<{ type: string }>("SELECT type FROM activity_logs WHERE type LIKE 'TRANSACTION_%' AND description LIKE $1 ORDER BY id", [`% transaction ${id} (%`]);

/** Send-money rows no test has used yet and that no action has touched. */
let cursor = 0;
async function freshRow(): Promise<Row> {
  const row = await server.db.one<Row>(
    `SELECT * FROM ceft_transactions c WHERE id > $1 AND NOT EXISTS (SELECT 1 FROM transaction_actions a WHERE a.kind = 'ceft' AND a.transaction_id = c.id) ORDER BY id LIMIT 1`,
    [cursor],
  );
  if (!row) throw new Error('no unused send-money transaction left');
  cursor = row.id;
  return row;
}

/** A row put in a given state (any other column as seeded). */
interface State {
  card: string;
  ceft: string | null;
  void: string | null;
  refund: string | null;
  refundRequested: boolean;
  /** days between the card payment and now: 0 = the same moment (today) */
  paidDaysAgo: number;
  tries: number;
}

async function rowIn(state: State): Promise<Row> {
  const row = await freshRow();
  const paid = new Date(server.now().getTime() - state.paidDaysAgo * 86_400_000);
  await server.db.query(
    `UPDATE ceft_transactions SET card_payment_status = $2, ceft_payment_status = $3, ipg_void_status = $4, ipg_refund_status = $5,
            refund_requested = $6, card_payment_time = $7, ceft_try_count = $8, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id)
      WHERE id = $1`,
    [row.id, state.card, state.ceft, state.void, state.refund, state.refundRequested, paid, state.tries],
  );
  return rowOf(row.id);
}

const ACTIONABLE: State = { card: 'SUCCESS', ceft: 'FAILED', void: null, refund: null, refundRequested: true, paidDaysAgo: 0, tries: 3 };
const SUCCESS_MESSAGE: Record<Action, (id: number) => string> = {
  hold: (id) => `Transaction hold successful: Id - ${id}`,
  manualFundTransfer: (id) => `Fund transfer successful: Id - ${id}`,
  void: (id) => `Transaction voided successfully: Id - ${id}`,
  refund: (id) => `Transaction refunded successfully: Id - ${id}`,
};

describe('20 parallel requests of one action on one transaction (two server instances)', () => {
  it.each([
    ['void', { ...ACTIONABLE, paidDaysAgo: 0 }],
    ['hold', ACTIONABLE],
    ['manualFundTransfer', ACTIONABLE],
  ] as const)('%s: one network call, one action row, one activity row; every reply the same 200; retries replay it', async (action, state) => {
    const row = await rowIn(state);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => act(i % 2 ? peer : server, action, row, i % 3 ? maker : admin)));
    const expected = { statusCode: 200, data: { message: SUCCESS_MESSAGE[action](row.id) } };
    for (const r of replies) expect(r).toEqual(expected);
    expect(networkCalls(row.trace)).toEqual([OP[action]]);
    expect(await actionRows(row.id)).toEqual([{ action: ACTION_NAME[action], seq_before: row.action_seq, seq_after: row.action_seq + 1, outcome: 'SUCCESS', status_code: 200 }]);
    expect(await activityRows(row.id)).toEqual([{ type: `TRANSACTION_${ACTION_NAME[action]}` }]);

    // a client retrying (the same body, later, on either server) gets the same answer and nothing acts again
    const after = await rowOf(row.id);
    for (const client of [server, peer, server]) expect(await act(client, action, row)).toEqual(expected);
    expect(await rowOf(row.id)).toEqual(after);
    expect(networkCalls(row.trace)).toHaveLength(1);
    expect(await actionRows(row.id)).toHaveLength(1);
  });
});

describe('all four actions racing on one transaction', () => {
  it('the outcome is a serial history: a chain of action rows, one network call and one activity row each, no action twice', async () => {
    for (const paidDaysAgo of [0, 4, 0, 4]) {
      const row = await rowIn({ ...ACTIONABLE, paidDaysAgo });
      const order = Array.from({ length: 20 }, (_, i) => ACTIONS[(i * 7 + paidDaysAgo) % 4]);
      const replies = await Promise.all(order.map((action, i) => act(i % 2 ? peer : server, action, row, i % 5 ? maker : admin)));
      for (const r of replies) expect([200, 422]).toContain(r.statusCode);

      const rows = await actionRows(row.id);
      // a chain: each action started from the state the previous one left
      rows.forEach((r, i) => {
        expect(r.seq_before).toBe(row.action_seq + i);
        expect(r.seq_after).toBe(row.action_seq + i + 1);
        expect(r.outcome).toBe('SUCCESS');
      });
      const done = rows.map((r) => r.action);
      expect(new Set(done).size).toBe(done.length);
      expect(networkCalls(row.trace)).toEqual(done.map((a) => OP[ACTIONS.find((x) => ACTION_NAME[x] === a)!]));
      expect((await activityRows(row.id)).map((r) => r.type)).toEqual(done.map((a) => `TRANSACTION_${a}`));
      expect((await rowOf(row.id)).action_seq).toBe(row.action_seq + rows.length);
      // each 200 names an action that happened; a void or a refund ends every other action
      for (const [i, r] of replies.entries()) if (r.statusCode === 200) expect(done).toContain(ACTION_NAME[order[i]]);
      // money moves at most once: of a fund transfer, a void and a refund, at most one happened, and it ended the history
      const movers = done.filter((a) => a !== 'HOLD');
      expect(movers.length).toBeLessThanOrEqual(1);
      if (movers.length) expect(done.indexOf(movers[0])).toBe(done.length - 1);
      // exactly one of void/refund is possible for the day of the card payment
      expect(done).not.toContain(paidDaysAgo === 0 ? 'REFUND' : 'VOID');
    }
  });
});

describe('the guards, whatever the console shows', () => {
  /** Spec 001 §4, written independently of src/domain/transactionGuards.ts. */
  function allowed(action: Action, s: State): boolean {
    const voided = s.void === 'SUCCESS';
    const refunded = s.refund === 'SUCCESS';
    if (action === 'hold' || action === 'manualFundTransfer') {
      const open = !voided && !refunded && s.ceft !== 'SUCCESS' && s.card === 'SUCCESS';
      return action === 'hold' ? open && s.tries < 100 : open;
    }
    // money moves at most once: no void or refund once the beneficiary was paid
    const reversible = !voided && !refunded && s.ceft !== 'SUCCESS' && s.refundRequested;
    return action === 'void' ? reversible && s.paidDaysAgo === 0 : reversible && s.paidDaysAgo > 0;
  }

  const state = fc
    .record<State>({
      card: fc.constantFrom('SUCCESS', 'FAILED', 'PENDING'),
      ceft: fc.constantFrom('SUCCESS', 'FAILED', 'PENDING', 'HOLD', null),
      void: fc.constantFrom(null, 'SUCCESS', 'FAILED'),
      refund: fc.constantFrom(null, 'SUCCESS', 'FAILED'),
      refundRequested: fc.boolean(),
      paidDaysAgo: fc.constantFrom(0, 3, 200),
      tries: fc.constantFrom(0, 99, 100, 250),
    })
    // a state with two successful money movements cannot be written any more (migration 75)
    .filter((s) => [s.ceft, s.void, s.refund].filter((x) => x === 'SUCCESS').length <= 1);

  it('an action the rules refuse answers 422 and changes nothing (row, action log, activity log, network); one they allow acts once', async () => {
    let refused = 0;
    let acted = 0;
    await fc.assert(
      fc.asyncProperty(state, fc.constantFrom(...ACTIONS), fc.boolean(), async (s, action, onPeer) => {
        const row = await rowIn(s);
        const reply = await act(onPeer ? peer : server, action, row, onPeer ? admin : maker);
        if (!allowed(action, s)) {
          refused += 1;
          expect(reply.statusCode, `${action} on ${JSON.stringify(s)}: ${JSON.stringify(reply.data)}`).toBe(422);
          expect(reply.data.message).toMatch(/\S/);
          expect(await rowOf(row.id)).toEqual(row);
          expect(await actionRows(row.id)).toEqual([]);
          expect(await activityRows(row.id)).toEqual([]);
          expect(networkCalls(row.trace)).toEqual([]);
        } else {
          acted += 1;
          expect(reply, `${action} on ${JSON.stringify(s)}`).toEqual({ statusCode: 200, data: { message: SUCCESS_MESSAGE[action](row.id) } });
          expect(networkCalls(row.trace)).toEqual([OP[action]]);
          expect(await actionRows(row.id)).toHaveLength(1);
          expect((await rowOf(row.id)).action_seq).toBe(row.action_seq + 1);
        }
      }),
      { numRuns: 150 },
    );
    expect(refused).toBeGreaterThan(20);
    expect(acted).toBeGreaterThan(5);
  });

  it('without the action permission: 403 and nothing changes, on every action', async () => {
    const checker = await server.login('checker');
    const row = await rowIn(ACTIONABLE);
    for (const action of ACTIONS) expect((await act(peer, action, row, checker)).statusCode).toBe(403);
    expect(await rowOf(row.id)).toEqual(row);
    expect(networkCalls(row.trace)).toEqual([]);
  });
});

describe('a fault after the payment network answered, before the answer is recorded', () => {
  const network = () => (globalThis as { __idempotentNetwork?: { requests: { op: string; reference: string; key?: string }[]; acted: { op: string; reference: string }[] } }).__idempotentNetwork!;
  beforeEach(() => {
    process.env.PAYMENT_ADAPTER = `module:${resolve('tests/fixtures/payments/idempotentNetwork.mjs')}`;
  });
  afterEach(() => {
    process.env.PAYMENT_ADAPTER = `module:${resolve('tests/fixtures/payments/recordingNetwork.mjs')}`;
  });

  it.each(ACTIONS)('%s: nothing recorded (500), the retry sends the same idempotency key and the network acts once', async (action) => {
    const row = await rowIn({ ...ACTIONABLE, paidDaysAgo: action === 'refund' ? 5 : 0 });
    // the last write of an action fails, as a crash would after the network call
    await server.db.exec(`
      CREATE OR REPLACE FUNCTION test_injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$;
      CREATE TRIGGER test_injected_fault BEFORE INSERT ON activity_logs FOR EACH ROW WHEN (NEW.type LIKE 'TRANSACTION_%') EXECUTE FUNCTION test_injected_fault();`);
    try {
      expect((await act(server, action, row)).statusCode).toBe(500);
    } finally {
      await server.db.exec('DROP TRIGGER test_injected_fault ON activity_logs; DROP FUNCTION test_injected_fault();');
    }
    expect(await rowOf(row.id)).toEqual(row);
    expect(await actionRows(row.id)).toEqual([]);

    expect(await act(peer, action, row)).toEqual({ statusCode: 200, data: { message: SUCCESS_MESSAGE[action](row.id) } });
    const asked = network().requests.filter((r) => r.reference === row.trace);
    expect(asked).toHaveLength(2);
    expect(asked[0].key).toMatch(/\S/);
    expect(asked[1].key).toBe(asked[0].key);
    expect(network().acted.filter((r) => r.reference === row.trace)).toEqual([{ op: OP[action], reference: row.trace }]);
    expect(await actionRows(row.id)).toHaveLength(1);
  });

  it('an attempt on a row that has moved on carries a new key', async () => {
    const row = await rowIn(ACTIONABLE);
    expect((await act(server, 'hold', row)).statusCode).toBe(200);
    expect((await act(peer, 'manualFundTransfer', row)).statusCode).toBe(200);
    // the beneficiary was paid: the void is refused before the network is asked (money moves at most once)
    expect(await act(server, 'void', row)).toEqual({ statusCode: 422, data: { message: 'The fund transfer of this transaction has already succeeded' } });
    const keys = network()
      .requests.filter((r) => r.reference === row.trace)
      .map((r) => r.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(
      network()
        .acted.filter((r) => r.reference === row.trace)
        .map((r) => r.op),
    ).toEqual(['hold', 'transfer']);
  });
});
