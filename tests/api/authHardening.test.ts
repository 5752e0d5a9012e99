/**
 * Sign-in hardening through real HTTP, beyond auth.test.ts and lockout.test.ts:
 * the lockout counted exactly under 50 parallel attempts in mixed letter case, replies that do not
 * tell unknown from known usernames byte for byte, the per-address limiter with and without a
 * trusted proxy, and tokens and permissions that follow approved changes on the very next call.
 *
 * A second app on the same database trusts 127.0.0.1 as a proxy, so each test signs in from
 * addresses of its own (X-Forwarded-For) and the address limiter of one test does not touch another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ceftRefund } from '../../src/api/transactions';
import { ADDRESS_MAX_FAILURES, tooManySignIns } from '../../src/server/auth/addressLimiter';
import { hashPassword } from '../../src/server/auth/passwords';
import { parseTrustProxy, readEnvironment } from '../../src/server/environment';
import { startExtraApp, type ExtraApp } from './extraApp';
import { roleId, startServer, TEST_SCRYPT_N, userId, type TestServer, useEnvironment } from './harness';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';

const INVALID = { statusCode: 401, data: { message: 'Invalid username or password' } };
const LOCKED = { statusCode: 401, data: { message: 'Account locked after too many failed attempts. Try again later.' } };
const MINUTE = 60_000;

let server: TestServer;
/** Trusts 127.0.0.1 as a proxy: X-Forwarded-For names the client. */
let proxied: ExtraApp;
const extraApps: ExtraApp[] = [];

