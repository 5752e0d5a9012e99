/**
 * Large money actions in the one approvals inbox, with MONEY_ACTION_APPROVAL_ABOVE_USD at
 * 1000: a void, refund or manual fund transfer waiting for a second person is in changeRequest/inbox
 * (area Transaction) for holders of the action's own permission but never for its maker, counted per
 * area (counts, and the NOTIFY-fed event stream), decided by changeRequest/decide and decide-many under
 * the rules of src/server/moneyApprovals.ts (reason required to reject, four eyes, guards again), shown
 * to the maker under changeRequest/mine, and withdrawable by the maker alone, which unlocks the
 * transaction. The console learns the setting from `config`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiClient, type TestServer, useEnvironment } from './harness';
import { callCeftAction, type CeftAction } from './ceftActions';
import { startExtraApp } from './extraApp';

let server: TestServer;
let maker: string;
let secondMaker: string;
let admin: string;
let checker: string;
let auditor: string;
let refunder: string;
let retrier: string;

interface Row {
  id: number;
  trace: string;
  amount: string;
  currency_code: string;
  locked: number;
  ipg_refund_status: string | null;
  ceft_payment_status: string | null;
}
const rowOf = async (id: number) => (await server.db.one<Row>('SELECT * FROM ceft_transactions WHERE id = $1', [id]))!;

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
/** An unused send-money row: card paid 3 days ago, transfer failed, refund requested, worth `usd` US dollars. */
async function actionable(usd: number): Promise<Row> {
  const row = await server.db.one<Row>(
    `SELECT * FROM ceft_transactions c WHERE id > $1 AND bank_code ~ '^[0-9]{4}$' AND account_number ~ '^[0-9]{6,16}$' AND locked = 0
        AND NOT EXISTS (SELECT 1 FROM transaction_actions a WHERE a.kind = 'ceft' AND a.transaction_id = c.id) ORDER BY id LIMIT 1`,
    [cursor],
  );
  cursor = row!.id;
  await server.db.query(
    `UPDATE ceft_transactions SET card_payment_status = 'SUCCESS', ceft_payment_status = 'FAILED', ipg_void_status = NULL, ipg_refund_status = NULL,
            refund_requested = true, card_payment_time = $2, ceft_try_count = 1, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id), amount_usd = $3
      WHERE id = $1`,
    [row!.id, new Date(server.now().getTime() - 3 * 86_400_000), usd],
  );
  return rowOf(row!.id);
}

