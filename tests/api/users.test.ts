import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionGroups } from '../../src/domain/permissions';
import { refreshToken } from '../../src/api/auth';
import { userChangePassword, userGetForEdit, userInitialData, userList, userResetPassword } from '../../src/api/users';
import { expectStatus, startServer, userId, type TestServer } from './harness';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

describe('user/list', () => {
  it('lists users by id with display branch, status, ISO times and the export fields', async () => {
    const { data } = await server.ok(userList, { data: '', fetchCount: 99999999 }, admin);
    const ids = data.users.map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(data.users.length).toBeGreaterThanOrEqual(19);
    const byName = (username: string) => {
      const user = data.users.find((u) => u.username === username);
      if (!user) throw new Error(`no user ${username} in the list`);
      return user;
    };
    expect(byName('admin')).toMatchObject({ branch: 'Head Office', status: 'Active', locked: 0, email: 'admin@remit.lk' });
    expect(byName('kasun_herath').branch).toBe('Bank of Ceylon IPG');
    expect(byName('nadeesha_g').branch).toBe('CBSL');
    expect(byName('ruwan_bandara').status).toBe('Not Active');
    expect(byName('admin').contact_number).toMatch(/^\d{10}$/);
    expect(new Date(byName('admin').created_at).toISOString()).toBe(byName('admin').created_at);
    expect(data.fields.map((f) => f.header)).toEqual(['ID', 'Name', 'Email', 'Contact Number', 'Username', 'Branch', 'Status', 'Created At', 'Updated At']);
    expect(JSON.stringify(data)).not.toContain('scrypt$');
  });

  it('searches username, email and contact number, case-insensitively, and limits with fetchCount', async () => {
    const search = async (text: string, fetchCount = 100) => (await server.ok(userList, { data: text, fetchCount }, admin)).data.users.map((u) => u.username);
    expect(await search('PERERA')).toEqual(['nimal_perera']);
    expect(await search('kumari.fernando@')).toEqual(['kumari_fernando']);
    const contact = (await server.db.one<{ contact: string }>("SELECT contact FROM console_users WHERE username = 'arjun_t'"))!.contact;
    expect(await search(contact)).toEqual(['arjun_t']);
    expect(await search('%')).toEqual([]);
    expect(await search('', 3)).toHaveLength(3);
    expect(await search('  ')).toHaveLength(21);
  });
});

describe('user/initial-create-data', () => {
  it('gives the option lists and one permission group per area', async () => {
    const { data } = await server.ok(userInitialData, {}, admin);
    expect(data.branchList.map((b) => b.name)).toContain('Colombo Fort');
    expect(data.bankList).toContainEqual(expect.objectContaining({ bankCode: '7278', bankName: 'Sampath Bank' }));
    expect(data.providerList).toContainEqual(expect.objectContaining({ code: '7010', name: 'Bank of Ceylon IPG' }));
    expect(data.exchangeHouseList.length).toBeGreaterThan(0);
    expect(data.merchantList.length).toBeGreaterThan(0);
    expect(data.roleList).toContainEqual(expect.objectContaining({ roleName: 'Administrator', userType: 'BACKEND', permissions: ['super-permission'] }));

    const backend = data.permissionsList.filter((g) => g.userType === 'BACKEND');
    expect(backend.map((g) => g.type)).toEqual(Object.keys(permissionGroups));
    const ipg = data.permissionsList.filter((g) => g.userType === 'IPGBANK');
    expect(ipg.map((g) => g.type)).toEqual(['IPG Currency', 'Reports']);
    expect(ipg.flatMap((g) => g.permissions)).not.toContain('super-permission');
  });
});

describe('user/get-for-edit', () => {
  it('returns the user shaped for the form, or 404', async () => {
    const id = await userId(server.db, 'kasun_herath');
    const { data } = await server.ok(userGetForEdit, { id }, admin);
    expect(data.customUser).toMatchObject({ id, user_type: 'IPGBANK', username: 'kasun_herath', branch_code: '7010', disabled: 0, locked: 0 });
    expect(data.customUser).not.toHaveProperty('password_hash');
    expect(await server.call(userGetForEdit, { id: 99999 }, admin)).toEqual({ statusCode: 404, data: { message: 'User not found' } });
  });
});

describe('passwords', () => {
  it('reset-password: 406 on a wrong old password, and the password is unchanged', async () => {
    const token = await server.login('sanduni_k');
    const reply = await server.call(userResetPassword, { username: 'sanduni_k', old_password: 'Wrong@Pass1', new_password: 'Fresh@Pass12' }, token);
    expect(reply).toEqual({ statusCode: 406, data: { message: 'Old password is invalid' } });
    await server.ok(refreshToken, {}, token); // not revoked
    await server.login('sanduni_k');
  });

  it('reset-password refuses a weak new password with the rule message', async () => {
    const token = await server.login('sanduni_k');
    const reply = await server.call(userResetPassword, { username: 'sanduni_k', old_password: 'Demo@Pass1', new_password: 'weak' }, token);
    expectStatus(reply, 400);
    expect(reply.data.message).toBe(
      'new_password: Password should contain minimum 8 characters maximum 32, at least two uppercase letters, two lowercase letters, one number and one special character',
    );
  });

  it('change-password: 404 for an unknown user; stores a scrypt hash', async () => {
    expectStatus(await server.call(userChangePassword, { username: 'nobody_at_all', password: 'Fresh@Pass12' }, admin), 404);
    await server.ok(userChangePassword, { username: 'ISHARA_D', password: 'Fresh@Pass12' }, admin);
    const row = await server.db.one<{ password_hash: string }>("SELECT password_hash FROM console_users WHERE username = 'ishara_d'");
    expect(row!.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    await server.login('ishara_d', 'Fresh@Pass12');
  });
});
