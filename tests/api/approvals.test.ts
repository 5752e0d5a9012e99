/**
 * The checker's workbench and the maker's side: decision comments on the approve calls,
 * My requests and withdrawal, the approvals inbox and its counts, single and bulk decisions across
 * areas (racing on two server processes), request history, and expiry with a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangeRequestExpiryDays, StartupRefusal } from '../../src/server/environment';
import { startServer, type ApiClient, type TestServer } from './harness';

let server: TestServer;
let maker: string;
let maker2: string;
let checker: string;
let admin: string;
let auditor: string;
let ipgChecker: string;

beforeAll(async () => {
  server = await startServer();
  [maker, maker2, checker, admin, auditor, ipgChecker] = await Promise.all(['maker', 'nimal_perera', 'checker', 'admin', 'auditor', 'ruvini_a'].map((u) => server.login(u)));
});
afterAll(async () => {
  await server?.close();
});

let counter = 0;
const roleBody = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return { role_name: `Approvals Role ${counter}`, user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0, ...overrides };
};

/** A role request (CREATE) by `token`; returns the change request id. */
async function requestRole(token = maker, client: ApiClient = server): Promise<number> {
  const reply = await client.call('role/create', roleBody(), token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

/** An existing role (created and approved); returns its id. */
async function existingRole(): Promise<number> {
  const body = roleBody();
  const id = (await server.call('role/create', body, maker)).data.changeRequestId;
  expect((await server.call('role/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
  return (await server.db.one<{ id: number }>('SELECT id FROM roles WHERE role_name = $1', [body.role_name]))!.id;
}

/** A pending EDIT of a role by `token` (locks the role); returns the change request id. */
async function requestRoleEdit(roleId: number, token = maker): Promise<number> {
  const role = (await server.call('role/get-for-edit', { id: roleId }, token)).data.role;
  const reply = await server.call(
    'role/edit',
    { id: roleId, role_name: role.role_name, user_type: role.user_type, user_level: role.user_level, disabled: role.disabled, permissions: ['send-money-report-view', 'bank-view'] },
    token,
  );
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

const roleLocked = async (id: number) => (await server.db.one<{ locked: number }>('SELECT locked FROM roles WHERE id = $1', [id]))!.locked;
const logged = async (type: string, text: string) => (await server.db.query('SELECT 1 FROM activity_logs WHERE type = $1 AND description LIKE $2', [type, `%${text}%`])).length;
const mine = async (token = maker) => (await server.call('changeRequest/mine', {}, token)).data.requests as Record<string, unknown>[];

describe('reasons on the approve calls', () => {
  it('a client sending only the documented fields keeps working', async () => {
    const id = await requestRole();
    expect(await server.call('role/approve', { changeRequestID: id, actionTaken: 'reject' }, checker)).toEqual({ statusCode: 200, data: { message: 'Role rejected successfully' } });
    const shown = (await mine()).find((r) => r.changeRequestId === id)!;
    expect(shown).toMatchObject({ status: 'REJECTED', decidedBy: 'checker', comment: null });
  });

  it('stores a reject reason and an approve comment, shown to the maker and logged', async () => {
    const rejected = await requestRole();
    const approved = await requestRole();
    expect((await server.call('role/approve', { changeRequestID: rejected, actionTaken: 'reject', comment: '  Wrong user level for report readers ' }, checker)).statusCode).toBe(200);
    expect((await server.call('role/approve', { changeRequestID: approved, actionTaken: 'approve', comment: 'Checked with ops' }, checker)).statusCode).toBe(200);
    const requests = await mine();
    expect(requests.find((r) => r.changeRequestId === rejected)).toMatchObject({ status: 'REJECTED', comment: 'Wrong user level for report readers', type: 'Role', pendingAction: 'CREATE' });
    expect(requests.find((r) => r.changeRequestId === approved)).toMatchObject({ status: 'APPROVED', comment: 'Checked with ops' });
    expect(await logged('CHANGE_REJECTED', `#${rejected} by maker (account %; decided by checker (account %)): Wrong user level`)).toBe(1);
  });

  it('refuses a bad comment with a 400 naming the field, deciding nothing', async () => {
    const id = await requestRole();
    for (const comment of ['x'.repeat(201), 42, null]) {
      const reply = await server.call('role/approve', { changeRequestID: id, actionTaken: 'reject', comment }, checker);
      expect(reply.statusCode).toBe(400);
      expect(reply.data.message).toMatch(/^comment: /);
    }
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ status: 'PENDING' });
    // exactly 200 characters is accepted
    expect((await server.call('role/approve', { changeRequestID: id, actionTaken: 'reject', comment: 'y'.repeat(200) }, checker)).statusCode).toBe(200);
  });
});

describe('My requests and withdrawal', () => {
  it("lists only the caller's own requests, with the record and changed fields", async () => {
    const roleId = await existingRole();
    const id = await requestRoleEdit(roleId);
    const other = await requestRole(maker2);
    const requests = await mine();
    expect(requests.some((r) => r.changeRequestId === other)).toBe(false);
    expect(requests.find((r) => r.changeRequestId === id)).toMatchObject({ status: 'PENDING', recordId: roleId, pendingAction: 'EDIT', changedFields: ['Permissions'] });
    expect(String(requests.find((r) => r.changeRequestId === id)!.record)).toMatch(new RegExp(`^Approvals Role \\d+ \\(#${roleId}\\)$`));
    expect((await server.call('changeRequest/mine', { status: 'PENDING' }, maker)).data.requests.every((r: { status: string }) => r.status === 'PENDING')).toBe(true);
    // a user who can make no request at all
    expect((await server.call('changeRequest/mine', {}, auditor)).statusCode).toBe(403);
    expect((await server.call('changeRequest/mine', { status: 'LOST' }, maker)).data.message).toMatch(/^status: /);
  });

  it('lets only the maker withdraw, only while pending; it unlocks the record and is logged', async () => {
    const roleId = await existingRole();
    const id = await requestRoleEdit(roleId);
    expect(await roleLocked(roleId)).toBe(1);
    // another maker, a checker without make permissions, an unknown id
    expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, maker2)).toEqual({ statusCode: 403, data: { message: 'Only the maker of a change request can withdraw it' } });
    expect((await server.call('changeRequest/withdraw', { changeRequestID: id }, checker)).statusCode).toBe(403);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: 999999 }, maker)).statusCode).toBe(404);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: 'x' }, maker)).data.message).toMatch(/^changeRequestID: /);
    expect(await roleLocked(roleId)).toBe(1);

    expect(await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).toEqual({ statusCode: 200, data: { message: 'Change request withdrawn' } });
    expect(await roleLocked(roleId)).toBe(0);
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ status: 'WITHDRAWN', decidedBy: 'maker' });
    expect(await logged('CHANGE_WITHDRAWN', `#${id} (EDIT of Role #${roleId} by maker (account %))`)).toBe(1);
    // no longer pending: neither withdrawn again nor decided
    expect((await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).statusCode).toBe(409);
    expect(await server.call('role/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)).toEqual({ statusCode: 409, data: { message: 'Change request was withdrawn by its maker' } });
    // the record takes a new request
    await requestRoleEdit(roleId);
  });
});

