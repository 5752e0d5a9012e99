import { SignJWT, decodeJwt } from 'jose';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/server/auth/sessions';
import { issueToken } from '../../src/server/auth/tokens';
import { startServer, userId, type TestServer } from './harness';

const INVALID = 'Invalid username or password';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('sign-in', () => {
  it('returns a token with iat, exp, rfh, username, permissions, sub and sv', async () => {
    const reply = await server.call('auth/login', { username: 'checker', password: 'Demo@Pass1' });
    expect(reply.statusCode).toBe(200);
    const claims = decodeJwt(reply.data.token);
    expect(claims.username).toBe('checker');
    expect(claims.permissions).toContain('user-approve');
    expect(claims.exp! - claims.iat!).toBe(30 * 60);
    expect(claims.rfh).toBe(20 * 60 * 1000);
    expect(claims.sub).toBe(String(await userId(server.db, 'checker')));
    expect(typeof claims.sv).toBe('number');
  });

  it('accepts the username in any case', async () => {
    expect((await server.call('auth/login', { username: 'CHECKER', password: 'Demo@Pass1' })).statusCode).toBe(200);
  });

  it('answers an unknown user, a wrong password and a disabled user with the same 401', async () => {
    const unknown = await server.call('auth/login', { username: 'nobody_here', password: 'Demo@Pass1' });
    const wrong = await server.call('auth/login', { username: 'checker', password: 'Wrong@Pass1' });
    const disabled = await server.call('auth/login', { username: 'ruwan_bandara', password: 'Demo@Pass1' }); // seeded Not Active
    for (const reply of [unknown, wrong, disabled]) expect(reply).toEqual({ statusCode: 401, data: { message: INVALID } });
  });

  it('counts failures for unknown usernames as for known ones, and a success resets the count', async () => {
    await server.call('auth/login', { username: 'checker', password: 'Wrong@Pass1' });
    const known = await server.db.one<{ failures: number }>("SELECT failures FROM login_attempts WHERE username_lower = 'checker'");
    const unknown = await server.db.one<{ failures: number }>("SELECT failures FROM login_attempts WHERE username_lower = 'nobody_here'");
    expect(known!.failures).toBeGreaterThan(0);
    expect(unknown!.failures).toBe(1);
    await server.login('checker');
    expect(await server.db.one("SELECT 1 FROM login_attempts WHERE username_lower = 'checker'")).toBeUndefined();
  });

  it('logs sign-ins and failures without passwords, hashes or tokens', async () => {
    const token = await server.login('maker');
    await server.call('auth/login', { username: 'maker', password: 'Secret@Wrong9' });
    const rows = await server.db.query<{ type: string; username: string }>("SELECT type, username, description, before, after FROM activity_logs WHERE username = 'maker' ORDER BY id");
    expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['LOGIN', 'LOGIN_FAILED']));
    const text = JSON.stringify(await server.db.query('SELECT * FROM activity_logs'));
    for (const secret of ['Demo@Pass1', 'Secret@Wrong9', 'scrypt$', token]) expect(text).not.toContain(secret);
  });
});

