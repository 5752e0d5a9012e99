/**
 * Four eyes on large money actions (src/server/moneyApprovals.ts), with MONEY_ACTION_APPROVAL_ABOVE_USD
 * at 1000: a void, refund or manual fund transfer of a transaction above it waits for a second person
 * holding the same permission; at approval the guards are checked again and the action runs once,
 * through the payment simulator (whose own log says what it moved). Two server instances on one database.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorLogEntry } from '../../src/server/payments/simulator';
import { parseMoneyApprovalAboveUsd, StartupRefusal } from '../../src/server/environment';
import { startServer, type ApiClient, type TestServer } from './harness';
import { callCeftAction, type CeftAction } from './ceftActions';

let server: TestServer;
let peer: ApiClient & { close(): Promise<void> };
let maker: string;
let admin: string;
let refunder: string;
let retrier: string;
let checker: string;
const dir = mkdtempSync(join(tmpdir(), 'money-approvals-'));
const logFile = join(dir, 'simulator.log');

interface Row {
  id: number;
  trace: string;
  ceft_payment_status: string | null;
  ipg_void_status: string | null;
  ipg_refund_status: string | null;
  locked: number;
  version: number;
  [column: string]: unknown;
}
const rowOf = async (id: number) => (await server.db.one<Row>('SELECT * FROM ceft_transactions WHERE id = $1', [id]))!;
const moved = (trace: string) =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SimulatorLogEntry)
    .filter((e) => e.reference === trace && e.ok && e.op !== 'hold');

/** A console user with exactly these permissions (the demo password), made in SQL. */
async function userWith(username: string, permissions: string[]) {
  const role = await server.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) SELECT $1, user_type, user_level, $2 FROM roles WHERE role_name = 'Maker' RETURNING id`,
    [`Role of ${username}`, permissions],
  );
  await server.db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT $1, $1 || '@example.lk', contact, $1, user_type, branch_code, $2, password_hash FROM console_users WHERE username = 'maker'`,
    [username, role!.id],
  );
  return server.login(username);
}

let cursor = 0;
/** An unused send-money row: card paid `paidDaysAgo` days ago, transfer failed, refund requested, worth `usd` US dollars. */
async function actionable(usd: number, paidDaysAgo = 3): Promise<Row> {
  const row = await server.db.one<Row>(
    `SELECT * FROM ceft_transactions c WHERE id > $1 AND bank_code ~ '^[0-9]{4}$' AND account_number ~ '^[0-9]{6,16}$'
        AND NOT EXISTS (SELECT 1 FROM transaction_actions a WHERE a.kind = 'ceft' AND a.transaction_id = c.id) ORDER BY id LIMIT 1`,
    [cursor],
  );
  cursor = row!.id;
  await server.db.query(
    `UPDATE ceft_transactions SET card_payment_status = 'SUCCESS', ceft_payment_status = 'FAILED', ipg_void_status = NULL, ipg_refund_status = NULL,
            refund_requested = true, card_payment_time = $2, ceft_try_count = 1, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id), amount_usd = $3
      WHERE id = $1`,
    [row!.id, new Date(server.now().getTime() - paidDaysAgo * 86_400_000), usd],
  );
  return rowOf(row!.id);
}

const act = (client: ApiClient, action: CeftAction, row: Row, token: string) => callCeftAction(client, action, row, token);
const decide = (client: ApiClient, changeRequestID: number, actionTaken: 'approve' | 'reject', token: string) =>
  client.call('transaction/money-approval/approve', { changeRequestID, actionTaken }, token);

beforeAll(async () => {
  delete process.env.PAYMENT_ADAPTER;
  process.env.PAYMENT_SIMULATOR_FAILURE_RATE = '0';
  process.env.PAYMENT_SIMULATOR_LOG = logFile;
  writeFileSync(logFile, '');
  server = await startServer({ moneyActionApprovalAboveUsd: 1000 });
  peer = await server.startPeer();
  [maker, admin, checker] = await Promise.all([server.login('maker'), server.login('admin'), server.login('checker')]);
  refunder = await userWith('refunder', ['transaction-refund', 'transaction-retry', 'send-money-report-view']);
  retrier = await userWith('retrier', ['transaction-retry', 'send-money-report-view']);
});
afterAll(async () => {
  await peer?.close();
  await server?.close();
  delete process.env.PAYMENT_SIMULATOR_FAILURE_RATE;
  delete process.env.PAYMENT_SIMULATOR_LOG;
  rmSync(dir, { recursive: true, force: true });
});

describe('at or below the amount', () => {
  it('a refund of exactly USD 1000 runs at once, as the specification says', async () => {
    const row = await actionable(1000);
    expect(await act(server, 'refund', row, maker)).toEqual({ statusCode: 200, data: { message: `Transaction refunded successfully: Id - ${row.id}` } });
    expect((await rowOf(row.id)).ipg_refund_status).toBe('SUCCESS');
    expect(moved(row.trace)).toHaveLength(1);
  });
});