describe('the approvals inbox', () => {
  it('holds what the caller may decide: their areas, never their own requests', async () => {
    const byMaker = await requestRole();
    const byAdmin = await requestRole(admin);
    const ofChecker = (await server.call('changeRequest/inbox', {}, checker)).data;
    const ids = ofChecker.requests.map((r: { changeRequestId: number }) => r.changeRequestId);
    expect(ids).toContain(byMaker);
    expect(ids).toContain(byAdmin);
    const shown = ofChecker.requests.find((r: { changeRequestId: number }) => r.changeRequestId === byMaker);
    expect(shown).toMatchObject({ type: 'Role', requestedBy: 'maker', status: 'PENDING', pendingAction: 'CREATE' });
    expect(shown.changedFields).toEqual(expect.arrayContaining(['Role Name', 'Permissions']));
    expect(ofChecker.counts.find((c: { type: string }) => c.type === 'Role').count).toBe(ofChecker.requests.filter((r: { type: string }) => r.type === 'Role').length);

    const ofAdmin = (await server.call('changeRequest/inbox', {}, admin)).data.requests.map((r: { changeRequestId: number }) => r.changeRequestId);
    expect(ofAdmin).toContain(byMaker);
    expect(ofAdmin).not.toContain(byAdmin);
    // holders of no approve permission; an IPG bank checker sees no role requests
    expect((await server.call('changeRequest/inbox', {}, auditor)).statusCode).toBe(403);
    // the maker holds transaction-refund (large money actions' area): while MONEY_ACTION_APPROVAL_ABOVE_USD is off, nothing to decide and no area counted
    expect((await server.call('changeRequest/inbox', {}, maker)).data).toEqual({ requests: [], total: 0, offset: 0, counts: [], makers: [] });
    expect((await server.call('changeRequest/counts', {}, auditor)).statusCode).toBe(403);
    const ofIpg = (await server.call('changeRequest/inbox', {}, ipgChecker)).data;
    expect(ofIpg.requests.some((r: { type: string }) => r.type !== 'IPG Provider Currency')).toBe(false);
    expect(ofIpg.counts.map((c: { type: string }) => c.type)).toEqual(['IPG Provider Currency']);
  });

  it('filters by area, maker and age, and counts per area', async () => {
    const byMaker2 = await requestRole(maker2);
    const byType = (await server.call('changeRequest/inbox', { type: 'Bank' }, checker)).data.requests;
    expect(byType.every((r: { type: string }) => r.type === 'Bank')).toBe(true);
    const byWho = (await server.call('changeRequest/inbox', { requestedBy: 'NIMAL_PERERA' }, checker)).data.requests;
    expect(byWho.map((r: { changeRequestId: number }) => r.changeRequestId)).toContain(byMaker2);
    expect(byWho.every((r: { requestedBy: string }) => r.requestedBy === 'nimal_perera')).toBe(true);
    expect((await server.call('changeRequest/inbox', { minAgeHours: 1 }, checker)).data.requests.map((r: { changeRequestId: number }) => r.changeRequestId)).not.toContain(byMaker2);
    expect((await server.call('changeRequest/inbox', { minAgeHours: -1 }, checker)).data.message).toMatch(/^minAgeHours: /);
    const counts = (await server.call('changeRequest/counts', {}, checker)).data;
    const all = (await server.call('changeRequest/inbox', {}, checker)).data.requests;
    expect(counts.total).toBe(all.length);
    expect(counts.counts.find((c: { type: string }) => c.type === 'Role').count).toBe(all.filter((r: { type: string }) => r.type === 'Role').length);
  });

  it("decides through the area's rules and permission; a reject from the workbench needs its reason", async () => {
    const id = await requestRole();
    expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject' }, checker)).data.message).toBe('comment: Please enter a reason for the rejection');
    expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: '   ' }, checker)).statusCode).toBe(400);
    // an approver of another area only; the maker themself (four eyes); a user with no approve permission
    // another area's request is not found for them: its area is not disclosed
    expect(await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'approve' }, ipgChecker)).toEqual({ statusCode: 404, data: { message: 'Change request not found' } });
    const own = await requestRole(admin);
    expect((await server.call('changeRequest/decide', { changeRequestID: own, actionTaken: 'approve' }, admin)).statusCode).toBe(403);
    expect((await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'approve' }, maker)).statusCode).toBe(403);
    expect((await server.call('changeRequest/decide', { changeRequestID: 999999, actionTaken: 'approve' }, checker)).statusCode).toBe(404);

    expect(await server.call('changeRequest/decide', { changeRequestID: id, actionTaken: 'reject', comment: 'Duplicate of an existing role' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'Role rejected successfully' },
    });
    expect((await mine()).find((r) => r.changeRequestId === id)).toMatchObject({ status: 'REJECTED', comment: 'Duplicate of an existing role', decidedBy: 'checker' });
  });

  it('shows the earlier requests on the same record with their reasons', async () => {
    const roleId = await existingRole();
    const first = await requestRoleEdit(roleId);
    await server.call('role/approve', { changeRequestID: first, actionTaken: 'reject', comment: 'Not this quarter' }, checker);
    const second = await requestRoleEdit(roleId);
    const history = (await server.call('changeRequest/history', { changeRequestID: second }, checker)).data.history;
    expect(history[0]).toMatchObject({ changeRequestId: first, status: 'REJECTED', comment: 'Not this quarter' });
    expect((await server.call('changeRequest/history', { changeRequestID: second }, maker)).statusCode).toBe(200);
    expect((await server.call('changeRequest/history', { changeRequestID: second }, maker2)).statusCode).toBe(404);
    expect((await server.call('changeRequest/history', { changeRequestID: second }, ipgChecker)).statusCode).toBe(404);
  });
});

