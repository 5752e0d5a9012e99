import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPermissions } from '../../src/domain/permissions';
import { roleEdit, roleGetForEdit, roleInitialData, roleList } from '../../src/api/roles';
import { expectStatus, roleId, startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
let maker: string;
beforeAll(async () => {
  server = await startServer();
  [admin, maker] = await Promise.all([server.login('admin'), server.login('maker')]);
});
afterAll(async () => {
  await server?.close();
});

const roleBody = (overrides: Record<string, unknown> = {}) => ({
  role_name: 'Report Reader',
  user_type: 'BACKEND',
  user_level: 1,
  permissions: ['send-money-report-view'],
  disabled: 0,
  ...overrides,
});

describe('role/list and options', () => {
  it('lists the demo roles by id with status and permissions', async () => {
    const { data } = await server.ok(roleList, {}, admin);
    expect(data.roles.map((r) => r.role_name)).toEqual(['Administrator', 'Maker', 'Checker', 'Auditor', 'IPG Bank Officer', 'IPG Bank Checker']);
    const makerRole = data.roles.find((r) => r.role_name === 'Maker');
    expect(makerRole).toMatchObject({ status: 'Active', disabled: 0, locked: 0, user_type: 'BACKEND' });
    expect(makerRole?.permissions).toEqual(expect.arrayContaining(['user-view', 'user-create', 'user-edit', 'user-password-reset', 'transaction-hold']));
    expect(makerRole?.permissions).not.toContain('user-approve');
    expect(makerRole?.permissions.some((p) => p.startsWith('auditor-'))).toBe(false);
    const checkerRole = data.roles.find((r) => r.role_name === 'Checker');
    expect(checkerRole?.permissions).toEqual(allPermissions.filter((p) => /-(view|approve)$/.test(p) && !p.startsWith('auditor-')));
    expect(data.changeRequests).toEqual([]);
  });

  it('gives the user levels and permission groups', async () => {
    const { data } = await server.ok(roleInitialData, {}, maker);
    expect(data.userLevels.map((l) => `${l.level} ${l.title}`)).toEqual(['1 Officer', '2 Supervisor', '3 Manager']);
    expect(data.permissionsList.length).toBeGreaterThan(5);
  });

  it('get-for-edit returns the role, or 404', async () => {
    const id = await roleId(server.db, 'Auditor');
    expect((await server.ok(roleGetForEdit, { id }, maker)).data.role).toMatchObject({ id, role_name: 'Auditor' });
    expectStatus(await server.call(roleGetForEdit, { id: 999 }, maker), 404);
  });
});

describe('role requests', () => {
  it('refuse permissions the user type may not hold, an unknown user level and a taken name, with 422', async () => {
    const ipgSuper = await server.call('role/create', roleBody({ user_type: 'IPGBANK', permissions: ['super-permission'] }), maker);
    expect(ipgSuper).toEqual({ statusCode: 422, data: { message: 'Not available to IPG Bank User roles: super-permission' } });
    expect((await server.call('role/create', roleBody({ user_type: 'IPGBANK', permissions: ['user-view'] }), maker)).statusCode).toBe(422);
    expect((await server.call('role/create', roleBody({ user_type: 'IPGBANK', permissions: ['ipg-currency-view'] }), maker)).statusCode).toBe(200);
    expect(await server.call('role/create', roleBody({ role_name: 'Report Writer', user_level: 42 }), maker)).toEqual({
      statusCode: 422,
      data: { message: 'Please select a user level' },
    });
    expect((await server.call('role/create', roleBody({ role_name: 'checker' }), maker)).data.message).toBe('Role name "checker" already exists');
  });

  it('refuse an unknown permission and an empty permission list with 400', async () => {
    expect((await server.call('role/create', roleBody({ permissions: ['make-coffee'] }), maker)).statusCode).toBe(400);
    const empty = await server.call('role/create', roleBody({ permissions: [] }), maker);
    expect(empty).toEqual({ statusCode: 400, data: { message: 'permissions: Please select at least one permission' } });
  });

  it('an edit locks the role until decided', async () => {
    const id = await roleId(server.db, 'IPG Bank Officer');
    const { role } = (await server.ok(roleGetForEdit, { id }, maker)).data;
    expect(role.user_type).toBe('IPGBANK');
    const body = { id, role_name: role.role_name, user_type: 'IPGBANK' as const, user_level: role.user_level, permissions: role.permissions, disabled: 1 as const };
    await server.ok(roleEdit, body, maker);
    expect(await server.call(roleEdit, body, maker)).toEqual({ statusCode: 409, data: { message: 'Role is locked: a change request is already pending' } });
    const pending = (await server.ok(roleList, {}, maker)).data.changeRequests.find((r) => r.pendingAction === 'EDIT');
    expect(pending?.originalRecord?.status.value).toBe('Active');
    expect(pending?.newRecord.status.value).toBe('Not Active');
  });
});
