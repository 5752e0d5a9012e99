/**
 * The segregation-of-duties report (report/segregation-of-duties, permission sod-report-view): roles and
 * users that can both make and approve in one area, requests approved by their own maker, and pairs of
 * users approving each other above a share. Decisions are written in SQL where the engine would refuse
 * them (a self-approval) or to set their dates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOf } from '../../src/api/contract';
import { sodReport } from '../../src/api/controls';
import { expectStatus, startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

async function report(body: RequestOf<typeof sodReport> = {}, token = admin) {
  return (await server.ok(sodReport, body, token)).data;
}

/** Account ids for the names of the requests written here (accounts need not exist: a removed account keeps its id in the history). */
const accountIds = new Map<string, number>();
const accountOf = (name: string) => {
  const key = name.toLowerCase();
  if (!accountIds.has(key)) accountIds.set(key, 90_000 + accountIds.size);
  return accountIds.get(key)!;
};
/** A name as the report names an account: "alice (account 90001)". */
const acct = (name: string) => `${name} (account ${accountOf(name)})`;

/** An approved change request, written in SQL; the accounts are the names' own unless `ids` says otherwise (null: no known account). */
async function approved(maker: string, checker: string, daysAgo = 1, ids: { maker?: number | null; checker?: number | null } = {}) {
  const at = new Date(server.now().getTime() - daysAgo * 86_400_000);
  await server.db.query(
    `INSERT INTO change_requests (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status, decided_by, decided_by_id, decided_at)
     VALUES ('Bank', NULL, 'CREATE', '{}', NULL, '{}', NULL, $1, $4, $3, 'APPROVED', $2, $5, $3)`,
    [maker, checker, at, ids.maker === undefined ? accountOf(maker) : ids.maker, ids.checker === undefined ? accountOf(checker) : ids.checker],
  );
}

