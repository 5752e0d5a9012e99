import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleId, startServer, userId, type ApiClient, type TestServer } from './harness';

let server: TestServer;
let maker: string;
let checker: string;
let admin: string;
let makerRole: number;

beforeAll(async () => {
  server = await startServer();
  [maker, checker, admin] = await Promise.all([server.login('maker'), server.login('checker'), server.login('admin')]);
  makerRole = await roleId(server.db, 'Maker');
});
afterAll(async () => {
  await server?.close();
});

let counter = 0;
function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    type: 'BACKEND',
    name: `Test User ${counter}`,
    email: `test.user${counter}@remit.lk`,
    contact: '0771112223',
    username: `test_user_${counter}`,
    branch_code: 'KANDY',
    role: makerRole,
    password: 'Fresh@Pass12',
    disabled: 0,
    ...overrides,
  };
}

async function requestCreate(body = newUser(), token = maker): Promise<number> {
  const reply = await server.call('user/create', body, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  expect(reply.data.message).toBe('User sent for approval');
  return reply.data.changeRequestId;
}

async function userEditBody(username: string, changes: Record<string, unknown>) {
  const id = await userId(server.db, username);
  const { customUser } = (await server.call('user/get-for-edit', { id }, admin)).data;
  return {
    id,
    type: customUser.user_type,
    name: customUser.name,
    email: customUser.email,
    contact: customUser.contact,
    username: customUser.username,
    branch_code: customUser.branch_code,
    role: customUser.role,
    disabled: customUser.disabled,
    ...changes,
  };
}

const requestStatus = async (id: number) => (await server.db.one<{ status: string }>('SELECT status FROM change_requests WHERE id = $1', [id]))!.status;
const usersNamed = async (username: string) => (await server.db.query('SELECT id FROM console_users WHERE lower(username) = lower($1)', [username])).length;

describe('a user CREATE request', () => {
  it('is pending with a display map and no password anywhere on the wire', async () => {
    const body = newUser();
    const id = await requestCreate(body);
    expect(await usersNamed(body.username)).toBe(0);

    const list = await server.call('user/list', {}, checker);
    const request = list.data.changeRequests.find((r: { changeRequestId: number }) => r.changeRequestId === id);
    expect(request).toMatchObject({ type: 'User', pendingAction: 'CREATE', requestedBy: 'maker', originalRecord: null });
    expect(new Date(request.requestedTime).toISOString()).toBe(request.requestedTime);
    expect(request.newRecord.username).toEqual({ header: 'Username', type: 'STRING', value: body.username });
    expect(request.newRecord.branch.value).toBe('Kandy');
    expect(request.newRecord.role.value).toBe('Maker');
    expect(request.newRecord.status.value).toBe('Active');
    const wire = JSON.stringify(list);
    // no "password" or "password_hash" key (the rows' role permissions do name user-password-reset)
    for (const secret of ['"password', body.password, 'scrypt$']) expect(wire).not.toContain(secret);

    const stored = await server.db.one<{ payload: Record<string, unknown>; new_record: unknown }>('SELECT payload, new_record FROM change_requests WHERE id = $1', [id]);
    expect(stored!.payload).not.toHaveProperty('password');
    expect(String(stored!.payload.password_hash)).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored!.new_record)).not.toContain('scrypt$');
  });

  it('cannot be approved by a maker without user-approve, nor by its own maker', async () => {
    const id = await requestCreate();
    expect((await server.call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, maker)).statusCode).toBe(403);

    const own = await requestCreate(newUser(), admin);
    expect(await server.call('user/approve', { changeRequestID: own, actionTaken: 'approve' }, admin)).toEqual({
      statusCode: 403,
      data: { message: 'You cannot approve or reject your own change request' },
    });
    expect(await server.call('user/approve', { changeRequestID: own, actionTaken: 'reject' }, admin)).toMatchObject({ statusCode: 403 });
    expect(await requestStatus(own)).toBe('PENDING');
  });

  it('approved by a checker creates the user, who can sign in with the given password', async () => {
    const body = newUser();
    const id = await requestCreate(body);
    expect(await server.call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'User approved successfully' },
    });
    expect(await usersNamed(body.username)).toBe(1);
    const token = await server.login(body.username, body.password);
    // the password was chosen by the maker: the new account must replace it before anything else
    expect(await server.call('user/list', {}, token)).toMatchObject({ statusCode: 403, data: { message: 'You must change your password before continuing' } });
    const changed = await server.call('user/reset-password', { username: body.username, old_password: body.password, new_password: 'Own@Choice12' }, token);
    expect(changed.statusCode).toBe(200);
    const own = await server.login(body.username, 'Own@Choice12');
    expect((await server.call('user/list', {}, own)).statusCode).toBe(200);
    expect(await server.call('user/approve', { changeRequestID: id, actionTaken: 'reject' }, checker)).toEqual({
      statusCode: 409,
      data: { message: 'Change request already decided' },
    });
    const decided = await server.db.one<{ status: string; decided_by: string; record_id: number }>('SELECT status, decided_by, record_id FROM change_requests WHERE id = $1', [id]);
    expect(decided).toEqual({ status: 'APPROVED', decided_by: 'checker', record_id: await userId(server.db, body.username) });
  });

  it('rejected by a checker is discarded', async () => {
    const body = newUser();
    const id = await requestCreate(body);
    expect((await server.call('user/approve', { changeRequestID: id, actionTaken: 'reject' }, checker)).data.message).toBe('User rejected successfully');
    expect(await usersNamed(body.username)).toBe(0);
    expect(await requestStatus(id)).toBe('REJECTED');
    const list = await server.call('user/list', {}, checker);
    expect(list.data.changeRequests.map((r: { changeRequestId: number }) => r.changeRequestId)).not.toContain(id);
    await requestCreate(body); // the username is free again
  });

  it('refuses a username that exists or is already pending creation, with 422', async () => {
    const existing = await server.call('user/create', newUser({ username: 'Checker' }), maker);
    expect(existing).toEqual({ statusCode: 422, data: { message: 'Username "Checker" already exists' } });
    const body = newUser();
    await requestCreate(body);
    const twice = await server.call('user/create', { ...body, username: body.username.toUpperCase() }, maker);
    expect(twice.statusCode).toBe(422);
    expect(twice.data.message).toMatch(/already pending approval/);
  });

  it('refuses a role that does not suit the user type, and a branch that does not exist for it, with 422', async () => {
    const ipgRole = await roleId(server.db, 'IPG Bank Officer');
    expect((await server.call('user/create', newUser({ role: ipgRole }), maker)).statusCode).toBe(422);
    expect((await server.call('user/create', newUser({ type: 'IPGBANK', branch_code: '7010' }), maker)).statusCode).toBe(422);
    expect((await server.call('user/create', newUser({ type: 'IPGBANK', branch_code: '7010', role: ipgRole }), maker)).statusCode).toBe(200);
    expect(await server.call('user/create', newUser({ branch_code: 'NOWHERE' }), maker)).toEqual({
      statusCode: 422,
      data: { message: 'Please select a branch' },
    });
    expect((await server.call('user/create', newUser({ role: 9999 }), maker)).data.message).toBe('Please select a role');
  });
});

