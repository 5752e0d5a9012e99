/**
 * Four eyes bound to accounts, not names: a change request records its maker's and its decider's
 * account ids, and every "is this your own request?" question compares them (decide, decide-many, the
 * money approvals, withdraw, My requests, the inbox, the segregation-of-duties report, the activity
 * log). Renaming an account, by request or behind the server's back with the session kept, changes
 * nothing. The inbox is paged and counted in SQL (never a silent cap), a maker's pending requests are
 * limited, and a request outside the caller's areas is not found for them.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations';
import { callCeftAction } from './ceftActions';
import { startExtraApp, type ExtraApp } from './extraApp';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
let maker: string;
let checker: string;

beforeAll(async () => {
  server = await startServer({ moneyActionApprovalAboveUsd: 1000 });
  [admin, maker, checker] = await Promise.all([server.login('admin'), server.login('maker'), server.login('checker')]);
});
afterAll(async () => {
  await server?.close();
});

let counter = 0;
const unique = (prefix: string) => `${prefix}_${++counter}_${randomBytes(3).toString('hex')}`;
/** A role name the rules accept (letters, digits and spaces). */
const roleName = (prefix: string) => `${prefix} ${++counter} ${randomBytes(3).toString('hex')}`;
const idOf = async (username: string) => (await server.db.one<{ id: number }>('SELECT id FROM console_users WHERE lower(username) = lower($1)', [username]))!.id;

/** A console user with exactly these permissions (the demo password), made in SQL; returns its token. */
async function userWith(username: string, permissions: string[]): Promise<string> {
  const role = await server.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) SELECT $1, user_type, user_level, $2 FROM roles WHERE role_name = 'Maker' RETURNING id`,
    [`Role of ${username}`, JSON.stringify(permissions)],
  );
  await server.db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT $1, $1 || '@example.lk', contact, $1, user_type, branch_code, $2, password_hash FROM console_users WHERE username = 'maker'`,
    [username, role!.id],
  );
  return server.login(username);
}

/** A role CREATE request by `token`; the reply as it came. */
const requestRole = (token: string, client: { call: TestServer['call'] } = server, permissions = ['send-money-report-view']) =>
  client.call('role/create', { role_name: roleName('Role'), user_type: 'BACKEND', user_level: 1, permissions, disabled: 0 }, token);