/** The maker's action above the amount: returns the change request id. */
async function sendForApproval(action: CeftAction, row: Row, token = maker, client: ApiClient = server): Promise<number> {
  const sent = await callCeftAction(client, action, row, token);
  expect(sent.statusCode, JSON.stringify(sent.data)).toBe(200);
  expect(sent.data.message).toMatch(/sent for approval \(change request #\d+\)$/);
  return sent.data.changeRequestId as number;
}

type Summary = { changeRequestId: number; type: string; [k: string]: unknown };
const inbox = async (token: string, body: Record<string, unknown> = {}) => {
  const reply = await server.call('changeRequest/inbox', body, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data as { requests: Summary[]; counts: { type: string; count: number }[] };
};
const inboxIds = async (token: string) => (await inbox(token)).requests.map((r) => r.changeRequestId);
const mine = async (token = maker) => (await server.call('changeRequest/mine', {}, token)).data.requests as Summary[];
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

useEnvironment({ PAYMENT_SIMULATOR_FAILURE_RATE: '0', PAYMENT_ADAPTER: undefined });
beforeAll(async () => {
  server = await startServer({ moneyActionApprovalAboveUsd: 1000 });
  [maker, secondMaker, admin, checker, auditor] = await Promise.all(['maker', 'nimal_perera', 'admin', 'checker', 'auditor'].map((u) => server.login(u)));
  refunder = await userWith('inbox_refunder', ['transaction-refund', 'send-money-report-view']);
  retrier = await userWith('inbox_retrier', ['transaction-retry', 'send-money-report-view']);
});
afterAll(async () => {
  await server?.close();
});

describe('the setting, as the console learns it', () => {
  it('config names the amount for any signed-in user; null when unset', async () => {
    expect(await server.call('config', {}, auditor)).toEqual({ statusCode: 200, data: { businessTimeZone: expect.any(String), moneyActionApprovalAboveUsd: 1000 } });
    const off = await startExtraApp(server, { moneyActionApprovalAboveUsd: null });
    try {
      const reply = await off.post('config', {}, { token: auditor });
      expect(reply.status).toBe(200);
      expect(reply.json.data.moneyActionApprovalAboveUsd).toBeNull();
    } finally {
      await off.close();
    }
    expect((await server.call('config', {})).statusCode).toBe(401);
  });
});

describe('in the approvals inbox', () => {
  it('shows a pending refund to a second holder of transaction-refund with the area, record, maker, age and amount, never to its maker', async () => {
    const row = await actionable(5000);
    const id = await sendForApproval('refund', row);
    const ofRefunder = await inbox(refunder);
    const shown = ofRefunder.requests.find((r) => r.changeRequestId === id);
    expect(shown).toMatchObject({
      type: 'Transaction',
      pendingAction: 'EDIT',
      operation: 'Refund',
      recordId: row.id,
      record: `${row.trace} (#${row.id})`,
      requestedBy: 'maker',
      status: 'PENDING',
      changedFields: [`Action: Refund`, `Amount: ${row.currency_code} ${money(Number(row.amount))} (USD 5,000.00)`],
    });
    // the age: made just now by the server's clock
    expect(Math.abs(server.now().getTime() - new Date(shown!.requestedTime as string).getTime())).toBeLessThan(60_000);
    expect(ofRefunder.counts).toEqual([{ type: 'Transaction', count: ofRefunder.requests.length }]);
    // the same from another holder of the permission (a demo maker) and a super user
    expect(await inboxIds(secondMaker)).toContain(id);
    expect(await inboxIds(admin)).toContain(id);
    // never the maker; not someone whose permission decides only manual fund transfers; not a checker without it
    expect(await inboxIds(maker)).not.toContain(id);
    expect(await inboxIds(retrier)).not.toContain(id);
    expect((await inbox(retrier)).counts).toEqual([{ type: 'Transaction', count: 0 }]);
    const ofChecker = await inbox(checker);
    expect(ofChecker.requests.map((r) => r.changeRequestId)).not.toContain(id);
    expect(ofChecker.counts.map((c) => c.type)).not.toContain('Transaction');
    // the Money Action Approvals screen's list agrees: never the maker's own
    const listed = async (token: string) => ((await server.call('transaction/money-approval/list', {}, token)).data.requests as { changeRequestId: number }[]).map((r) => r.changeRequestId);
    expect(await listed(maker)).not.toContain(id);
    expect(await listed(secondMaker)).toContain(id);
    expect(await listed(refunder)).toEqual(ofRefunder.requests.map((r) => r.changeRequestId));
    // the filter by area, and the menu's counts
    const onlyMoney = await inbox(admin, { type: 'Transaction' });
    expect(onlyMoney.requests.length).toBeGreaterThan(0);
    expect(onlyMoney.requests.every((r) => r.type === 'Transaction')).toBe(true);
    const counts = (await server.call('changeRequest/counts', {}, refunder)).data;
    expect(counts).toEqual({ counts: [{ type: 'Transaction', count: ofRefunder.requests.length }], total: ofRefunder.requests.length });
    expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'Clean-up' }, admin)).statusCode).toBe(200);
  });

  it("decides through the money rules: not the maker, the action's own permission, a reason to reject, the refund runs once on approval", async () => {
    const row = await actionable(4000);
    const id = await sendForApproval('refund', row);
    const decideAs = (token: string, body: Record<string, unknown>) => server.call('changeRequest/decide', { changeRequestID: id, ...body }, token);
    expect(await decideAs(maker, { actionTaken: 'approve' })).toEqual({ statusCode: 403, data: { message: 'You cannot approve or reject your own change request' } });
    // a request outside their inbox is not found for them, as one that does not exist (its area and action are not disclosed)
    expect(await decideAs(retrier, { actionTaken: 'approve' })).toEqual({ statusCode: 404, data: { message: 'Change request not found' } });
    expect(await decideAs(checker, { actionTaken: 'approve' })).toEqual({ statusCode: 404, data: { message: 'Change request not found' } });
    expect(await decideAs(refunder, { actionTaken: 'reject' })).toEqual({ statusCode: 400, data: { message: 'comment: Please enter a reason for the rejection' } });
    expect((await decideAs(refunder, { actionTaken: 'reject', comment: 'x'.repeat(201) })).data.message).toMatch(/^comment: /);
    expect((await rowOf(row.id)).locked).toBe(1);
    expect(await mine()).toEqual(expect.arrayContaining([expect.objectContaining({ changeRequestId: id, status: 'PENDING' })]));

    expect(await decideAs(secondMaker, { actionTaken: 'approve', comment: 'Customer called; confirmed' })).toEqual({
      statusCode: 200,
      data: { message: `Approved: Transaction refunded successfully: Id - ${row.id}` },
    });
    expect(await rowOf(row.id)).toMatchObject({ ipg_refund_status: 'SUCCESS', locked: 0 });
    expect(await decideAs(admin, { actionTaken: 'approve' })).toEqual({ statusCode: 409, data: { message: 'Change request already decided' } });
    expect(await inboxIds(refunder)).not.toContain(id);
    // the maker reads the outcome under My requests
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ type: 'Transaction', status: 'APPROVED', decidedBy: 'nimal_perera', comment: 'Customer called; confirmed' });
  });

  it('a rejection with its reason unlocks the transaction and is shown to the maker', async () => {
    const row = await actionable(2500);
    const id = await sendForApproval('manualFundTransfer', row);
    expect((await inbox(retrier)).requests.find((r) => r.changeRequestId === id)).toMatchObject({
      operation: 'Manual Fund Transfer',
      changedFields: [expect.stringMatching(/^Action: Manual Fund Transfer$/), expect.stringMatching(/^Amount: .+ \(USD 2,500\.00\)$/)],
    });
    expect(await inboxIds(refunder)).not.toContain(id);
    expect(await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'Beneficiary account is closed' }, retrier)).toEqual({
      statusCode: 200,
      data: { message: 'Transaction rejected successfully' },
    });
    expect(await rowOf(row.id)).toMatchObject({ locked: 0, ceft_payment_status: 'FAILED' });
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ status: 'REJECTED', decidedBy: 'inbox_retrier', comment: 'Beneficiary account is closed' });
  });

  it('bulk decisions decide each money request on its own, beside other areas', async () => {
    const ok = await actionable(3000);
    const stale = await actionable(3500);
    const transfer = await actionable(1500);
    const [a, b, c] = [await sendForApproval('refund', ok), await sendForApproval('refund', stale), await sendForApproval('manualFundTransfer', transfer)];
    const role = await server.call('role/create', { role_name: 'Money Inbox Role', user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }, maker);
    const roleRequest = role.data.changeRequestId as number;
    // meanwhile the beneficiary of `stale` was paid by other means: its refund no longer holds at approval
    await server.db.query("UPDATE ceft_transactions SET ceft_payment_status = 'SUCCESS' WHERE id = $1", [stale.id]);

    // a holder of transaction-refund only: the manual fund transfer and the role are not theirs
    const partial = await server.call('changeRequest/decide-many', { changeRequestIDs: [c, roleRequest], actionTaken: 'approve' }, refunder);
    expect(partial.data.results).toEqual([
      { changeRequestId: c, statusCode: 404, message: 'Change request not found' },
      { changeRequestId: roleRequest, statusCode: 404, message: 'Change request not found' },
    ]);
    const reply = await server.call('changeRequest/decide-many', { changeRequestIDs: [a, b, c, roleRequest], actionTaken: 'approve', comment: 'Checked the batch' }, admin);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.results).toEqual([
      { changeRequestId: a, statusCode: 200, message: `Approved: Transaction refunded successfully: Id - ${ok.id}` },
      { changeRequestId: b, statusCode: 422, message: 'The fund transfer of this transaction has already succeeded (checked again at approval; reject the request)' },
      { changeRequestId: c, statusCode: 200, message: `Approved: Fund transfer successful: Id - ${transfer.id}` },
      { changeRequestId: roleRequest, statusCode: 200, message: 'Role approved successfully' },
    ]);
    expect(await rowOf(ok.id)).toMatchObject({ ipg_refund_status: 'SUCCESS', locked: 0 });
    expect(await rowOf(stale.id)).toMatchObject({ ipg_refund_status: null, locked: 1 });
    expect(await rowOf(transfer.id)).toMatchObject({ ceft_payment_status: 'SUCCESS', locked: 0 });
    const rejected = await server.call('changeRequest/decide-many', { changeRequestIDs: [b], actionTaken: 'reject', comment: 'Paid by other means' }, secondMaker);
    expect(rejected.data.results).toEqual([{ changeRequestId: b, statusCode: 200, message: 'Transaction rejected successfully' }]);
    expect((await rowOf(stale.id)).locked).toBe(0);
  });

  it('announces a new money request to a holder of the permission on the event stream', async () => {
    const peer = await server.startPeer();
    try {
      const stream = await fetch(`${peer.url}/api/changeRequest/events`, { headers: { authorization: `Bearer ${refunder}` } });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      await new Promise((r) => setTimeout(r, 200));
      const row = await actionable(6000);
      const id = await sendForApproval('refund', row, maker, peer);
      const deadline = Date.now() + 10_000;
      while (!/event: change\ndata: \{"type":"Transaction"\}/.test(text) && Date.now() < deadline) {
        const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out; got: ${text}`)), 10_000))]);
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
      await reader.cancel().catch(() => {});
      expect(text).toMatch(/event: change\ndata: \{"type":"Transaction"\}/);
      expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'Clean-up' }, admin)).statusCode).toBe(200);
    } finally {
      await peer.close();
    }
  });
});

describe("the maker's side", () => {
  it('the maker alone withdraws a pending money request: the transaction unlocks and a new action can be taken', async () => {
    const row = await actionable(8000);
    const id = await sendForApproval('refund', row);
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ type: 'Transaction', status: 'PENDING', recordId: row.id });
    // another user's id: refused, whoever they are, and nothing changes
    for (const other of [secondMaker, refunder, admin]) {
      expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, other)).toEqual({ statusCode: 403, data: { message: 'Only the maker of a change request can withdraw it' } });
    }
    expect((await server.call('changeRequest/withdraw', { changeRequestID: id }, auditor)).statusCode).toBe(403);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: 'x' }, maker)).data.message).toMatch(/^changeRequestID: /);
    expect((await rowOf(row.id)).locked).toBe(1);
    expect(await callCeftAction(server, 'refund', row, secondMaker)).toEqual({ statusCode: 409, data: { message: 'Transaction is locked: a change request is already pending' } });

    expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).toEqual({ statusCode: 200, data: { message: 'Change request withdrawn' } });
    expect((await rowOf(row.id)).locked).toBe(0);
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ status: 'WITHDRAWN', decidedBy: 'maker' });
    expect(await inboxIds(refunder)).not.toContain(id);
    expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).toEqual({ statusCode: 409, data: { message: 'The change request is no longer pending (withdrawn)' } });
    expect(await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'approve' }, refunder)).toEqual({
      statusCode: 409,
      data: { message: 'Change request was withdrawn by its maker' },
    });
    const logged = await server.db.query("SELECT username FROM activity_logs WHERE type = 'CHANGE_WITHDRAWN' AND description LIKE $1", [`%change request #${id} %`]);
    expect(logged).toEqual([{ username: 'maker' }]);

    // unlocked: another person can take a new action on the transaction
    const again = await sendForApproval('refund', row, secondMaker);
    expect(again).not.toBe(id);
    expect(await inboxIds(maker)).toContain(again);
    expect((await server.call('changeRequest/decide', { changeRequestID: again, actionTaken: 'reject', comment: 'Clean-up' }, admin)).statusCode).toBe(200);
  });

  it('a user who holds only a money action permission has My requests', async () => {
    const row = await actionable(1200);
    const id = await sendForApproval('refund', row, refunder);
    expect((await mine(refunder)).map((r) => r.changeRequestId)).toEqual([id]);
    expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, refunder)).toEqual({ statusCode: 200, data: { message: 'Change request withdrawn' } });
    expect((await rowOf(row.id)).locked).toBe(0);
  });
});