describe('an EDIT request', () => {
  it('locks the record: a second request gets 409 and a password change 422 until it is decided', async () => {
    const body = await userEditBody('nimal_perera', { name: 'Nimal Perera Jayawardena' });
    const first = await server.call('user/edit', body, maker);
    expect(first.statusCode).toBe(200);

    const list = await server.call('user/list', { data: 'nimal_perera' }, maker);
    expect(list.data.users[0].locked).toBe(1);
    const request = list.data.changeRequests.find((r: { changeRequestId: number }) => r.changeRequestId === first.data.changeRequestId);
    expect(request.pendingAction).toBe('EDIT');
    expect(request.originalRecord.name.value).toBe('Nimal Perera');
    expect(request.newRecord.name.value).toBe('Nimal Perera Jayawardena');

    expect(await server.call('user/edit', { ...body, name: 'Someone Else' }, maker)).toEqual({
      statusCode: 409,
      data: { message: 'User is locked: a change request is already pending' },
    });
    expect(await server.call('user/change-password', { username: 'nimal_perera', password: 'Fresh@Pass12' }, admin)).toEqual({
      statusCode: 422,
      data: { message: 'User is locked' },
    });

    expect((await server.call('user/approve', { changeRequestID: first.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    const after = (await server.call('user/get-for-edit', { id: body.id }, admin)).data.customUser;
    expect(after).toMatchObject({ name: 'Nimal Perera Jayawardena', locked: 0 });
    const version = await server.db.one<{ version: number }>('SELECT version FROM console_users WHERE id = $1', [body.id]);
    expect(version!.version).toBe(2);
  });

  it('is refused when the record changed since the request was made, and nothing is applied', async () => {
    const body = await userEditBody('mahesh_s', { name: 'Mahesh Changed' });
    const { changeRequestId } = (await server.call('user/edit', body, maker)).data;
    await server.db.query('UPDATE console_users SET version = version + 1 WHERE id = $1', [body.id]);
    expect(await server.call('user/approve', { changeRequestID: changeRequestId, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 409,
      data: { message: 'The record changed since this request was made' },
    });
    const row = await server.db.one<{ name: string; locked: number }>('SELECT name, locked FROM console_users WHERE id = $1', [body.id]);
    expect(row).toEqual({ name: 'Mahesh Senanayake', locked: 1 });
    expect(await requestStatus(changeRequestId)).toBe('PENDING');
    expect((await server.call('user/approve', { changeRequestID: changeRequestId, actionTaken: 'reject' }, checker)).statusCode).toBe(200);
    expect((await server.db.one<{ locked: number }>('SELECT locked FROM console_users WHERE id = $1', [body.id]))!.locked).toBe(0);
  });

  it('of an unknown record is 404, and a decision through the wrong entity is 404', async () => {
    expect((await server.call('user/edit', { ...(await userEditBody('arjun_t', {})), id: 99999 }, maker)).statusCode).toBe(404);
    const id = await requestCreate();
    expect(await server.call('role/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 404,
      data: { message: 'Change request not found' },
    });
    expect((await server.call('user/approve', { changeRequestID: 99999, actionTaken: 'approve' }, checker)).statusCode).toBe(404);
  });
});

describe('races', () => {
  let peer: ApiClient & { close(): Promise<void> };
  beforeAll(async () => {
    peer = await server.startPeer();
  });
  afterAll(async () => {
    await peer.close();
  });

  it('20 concurrent approvals on two servers give exactly one 200 and one applied change', async () => {
    const body = newUser();
    const id = await requestCreate(body);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : server).call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)));
    const codes = replies.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await usersNamed(body.username)).toBe(1);
    const logged = await server.db.query("SELECT 1 FROM activity_logs WHERE type = 'CHANGE_APPROVED' AND description LIKE $1", [`%change request #${id} %`]);
    expect(logged).toHaveLength(1);
  });

  it('approvals racing rejections give exactly one decision', async () => {
    const body = await userEditBody('arjun_t', { email: 'arjun.thevarajah@remit.lk' });
    const { changeRequestId } = (await server.call('user/edit', body, maker)).data;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : server).call('user/approve', { changeRequestID: changeRequestId, actionTaken: i % 4 < 2 ? 'approve' : 'reject' }, checker)),
    );
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.statusCode === 409)).toHaveLength(19);
    const status = await requestStatus(changeRequestId);
    const row = await server.db.one<{ email: string; locked: number; version: number }>('SELECT email, locked, version FROM console_users WHERE id = $1', [body.id]);
    expect(row!.locked).toBe(0);
    if (status === 'APPROVED') expect(row).toMatchObject({ email: 'arjun.thevarajah@remit.lk', version: 2 });
    else expect(row).toMatchObject({ email: 'arjun.t@remit.lk', version: 1 });
  });

  it('two requests on one record at once: exactly one is stored', async () => {
    const body = await userEditBody('sunil_jayasinghe', { name: 'Sunil Jayasinghe Edited' });
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? peer : server).call('user/edit', body, maker)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.statusCode === 409)).toHaveLength(5);
  });
});