async function requestRoleId(token: string, permissions?: string[]): Promise<number> {
  const reply = await requestRole(token, server, permissions);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

/** user/edit of `username`'s account to the new name, by `token`; returns the change request id. */
async function requestRename(username: string, to: string, token: string): Promise<number> {
  const id = await idOf(username);
  const { customUser } = (await server.call('user/get-for-edit', { id }, admin)).data;
  const reply = await server.call(
    'user/edit',
    {
      id,
      type: customUser.user_type,
      name: customUser.name,
      email: customUser.email,
      contact: customUser.contact,
      username: to,
      branch_code: customUser.branch_code,
      role: customUser.role,
      disabled: customUser.disabled,
    },
    token,
  );
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

const statusOf = async (id: number) => (await server.db.one<{ status: string }>('SELECT status FROM change_requests WHERE id = $1', [id]))!.status;
type Summary = { changeRequestId: number; type: string; requestedBy: string; requestedById: number | null };
const inboxOf = async (token: string, body: Record<string, unknown> = {}) => {
  const reply = await server.call('changeRequest/inbox', body, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data as { requests: Summary[]; total: number; offset: number; counts: { type: string; count: number }[]; makers: { id: number | null; username: string; count: number }[] };
};
const mineOf = async (token: string) => (await server.call('changeRequest/mine', {}, token)).data as { requests: Summary[]; total: number };

describe('self-approval by renaming', () => {
  it("a super user's request stays theirs after their account is renamed: refused on every decision path, still theirs to follow and withdraw", async () => {
    const adminId = await idOf('admin');
    // request A: a role holding super-permission; request B: a harmless-looking rename of their own account
    const a = await requestRoleId(admin, ['super-permission']);
    const b = await requestRename('admin', 'ops_lead', admin);
    expect((await server.call('user/approve', { changeRequestID: b, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    const renamed = await server.login('ops_lead');
    expect(await idOf('ops_lead')).toBe(adminId);

    const own = { statusCode: 403, data: { message: 'You cannot approve or reject your own change request' } };
    expect(await server.call('changeRequest/decide', { changeRequestID: a, actionTaken: 'approve' }, renamed)).toEqual(own);
    expect(await server.call('role/approve', { changeRequestID: a, actionTaken: 'approve' }, renamed)).toEqual(own);
    expect(await server.call('changeRequest/decide', { changeRequestID: a, actionTaken: 'reject', comment: 'mine' }, renamed)).toEqual(own);
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [a], actionTaken: 'approve' }, renamed)).data.results).toEqual([
      { changeRequestId: a, statusCode: 403, message: own.data.message },
    ]);
    expect(await statusOf(a)).toBe('PENDING');

    // not in their inbox; still in My requests, under the name they had, with their account id
    expect((await inboxOf(renamed)).requests.map((r) => r.changeRequestId)).not.toContain(a);
    const mine = await mineOf(renamed);
    expect(mine.requests.filter((r) => r.changeRequestId === a || r.changeRequestId === b).map((r) => [r.changeRequestId, r.requestedBy, r.requestedById])).toEqual([
      [b, 'admin', adminId],
      [a, 'admin', adminId],
    ]);

    // a checker decides it: the report flags the rename during the wait, the log names the accounts
    expect((await server.call('changeRequest/decide', { changeRequestID: a, actionTaken: 'reject', comment: 'Not without a reason' }, checker)).statusCode).toBe(200);
    const sod = (await server.call('report/segregation-of-duties', {}, renamed)).data;
    const flagged = sod.findings.filter((f: { finding: string }) => f.finding === 'Renamed while pending');
    expect(flagged).toEqual([
      {
        id: expect.any(Number),
        finding: 'Renamed while pending',
        subject: `admin (account ${adminId})`,
        area: 'Role',
        detail: `change request #${a} by admin (account ${adminId}) was rejected by checker (account ${await idOf('checker')}); while it was pending the maker's account was renamed from "admin" to "ops_lead" (change request #${b})`,
      },
    ]);
    expect(sod.selfApprovedCount).toBe(0);
    const log = await server.db.query<{ username: string; description: string }>("SELECT username, description FROM activity_logs WHERE type = 'CHANGE_REJECTED' AND description LIKE $1", [
      `%(change request #${a} %`,
    ]);
    expect(log).toEqual([
      {
        username: 'checker',
        description: expect.stringContaining(`(change request #${a} by admin (account ${adminId}); decided by checker (account ${await idOf('checker')})): Not without a reason`),
      },
    ]);

    // the same account under its new name still withdraws its own requests
    const c = await requestRoleId(renamed);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: c }, renamed)).statusCode).toBe(200);
    // put the demo name back for the tests below
    const back = await requestRename('ops_lead', 'admin', renamed);
    expect((await server.call('user/approve', { changeRequestID: back, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    admin = await server.login('admin');
  });

  it('a money maker renamed behind the server (same session) neither sees nor decides their own refund; it stays in My requests', async () => {
    const row = await server.db.one<{ id: number; trace: string }>(
      `SELECT id, trace FROM ceft_transactions c WHERE bank_code ~ '^[0-9]{4}$' AND account_number ~ '^[0-9]{6,16}$' AND locked = 0
          AND NOT EXISTS (SELECT 1 FROM transaction_actions a WHERE a.kind = 'ceft' AND a.transaction_id = c.id) ORDER BY id LIMIT 1`,
    );
    await server.db.query(
      `UPDATE ceft_transactions SET card_payment_status = 'SUCCESS', ceft_payment_status = 'FAILED', ipg_void_status = NULL, ipg_refund_status = NULL,
              refund_requested = true, card_payment_time = $2, ceft_try_count = 1, ipg_transaction_id = coalesce(ipg_transaction_id, 'IPG' || id), amount_usd = 5000
        WHERE id = $1`,
      [row!.id, new Date(server.now().getTime() - 3 * 86_400_000)],
    );
    const sent = await callCeftAction(server, 'refund', row!, maker);
    expect(sent.statusCode, JSON.stringify(sent.data)).toBe(200);
    const id = sent.data.changeRequestId as number;
    await server.db.query("UPDATE console_users SET username = 'maker_renamed' WHERE username = 'maker'");
    try {
      expect((await inboxOf(maker)).requests.map((r) => r.changeRequestId)).not.toContain(id);
      expect((await server.call('transaction/money-approval/list', {}, maker)).data.requests.map((r: { changeRequestId: number }) => r.changeRequestId)).not.toContain(id);
      const own = { statusCode: 403, data: { message: 'You cannot approve or reject your own change request' } };
      expect(await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'gone' }, maker)).toEqual(own);
      expect(await server.call('transaction/money-approval/approve', { changeRequestID: id, actionTaken: 'approve' }, maker)).toEqual(own);
      expect((await mineOf(maker)).requests.map((r) => r.changeRequestId)).toContain(id);
      expect((await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).statusCode).toBe(200);
    } finally {
      await server.db.query("UPDATE console_users SET username = 'maker' WHERE username = 'maker_renamed'");
    }
  });

  it('a request whose maker is no known account (older than the ids, name gone) cannot be approved by anyone; it can be rejected', async () => {
    const row = await server.db.one<{ id: number }>(
      `INSERT INTO change_requests (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status)
       VALUES ('Role', NULL, 'CREATE', '{}', NULL, $1, NULL, 'departed_user', NULL, $2, 'PENDING') RETURNING id`,
      [JSON.stringify({ role_name: roleName('Ghost'), user_type: 'BACKEND', user_level: 1, permissions: ['super-permission'], disabled: 0 }), server.now()],
    );
    const id = row!.id;
    const refused = await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'approve' }, checker);
    expect(refused).toEqual({
      statusCode: 403,
      data: { message: 'The maker of this change request (departed_user) is no known account, so no one can approve it as a second person: reject it, or let it expire' },
    });
    expect(await statusOf(id)).toBe('PENDING');
    expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'Maker left' }, checker)).statusCode).toBe(200);
  });
});

