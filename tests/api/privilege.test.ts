/**
 * No one person can borrow another account's privilege. Change Password only
 * for accounts with no more permissions than the caller (never a super user, never oneself), a second
 * person for a privileged account, no role or user request granting what the maker does not hold,
 * and the unlock of a locked sign-in as a change request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleId, startServer, userId, type TestServer } from './harness';

const DEMO = 'Demo@Pass1';
const FRESH = 'Fresh@Pass12';

let server: TestServer;
let admin: string;
let maker: string;
let checker: string;
beforeAll(async () => {
  server = await startServer();
  [admin, maker, checker] = await Promise.all([server.login('admin'), server.login('maker'), server.login('checker')]);
});
afterAll(async () => {
  await server?.close();
});

const hashOf = async (username: string) =>
  (await server.db.one<{ password_hash: string; must_change_password: number; locked: number }>('SELECT password_hash, must_change_password, locked FROM console_users WHERE username = $1', [
    username,
  ]))!;
const signIn = (username: string, password: string) => server.call('auth/login', { username, password });
const logsOf = (type: string) =>
  server.db.query<{ username: string; description: string; before: unknown; after: unknown }>('SELECT username, description, before, after FROM activity_logs WHERE type = $1 ORDER BY id', [type]);
const pendingRequests = (entity: string) => server.db.query<{ id: number }>("SELECT id FROM change_requests WHERE entity_type = $1 AND status = 'PENDING'", [entity]);
const listRow = async (username: string, token = admin) =>
  (await server.call('user/list', { data: username, fetchCount: 100 }, token)).data.users.find((u: { username: string }) => u.username === username);

describe('user/change-password: only for accounts with no more permissions than the caller', () => {
  it('refuses a super user, with 403 naming the reason, and changes nothing', async () => {
    const before = await hashOf('admin');
    expect(await server.call('user/change-password', { username: 'admin', password: FRESH }, maker)).toEqual({
      statusCode: 403,
      data: { message: 'The password of the super user "admin" cannot be changed by another user' },
    });
    expect(await hashOf('admin')).toEqual(before);
    expect(await pendingRequests('User')).toEqual([]);
    expect((await signIn('admin', DEMO)).statusCode).toBe(200);
    expect((await server.call('auth/token', {}, admin)).statusCode).toBe(200);
  });

  it('refuses an account holding permissions the caller lacks (the checkers), naming them', async () => {
    const before = await hashOf('checker');
    const reply = await server.call('user/change-password', { username: 'Checker', password: FRESH }, maker);
    expect(reply.statusCode).toBe(403);
    expect(reply.data.message).toMatch(/^You cannot change the password of "checker": they hold permissions you do not hold \(.*user-approve.*role-approve.*\)$/);
    const auditor = await server.call('user/change-password', { username: 'auditor', password: FRESH }, maker);
    expect(auditor).toEqual({
      statusCode: 403,
      data: { message: 'You cannot change the password of "auditor": they hold permissions you do not hold (auditor-dashboard-view, auditor-report-view, auditor-app-user-view)' },
    });
    expect(await hashOf('checker')).toEqual(before);
    expect((await server.call('auth/token', {}, checker)).statusCode).toBe(200);
    expect((await signIn('checker', DEMO)).statusCode).toBe(200);
  });

  it("refuses one's own password (that is Reset Password, with the old one), also for a super user", async () => {
    for (const [username, token] of [
      ['maker', maker],
      ['ADMIN', admin],
    ] as const) {
      expect(await server.call('user/change-password', { username, password: FRESH }, token)).toEqual({
        statusCode: 403,
        data: { message: 'You cannot change your own password here: use Reset Password with your old password' },
      });
    }
    expect((await signIn('maker', DEMO)).statusCode).toBe(200);
  });

  it('sets a temporary password of a lesser account at once: must change it, every token revoked, logged without the password', async () => {
    const old = await server.login('kasun_herath');
    const reply = await server.call('user/change-password', { username: 'kasun_herath', password: FRESH }, maker);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'Password changed for user "kasun_herath" successfully' } });
    expect((await hashOf('kasun_herath')).must_change_password).toBe(1);
    expect((await server.call('auth/token', {}, old)).statusCode).toBe(401);
    expect((await signIn('kasun_herath', DEMO)).statusCode).toBe(401);
    expect((await signIn('kasun_herath', FRESH)).statusCode).toBe(200);

    const logged = (await logsOf('PASSWORD_CHANGED')).filter((l) => l.description.includes('kasun_herath'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ username: 'maker' });
    expect(logged[0].description).toMatch(/temporary/);
    const text = JSON.stringify(await server.db.query('SELECT * FROM activity_logs'));
    expect(text).not.toContain(FRESH);
    expect(text).not.toContain('scrypt$');
  });
});

describe('user/change-password of a privileged account: a second person approves', () => {
  it('a maker resetting another maker sends a change request; a checker applies it', async () => {
    const old = await server.login('nimal_perera');
    const before = await hashOf('nimal_perera');
    const reply = await server.call('user/change-password', { username: 'nimal_perera', password: FRESH }, maker);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.message).toBe('Password reset for user "nimal_perera" sent for approval');
    const id = reply.data.changeRequestId as number;
    expect(id).toEqual(expect.any(Number));

    // nothing applied yet; the record is locked while pending
    expect((await hashOf('nimal_perera')).password_hash).toBe(before.password_hash);
    expect((await hashOf('nimal_perera')).locked).toBe(1);
    expect((await server.call('auth/token', {}, old)).statusCode).toBe(200);
    expect(await server.call('user/change-password', { username: 'nimal_perera', password: 'Other@Pass12' }, admin)).toEqual({
      statusCode: 422,
      data: { message: 'User is locked' },
    });

    // the request holds only the new password's scrypt hash; the approval modal says what happens
    const stored = await server.db.one<{ payload: Record<string, unknown>; action: string; operation: string }>('SELECT payload, action, operation FROM change_requests WHERE id = $1', [id]);
    expect(stored).toMatchObject({ action: 'EDIT', operation: 'PASSWORD_RESET' });
    expect(Object.keys(stored!.payload)).toEqual(['password_hash']);
    expect(String(stored!.payload.password_hash)).toMatch(/^scrypt\$/);
    expect(JSON.stringify(await server.db.query('SELECT * FROM change_requests WHERE id = $1', [id]))).not.toContain(FRESH);
    const list = await server.call('user/list', { data: 'nimal_perera' }, checker);
    const request = list.data.changeRequests.find((r: { changeRequestId: number }) => r.changeRequestId === id);
    expect(request).toMatchObject({ type: 'User', pendingAction: 'EDIT', requestedBy: 'maker' });
    expect(request.newRecord.password).toEqual({ header: 'Password', type: 'STRING', value: 'reset (temporary)' });
    expect(request.originalRecord.password.value).toBe('unchanged');
    expect(request.newRecord.username.value).toBe('nimal_perera');
    expect(JSON.stringify(list)).not.toContain('scrypt$');

    // the maker cannot approve it (no user-approve), nor could a maker who held it (own request)
    expect((await server.call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, maker)).statusCode).toBe(403);
    expect(await server.call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'User approved successfully' },
    });
    const after = await hashOf('nimal_perera');
    expect(after).toMatchObject({ must_change_password: 1, locked: 0 });
    expect(after.password_hash).not.toBe(before.password_hash);
    expect((await server.call('auth/token', {}, old)).statusCode).toBe(401);
    expect((await signIn('nimal_perera', FRESH)).statusCode).toBe(200);

    const logged = (await logsOf('PASSWORD_CHANGED')).filter((l) => l.description.includes('nimal_perera'));
    expect(logged).toHaveLength(1);
    expect(logged[0].username).toBe('checker');
    expect(logged[0].description).toContain(`change request #${id} by maker`);
    expect((await logsOf('CHANGE_REQUEST')).some((l) => l.username === 'maker' && l.description.includes('password reset') && l.description.includes(`#${id}`))).toBe(true);
    const approved = (await logsOf('CHANGE_APPROVED')).find((l) => l.description.includes(`change request #${id} `));
    expect(approved).toMatchObject({ username: 'checker', before: { password: { value: 'unchanged' } }, after: { password: { value: 'reset (temporary)' }, username: { value: 'nimal_perera' } } });
    expect(approved!.description).toMatch(/^Approved password reset of User #\d+/);
  });

  it("a super user's reset of a checker waits for another user; the super user cannot approve their own", async () => {
    const reply = await server.call('user/change-password', { username: 'priyanka_e', password: FRESH }, admin);
    expect(reply.data.message).toBe('Password reset for user "priyanka_e" sent for approval');
    const id = reply.data.changeRequestId;
    expect(await server.call('user/approve', { changeRequestID: id, actionTaken: 'approve' }, admin)).toEqual({
      statusCode: 403,
      data: { message: 'You cannot approve or reject your own change request' },
    });
    // nor the account's owner: talked into it, they would hand their identity to whoever chose the password
    const priyanka = await server.login('priyanka_e');
    for (const actionTaken of ['approve', 'reject']) {
      expect(await server.call('user/approve', { changeRequestID: id, actionTaken }, priyanka)).toEqual({
        statusCode: 403,
        data: { message: 'You cannot approve or reject the reset of your own password' },
      });
    }
    expect(await hashOf('priyanka_e')).toMatchObject({ must_change_password: 0, locked: 1 });
    expect((await server.call('auth/token', {}, priyanka)).statusCode).toBe(200);
    expect((await server.call('user/approve', { changeRequestID: id, actionTaken: 'reject' }, checker)).statusCode).toBe(200);
    expect(await hashOf('priyanka_e')).toMatchObject({ must_change_password: 0, locked: 0 });
    expect((await signIn('priyanka_e', DEMO)).statusCode).toBe(200);
  });

  it('is checked again at approval: a maker who lost user-password-reset meanwhile gets nothing applied', async () => {
    // roles of their own, so the demo roles stay as they are: sunil may reset arjun's password
    const makeRole = async (name: string, permissions: string[]) =>
      (await server.db.one<{ id: number }>("INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ($1, 'BACKEND', 1, $2) RETURNING id", [name, permissions]))!.id;
    const role = await makeRole('Reset Officer', ['user-view', 'user-password-reset', 'role-view']);
    const target = await makeRole('Reset Clerk', ['user-view', 'user-password-reset']);
    await server.db.query("UPDATE console_users SET role_id = $1 WHERE username = 'sunil_jayasinghe'", [role]);
    await server.db.query("UPDATE console_users SET role_id = $1 WHERE username = 'arjun_t'", [target]);
    const sunil = await server.login('sunil_jayasinghe');
    const reply = await server.call('user/change-password', { username: 'arjun_t', password: FRESH }, sunil);
    expect(reply.data.message).toBe('Password reset for user "arjun_t" sent for approval');

    await server.db.query('UPDATE roles SET permissions = $2 WHERE id = $1', [role, ['user-view', 'role-view']]);
    const approve = await server.call('user/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker);
    expect(approve.statusCode).toBe(403);
    expect(approve.data.message).toMatch(/^You cannot change the password of "arjun_t"/);
    expect((await hashOf('arjun_t')).must_change_password).toBe(0);
    expect((await signIn('arjun_t', DEMO)).statusCode).toBe(200);
    expect((await server.call('user/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'reject' }, checker)).statusCode).toBe(200);
  });

  it('parallel resets of one privileged account store exactly one request', async () => {
    const peer = await server.startPeer();
    try {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? peer : server).call('user/change-password', { username: 'mahesh_s', password: FRESH }, admin)));
      expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(replies.every((r) => r.statusCode === 200 || r.statusCode === 409 || r.statusCode === 422)).toBe(true);
      const stored = await server.db.query("SELECT 1 FROM change_requests WHERE operation = 'PASSWORD_RESET' AND status = 'PENDING' AND record_id = $1", [await userId(server.db, 'mahesh_s')]);
      expect(stored).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });
});

describe('role and user requests grant only what the maker holds', () => {
  const roleBody = (permissions: string[], role_name = 'Escalation Test') => ({ role_name, user_type: 'BACKEND', user_level: 1, permissions, disabled: 0 });

  it('a maker cannot request a role with super-permission or an approve permission; nothing is stored', async () => {
    const before = (await pendingRequests('Role')).length;
    expect(await server.call('role/create', roleBody(['user-view', 'super-permission']), maker)).toEqual({
      statusCode: 422,
      data: { message: 'You cannot request a role with permissions you do not hold: super-permission' },
    });
    expect(await server.call('role/create', roleBody(['user-view', 'user-approve', 'role-approve']), maker)).toEqual({
      statusCode: 422,
      data: { message: 'You cannot request a role with permissions you do not hold: user-approve, role-approve' },
    });
    const makerRole = await roleId(server.db, 'Maker');
    const { role } = (await server.call('role/get-for-edit', { id: makerRole }, maker)).data;
    const edit = await server.call('role/edit', { id: makerRole, ...roleBody([...role.permissions, 'user-approve'], role.role_name) }, maker);
    expect(edit).toEqual({ statusCode: 422, data: { message: 'You cannot request a role with permissions you do not hold: user-approve' } });
    const checkerRole = await roleId(server.db, 'Checker');
    const rename = await server.call('role/edit', { id: checkerRole, ...roleBody(['user-view'], 'Checker') }, maker);
    expect(rename.statusCode).toBe(422);
    expect(rename.data.message).toMatch(/^You cannot edit the role "Checker": it holds permissions you do not hold: .*user-approve/);
    expect((await pendingRequests('Role')).length).toBe(before);
    expect((await server.db.one<{ locked: number }>('SELECT locked FROM roles WHERE id = $1', [makerRole]))!.locked).toBe(0);
  });

  it('a maker may request a role within their own permissions; a super user may grant super-permission', async () => {
    const own = await server.call('role/create', roleBody(['user-view', 'role-view'], 'Viewer Within Maker'), maker);
    expect(own).toMatchObject({ statusCode: 200, data: { message: 'Role sent for approval' } });
    const sup = await server.call('role/create', roleBody(['super-permission'], 'Second Administrator'), admin);
    expect(sup).toMatchObject({ statusCode: 200, data: { message: 'Role sent for approval' } });
    for (const id of [own.data.changeRequestId, sup.data.changeRequestId]) {
      await server.call('role/approve', { changeRequestID: id, actionTaken: 'reject' }, checker);
    }
  });

  it('a maker cannot create or edit a user with a role holding permissions they lack; nothing is stored', async () => {
    const before = (await pendingRequests('User')).length;
    const newUser = (role: number, username: string) => ({
      type: 'BACKEND',
      name: 'Escalation Test',
      email: `${username}@remit.lk`,
      contact: '0771112223',
      username,
      branch_code: 'KANDY',
      role,
      password: FRESH,
      disabled: 0,
    });
    expect(await server.call('user/create', newUser(await roleId(server.db, 'Administrator'), 'my_admin'), maker)).toEqual({
      statusCode: 422,
      data: { message: 'You cannot give a user the role "Administrator": it holds permissions you do not hold: super-permission' },
    });
    const asChecker = await server.call('user/create', newUser(await roleId(server.db, 'Checker'), 'my_checker'), maker);
    expect(asChecker.statusCode).toBe(422);
    expect(asChecker.data.message).toMatch(/^You cannot give a user the role "Checker": it holds permissions you do not hold: .*user-approve/);

    const id = await userId(server.db, 'dilani_w');
    const { customUser } = (await server.call('user/get-for-edit', { id }, maker)).data;
    const body = {
      id,
      type: customUser.user_type,
      name: 'Renamed Checker',
      email: customUser.email,
      contact: customUser.contact,
      username: customUser.username,
      branch_code: customUser.branch_code,
      role: customUser.role,
      disabled: customUser.disabled,
    };
    const rename = await server.call('user/edit', body, maker);
    expect(rename.statusCode).toBe(422);
    expect(rename.data.message).toMatch(/^You cannot edit the user "dilani_w": their role holds permissions you do not hold: /);
    const promote = await server.call('user/edit', { ...body, id: await userId(server.db, 'tharindu_r'), username: 'tharindu_r', role: await roleId(server.db, 'Administrator') }, admin);
    expect(promote.statusCode).toBe(200); // a super user may
    await server.call('user/approve', { changeRequestID: promote.data.changeRequestId, actionTaken: 'reject' }, checker);
    expect((await pendingRequests('User')).length).toBe(before);
    expect(await server.db.one("SELECT 1 FROM console_users WHERE username IN ('my_admin', 'my_checker')")).toBeUndefined();
  });

  it('a user created by request must change the password at the first sign-in', async () => {
    const body = {
      type: 'IPGBANK',
      name: 'New Officer',
      email: 'new.officer@remit.lk',
      contact: '0771112223',
      username: 'new_officer',
      branch_code: '7010',
      role: await roleId(server.db, 'IPG Bank Officer'),
      password: FRESH,
      disabled: 0,
    };
    const made = await server.call('user/create', body, maker);
    expect(made.statusCode).toBe(200);
    await server.call('user/approve', { changeRequestID: made.data.changeRequestId, actionTaken: 'approve' }, checker);
    expect((await hashOf('new_officer')).must_change_password).toBe(1);
  });
});

describe('unlocking a locked sign-in', () => {
  it('is requested by a maker, approved by a checker, logged, and the owner signs in', async () => {
    for (let i = 1; i <= 10; i++) await signIn('kumari_fernando', `Wrong@Pass${i}`);
    expect(await signIn('kumari_fernando', DEMO)).toEqual({ statusCode: 401, data: { message: 'Account locked after too many failed attempts. Try again later.' } });
    expect(await listRow('kumari_fernando')).toMatchObject({ signin_locked: 1, signin: ['Locked'], locked: 0 });
    expect(await listRow('chamari_silva')).toMatchObject({ signin_locked: 0, signin: [] });

    const id = await userId(server.db, 'kumari_fernando');
    expect((await server.call('user/unlock', { id }, checker)).statusCode).toBe(403); // needs user-edit
    const reply = await server.call('user/unlock', { id }, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'Unlock sent for approval' } });
    const request = (await server.call('user/list', { data: 'kumari' }, checker)).data.changeRequests.find((r: { changeRequestId: number }) => r.changeRequestId === reply.data.changeRequestId);
    expect(request).toMatchObject({ pendingAction: 'EDIT', requestedBy: 'maker' });
    expect(request.originalRecord.signin.value).toBe('Locked');
    expect(request.newRecord.signin.value).toBe('Unlocked');
    expect(await signIn('kumari_fernando', DEMO)).toMatchObject({ statusCode: 401 });

    expect((await server.call('user/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect((await signIn('kumari_fernando', DEMO)).statusCode).toBe(200);
    expect(await listRow('kumari_fernando')).toMatchObject({ signin_locked: 0, signin: [], locked: 0 });
    const logged = await logsOf('SIGN_IN_UNLOCKED');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ username: 'checker' });
    expect(logged[0].description).toContain('kumari_fernando');
  });

  it('is refused for a sign-in that is not locked, and for an unknown user', async () => {
    expect(await server.call('user/unlock', { id: await userId(server.db, 'chamari_silva') }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'The sign-in of "chamari_silva" is not locked' },
    });
    expect((await server.call('user/unlock', { id: 99999 }, maker)).statusCode).toBe(404);
    expect(await server.db.one<{ locked: number }>("SELECT locked FROM console_users WHERE username = 'chamari_silva'")).toEqual({ locked: 0 });
  });
});

describe('the users list carries what the Change Password rule reads', () => {
  it("gives each row its role's permissions", async () => {
    expect((await listRow('admin')).permissions).toEqual(['super-permission']);
    expect((await listRow('auditor')).permissions).toEqual(['auditor-dashboard-view', 'auditor-report-view', 'auditor-app-user-view']);
  });
});