describe('roles', () => {
  it('an approved role edit changes what its users may do on their next call', async () => {
    const auditor = await server.login('auditor');
    expect((await server.call('user/list', {}, auditor)).statusCode).toBe(403);
    const id = await roleId(server.db, 'Auditor');
    const { role } = (await server.call('role/get-for-edit', { id }, admin)).data;
    // admin asks: the maker does not hold the auditor permissions this role holds (privilege.test.ts)
    const edit = await server.call(
      'role/edit',
      { id, role_name: role.role_name, user_type: role.user_type, user_level: role.user_level, disabled: role.disabled, permissions: [...role.permissions, 'user-view'] },
      admin,
    );
    expect(edit).toMatchObject({ statusCode: 200, data: { message: 'Role sent for approval' } });
    expect((await server.call('role/list', {}, maker)).data.roles.find((r: { id: number }) => r.id === id).locked).toBe(1);
    expect((await server.call('user/list', {}, auditor)).statusCode).toBe(403);

    expect((await server.call('role/approve', { changeRequestID: edit.data.changeRequestId, actionTaken: 'approve' }, checker)).data.message).toBe('Role approved successfully');
    expect((await server.call('user/list', {}, auditor)).statusCode).toBe(200);
  });

  it('a role CREATE request is pending until approved, with its permissions as a STRING_ARRAY', async () => {
    const body = { role_name: 'Branch Viewer', user_type: 'BACKEND', user_level: 1, permissions: ['user-view', 'role-view'], disabled: 0 };
    const created = await server.call('role/create', body, maker);
    expect(created.statusCode).toBe(200);
    const list = await server.call('role/list', {}, checker);
    expect(list.data.roles.some((r: { role_name: string }) => r.role_name === 'Branch Viewer')).toBe(false);
    const request = list.data.changeRequests.find((r: { changeRequestId: number }) => r.changeRequestId === created.data.changeRequestId);
    expect(request.newRecord.permissions).toEqual({ header: 'Permissions', type: 'STRING_ARRAY', value: ['user-view', 'role-view'] });
    expect(request.newRecord.user_level.value).toBe('Officer');
    expect((await server.call('role/create', { ...body, role_name: 'branch viewer' }, maker)).statusCode).toBe(422);
    await server.call('role/approve', { changeRequestID: created.data.changeRequestId, actionTaken: 'approve' }, checker);
    const after = await server.call('role/list', {}, checker);
    expect(after.data.roles.find((r: { role_name: string }) => r.role_name === 'Branch Viewer')).toMatchObject({
      permissions: ['user-view', 'role-view'],
      status: 'Active',
      locked: 0,
    });
    expect((await server.call('role/create', body, maker)).data.message).toBe('Role name "Branch Viewer" already exists');
  });
});

describe('the activity log', () => {
  it('records each request and decision with who, what, before and after, and no secrets', async () => {
    const rows = await server.db.query<{ type: string; username: string; before: unknown; after: unknown }>(
      "SELECT type, username, before, after FROM activity_logs WHERE type LIKE 'CHANGE_%' ORDER BY id",
    );
    expect(rows.some((r) => r.type === 'CHANGE_REQUEST' && r.username === 'maker' && r.after !== null)).toBe(true);
    expect(rows.some((r) => r.type === 'CHANGE_APPROVED' && r.username === 'checker' && r.before !== null && r.after !== null)).toBe(true);
    expect(rows.some((r) => r.type === 'CHANGE_REJECTED')).toBe(true);
    const text = JSON.stringify(await server.db.query('SELECT * FROM activity_logs'));
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('Fresh@Pass12');
  });
});