describe('above the amount', () => {
  it('a refund is sent for approval: nothing moves, the transaction is locked, a second request or a direct action is refused', async () => {
    const row = await actionable(5000);
    const sent = await act(server, 'refund', row, maker);
    expect(sent.statusCode).toBe(200);
    const id = sent.data.changeRequestId as number;
    expect(sent.data).toEqual({ message: `Refund of transaction ${row.id} (USD 5,000.00, above USD 1,000.00) sent for approval (change request #${id})`, changeRequestId: id });
    const after = await rowOf(row.id);
    expect(after).toEqual({ ...row, locked: 1 });
    expect(moved(row.trace)).toEqual([]);

    expect(await act(peer, 'refund', row, maker)).toEqual({ statusCode: 409, data: { message: 'Transaction is locked: a change request is already pending' } });
    expect(await act(server, 'hold', row, admin)).toEqual({ statusCode: 409, data: { message: 'A money action on this transaction is waiting for approval: decide it first' } });

    // the checker's list shows the transaction, the amount and the action
    const list = await server.call('transaction/money-approval/list', {}, admin);
    expect(list.statusCode).toBe(200);
    const shown = list.data.requests.find((r: { changeRequestId: number }) => r.changeRequestId === id);
    expect(shown).toMatchObject({ transactionId: row.id, trace: row.trace, action: 'Refund', amountUsd: 5000, requestedBy: 'maker' });
    const request = list.data.changeRequests.find((c: { changeRequestId: number }) => c.changeRequestId === id);
    expect(request).toMatchObject({ type: 'Transaction', pendingAction: 'EDIT', requestedBy: 'maker' });
    expect(request.newRecord.action).toEqual({ header: 'Action', type: 'STRING', value: 'Refund' });
    expect(request.originalRecord.action).toEqual({ header: 'Action', type: 'STRING', value: 'None' });
    expect(request.newRecord.amount_usd).toEqual({ header: 'Amount (USD)', type: 'STRING', value: 'USD 5,000.00' });
    expect(request.newRecord.trace.value).toBe(row.trace);

    // who may decide: not the maker, not someone without the action's permission
    expect(await decide(server, id, 'approve', maker)).toEqual({ statusCode: 403, data: { message: 'You cannot approve or reject your own change request' } });
    expect(await decide(server, id, 'reject', maker)).toEqual({ statusCode: 403, data: { message: 'You cannot approve or reject your own change request' } });
    expect((await decide(server, id, 'approve', checker)).statusCode).toBe(403);
    expect(await decide(server, id, 'approve', retrier)).toEqual({ statusCode: 403, data: { message: 'Forbidden: deciding a refund needs the permission transaction-refund' } });
    expect((await server.call('transaction/money-approval/list', {}, retrier)).data.requests.some((r: { changeRequestId: number }) => r.changeRequestId === id)).toBe(false);
    expect((await server.call('transaction/money-approval/list', {}, checker)).statusCode).toBe(403);
    expect(moved(row.trace)).toEqual([]);

    // a second person with transaction-refund approves: the refund runs, once
    expect(await decide(peer, id, 'approve', refunder)).toEqual({ statusCode: 200, data: { message: `Approved: Transaction refunded successfully: Id - ${row.id}` } });
    const done = await rowOf(row.id);
    expect(done).toMatchObject({ ipg_refund_status: 'SUCCESS', locked: 0, version: row.version + 1 });
    expect(moved(row.trace).map((e) => e.op)).toEqual(['refund']);
    expect(await decide(server, id, 'approve', admin)).toEqual({ statusCode: 409, data: { message: 'Change request already decided' } });
    const logged = await server.db.query<{ type: string; username: string }>(
      "SELECT type, username FROM activity_logs WHERE description LIKE $1 OR (type = 'TRANSACTION_REFUND' AND description LIKE $2) ORDER BY chain_seq",
      [`%change request #${id}%`, `%transaction ${row.id} %`],
    );
    expect(logged).toEqual([
      { type: 'CHANGE_REQUEST', username: 'maker' },
      { type: 'TRANSACTION_REFUND', username: 'refunder' },
      { type: 'TRANSACTION_REFUND_APPROVED', username: 'refunder' },
      { type: 'CHANGE_APPROVED', username: 'refunder' },
    ]);
  });

  it('two approvals racing on two server instances: one runs the manual fund transfer, the other is told it is decided', async () => {
    const row = await actionable(2500);
    const sent = await act(server, 'manualFundTransfer', row, maker);
    expect(sent.data.message).toMatch(/^Manual Fund Transfer of transaction \d+ \(USD 2,500\.00, above USD 1,000\.00\) sent for approval/);
    const id = sent.data.changeRequestId as number;
    const replies = await Promise.all([decide(server, id, 'approve', admin), decide(peer, id, 'approve', retrier)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(replies.find((r) => r.statusCode === 200)!.data.message).toBe(`Approved: Fund transfer successful: Id - ${row.id}`);
    expect(replies.find((r) => r.statusCode === 409)!.data.message).toBe('Change request already decided');
    expect((await rowOf(row.id)).ceft_payment_status).toBe('SUCCESS');
    expect(moved(row.trace).map((e) => e.op)).toEqual(['transfer']);
    const actions = await server.db.query('SELECT action, outcome FROM transaction_actions WHERE transaction_id = $1', [row.id]);
    expect(actions).toEqual([{ action: 'MANUAL_FUND_TRANSFER', outcome: 'SUCCESS' }]);
  });

  it('the guards are checked again at approval: a request that no longer holds is refused and stays pending until rejected', async () => {
    const row = await actionable(9000, 0);
    const sent = await act(server, 'void', row, maker);
    const id = sent.data.changeRequestId as number;
    expect(sent.data.message).toBe(`Void of transaction ${row.id} (USD 9,000.00, above USD 1,000.00) sent for approval (change request #${id})`);
    // meanwhile the beneficiary was paid by other means (written in SQL)
    await server.db.query("UPDATE ceft_transactions SET ceft_payment_status = 'SUCCESS' WHERE id = $1", [row.id]);
    expect(await decide(server, id, 'approve', admin)).toEqual({
      statusCode: 422,
      data: { message: 'The fund transfer of this transaction has already succeeded (checked again at approval; reject the request)' },
    });
    expect(moved(row.trace)).toEqual([]);
    expect((await rowOf(row.id)).ipg_void_status).toBeNull();
    expect(await decide(server, id, 'reject', admin)).toEqual({ statusCode: 200, data: { message: 'Transaction rejected successfully' } });
    expect((await rowOf(row.id)).locked).toBe(0);
  });

  it("the maker's guard is checked before anything is stored", async () => {
    const row = await actionable(3000);
    await server.db.query('UPDATE ceft_transactions SET refund_requested = false WHERE id = $1', [row.id]);
    expect(await act(server, 'refund', row, maker)).toEqual({ statusCode: 422, data: { message: 'No refund has been requested for this transaction' } });
    expect((await rowOf(row.id)).locked).toBe(0);
    expect(await server.db.query("SELECT id FROM change_requests WHERE entity_type = 'Transaction' AND record_id = $1", [row.id])).toEqual([]);
  });

  it('refuses bad decision bodies and unknown requests', async () => {
    expect((await decide(server, 0, 'approve', admin)).statusCode).toBe(400);
    expect((await server.call('transaction/money-approval/approve', { changeRequestID: 1, actionTaken: 'maybe' }, admin)).statusCode).toBe(400);
    expect(await decide(server, 999_999, 'approve', admin)).toEqual({ statusCode: 404, data: { message: 'Change request not found' } });
    expect((await server.call('transaction/money-approval/list', { x: 1 }, admin)).statusCode).toBe(400);
  });
});

describe('MONEY_ACTION_APPROVAL_ABOVE_USD', () => {
  it('is off when unset, an amount otherwise, and refuses anything else at start-up', () => {
    expect(parseMoneyApprovalAboveUsd(undefined)).toBeNull();
    expect(parseMoneyApprovalAboveUsd('')).toBeNull();
    expect(parseMoneyApprovalAboveUsd('10000')).toBe(10000);
    expect(parseMoneyApprovalAboveUsd('0')).toBe(0);
    expect(parseMoneyApprovalAboveUsd('2500.50')).toBe(2500.5);
    for (const bad of ['-1', 'ten', '1e4', '1,000', '10.123', 'USD 5']) {
      expect(() => parseMoneyApprovalAboveUsd(bad)).toThrow(StartupRefusal);
    }
    expect(() => parseMoneyApprovalAboveUsd('ten')).toThrow('MONEY_ACTION_APPROVAL_ABOVE_USD: "ten" is not an amount in US dollars');
  });

  // last: it moves the server's clock on a week
  it('a request left pending past CHANGE_REQUEST_EXPIRY_DAYS expires and unlocks its transaction', async () => {
    const row = await actionable(7000);
    const sent = await act(server, 'refund', row, maker);
    const id = sent.data.changeRequestId as number;
    expect((await rowOf(row.id)).locked).toBe(1);
    server.advanceClock(8 * 24 * 3_600_000);
    const later = await server.login('admin'); // the earlier sessions are past their lifetime
    expect((await server.call('transaction/money-approval/list', {}, later)).statusCode).toBe(200);
    const request = await server.db.one<{ status: string }>('SELECT status FROM change_requests WHERE id = $1', [id]);
    expect(request!.status).toBe('EXPIRED');
    expect((await rowOf(row.id)).locked).toBe(0);
    expect((await decide(server, id, 'approve', later)).statusCode).toBe(409);
  });
});