describe('the inbox: counted and paged in SQL, never cut silently', () => {
  it('2,004 pending app-user requests do not hide a later user edit: counts, the area filter, pages and makers say so', async () => {
    const floodName = unique('flood');
    await userWith(floodName, ['app-user-view', 'app-user-edit']);
    const floodId = await idOf(floodName);
    await server.db.query(
      `INSERT INTO change_requests (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status)
       SELECT 'App User', a.id, 'EDIT', '{}', '{}', '{}', 1, $1, $2, $3, 'PENDING' FROM app_users a, generate_series(1, 2004) g
        WHERE a.id = (SELECT min(id) FROM app_users)`,
      [floodName, floodId, new Date(server.now().getTime() - 60_000)],
    );
    const edit = await requestRename('nimal_perera', unique('nimal'), maker);

    const all = await inboxOf(checker);
    const count = (type: string) => all.counts.find((c) => c.type === type)?.count;
    expect(count('App User')).toBe(2004);
    expect(count('User')).toBeGreaterThanOrEqual(1);
    expect(all.total).toBe(all.counts.reduce((n, c) => n + c.count, 0));
    expect(all.requests).toHaveLength(100);
    expect(all.makers.find((m) => m.id === floodId)).toEqual({ id: floodId, username: floodName, count: 2004 });
    expect((await server.call('changeRequest/counts', {}, checker)).data.counts).toEqual(all.counts);

    const users = await inboxOf(checker, { type: 'User' });
    expect(users.requests.map((r) => r.changeRequestId)).toContain(edit);
    expect(users.total).toBe(count('User'));

    const byFlood = await inboxOf(checker, { requestedById: floodId, offset: 2000, limit: 500 });
    expect(byFlood).toMatchObject({ total: 2004, offset: 2000 });
    expect(byFlood.requests).toHaveLength(4);
    expect((await inboxOf(checker, { requestedBy: floodName.toUpperCase(), limit: 500 })).requests).toHaveLength(500);
    expect((await server.call('changeRequest/inbox', { limit: 501 }, checker)).statusCode).toBe(400);

    // clean up: the flood would count against the other tests' inboxes
    await server.db.query("UPDATE change_requests SET status = 'WITHDRAWN' WHERE requested_by_id = $1 AND status = 'PENDING'", [floodId]);
    expect((await server.call('changeRequest/decide', { changeRequestID: edit, actionTaken: 'reject', comment: 'Clean-up' }, checker)).statusCode).toBe(200);
  });

  it('a request the caller may not decide is not found, whichever way it is asked for, like one that does not exist', async () => {
    const roleRequest = await requestRoleId(maker);
    const ipgChecker = await server.login('ruvini_a');
    const notFound = { statusCode: 404, message: 'Change request not found' };
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [roleRequest, 999_999], actionTaken: 'approve' }, ipgChecker)).data.results).toEqual([
      { changeRequestId: roleRequest, ...notFound },
      { changeRequestId: 999_999, ...notFound },
    ]);
    expect(await server.call('changeRequest/decide', { changeRequestID: roleRequest, actionTaken: 'approve' }, ipgChecker)).toEqual({ statusCode: 404, data: { message: notFound.message } });
    expect(await server.call('changeRequest/history', { changeRequestID: roleRequest }, ipgChecker)).toEqual({ statusCode: 404, data: { message: notFound.message } });
    expect((await server.call('changeRequest/decide', { changeRequestID: roleRequest, actionTaken: 'reject', comment: 'Clean-up' }, checker)).statusCode).toBe(200);
  });
});