describe('the segregation-of-duties report', () => {
  it('lists the roles and users that can make and approve in one area, and no self-approval on a clean database', async () => {
    const data = await report();
    const of = (finding: string, subject: string) => data.findings.filter((f) => f.finding === finding && f.subject === subject).map((f) => f.area);
    expect(of('Role can make and approve', 'Administrator')).toContain('User');
    expect(of('User can make and approve', 'admin')).toContain('Bank');
    // the checker approves only; the maker makes, and can do both only for the money actions (same permission by design)
    expect(of('Role can make and approve', 'Checker')).toEqual([]);
    expect(of('Role can make and approve', 'Maker')).toEqual(['Void and refund above MONEY_ACTION_APPROVAL_ABOVE_USD', 'Manual fund transfer above MONEY_ACTION_APPROVAL_ABOVE_USD']);
    expect(data.selfApprovedCount).toBe(0);
    expect(data.findings.filter((f) => f.finding === 'Approved own request')).toEqual([]);
    expect(data.findings.map((f) => f.id)).toEqual(data.findings.map((_, i) => i + 1));
  });

  it('names a role given both sides of an area, and its users', async () => {
    const role = await server.db.one<{ id: number }>(
      `INSERT INTO roles (role_name, user_type, user_level, permissions) SELECT 'Bank Desk', user_type, user_level, '["bank-view","bank-create","bank-approve"]' FROM roles WHERE role_name = 'Maker' RETURNING id`,
    );
    await server.db.query(
      `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
       SELECT 'Desk', 'desk@example.lk', contact, 'desk', user_type, branch_code, $1, password_hash FROM console_users WHERE username = 'maker'`,
      [role!.id],
    );
    const data = await report();
    expect(data.findings.filter((f) => f.subject === 'Bank Desk')).toEqual([
      { id: expect.any(Number), finding: 'Role can make and approve', subject: 'Bank Desk', area: 'Bank', detail: 'makes with bank-create; approves with bank-approve' },
    ]);
    expect(data.findings.filter((f) => f.subject === 'desk')).toEqual([
      { id: expect.any(Number), finding: 'User can make and approve', subject: 'desk', area: 'Bank', detail: 'role Bank Desk: makes with bank-create; approves with bank-approve' },
    ]);
  });

  it('reports a request decided by its own maker, by account id whatever the names say', async () => {
    // the names read as two people, the account is one (renamed between the request and the decision)
    await approved('Mallory', 'mallory_renamed', 1, { maker: accountOf('Mallory'), checker: accountOf('Mallory') });
    // two accounts, the same name at different times: not a self-approval
    await approved('trent', 'trent', 1, { maker: accountOf('trent'), checker: accountOf('trent2') });
    // a request older than the ids, whose names no account had any more: compared by name
    await approved('Oscar', 'oscar', 1, { maker: null, checker: null });
    const data = await report();
    expect(data.selfApprovedCount).toBe(2);
    const own = data.findings.filter((f) => f.finding === 'Approved own request');
    expect(own.map((f) => f.subject)).toEqual([acct('Mallory'), 'Oscar (no known account)']);
    expect(own[0]).toMatchObject({ area: 'Bank' });
    expect(own[0]!.detail).toMatch(/^change request #\d+ \(CREATE\) was approved by its maker's own account on /);
  });

  it('reports pairs approving each other above the threshold share, in the window', async () => {
    // alice: 4 approved requests, 3 by bob; bob: 2, both by alice -> (3 + 2) / (4 + 2) = 83.3%
    for (const c of ['bob', 'bob', 'bob', 'carol']) await approved('alice', c);
    for (const c of ['alice', 'alice']) await approved('bob', c);
    // dave and erin, 200 days ago: outside the default 90 days
    await approved('dave', 'erin', 200);
    await approved('erin', 'dave', 200);
    // frank and grace approve each other once, among many others: 2 of 8 = 25%
    await approved('frank', 'grace');
    await approved('grace', 'frank');
    for (const c of ['x1', 'x2', 'x3']) {
      await approved('frank', c);
      await approved('grace', c);
    }

    const pairs = async (body: RequestOf<typeof sodReport>) => (await report(body)).findings.filter((f) => f.finding === 'Mutual approvals');
    const def = await pairs({});
    expect(def.map((f) => f.subject)).toEqual([`${acct('alice')} and ${acct('bob')}`]);
    expect(def[0]!.detail).toBe(
      `${acct('bob')} approved 3 of 4 approved requests of ${acct('alice')}; ${acct('alice')} approved 2 of 2 of ${acct('bob')}: 83.3% of their approved requests in the last 90 days (threshold 50.0%)`,
    );
    expect((await pairs({ threshold: 0.9 })).map((f) => f.subject)).toEqual([]);
    expect((await pairs({ threshold: 0.2 })).map((f) => f.subject)).toEqual([`${acct('alice')} and ${acct('bob')}`, `${acct('frank')} and ${acct('grace')}`]);
    expect((await pairs({ days: 365 })).map((f) => f.subject)).toEqual([`${acct('dave')} and ${acct('erin')}`, `${acct('alice')} and ${acct('bob')}`]);
    expect((await report({ days: 365, threshold: 0.2 })).mutualPairCount).toBe(3);
  });

  it('refuses bad bounds naming the field, and anyone without sod-report-view', async () => {
    for (const body of [{ threshold: 1.5 }, { threshold: -0.1 }, { threshold: 'half' }]) {
      const reply = await server.call('report/segregation-of-duties', body, admin);
      expect(reply.statusCode).toBe(400);
      expect(reply.data.message).toContain('threshold');
    }
    for (const body of [{ days: 0 }, { days: 3651 }, { days: 1.5 }]) {
      const reply = await server.call('report/segregation-of-duties', body, admin);
      expect(reply.statusCode).toBe(400);
      expect(reply.data.message).toContain('days');
    }
    expect((await server.call('report/segregation-of-duties', { other: 1 }, admin)).statusCode).toBe(400);
    expectStatus(await server.call(sodReport, {}, await server.login('auditor')), 403);
    expectStatus(await server.call(sodReport, {}), 401);
    // the checker (demo role: every …-view) may read it
    await server.ok(sodReport, {}, await server.login('checker'));
  });
});