useEnvironment({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });
beforeAll(async () => {
  server = await startServer();
  proxied = await startExtraApp(server, { trustProxy: ['127.0.0.1'] });
  extraApps.push(proxied);
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const signIn = (username: string, password: string, address: string) => proxied.post('auth/login', { username, password }, from(address));

async function lastActivityId(): Promise<number> {
  return (await server.db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM activity_logs'))!.id;
}

async function activitySince(id: number, username: string) {
  return server.db.query<{ type: string; username: string; description: string }>('SELECT type, username, description FROM activity_logs WHERE id > $1 AND lower(username) = lower($2) ORDER BY id', [
    id,
    username,
  ]);
}

const countOf = <T>(items: readonly T[], pick: (t: T) => string) => items.reduce<Record<string, number>>((acc, t) => ({ ...acc, [pick(t)]: (acc[pick(t)] ?? 0) + 1 }), {});

describe('the lockout per username', () => {
  // the lock is per (username, address) and leaves the sessions alone; other addresses get a short back-off instead of the lock
  it('counts 40 parallel wrong passwords in any letter case exactly: 10 checks, the 10th locks the address; the sessions go on; the right password waits 30 minutes from that address, one back-off elsewhere', async () => {
    const username = 'sunil_jayasinghe';
    const cases = [username, username.toUpperCase(), 'Sunil_Jayasinghe', 'sUnIl_jAyAsInGhE'];
    const before = await server.login(username);
    const since = await lastActivityId();
    const t0 = server.now().getTime();

    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(cases[i % cases.length], `Wrong@Pass${i}`, '203.0.113.10')));
    const t1 = server.now().getTime();
    const byText = countOf(replies, (r) => r.text);
    // 9 plain failures, the 10th locks; the others are refused unchecked: locked from this address, or in the username's back-off (429)
    expect(byText[JSON.stringify(INVALID)]).toBe(9);
    expect(byText[JSON.stringify(LOCKED)]).toBeGreaterThanOrEqual(1);
    expect(replies.filter((r) => r.status === 429).every((r) => /^Too many failed sign-in attempts on this account\. Try again in \d+ seconds?\.$/.test(r.json.data.message))).toBe(true);
    expect(replies.filter((r) => r.status === 401).length + replies.filter((r) => r.status === 429).length).toBe(40);

    // one counter for every letter case and address, one lock of 30 minutes for the address
    const pair = await server.db.query<{ username_lower: string; failures: number; locked_until: Date }>(
      "SELECT username_lower, failures, locked_until FROM login_address_attempts WHERE username_lower LIKE 'sunil%' AND address = '203.0.113.10'",
    );
    expect(pair).toHaveLength(1);
    expect(pair[0].locked_until.getTime()).toBeGreaterThanOrEqual(t0 + 30 * MINUTE);
    expect(pair[0].locked_until.getTime()).toBeLessThanOrEqual(t1 + 30 * MINUTE);
    // exactly 10 passwords were checked; the lock was set once and logged once
    const logged = countOf(await activitySince(since, username), (a) => a.type);
    expect(logged.LOGIN_FAILED).toBe(10);
    expect(logged.ACCOUNT_LOCKED).toBe(1);
    expect(logged.LOGIN_REFUSED).toBe(30);

    // the sessions of the account go on; from the locked address even the right password is refused until the 30 minutes are over
    expect((await server.call('user/list', {}, before)).statusCode).toBe(200);
    expect((await signIn(username.toUpperCase(), 'Demo@Pass1', '203.0.113.10')).json).toEqual(LOCKED);
    // from another address: at most one back-off (30 s) of waiting
    const elsewhere = await signIn('Sunil_Jayasinghe', 'Demo@Pass1', '203.0.113.11');
    if (elsewhere.status === 429) {
      const wait = Number(elsewhere.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(30);
      server.advanceClock(wait * 1000);
    }
    const open = await signIn('Sunil_Jayasinghe', 'Demo@Pass1', '203.0.113.11');
    expect(open.status).toBe(200);
    expect((await server.call('user/list', {}, open.json.data.token)).statusCode).toBe(200);
    expect(await server.db.one("SELECT 1 FROM login_attempts WHERE username_lower = 'sunil_jayasinghe'")).toBeUndefined();
    expect((await signIn(username, 'Demo@Pass1', '203.0.113.10')).json).toEqual(LOCKED);
    server.advanceClock(30 * MINUTE);
    expect((await signIn(username, 'Demo@Pass1', '203.0.113.10')).status).toBe(200);
  });

  it('answers an unknown username, a wrong password and a disabled account byte for byte alike, and a locked unknown username like a locked known one', async () => {
    const address = '203.0.113.20';
    const unknown = await signIn('nobody_7731', 'Demo@Pass1', address);
    const wrong = await signIn('dilani_w', 'Wrong@Pass1', address);
    const disabled = await signIn('ruwan_bandara', 'Demo@Pass1', address); // seeded Not Active, right password
    expect(unknown.json).toEqual(INVALID);
    for (const other of [wrong, disabled]) {
      expect(other.status).toBe(unknown.status);
      expect(other.text).toBe(unknown.text);
      expect(other.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
    }

    // nine more failures each: the 10th locks, known or not, with the same reply
    for (let i = 2; i <= 9; i++) {
      expect((await signIn('nobody_7731', 'Demo@Pass1', address)).json).toEqual(INVALID);
      expect((await signIn('dilani_w', 'Wrong@Pass1', address)).json).toEqual(INVALID);
    }
    const lockingUnknown = await signIn('NOBODY_7731', 'Demo@Pass1', address);
    const lockingKnown = await signIn('DILANI_W', 'Wrong@Pass1', address);
    const lockedUnknown = await signIn('nobody_7731', 'Demo@Pass1', address);
    const lockedKnown = await signIn('dilani_w', 'Demo@Pass1', address); // the right password
    expect(lockingUnknown.json).toEqual(LOCKED);
    for (const other of [lockingKnown, lockedUnknown, lockedKnown]) {
      expect(other.status).toBe(lockingUnknown.status);
      expect(other.text).toBe(lockingUnknown.text);
      expect(other.headers.get('content-type')).toBe(lockingUnknown.headers.get('content-type'));
    }
  });
});

describe('the sign-in limiter per client address', () => {
  it(`refuses sign-ins from an address with ${ADDRESS_MAX_FAILURES} failures in its window (429, Retry-After), even with the right password; successes do not count; others are not affected`, async () => {
    const address = '198.51.100.7';
    const since = await lastActivityId();
    // 40 failures on 40 different usernames (password spraying: no username gets near its own lock)
    const sprayed = await Promise.all(Array.from({ length: ADDRESS_MAX_FAILURES - 10 }, (_, i) => signIn(`spray_${i}`, 'Demo@Pass1', address)));
    expect(sprayed.every((r) => r.text === JSON.stringify(INVALID))).toBe(true);
    // successful sign-ins from the same address do not use up its allowance (each gives its reserved place back)
    const fine = await Promise.all(Array.from({ length: 10 }, () => signIn('admin', 'Demo@Pass1', address)));
    expect(fine.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (let i = 40; i < ADDRESS_MAX_FAILURES - 1; i++) expect((await signIn(`spray_${i}`, 'Demo@Pass1', address)).json).toEqual(INVALID);
    expect((await signIn('spray_last', 'Demo@Pass1', address)).json).toEqual(INVALID); // the 50th failure

    const refused = await signIn('admin', 'Demo@Pass1', address);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.json).toEqual({ statusCode: 429, data: { message: tooManySignIns(retryAfter) } });
    expect(refused.json.data.message).toMatch(/^Too many failed sign-in attempts from your address\. Try again in \d+ minutes?\.$/);

    // a client cannot dodge it by putting another address in front: the trusted proxy's last entry counts
    expect((await proxied.post('auth/login', { username: 'admin', password: 'Demo@Pass1' }, from(`192.0.2.99, ${address}`))).status).toBe(429);
    // another address is not affected
    expect((await signIn('admin', 'Demo@Pass1', '198.51.100.8')).status).toBe(200);

    // the rest of a flood is answered from memory: 100 parallel attempts, all refused alike, none of them a query
    const counted = async () => (await server.db.one<{ failures: number }>('SELECT failures FROM login_address_failures WHERE address = $1', [address]))!.failures;
    const before = await counted();
    const flood = await Promise.all(Array.from({ length: 100 }, (_, i) => signIn(i % 2 ? 'admin' : `spray_${i}`, 'Demo@Pass1', address)));
    expect(flood.map((r) => r.status)).toEqual(Array(100).fill(429));
    expect(flood.every((r) => /^Too many failed sign-in attempts from your address\. Try again in \d+ minutes?\.$/.test(r.json.data.message) && Number(r.headers.get('retry-after')) > 0)).toBe(true);
    expect(await counted()).toBe(before);
    // another server process, which has not refused the address yet, refuses it from the database
    const second = await startExtraApp(server, { trustProxy: ['127.0.0.1'] });
    extraApps.push(second);
    expect((await second.post('auth/login', { username: 'admin', password: 'Demo@Pass1' }, from(address))).status).toBe(429);

    const throttled = (await server.db.query<{ description: string }>("SELECT description FROM activity_logs WHERE id > $1 AND type = 'SIGN_IN_THROTTLED'", [since])).map((r) => r.description);
    expect(throttled).toEqual([`Sign-in from ${address} refused for the rest of its 15-minute window after ${ADDRESS_MAX_FAILURES} failed attempts`]);

    // the window ends
    server.advanceClock(retryAfter * 1000);
    expect((await signIn('admin', 'Demo@Pass1', address)).status).toBe(200);
  });

  it('uses the peer address when no proxy is trusted: a forged X-Forwarded-For neither spreads nor resets the count', async () => {
    const attempt = (username: string, password: string, forged: string) =>
      server.raw('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
        body: JSON.stringify({ username, password }),
      });
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) {
      const res = await attempt(`forger_${i}`, 'Demo@Pass1', `10.0.${i}.1`);
      expect(await res.json()).toEqual(INVALID);
    }
    const res = await attempt('admin', 'Demo@Pass1', '10.0.250.1');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    const rows = await server.db.query<{ address: string; failures: number }>('SELECT address, failures FROM login_address_failures ORDER BY address');
    expect(rows.filter((r) => r.address.startsWith('10.'))).toEqual([]);
    expect(rows.find((r) => r.address === '127.0.0.1')?.failures).toBe(ADDRESS_MAX_FAILURES + 1); // the refused attempt counted too
    // let the window end, so that the harness can sign in again
    server.advanceClock(16 * MINUTE);
    expect((await attempt('admin', 'Demo@Pass1', '10.0.251.1')).status).toBe(200);
  });

  it('takes the client address from X-Forwarded-For only from trusted proxies (addresses, ranges or a hop count)', async () => {
    const hops = await startExtraApp(server, { trustProxy: 1 });
    extraApps.push(hops);
    const since = await lastActivityId();
    const headers = { 'x-forwarded-for': '192.0.2.1, 192.0.2.55' };
    expect(
      (await server.raw('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ username: 'checker', password: 'Demo@Pass1' }) }))
        .status,
    ).toBe(200);
    expect((await proxied.post('auth/login', { username: 'checker', password: 'Demo@Pass1' }, { headers })).status).toBe(200);
    expect((await hops.post('auth/login', { username: 'checker', password: 'Demo@Pass1' }, { headers })).status).toBe(200);
    expect((await activitySince(since, 'checker')).map((a) => a.description)).toEqual(['Signed in from 127.0.0.1', 'Signed in from 192.0.2.55', 'Signed in from 192.0.2.55']);
  });

  it('reads TRUST_PROXY: unset trusts nobody; addresses, ranges, keywords or a hop count; anything else stops the start', () => {
    expect(readEnvironment({}).trustProxy).toBeUndefined();
    expect(parseTrustProxy('')).toBeUndefined();
    expect(parseTrustProxy('0')).toBeUndefined();
    expect(readEnvironment({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(parseTrustProxy(' 10.0.0.0/8, ::1 ,loopback')).toEqual(['10.0.0.0/8', '::1', 'loopback']);
    expect(parseTrustProxy('2')).toBe(2);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '127.0.0.1/8/1']) expect(() => parseTrustProxy(bad), bad).toThrow(/^TRUST_PROXY: /);
  });
});

describe('tokens and permissions follow approved changes on the next call', () => {
  async function editUser(token: string, username: string, disabled: 0 | 1) {
    const id = await userId(server.db, username);
    const { customUser: u } = (await server.call('user/get-for-edit', { id }, token)).data;
    const body = { id, type: u.user_type, name: u.name, email: u.email, contact: u.contact, username: u.username, branch_code: u.branch_code, role: u.role, disabled };
    const reply = await server.call('user/edit', body, token);
    expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
    return reply.data.changeRequestId as number;
  }

  it("an approved deactivation revokes the user's tokens, which stay dead after reactivation", async () => {
    const [maker, checker] = [await server.login('maker'), await server.login('checker')];
    const token = await server.login('arjun_t');
    const requestId = await editUser(maker, 'arjun_t', 1);
    expect((await server.call('user/list', {}, token)).statusCode).toBe(200); // a pending request changes nothing
    expect((await server.call('user/approve', { changeRequestID: requestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect((await server.call('user/list', {}, token)).statusCode).toBe(401);
    expect((await server.call('auth/token', {}, token)).statusCode).toBe(401);
    expect(await server.call('auth/login', { username: 'arjun_t', password: 'Demo@Pass1' })).toEqual(INVALID);

    const again = await editUser(maker, 'arjun_t', 0);
    expect((await server.call('user/approve', { changeRequestID: again, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect((await server.call('user/list', {}, token)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, await server.login('arjun_t'))).statusCode).toBe(200);
  });

  it('a password written by any code path revokes the tokens; other changes to the account do not', async () => {
    const token = await server.login('kumari_fernando');
    await server.db.query("UPDATE console_users SET contact = '0779999999', updated_at = now() WHERE username = 'kumari_fernando'");
    expect((await server.call('user/list', {}, token)).statusCode).toBe(200);
    // the same password under a fresh salt, as a maintenance script or create-admin would write it
    await server.db.query("UPDATE console_users SET password_hash = $1 WHERE username = 'kumari_fernando'", [await hashPassword(DEMO_PASSWORD, TEST_SCRYPT_N)]);
    expect((await server.call('user/list', {}, token)).statusCode).toBe(401);
    expect((await server.call('user/list', {}, await server.login('kumari_fernando'))).statusCode).toBe(200);
  });

  it('an approved role edit takes transaction-refund away from the signed-in maker on the next call, and gives it back', async () => {
    const [admin, checker] = [await server.login('admin'), await server.login('checker')];
    const maker = await server.login('maker');
    const row = (await server.db.one<{ id: number; action_seq: number }>(
      `SELECT id, action_seq FROM ceft_transactions
        WHERE card_payment_status = 'SUCCESS' AND ceft_payment_status = 'FAILED' AND ipg_void_status IS NULL AND ipg_refund_status IS NULL AND refund_requested = false
        ORDER BY id DESC LIMIT 1`,
    ))!;
    // the permission is there: the refusal is the guard's, not the permission's
    expect((await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker)).data).toEqual({ message: 'No refund has been requested for this transaction' });
    await server.db.query("UPDATE ceft_transactions SET refund_requested = true, card_payment_time = now() - interval '3 days' WHERE id = $1", [row.id]);

    const makerRole = await roleId(server.db, 'Maker');
    async function setRefund(granted: boolean) {
      const { role } = (await server.call('role/get-for-edit', { id: makerRole }, admin)).data;
      const permissions = (role.permissions as string[]).filter((p) => p !== 'transaction-refund').concat(granted ? ['transaction-refund'] : []);
      const body = { id: makerRole, role_name: role.role_name, user_type: role.user_type, user_level: role.user_level, disabled: role.disabled, permissions };
      const requested = await server.call('role/edit', body, admin);
      expect(requested.statusCode, JSON.stringify(requested.data)).toBe(200);
      const decided = await server.call('role/approve', { changeRequestID: requested.data.changeRequestId, actionTaken: 'approve' }, checker);
      expect(decided.statusCode).toBe(200);
    }

    await setRefund(false);
    const refusal = { statusCode: 403, data: { message: `Forbidden: needs one of ${(ceftRefund.access as { anyOf: string[] }).anyOf.join(', ')}` } };
    expect(await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker)).toEqual(refusal);
    expect(await server.db.one('SELECT ipg_refund_status, action_seq FROM ceft_transactions WHERE id = $1', [row.id])).toEqual({ ipg_refund_status: null, action_seq: row.action_seq });
    expect((await server.call('user/list', {}, maker)).statusCode).toBe(200); // still signed in: only the permission went

    await setRefund(true);
    expect(await server.call('Transaction/ceft/refund', { transactionID: row.id }, maker)).toEqual({
      statusCode: 200,
      data: { message: `Transaction refunded successfully: Id - ${row.id}` },
    });
  });
});