describe('bulk decisions', () => {
  it('decides each on its own and lists each outcome', async () => {
    const a = await requestRole();
    const b = await requestRole();
    const own = await requestRole(admin);
    const decided = await requestRole();
    await server.call('role/approve', { changeRequestID: decided, actionTaken: 'approve' }, checker);
    const reply = await server.call('changeRequest/decide-many', { changeRequestIDs: [a, own, b, decided, 999999], actionTaken: 'approve', comment: 'Batch checked' }, admin);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.results).toEqual([
      { changeRequestId: a, statusCode: 200, message: 'Role approved successfully' },
      { changeRequestId: own, statusCode: 403, message: 'You cannot approve or reject your own change request' },
      { changeRequestId: b, statusCode: 200, message: 'Role approved successfully' },
      { changeRequestId: decided, statusCode: 409, message: 'Change request already decided' },
      { changeRequestId: 999999, statusCode: 404, message: 'Change request not found' },
    ]);
    expect((await mine()).filter((r) => r.changeRequestId === a || r.changeRequestId === b).map((r) => [r.status, r.comment])).toEqual([
      ['APPROVED', 'Batch checked'],
      ['APPROVED', 'Batch checked'],
    ]);
  });

  it('a bulk reject needs one reason for all; bad bodies are refused whole', async () => {
    const a = await requestRole();
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [a], actionTaken: 'reject' }, checker)).data.message).toBe('comment: Please enter a reason for the rejection');
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [a, a], actionTaken: 'approve' }, checker)).data.message).toMatch(/^changeRequestIDs: /);
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [], actionTaken: 'approve' }, checker)).data.message).toMatch(/^changeRequestIDs: /);
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [a], actionTaken: 'approve' }, auditor)).statusCode).toBe(403);
    expect((await server.call('changeRequest/decide-many', { changeRequestIDs: [a], actionTaken: 'approve' }, maker)).data.results).toEqual([
      { changeRequestId: a, statusCode: 403, message: 'You cannot approve or reject your own change request' },
    ]);
    expect((await mine()).find((r) => r.changeRequestId === a)).toMatchObject({ status: 'PENDING' });
    const reply = await server.call('changeRequest/decide-many', { changeRequestIDs: [a], actionTaken: 'reject', comment: 'Role names must say the team' }, checker);
    expect(reply.data.results).toEqual([{ changeRequestId: a, statusCode: 200, message: 'Role rejected successfully' }]);
    expect((await mine()).find((r) => r.changeRequestId === a)).toMatchObject({ status: 'REJECTED', comment: 'Role names must say the team' });
  });

  it('racing single approvals on another server process: each request decided exactly once', async () => {
    const peer = await server.startPeer();
    try {
      const roleIds = await Promise.all([existingRole(), existingRole(), existingRole(), existingRole()]);
      const ids: number[] = [];
      for (const r of roleIds) ids.push(await requestRoleEdit(r));
      const peerChecker = await peer.login('kumari_fernando');
      const [bulk, ...singles] = await Promise.all([
        server.call('changeRequest/decide-many', { changeRequestIDs: ids, actionTaken: 'approve' }, checker),
        ...ids.map((id) => peer.call('role/approve', { changeRequestID: id, actionTaken: 'approve', comment: 'single' }, peerChecker)),
      ]);
      expect(bulk!.statusCode).toBe(200);
      for (const [i, id] of ids.entries()) {
        const byBulk = bulk!.data.results[i];
        expect(byBulk.changeRequestId).toBe(id);
        const single = singles[i]!;
        // exactly one of them decided it; the other was told it was already decided
        expect([byBulk.statusCode, single.statusCode].sort()).toEqual([200, 409]);
        const row = await server.db.one<{ status: string; decided_by: string; version: number }>(
          'SELECT c.status, c.decided_by, r.version FROM change_requests c JOIN roles r ON r.id = c.record_id WHERE c.id = $1',
          [id],
        );
        expect(row).toMatchObject({ status: 'APPROVED', decided_by: byBulk.statusCode === 200 ? 'checker' : 'kumari_fernando', version: 2 });
        expect(
          await server.db.query("SELECT 1 FROM activity_logs WHERE type = 'CHANGE_APPROVED' AND description LIKE $1", [`%(change request #${id} by maker (account %); decided by %`]),
        ).toHaveLength(1);
      }
    } finally {
      await peer.close();
    }
  });
});