describe('with the setting off', () => {
  it('no money area is counted, yet a request made while it was on stays decidable and withdrawable', async () => {
    const row = await actionable(9000);
    const id = await sendForApproval('refund', row);
    const off = await startExtraApp(server, { moneyActionApprovalAboveUsd: null });
    try {
      // the request made while on is still there for its checkers
      const ofRefunder = await off.post('changeRequest/inbox', {}, { token: refunder });
      expect(ofRefunder.json.data.requests.map((r: Summary) => r.changeRequestId)).toContain(id);
      expect(ofRefunder.json.data.counts).toEqual([{ type: 'Transaction', count: 1 }]);
      expect((await off.post('changeRequest/withdraw', { changeRequestID: id }, { token: maker })).json).toEqual({ statusCode: 200, data: { message: 'Change request withdrawn' } });
      expect((await rowOf(row.id)).locked).toBe(0);
      // nothing waits: the area is not counted; the action runs at once
      expect((await off.post('changeRequest/counts', {}, { token: refunder })).json.data).toEqual({ counts: [], total: 0 });
      expect((await off.post('changeRequest/counts', {}, { token: admin })).json.data.counts.map((c: { type: string }) => c.type)).not.toContain('Transaction');
      const now = await off.post('Transaction/ceft/refund', { transactionID: row.id }, { token: maker });
      expect(now.json).toEqual({ statusCode: 200, data: { message: `Transaction refunded successfully: Id - ${row.id}` } });
    } finally {
      await off.close();
    }
  });
});