describe('the pending requests of one maker are limited (PENDING_REQUESTS_PER_MAKER)', () => {
  let limited: ExtraApp;
  beforeAll(async () => {
    limited = await startExtraApp(server, { pendingRequestsPerMaker: 3, moneyActionApprovalAboveUsd: 1000 });
  });
  afterAll(async () => {
    await limited?.close();
  });
  const post = (path: string, body: unknown, token: string) => limited.post(path, body, { token }).then((r) => ({ statusCode: r.status, data: r.json.data }));

  it('refuses the request past the limit with 422 naming it, exactly, under parallel requests; a withdrawal makes room', async () => {
    const token = await userWith(unique('busy'), ['role-view', 'role-create', 'send-money-report-view']);
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => post('role/create', { role_name: roleName('Busy'), user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }, token)),
    );
    const accepted = replies.filter((r) => r.statusCode === 200);
    expect(accepted).toHaveLength(3);
    expect(replies.filter((r) => r.statusCode === 422).map((r) => r.data.message)).toEqual(
      Array(5).fill('You already have 3 pending change requests, the most one maker may have waiting (PENDING_REQUESTS_PER_MAKER): withdraw some or wait for their decision'),
    );
    const pending = await server.db.one<{ n: number }>(
      "SELECT count(*)::int AS n FROM change_requests c JOIN console_users u ON u.id = c.requested_by_id WHERE u.username LIKE 'busy%' AND c.status = 'PENDING'",
    );
    expect(pending!.n).toBe(3);
    expect((await post('changeRequest/withdraw', { changeRequestID: accepted[0]!.data.changeRequestId }, token)).statusCode).toBe(200);
    expect((await post('role/create', { role_name: roleName('Busy'), user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }, token)).statusCode).toBe(200);
  });
});

