/**
 * Money moves at most once (docs/security.md "Money"): per send-money transaction at most one of a
 * successful CEFT payout, a successful void and a successful refund, whatever the order, the server
 * or the concurrency. Checked three ways: the actions through HTTP (the guard refuses), the database
 * by hand-written SQL (migration 75's triggers refuse), and a property test of random action sequences
 * on two server instances with the payment simulator's random declines, which after every step reads
 * the database rows, the action log and the simulator's own log of what it paid.
 *
 * MONEY_RUNS sets the property test's runs (default 50: about 15 s on PGlite).
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorLogEntry } from '../../src/server/payments/simulator';
import { insertableColumns, startServer, type ApiClient, type TestServer } from './harness';
import { CEFT_ACTIONS, callCeftAction, type CeftAction } from './ceftActions';

const RUNS = Number(process.env.MONEY_RUNS ?? 50);

let server: TestServer;
let peer: ApiClient & { close(): Promise<void> };
let maker: string;
let admin: string;
const dir = mkdtempSync(join(tmpdir(), 'money-once-'));
const logFile = join(dir, 'simulator.log');

beforeAll(async () => {
  delete process.env.PAYMENT_ADAPTER;
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  process.env.PAYMENT_SIMULATOR_LOG = logFile;
  writeFileSync(logFile, '');
  server = await startServer();
  peer = await server.startPeer();
  [maker, admin] = await Promise.all([server.login('maker'), server.login('admin')]);
});
afterAll(async () => {
  await peer?.close();
  await server?.close();
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
  delete process.env.PAYMENT_SIMULATOR_LOG;
  rmSync(dir, { recursive: true, force: true });
});

type Action = CeftAction;
const ACTIONS = CEFT_ACTIONS;

interface Row {
  id: number;
  trace: string;
  ceft_payment_status: string | null;
  ipg_void_status: string | null;
  ipg_refund_status: string | null;
  action_seq: number;
  [column: string]: unknown;
}

const rowOf = async (id: number) => (await server.db.one<Row>('SELECT * FROM ceft_transactions WHERE id = $1', [id]))!;

const act = (client: ApiClient, action: Action, row: Pick<Row, 'id' | 'trace'>, token = maker) => callCeftAction(client, action, row, token);

/** The simulator's log: what the payment network did. */
const networkLog = (): SimulatorLogEntry[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SimulatorLogEntry);
const moved = (trace: string) => networkLog().filter((e) => e.reference === trace && e.ok && e.op !== 'hold');

/** A send-money row no test has used: card paid `paidDaysAgo` days ago, transfer failed, refund requested. */
let cursor = 0;
async function actionable(paidDaysAgo: number, ceft = 'FAILED', refundRequested = true): Promise<Row> {
  const row = await server.db.one<Row>(
    `SELECT * FROM ceft_transactions c WHERE id > $1 AND bank_code ~ '^[0-9]{4}$' AND account_number ~ '^[0-9]{6,16}$'
        AND NOT EXISTS (SELECT 1 FROM transaction_actions a WHERE a.kind = 'ceft' AND a.transaction_id = c.id) ORDER BY id LIMIT 1`,
    [cursor],
  );
  if (!row) throw new Error('no unused send-money transaction left');
  cursor = row.id;
  await server.db.query(
    `UPDATE ceft_transactions SET card_payment_status = 'SUCCESS', ceft_payment_status = $2, ipg_void_status = NULL, ipg_refund_status = NULL,
            refund_requested = $3, card_payment_time = $4, ceft_try_count = 1, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id)
      WHERE id = $1`,
    [row.id, ceft, refundRequested, new Date(server.now().getTime() - paidDaysAgo * 86_400_000)],
  );
  return rowOf(row.id);
}

const successes = (r: Pick<Row, 'ceft_payment_status' | 'ipg_void_status' | 'ipg_refund_status'>) =>
  [r.ceft_payment_status, r.ipg_void_status, r.ipg_refund_status].filter((s) => s === 'SUCCESS').length;

