import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../src/api/auth';
import { userList } from '../../src/api/users';
import { expectOk, startServer, type TestServer } from './harness';

const INVALID = { statusCode: 401, data: { message: 'Invalid username or password' } };
const LOCKED = { statusCode: 401, data: { message: 'Account locked after too many failed attempts. Try again later.' } };
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('lockout', () => {
  it('locks a username on the 10th consecutive failure, refuses it while locked, and lets it in after 30 minutes', async () => {
    const before = await server.login('maker');
    for (let i = 1; i <= 9; i++) expect(await server.call(login, { username: 'maker', password: `Wrong@Pass${i}` })).toEqual(INVALID);
    expect(await server.call(login, { username: 'Maker', password: 'Wrong@Pass10' })).toEqual(LOCKED);

    // the lock leaves the sessions of the account alone, but even the right password is refused from this address
    await server.ok(userList, {}, before);
    expect(await server.call(login, { username: 'maker', password: 'Demo@Pass1' })).toEqual(LOCKED);

    server.advanceClock(29 * MINUTE);
    expect(await server.call(login, { username: 'maker', password: 'Demo@Pass1' })).toEqual(LOCKED);
    server.advanceClock(MINUTE + 1000);
    expectOk(await server.call(login, { username: 'maker', password: 'Demo@Pass1' }));
    expect(await server.db.one("SELECT 1 FROM login_attempts WHERE username_lower = 'maker'")).toBeUndefined();
    expect(await server.db.one("SELECT failures, locked_until FROM login_address_attempts WHERE username_lower = 'maker'")).toEqual({ failures: 0, locked_until: null });

    const types = (await server.db.query<{ type: string }>("SELECT type FROM activity_logs WHERE username IN ('maker', 'Maker')")).map((r) => r.type);
    expect(types).toContain('ACCOUNT_LOCKED');
    expect(types).toContain('LOGIN_REFUSED');
  });

  it('locks an unknown username the same way', async () => {
    for (let i = 1; i <= 9; i++) expect(await server.call(login, { username: 'ghost_user', password: 'Wrong@Pass1' })).toEqual(INVALID);
    expect(await server.call(login, { username: 'ghost_user', password: 'Wrong@Pass1' })).toEqual(LOCKED);
    expect(await server.call(login, { username: 'ghost_user', password: 'Wrong@Pass1' })).toEqual(LOCKED);
  });

  it('counts concurrent failures atomically', async () => {
    const replies = await Promise.all(Array.from({ length: 10 }, () => server.call(login, { username: 'checker', password: 'Wrong@Pass1' })));
    expect(replies.every((r) => r.statusCode === 401)).toBe(true);
    const row = await server.db.one<{ failures: number; locked_until: Date | null }>("SELECT failures, locked_until FROM login_attempts WHERE username_lower = 'checker'");
    expect(row!.failures).toBe(10);
    expect(row!.locked_until).not.toBeNull();
    expect(await server.call(login, { username: 'checker', password: 'Demo@Pass1' })).toEqual(LOCKED);
  });
});