describe('live counts: GET /api/changeRequest/events', () => {
  /** Reads the stream until `until` matches what arrived, or fails after 10 s. */
  async function readUntil(res: Response, until: RegExp): Promise<string> {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 10_000;
    try {
      while (!until.test(text)) {
        if (Date.now() > deadline) throw new Error(`no match for ${until} in: ${text}`);
        const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out; got: ${text}`)), 10_000))]);
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    return text;
  }

  it('announces a new request, made on another server process, to a checker', async () => {
    const peer = await server.startPeer();
    try {
      const stream = await fetch(`${peer.url}/api/changeRequest/events`, { headers: { authorization: `Bearer ${checker}` } });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const arrived = readUntil(stream, /event: change\ndata: \{"type":"Role"\}/);
      await new Promise((r) => setTimeout(r, 200));
      await requestRole();
      expect(await arrived).toContain(': connected');
    } finally {
      await peer.close();
    }
  });

  it('is for signed-in holders of an approve permission only', async () => {
    expect((await fetch(`${server.url}/api/changeRequest/events`)).status).toBe(401);
    const refused = await fetch(`${server.url}/api/changeRequest/events`, { headers: { authorization: `Bearer ${auditor}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).data.message).toMatch(/^Forbidden: needs one of /);
  });
});