describe('tokens', () => {
  it('refreshes a valid token', async () => {
    const token = await server.login('maker');
    const reply = await server.call('auth/token', {}, token);
    expect(reply.statusCode).toBe(200);
    expect((await server.call('user/list', {}, reply.data.token)).statusCode).toBe(200);
  });

  it('refuses a missing, garbage, foreign-signed, alg none, other-algorithm or expired token with 401 Unauthorized', async () => {
    const id = await userId(server.db, 'admin');
    // a real session, so that each refusal below is about the token, not about its session
    const session = await startSession(server.db, id, new Date(), 12);
    const subject = { id, username: 'admin', permissions: ['super-permission'], sessionVersion: 0, ...session };
    const now = Math.floor(Date.now() / 1000);
    const payload = { username: 'admin', permissions: ['super-permission'], rfh: 1, sv: 0, sub: String(id), sid: session.sessionId, jti: session.tokenId, iat: now, exp: now + 600 };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const tokens = {
      garbage: 'not-a-token',
      foreign: await issueToken(subject, randomBytes(32), new Date(), 600),
      none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
      hs512: await new SignJWT(payload).setProtectedHeader({ alg: 'HS512' }).sign(server.secret),
      expired: await issueToken(subject, server.secret, new Date(Date.now() - 3600_000), 1800),
      sessionless: await issueToken({ id, username: 'admin', permissions: ['super-permission'], sessionVersion: 0 }, server.secret, new Date(), 600),
      otherSession: await issueToken({ ...subject, sessionId: 'no-such-session' }, server.secret, new Date(), 600),
      otherTokenId: await issueToken({ ...subject, tokenId: 'not-the-current-one' }, server.secret, new Date(), 600),
    };
    // the same subject signed properly is accepted, so each refusal is about the token itself
    const good = await issueToken(subject, server.secret, new Date(), 600);
    expect((await server.call('user/list', {}, good)).statusCode).toBe(200);
    // the accepted token with its signature altered, or its claims altered under the same signature
    const [header, claims, signature] = good.split('.');
    const flipped = signature[0] === 'A' ? 'B' : 'A';
    Object.assign(tokens, {
      resigned: `${header}.${claims}.${flipped}${signature.slice(1)}`,
      reclaimed: `${header}.${b64({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), sv: 1 })}.${signature}`,
    });
    expect(await server.call('user/list', {})).toEqual({ statusCode: 401, data: { message: 'Unauthorized' } });
    for (const [kind, token] of Object.entries(tokens)) {
      expect(await server.call('user/list', {}, token), kind).toEqual({ statusCode: 401, data: { message: 'Unauthorized' } });
    }
    const res = await server.raw('/api/user/list', { method: 'POST', headers: { authorization: 'Basic YWRtaW46eA==' } });
    expect(res.status).toBe(401);
  });

  it('expires a token after its lifetime on the server clock, also one already accepted', async () => {
    const token = await server.login('maker');
    // accepted once (its signature then known good), and refused again once it has expired
    expect((await server.call('user/list', {}, token)).statusCode).toBe(200);
    server.advanceClock(30 * 60 * 1000 + 1000);
    try {
      expect((await server.call('user/list', {}, token)).statusCode).toBe(401);
    } finally {
      server.resetClock();
    }
    expect((await server.call('user/list', {}, token)).statusCode).toBe(200);
  });

  // logout ends its own session (its tokens, refreshed ones too); the user's other sessions go on
  it("ends the session on logout, and that session's refreshed token with it; other sessions go on", async () => {
    const first = await server.login('maker');
    const second = await server.login('maker');
    const refreshed = (await server.call('auth/token', {}, first)).data.token as string;
    expect((await server.call('auth/logout', {}, refreshed)).data.message).toBe('Signed out');
    expect((await server.call('user/list', {}, refreshed)).statusCode).toBe(401);
    expect((await server.call('auth/token', {}, refreshed)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, first)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, second)).statusCode).toBe(200);
    expect((await server.call('user/list', {}, await server.login('maker'))).statusCode).toBe(200);
  });

  it("revokes the target's tokens when an administrator changes their password", async () => {
    // an account without privilege (a checker's reset needs a second person: privilege.test.ts)
    const target = await server.login('kasun_herath');
    const admin = await server.login('admin');
    const reply = await server.call('user/change-password', { username: 'kasun_herath', password: 'Fresh@Pass12' }, admin);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'Password changed for user "kasun_herath" successfully' } });
    expect((await server.call('auth/token', {}, target)).statusCode).toBe(401);
    expect((await server.call('auth/login', { username: 'kasun_herath', password: 'Demo@Pass1' })).statusCode).toBe(401);
    expect((await server.call('auth/login', { username: 'kasun_herath', password: 'Fresh@Pass12' })).statusCode).toBe(200);
  });

  it('revokes old tokens on an own password reset and hands back a fresh one', async () => {
    const old = await server.login('mahesh_s');
    const other = await server.login('mahesh_s');
    const reply = await server.call('user/reset-password', { username: 'mahesh_s', old_password: 'Demo@Pass1', new_password: 'Fresh@Pass12' }, old);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.message).toBe('Password reset successful');
    expect((await server.call('user/list', {}, old)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, other)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, reply.data.token)).statusCode).toBe(200);
    await server.login('mahesh_s', 'Fresh@Pass12');
  });

  it('refuses a token of a user disabled since it was issued', async () => {
    const token = await server.login('tharindu_r');
    await server.db.query("UPDATE console_users SET disabled = 1 WHERE username = 'tharindu_r'");
    try {
      expect((await server.call('user/list', {}, token)).statusCode).toBe(401);
    } finally {
      await server.db.query("UPDATE console_users SET disabled = 0 WHERE username = 'tharindu_r'");
    }
  });
});
