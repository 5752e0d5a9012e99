/**
 * The user form offers only the roles its user may give: a maker's Role list holds no role with a
 * permission the maker lacks (Administrator first of all), as the server would refuse it on Save; an
 * administrator's holds every active role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { userInitialData, userCreate } from '../../src/api/users';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the Role options of the user form', () => {
  it("are the roles the maker may give, and every one of them passes the server's check on Save", async () => {
    const admin = await server.login('admin');
    const maker = await server.login('maker');
    const all = (await server.ok(userInitialData, {}, admin)).data.roleList;
    const offered = (await server.ok(userInitialData, {}, maker)).data.roleList;
    const names = offered.map((r) => r.roleName);
    expect(all.map((r) => r.roleName)).toContain('Administrator');
    expect(names).not.toContain('Administrator');
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThan(all.length);
    for (const r of offered) expect(r.permissions).not.toContain('super-permission');

    // each role left out is one the server refuses, each one offered is accepted
    const left = all.filter((r) => !names.includes(r.roleName));
    const body = (role: number, i: number, type: string) => ({
      type,
      name: 'Grant Check',
      email: `grant.check${i}@remit.lk`,
      contact: `07700001${String(i).padStart(2, '0')}`,
      username: `grant_check_${i}`,
      branch_code: 'HO',
      role,
      password: 'Grant@Pass123',
      disabled: 0,
    });
    let i = 0;
    for (const r of left.filter((x) => x.userType === 'BACKEND').slice(0, 3)) {
      const reply = await server.call(userCreate, body(r.roleId, i++, 'BACKEND') as never, maker);
      expect(reply.statusCode, r.roleName).toBe(422);
      expect(String(reply.data?.message)).toContain(`You cannot give a user the role "${r.roleName}"`);
    }
    for (const r of offered.filter((x) => x.userType === 'BACKEND').slice(0, 3)) {
      const reply = await server.call(userCreate, body(r.roleId, i++, 'BACKEND') as never, maker);
      expect(reply.statusCode, `${r.roleName}: ${JSON.stringify(reply.data)}`).toBe(200);
    }
  });
});