describe('the actions: the beneficiary paid, the card payment stays', () => {
  it.each([
    ['refund', 4],
    ['void', 0],
  ] as const)('a manual fund transfer followed by a %s (card paid %s days ago) is refused (422), nothing changes, the network is not asked', async (reversal, days) => {
    const row = await actionable(days);
    expect(await act(server, 'manualFundTransfer', row)).toEqual({ statusCode: 200, data: { message: `Fund transfer successful: Id - ${row.id}` } });
    const paid = await rowOf(row.id);
    for (const client of [server, peer]) {
      expect(await act(client, reversal, row, admin)).toEqual({ statusCode: 422, data: { message: 'The fund transfer of this transaction has already succeeded' } });
    }
    expect(await rowOf(row.id)).toEqual(paid);
    expect(moved(row.trace).map((e) => e.op)).toEqual(['transfer']);
  });

  it('a refund followed by a manual fund transfer: the transfer is refused', async () => {
    const row = await actionable(4);
    expect((await act(peer, 'refund', row)).statusCode).toBe(200);
    expect(await act(server, 'manualFundTransfer', row)).toEqual({ statusCode: 422, data: { message: 'The card payment of this transaction has been refunded' } });
    expect(moved(row.trace).map((e) => e.op)).toEqual(['refund']);
  });

  it('a held transaction can still be transferred by hand (spec 001), and then not refunded', async () => {
    const row = await actionable(4);
    expect((await act(server, 'hold', row)).statusCode).toBe(200);
    expect((await act(peer, 'manualFundTransfer', row)).statusCode).toBe(200);
    expect((await act(server, 'refund', row)).statusCode).toBe(422);
    expect(moved(row.trace).map((e) => e.op)).toEqual(['transfer']);
  });

  it('a transfer and a refund sent at the same time on two servers: exactly one moves money', async () => {
    for (let i = 0; i < 6; i++) {
      const row = await actionable(4);
      const replies = await Promise.all([act(server, 'manualFundTransfer', row), act(peer, 'refund', row), act(peer, 'manualFundTransfer', row), act(server, 'refund', row)]);
      expect(replies.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
      expect(successes(await rowOf(row.id))).toBe(1);
      expect(moved(row.trace)).toHaveLength(1);
    }
  });
});

describe('the database refuses a second success, whoever writes it', () => {
  const refused = async (sql: string, params: unknown[]) => {
    const error = await server.db.query(sql, params).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error, sql).toBeDefined();
    expect(error!.code).toBe('23514');
    expect(error!.message).toMatch(/money moves at most once/);
  };

  it('an UPDATE that would make a paid-out transaction refunded or voided (or the other way round) is refused; the row is unchanged', async () => {
    const row = await actionable(4, 'SUCCESS');
    await refused(`UPDATE ceft_transactions SET ipg_refund_status = 'SUCCESS', status = 'REFUNDED' WHERE id = $1`, [row.id]);
    await refused(`UPDATE ceft_transactions SET ipg_void_status = 'SUCCESS' WHERE id = $1`, [row.id]);
    expect(await rowOf(row.id)).toEqual(row);

    const refundedRow = await actionable(4);
    await server.db.query(`UPDATE ceft_transactions SET ipg_refund_status = 'SUCCESS', status = 'REFUNDED' WHERE id = $1`, [refundedRow.id]);
    await refused(`UPDATE ceft_transactions SET ceft_payment_status = 'SUCCESS' WHERE id = $1`, [refundedRow.id]);
    await refused(`UPDATE ceft_transactions SET ipg_void_status = 'SUCCESS' WHERE id = $1`, [refundedRow.id]);
    // a failed attempt is no movement of money: allowed
    await server.db.query(`UPDATE ceft_transactions SET ceft_payment_status = 'FAILED' WHERE id = $1`, [refundedRow.id]);
  });

  it('an INSERT of a row with two successes is refused', async () => {
    const columns = await insertableColumns(server.db, 'ceft_transactions');
    await refused(
      `INSERT INTO ceft_transactions (${columns}) SELECT ${columns} FROM (SELECT (json_populate_record(NULL::ceft_transactions, (row_to_json(c)::jsonb || jsonb_build_object(
          'id', (SELECT max(id) + 1000 FROM ceft_transactions), 'trace', 'X' || c.trace, 'ceft_payment_status', 'SUCCESS', 'ipg_void_status', 'SUCCESS'))::json)).*
         FROM ceft_transactions c WHERE c.id = $1) x`,
      [(await actionable(0)).id],
    );
  });

  it('a second successful fund transfer, void or refund in the action log is refused', async () => {
    const row = await actionable(4);
    expect((await act(server, 'refund', row)).statusCode).toBe(200);
    await refused(
      `INSERT INTO transaction_actions (kind, transaction_id, action, seq_before, seq_after, outcome, status_code, message, username, status_before, status_after)
       VALUES ('ceft', $1, 'MANUAL_FUND_TRANSFER', 99, 100, 'SUCCESS', 200, 'x', 'maker', 'REFUNDED', 'REFUNDED')`,
      [row.id],
    );
    // a failed attempt or a hold is recorded as before
    await server.db.query(
      `INSERT INTO transaction_actions (kind, transaction_id, action, seq_before, seq_after, outcome, status_code, message, username, status_before, status_after)
       VALUES ('ceft', $1, 'MANUAL_FUND_TRANSFER', 99, 100, 'FAILED', 422, 'x', 'maker', 'REFUNDED', 'REFUNDED')`,
      [row.id],
    );
  });

  it('a row that broke the rule before the migration stays readable and writable in its other columns, and gains no further success', async () => {
    // such a row can only be made with the trigger off, as the old server made them
    const row = await actionable(4, 'SUCCESS');
    await server.db.exec('ALTER TABLE ceft_transactions DISABLE TRIGGER ceft_transactions_money_once_upd');
    try {
      await server.db.query(`UPDATE ceft_transactions SET ipg_refund_status = 'SUCCESS', status = 'REFUNDED' WHERE id = $1`, [row.id]);
    } finally {
      await server.db.exec('ALTER TABLE ceft_transactions ENABLE TRIGGER ceft_transactions_money_once_upd');
    }
    await server.db.query(`UPDATE ceft_transactions SET ceft_payment_description = 'checked by operations', updated_at = now() WHERE id = $1`, [row.id]);
    await server.db.query(`UPDATE ceft_transactions SET ceft_payment_status = 'SUCCESS', ipg_refund_status = 'SUCCESS' WHERE id = $1`, [row.id]);
    await refused(`UPDATE ceft_transactions SET ipg_void_status = 'SUCCESS' WHERE id = $1`, [row.id]);
    // and the server offers it nothing
    for (const action of ACTIONS) expect((await act(server, action, row)).statusCode).toBe(422);
  });
});