describe('CHANGE_REQUEST_EXPIRY_DAYS', () => {
  it('is read and validated at start-up', () => {
    expect(readChangeRequestExpiryDays({})).toBe(7);
    expect(readChangeRequestExpiryDays({ CHANGE_REQUEST_EXPIRY_DAYS: ' 3 ' })).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'seven', '366']) {
      expect(() => readChangeRequestExpiryDays({ CHANGE_REQUEST_EXPIRY_DAYS: bad })).toThrow(StartupRefusal);
    }
  });
});

// last: it moves the server's clock
describe('expiry (fake clock)', () => {
  it('expires a pending request older than the limit: record unlocked, logged, shown to the maker, no longer decidable', async () => {
    const roleId = await existingRole();
    const old = await requestRoleEdit(roleId);
    server.advanceClock(6 * 24 * 3_600_000);
    const young = await requestRole(await server.login('maker'));
    server.advanceClock(24 * 3_600_000 + 60_000); // `old` is 7 days and a minute old, `young` a day
    const [makerNow, checkerNow] = [await server.login('maker'), await server.login('checker')];

    // the checker's approve arrives first: refused, and the request is expired
    expect(await server.call('role/approve', { changeRequestID: old, actionTaken: 'approve' }, checkerNow)).toEqual({ statusCode: 409, data: { message: 'Change request has expired' } });
    expect(await roleLocked(roleId)).toBe(0);
    const requests = await mine(makerNow);
    expect(requests.find((r) => r.changeRequestId === old)).toMatchObject({ status: 'EXPIRED', decidedBy: null });
    expect(requests.find((r) => r.changeRequestId === young)).toMatchObject({ status: 'PENDING' });
    expect(await server.db.query("SELECT username FROM activity_logs WHERE type = 'CHANGE_EXPIRED' AND description LIKE $1", [`%#${old} (EDIT of Role #${roleId} by maker (account %))%`])).toEqual([
      { username: 'system' },
    ]);
    const inboxIds = (await server.call('changeRequest/inbox', {}, checkerNow)).data.requests.map((r: { changeRequestId: number }) => r.changeRequestId);
    expect(inboxIds).not.toContain(old);
    expect(inboxIds).toContain(young);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: old }, makerNow)).statusCode).toBe(409);
    // the record takes a new request
    await requestRoleEdit(roleId, makerNow);
    server.resetClock();
  });
});