describe('property: no sequence of renames, requests, decisions, bulk decisions and withdrawals lets an account decide its own request', () => {
  it('holds over random sequences (accounts that both make and approve roles)', async () => {
    const names = [unique('pa'), unique('pb'), unique('pc')];
    const tokens = await Promise.all(names.map((n) => userWith(n, ['role-view', 'role-create', 'role-approve', 'send-money-report-view'])));
    const ids = await Promise.all(names.map((n) => idOf(n)));
    type Step =
      | { kind: 'request'; who: number }
      | { kind: 'rename'; who: number; to: number }
      | { kind: 'decide'; who: number; pick: number; approve: boolean }
      | { kind: 'bulk'; who: number; picks: number[]; approve: boolean }
      | { kind: 'withdraw'; who: number; pick: number };
    const who = fc.integer({ min: 0, max: 2 });
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('request' as const), who }),
      fc.record({ kind: fc.constant('rename' as const), who, to: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('decide' as const), who, pick: fc.nat(), approve: fc.boolean() }),
      fc.record({ kind: fc.constant('bulk' as const), who, picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), approve: fc.boolean() }),
      fc.record({ kind: fc.constant('withdraw' as const), who, pick: fc.nat() }),
    );
    let steps = 0;
    let runs = 0;
    // what the runs exercised: requests made, decisions taken, own requests refused
    const seen = { requests: 0, decided: 0, ownRefused: 0 };
    const tally = (statusCode: number, own: boolean) => {
      if (statusCode === 200) seen.decided += 1;
      if (own && statusCode === 403) seen.ownRefused += 1;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12 }), async (sequence) => {
        runs += 1;
        // the model: which account made each request (the test's own knowledge, not the server's)
        const madeBy = new Map<number, number>();
        for (const s of sequence) {
          steps += 1;
          const requests = [...madeBy.keys()];
          const pick = (n: number) => requests[n % Math.max(requests.length, 1)];
          if (s.kind === 'request') {
            const reply = await requestRole(tokens[s.who]!);
            expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
            madeBy.set(reply.data.changeRequestId as number, s.who);
            seen.requests += 1;
          } else if (s.kind === 'rename') {
            // the account takes a new name, one that reads like another account's: its session is kept
            const name = s.to === s.who ? unique('renamed') : `${names[s.to]}_x${counter++}`;
            await server.db.query('UPDATE console_users SET username = $2 WHERE id = $1', [ids[s.who], name]);
          } else if (s.kind === 'decide' && requests.length > 0) {
            const id = pick(s.pick)!;
            const reply = await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: s.approve ? 'approve' : 'reject', comment: 'random' }, tokens[s.who]!);
            if (madeBy.get(id) === s.who) expect(reply.statusCode).toBe(403);
            tally(reply.statusCode, madeBy.get(id) === s.who);
          } else if (s.kind === 'bulk' && requests.length > 0) {
            const chosen = [...new Set(s.picks.map((p) => pick(p)!))];
            const reply = await server.call('changeRequest/decide-many', { changeRequestIDs: chosen, actionTaken: s.approve ? 'approve' : 'reject', comment: 'random' }, tokens[s.who]!);
            expect(reply.statusCode).toBe(200);
            for (const r of reply.data.results as { changeRequestId: number; statusCode: number }[]) {
              if (madeBy.get(r.changeRequestId) === s.who) expect(r.statusCode).toBe(403);
              tally(r.statusCode, madeBy.get(r.changeRequestId) === s.who);
            }
          } else if (s.kind === 'withdraw' && requests.length > 0) {
            const id = pick(s.pick)!;
            const reply = await server.call('changeRequest/withdraw', { changeRequestID: id }, tokens[s.who]!);
            if (madeBy.get(id) !== s.who) expect(reply.statusCode).toBe(403);
          }
          // the stored truth: no request decided by the account that made it
          const self = await server.db.query(
            "SELECT id FROM change_requests WHERE requested_by_id = decided_by_id AND status IN ('APPROVED', 'REJECTED') AND requested_by_id IN (SELECT jsonb_array_elements_text($1::jsonb)::int)",
            [JSON.stringify(ids)],
          );
          expect(self).toEqual([]);
        }
        // the report agrees, and nothing is left pending for the next run
        expect((await server.call('report/segregation-of-duties', {}, admin)).data.selfApprovedCount).toBe(0);
        await server.db.query("UPDATE change_requests SET status = 'WITHDRAWN' WHERE status = 'PENDING' AND requested_by_id IN (SELECT jsonb_array_elements_text($1::jsonb)::int)", [
          JSON.stringify(ids),
        ]);
      }),
      { numRuns: Number(process.env.FOUR_EYES_RUNS ?? 20) },
    );
    console.log(`four eyes property: ${runs} runs, ${steps} steps, ${seen.requests} requests, ${seen.decided} decided, ${seen.ownRefused} own refused`);
    expect(seen.decided).toBeGreaterThan(0);
    expect(seen.ownRefused).toBeGreaterThan(0);
    for (const [i, id] of ids.entries()) await server.db.query('UPDATE console_users SET username = $2 WHERE id = $1', [id, names[i]]);
  });
});

describe('migration 220', () => {
  it('the migration gives existing requests the account of their name; a name no account has stays without one', async () => {
    const schema = process.env.TEST_DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : undefined;
    const db: Db = await openDb(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL, schema } : {});
    try {
      await migrate(
        db,
        migrations.filter((m) => m.id < 220),
      );
      const level = await db.one<{ id: number }>(`INSERT INTO user_levels (level, title) VALUES (1, 'One') RETURNING id`);
      const role = await db.one<{ id: number }>(`INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('R', 'BACKEND', $1, '[]') RETURNING id`, [level!.id]);
      const user = await db.one<{ id: number }>(
        `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash) VALUES ('Nimal', 'n@example.lk', '0770000000', 'Nimal', 'BACKEND', '001', $1, 'x') RETURNING id`,
        [role!.id],
      );
      for (const [maker, decider] of [
        ['nimal', null],
        ['gone', 'NIMAL'],
      ]) {
        await db.query(`INSERT INTO change_requests (entity_type, action, new_record, payload, requested_by, status, decided_by) VALUES ('Bank', 'CREATE', '{}', '{}', $1, $2, $3)`, [
          maker,
          decider ? 'APPROVED' : 'PENDING',
          decider,
        ]);
      }
      expect(await migrate(db)).toEqual(migrations.filter((m) => m.id >= 220).map((m) => m.id));
      expect(await db.query('SELECT requested_by, requested_by_id, decided_by, decided_by_id FROM change_requests ORDER BY id')).toEqual([
        { requested_by: 'nimal', requested_by_id: user!.id, decided_by: null, decided_by_id: null },
        { requested_by: 'gone', requested_by_id: null, decided_by: 'NIMAL', decided_by_id: user!.id },
      ]);
    } finally {
      if (schema) await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.close();
    }
  });
});