describe('property: random action sequences on two servers with random declines', () => {
  interface Command {
    action: Action;
    row: number;
    onPeer: boolean;
  }
  const command = fc.record<Command>({ action: fc.constantFrom(...ACTIONS), row: fc.nat(2), onPeer: fc.boolean() });
  /** A step: one to three commands sent at the same time. */
  const steps = fc.array(fc.array(command, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 7 });
  const setup = fc.array(fc.record({ paidDaysAgo: fc.constantFrom(0, 5), ceft: fc.constantFrom('FAILED', 'PENDING', 'HOLD'), refundRequested: fc.boolean() }), {
    minLength: 3,
    maxLength: 3,
  });

  it('after every step: at most one money movement per transaction in the row, in the action log and in the network log, and the three agree', async () => {
    let runs = 0;
    let actions = 0;
    const answers: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(setup, steps, fc.constantFrom('0', '0.3', '0.6'), async (rows, plan, failureRate) => {
        runs += 1;
        process.env.PAYMENT_SIMULATOR_FAILURE_RATE = failureRate;
        const txs: Row[] = [];
        for (const s of rows) txs.push(await actionable(s.paidDaysAgo, s.ceft, s.refundRequested));
        for (const step of plan) {
          const replies = await Promise.all(step.map((c) => act(c.onPeer ? peer : server, c.action, txs[c.row], c.onPeer ? admin : maker)));
          actions += step.length;
          for (const [i, r] of replies.entries()) {
            const key = `${step[i].action} ${r.statusCode}`;
            answers[key] = (answers[key] ?? 0) + 1;
            expect([200, 422], JSON.stringify(r)).toContain(r.statusCode);
          }
          for (const tx of txs) {
            const now = await rowOf(tx.id);
            expect(successes(now), `row ${tx.id}`).toBeLessThanOrEqual(1);
            const logged = (
              await server.db.query<{ action: string }>(`SELECT action FROM transaction_actions WHERE kind = 'ceft' AND transaction_id = $1 AND outcome = 'SUCCESS' AND action <> 'HOLD' ORDER BY id`, [
                tx.id,
              ])
            ).map((a) => a.action);
            const network = moved(tx.trace).map((e) => e.op);
            expect(network.length, `network log of ${tx.trace}`).toBeLessThanOrEqual(1);
            // what the network did is what the database says happened
            expect(logged).toEqual(network.map((op) => ({ transfer: 'MANUAL_FUND_TRANSFER', void: 'VOID', refund: 'REFUND' })[op as 'void']));
            expect(successes(now)).toBe(network.length);
          }
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
    console.log(`money moves at most once: ${runs} runs, ${actions} actions; answers: ${JSON.stringify(answers)}`);
    expect(answers['manualFundTransfer 200'] ?? 0).toBeGreaterThan(0);
    expect((answers['refund 200'] ?? 0) + (answers['void 200'] ?? 0)).toBeGreaterThan(0);
  }, 600_000);
});
