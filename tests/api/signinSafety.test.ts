/**
 * Nobody can lock the owner out of their account
 * or end their sessions by guessing; the owner is told about the failures; the address limiter holds
 * under a parallel burst; the old password of a reset counts like a sign-in; a refreshed token
 * replaces the old one and a session ends for good after its maximum age; an account whose password
 * was set by someone else can do nothing but change it.
 *
 * The apps here trust 127.0.0.1 as a proxy, so each test signs in from addresses of its own
 * (X-Forwarded-For), and count the password checks they make.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_PASSWORD_UNCHANGED } from '../../src/api/auth';
import { ATTEMPTS_PER_ADDRESS } from '../../src/server/app';
import { ADDRESS_MAX_FAILURES } from '../../src/server/auth/addressLimiter';
import { BACKOFF_SECONDS } from '../../src/server/auth/loginAttempts';
import { MUST_CHANGE_PASSWORD } from '../../src/server/auth/passwordChangeGate';
import { DEFAULT_SESSION_MAX_HOURS, parseSessionMaxHours, REPLACED_TOKEN_GRACE_SECONDS } from '../../src/server/auth/sessions';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';
import { startExtraApp, type ExtraApp } from './extraApp';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';

const INVALID = { statusCode: 401, data: { message: 'Invalid username or password' } };
const LOCKED = { statusCode: 401, data: { message: 'Account locked after too many failed attempts. Try again later.' } };
const RIGHT = 'Demo@Pass1';
const MINUTE = 60_000;

let server: TestServer;
let proxied: ExtraApp;
/** Password checks made by `proxied` (every scrypt verification, unknown usernames' included). */
let checks = 0;
const extraApps: ExtraApp[] = [];

beforeAll(async () => {
  server = await startServer();
  proxied = await startExtraApp(server, {
    trustProxy: ['127.0.0.1'],
    verifyPassword: (password, hash) => {
      checks++;
      return verifyPassword(password, hash);
    },
  });
  extraApps.push(proxied);
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
});

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const signIn = (username: string, password: string, address: string, app: ExtraApp = proxied) => app.post('auth/login', { username, password }, from(address));
const call = (path: string, token: string, body: unknown = {}, address = '192.0.2.200', app: ExtraApp = proxied) => app.post(path, body, { token, ...from(address) });
async function tokenOf(username: string, address: string, password = RIGHT, app: ExtraApp = proxied): Promise<string> {
  const reply = await signIn(username, password, address, app);
  expect(reply.status, reply.text).toBe(200);
  return reply.json.data.token as string;
}

describe('the lockout cannot keep the owner out', () => {
  it('ten failures lock the username from that address only: the owner signs in from another address at once, and from a known address even during a back-off', async () => {
    const username = 'nimal_perera';
    const known = await tokenOf(username, '198.51.100.1'); // the owner's usual address
    expect(known).toBeTruthy();
    for (let i = 1; i <= 9; i++) expect((await signIn(username, `Wrong@Pass${i}`, '203.0.113.66')).json).toEqual(INVALID);
    expect((await signIn(username, 'Wrong@Pass10', '203.0.113.66')).json).toEqual(LOCKED);
    // the guesser's address stays locked, right password or not, and that costs no password check
    const before = checks;
    expect((await signIn(username, RIGHT, '203.0.113.66')).json).toEqual(LOCKED);
    expect(checks).toBe(before);

    // the owner, from an address never seen before: the username's one check per back-off is free
    expect((await signIn(username, RIGHT, '198.51.100.2')).status).toBe(200);
    expect((await signIn(username, RIGHT, '203.0.113.66')).json).toEqual(LOCKED);

    // a guesser spread over many addresses: 10 more failures start the back-off, then one check per 30 s
    for (let i = 0; i < 10; i++) expect((await signIn(username, 'Wrong@Pass1', `203.0.113.${100 + i}`)).json).toEqual(INVALID);
    const spread = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(username, 'Wrong@Pass1', `203.0.114.${i}`)));
    expect(spread.filter((r) => r.text === JSON.stringify(INVALID))).toHaveLength(1);
    const waiting = spread.filter((r) => r.status === 429);
    expect(waiting).toHaveLength(19);
    for (const r of waiting) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(BACKOFF_SECONDS);
      expect(r.json.data.message).toMatch(/^Too many failed sign-in attempts on this account\. Try again in \d+ seconds?\.$/);
    }
    // the owner from their known address is not held back; from a new address, within one back-off
    expect((await signIn(username, RIGHT, '198.51.100.1')).status).toBe(200);
    for (let i = 0; i < 10; i++) await signIn(username, 'Wrong@Pass1', `203.0.115.${i}`);
    const fresh = await signIn(username, RIGHT, '198.51.100.3');
    let waited = 0;
    if (fresh.status === 429) {
      waited = Number(fresh.headers.get('retry-after'));
      server.advanceClock(waited * 1000);
    }
    expect(waited).toBeLessThanOrEqual(BACKOFF_SECONDS);
    expect((await signIn(username, RIGHT, '198.51.100.3')).status).toBe(200);
  });

  it('an approved unlock (clearFailures) lifts every lock of the username, from every address', async () => {
    const { clearFailures } = await import('../../src/server/auth/loginAttempts');
    for (let i = 1; i <= 10; i++) await signIn('chamari_silva', `Wrong@Pass${i}`, '203.0.113.77');
    expect((await signIn('chamari_silva', RIGHT, '203.0.113.77')).json).toEqual(LOCKED);
    await clearFailures(server.db, 'Chamari_Silva');
    expect((await signIn('chamari_silva', RIGHT, '203.0.113.77')).status).toBe(200);
  });
});

describe('failures never end the sessions (point 2) and are shown to the owner (point 3)', () => {
  it("a victim's token keeps working through 15 anonymous wrong passwords and its lock", async () => {
    const victim = await tokenOf('kumari_fernando', '198.51.100.20');
    for (let i = 0; i < 15; i++) await signIn('kumari_fernando', `Wrong@Pass${i}`, '203.0.113.88');
    expect((await signIn('kumari_fernando', 'Wrong@Pass99', '203.0.113.88')).json).toEqual(LOCKED);
    expect((await call('user/list', victim)).status).toBe(200);
    expect((await call('auth/token', victim)).status).toBe(200);
  });

  it('the next successful sign-in tells how many failures there were and when the last was, once', async () => {
    await tokenOf('dilani_w', '198.51.100.30');
    const times: number[] = [];
    for (const address of ['203.0.113.90', '203.0.113.91', '203.0.113.92']) {
      server.advanceClock(MINUTE);
      times.push(server.now().getTime());
      expect((await signIn('DILANI_W', 'Wrong@Pass1', address)).json).toEqual(INVALID);
    }
    const reply = await signIn('dilani_w', RIGHT, '198.51.100.30');
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json.data).sort()).toEqual(['failedSignIns', 'token']);
    expect(reply.json.data.failedSignIns.count).toBe(3);
    const lastAt = Date.parse(reply.json.data.failedSignIns.lastAt);
    expect(lastAt).toBeGreaterThanOrEqual(times[2] - 1000);
    expect(lastAt).toBeLessThanOrEqual(times[2] + 5000);
    // once: the next sign-in has nothing to tell
    expect((await signIn('dilani_w', RIGHT, '198.51.100.30')).json.data).toEqual({ token: expect.any(String) });
    // unknown usernames leave nothing behind
    await signIn('nobody_at_all', 'Wrong@Pass1', '203.0.113.93');
    expect(await server.db.one("SELECT 1 FROM sign_in_failure_notices WHERE username_lower = 'nobody_at_all'")).toBeUndefined();
  });
});

describe('the limiter per address holds under a parallel burst (point 4)', () => {
  it(`70 parallel wrong sign-ins from one address: exactly ${ADDRESS_MAX_FAILURES} password checks (401), 20 refused before any hash (429)`, async () => {
    const before = checks;
    const replies = await Promise.all(Array.from({ length: 70 }, (_, i) => signIn(`burst_${i}`, 'Wrong@Pass1', '203.0.113.150')));
    expect(checks - before).toBe(ADDRESS_MAX_FAILURES);
    expect(replies.filter((r) => r.text === JSON.stringify(INVALID))).toHaveLength(ADDRESS_MAX_FAILURES);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(70 - ADDRESS_MAX_FAILURES);
    // another address is not affected
    expect((await signIn('admin', RIGHT, '203.0.113.151')).status).toBe(200);
  });
});

describe('a flood from one address does not hold up anyone else (point 5)', () => {
  it(`holds one hash place (at nice 19) and ${ATTEMPTS_PER_ADDRESS} attempts at a time: a sign-in from another address goes through, at the normal priority, while every hash of the flood is held`, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let floodChecks = 0;
    let floodRunning = 0;
    let floodMostAtOnce = 0;
    const floodPriorities: string[] = [];
    const otherPriorities: string[] = [];
    const app = await startExtraApp(server, {
      trustProxy: ['127.0.0.1'],
      hashConcurrency: 2,
      verifyPassword: async (password, hash, priority) => {
        if (password !== 'Flood@Pass1') {
          otherPriorities.push(priority ?? 'low');
          return verifyPassword(password, hash, priority);
        }
        floodPriorities.push(priority ?? 'low');
        floodChecks++;
        floodMostAtOnce = Math.max(floodMostAtOnce, ++floodRunning);
        await held;
        floodRunning--;
        return false;
      },
    });
    extraApps.push(app);
    const flooder = '203.0.113.170';
    const flood = Promise.all(Array.from({ length: 20 }, (_, i) => signIn(`flood_${i}`, 'Flood@Pass1', flooder, app)));
    const attemptsCounted = async () => Number((await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM login_address_attempts WHERE address = $1', [flooder]))!.n);
    for (let waited = 0; floodChecks === 0 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // one hash of the flood runs, one more attempt waits for it; the other 18 have not reached the database,
    // not even the address limiter
    expect(floodChecks).toBe(1);
    expect(await attemptsCounted()).toBe(ATTEMPTS_PER_ADDRESS);
    const reserved = await server.db.one<{ failures: number }>('SELECT failures FROM login_address_failures WHERE address = $1', [flooder]);
    expect(reserved!.failures).toBe(ATTEMPTS_PER_ADDRESS);
    // with every hash of the flood held, another address's sign-in (and a list call) answer all the same
    const token = await tokenOf('admin', '203.0.113.171', RIGHT, app);
    expect((await call('user/list', token, {}, '203.0.113.171', app)).status).toBe(200);
    release();
    const replies = await flood;
    expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 20 }, () => JSON.stringify(INVALID)));
    expect(floodChecks).toBe(20);
    expect(floodMostAtOnce).toBe(1);
    // the flood's checks ran at nice 19 (all but its last, alone by then); the other address's at the normal priority
    expect(floodPriorities.slice(0, 19)).toEqual(Array.from({ length: 19 }, () => 'low'));
    expect(otherPriorities).toEqual(['normal']);
  });
});

describe('parallel valid sign-ins of one account share one hash place', () => {
  /** An app whose checks of `account`'s password hash, from its second on, wait until released; the others run at once. */
  async function heldApp(account: string) {
    // a hash of its own (the demo accounts share one), so that the stand-in tells its checks apart
    const stored = await server.db.one<{ password_hash: string }>('UPDATE console_users SET password_hash = $1 WHERE username = $2 RETURNING password_hash', [
      await hashPassword(RIGHT, TEST_SCRYPT_N),
      account,
    ]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen = { accountChecks: 0, accountRunning: 0, accountMostAtOnce: 0, accountPriorities: [] as string[], otherPriorities: [] as string[] };
    const app = await startExtraApp(server, {
      trustProxy: ['127.0.0.1'],
      hashConcurrency: 2,
      verifyPassword: async (password, hash, priority) => {
        if (hash !== stored!.password_hash) {
          seen.otherPriorities.push(priority ?? 'low');
          return verifyPassword(password, hash, priority);
        }
        seen.accountPriorities.push(priority ?? 'low');
        seen.accountChecks++;
        seen.accountMostAtOnce = Math.max(seen.accountMostAtOnce, ++seen.accountRunning);
        if (seen.accountChecks > 1) await held;
        try {
          return await verifyPassword(password, hash, priority);
        } finally {
          seen.accountRunning--;
        }
      },
    });
    extraApps.push(app);
    return { app, seen, release };
  }
  const until = async (done: () => boolean) => {
    for (let waited = 0; !done() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('16 from one address all succeed, one hash at a time', async () => {
    const { app, seen, release } = await heldApp('kasun_herath');
    const burst = Promise.all(Array.from({ length: 16 }, () => signIn('kasun_herath', RIGHT, '203.0.113.180', app)));
    await until(() => seen.accountChecks > 0);
    release();
    const replies = await burst;
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 16 }, () => 200));
    expect(seen.accountChecks).toBe(16);
    expect(seen.accountMostAtOnce).toBe(1);
  });

  it("16 from 16 addresses: one hash place, at nice 19, while another account's sign-in is checked at the normal priority; each succeeds or is told to retry (429, Retry-After)", async () => {
    const { app, seen, release } = await heldApp('ruvini_a');
    const burst = Promise.all(Array.from({ length: 16 }, (_, i) => signIn('ruvini_a', RIGHT, `203.0.113.${190 + i}`, app)));
    await until(() => seen.accountChecks > 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // the first check has ended, the second is held, and every other check of the account waits for it
    expect(seen.accountChecks).toBe(2);
    expect(seen.accountRunning).toBe(1);
    // another account's sign-in takes the other place, at the normal priority
    const other = signIn('nadeesha_g', RIGHT, '203.0.113.189', app);
    await until(() => seen.otherPriorities.length > 0);
    expect(seen.otherPriorities, "another account's check while the burst's is held").toEqual(['normal']);
    expect(seen.accountChecks).toBe(2);
    release();
    expect((await other).status).toBe(200);
    const replies = await burst;
    const refused = replies.filter((r) => r.status !== 200);
    for (const r of refused) {
      expect(r.status, r.text).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.json.data.message).toMatch(/^Too many failed sign-in attempts on this account\. Try again in \d+ seconds?\.$/);
    }
    expect(replies.length - refused.length).toBe(seen.accountChecks);
    expect(seen.accountMostAtOnce).toBe(1);
    // from the second on (when the burst had shown itself), its checks ran at nice 19 while others of it waited
    expect(seen.accountPriorities.slice(1, seen.accountChecks - 1)).toEqual(Array.from({ length: seen.accountChecks - 2 }, () => 'low'));
  });
});

describe('the old password of a reset counts like a sign-in (point 6)', () => {
  it('wrong old passwords and wrong sign-ins share one count; a locked account cannot reset its password from that address', async () => {
    const token = await tokenOf('tharindu_r', '203.0.113.160');
    const reset = (old_password: string, new_password = 'Fresh@Pass12') => call('user/reset-password', token, { username: 'tharindu_r', old_password, new_password }, '203.0.113.160');
    for (let i = 1; i <= 5; i++) expect((await signIn('tharindu_r', `Wrong@Pass${i}`, '203.0.113.160')).json).toEqual(INVALID);
    for (let i = 6; i <= 10; i++) expect((await reset(`Wrong@Pass${i}`)).json).toEqual({ statusCode: 406, data: { message: 'Old password is invalid' } });
    const before = checks;
    expect((await reset(RIGHT)).json).toEqual({ statusCode: 403, data: { message: LOCKED.data.message } });
    expect((await signIn('tharindu_r', RIGHT, '203.0.113.160')).json).toEqual(LOCKED);
    expect(checks).toBe(before);
    const logged = await server.db.query<{ type: string }>("SELECT type FROM activity_logs WHERE username = 'tharindu_r' AND type = 'PASSWORD_RESET_FAILED'");
    expect(logged).toHaveLength(5);
    // the session itself goes on
    expect((await call('user/list', token, {}, '203.0.113.160')).status).toBe(200);
  });
});

describe('sessions (point 7)', () => {
  it('a refresh replaces the token: the old one works for a few seconds more, then never again', async () => {
    const first = await tokenOf('arjun_t', '198.51.100.40');
    const second = (await call('auth/token', first)).json.data.token as string;
    expect(decodeJwt(second).sid).toBe(decodeJwt(first).sid);
    expect(decodeJwt(second).jti).not.toBe(decodeJwt(first).jti);
    // calls in flight with the old token around the refresh still go through
    expect((await call('user/list', first)).status).toBe(200);
    server.advanceClock((REPLACED_TOKEN_GRACE_SECONDS + 1) * 1000);
    expect((await call('user/list', first)).status).toBe(401);
    expect((await call('auth/token', first)).status).toBe(401);
    expect((await call('user/list', second)).status).toBe(200);
  });

  it('two tabs refreshing at once both end up with a working token of the one session', async () => {
    const shared = await tokenOf('maker', '198.51.100.41');
    const [a, b] = await Promise.all([call('auth/token', shared), call('auth/token', shared)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    server.advanceClock((REPLACED_TOKEN_GRACE_SECONDS + 1) * 1000);
    expect((await call('user/list', a.json.data.token)).status).toBe(200);
    expect((await call('user/list', b.json.data.token)).status).toBe(200);
    expect((await call('user/list', shared)).status).toBe(401);
  });

  it('a session ends for good at its maximum age (SESSION_MAX_HOURS): refresh refused, tokens dead; tokens never outlive it', async () => {
    const short = await startExtraApp(server, { trustProxy: ['127.0.0.1'], sessionMaxHours: 1 });
    extraApps.push(short);
    let token = await tokenOf('checker', '198.51.100.42', RIGHT, short);
    for (let minutes = 20; minutes <= 40; minutes += 20) {
      server.advanceClock(20 * MINUTE);
      const reply = await call('auth/token', token, {}, '198.51.100.42', short);
      expect(reply.status, `refresh after ${minutes} minutes`).toBe(200);
      token = reply.json.data.token;
    }
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(20 * 60 + 1); // capped at the session's end, not 30 minutes
    expect(claims.rfh).toBeLessThanOrEqual(((claims.exp! - claims.iat!) * 1000 * 2) / 3 + 1);
    server.advanceClock(19 * MINUTE);
    expect((await call('user/list', token, {}, '198.51.100.42', short)).status).toBe(200);
    server.advanceClock(2 * MINUTE);
    expect((await call('auth/token', token, {}, '198.51.100.42', short)).status).toBe(401);
    expect((await call('user/list', token, {}, '198.51.100.42', short)).status).toBe(401);

    expect(parseSessionMaxHours(undefined)).toBe(DEFAULT_SESSION_MAX_HOURS);
    expect(parseSessionMaxHours('8')).toBe(8);
    expect(parseSessionMaxHours('0.5')).toBe(0.5);
    for (const bad of ['0', '-1', 'twelve', 'Infinity']) expect(() => parseSessionMaxHours(bad), bad).toThrow(/^SESSION_MAX_HOURS: /);
  });

  it('the default session lasts 12 hours however often it is refreshed', async () => {
    let token = await tokenOf('mahesh_s', '198.51.100.43');
    for (let i = 0; i < 35; i++) {
      server.advanceClock(20 * MINUTE);
      const reply = await call('auth/token', token, {}, '198.51.100.43');
      expect(reply.status, `refresh ${i + 1}`).toBe(200);
      token = reply.json.data.token;
    }
    // 12 hours after the sign-in (700 minutes of refreshes so far)
    server.advanceClock(19 * MINUTE);
    expect((await call('user/list', token, {}, '198.51.100.43')).status).toBe(200);
    server.advanceClock(2 * MINUTE);
    expect((await call('auth/token', token, {}, '198.51.100.43')).status).toBe(401);
    expect((await call('user/list', token, {}, '198.51.100.43')).status).toBe(401);
  });

  it('logout ends its own session', async () => {
    const token = await tokenOf('ishara_d', '198.51.100.44');
    const other = await tokenOf('ishara_d', '198.51.100.45');
    expect((await call('auth/logout', token)).status).toBe(200);
    expect((await call('auth/token', token)).status).toBe(401);
    expect((await call('user/list', token)).status).toBe(401);
    expect((await call('auth/token', other)).status).toBe(200);
  });
});

describe('a password set by someone else must be changed first (point 8)', () => {
  it('signs in, is told so, may only reset the password (or refresh, or sign out) until it is changed to a different one', async () => {
    await server.db.query("UPDATE console_users SET must_change_password = 1 WHERE username = 'priyanka_e'");
    const reply = await signIn('priyanka_e', RIGHT, '198.51.100.50');
    expect(reply.status).toBe(200);
    expect(reply.json.data.mustChangePassword).toBe(true);
    const token = reply.json.data.token as string;
    expect(decodeJwt(token).mcp).toBe(true);

    const refused = { statusCode: 403, data: { message: MUST_CHANGE_PASSWORD } };
    for (const [path, body] of [
      ['user/list', {}],
      ['role/list', {}],
      ['user/change-password', { username: 'maker', password: 'Fresh@Pass12' }],
      ['dashboard/overallTransactionCounts', {}],
    ] as const) {
      expect((await call(path, token, body)).json, path).toEqual(refused);
    }
    const refreshed = await call('auth/token', token);
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.json.data.token).mcp).toBe(true);
    const current = refreshed.json.data.token as string;

    const same = await call('user/reset-password', current, { username: 'priyanka_e', old_password: RIGHT, new_password: RIGHT });
    expect(same.json).toEqual({ statusCode: 422, data: { message: NEW_PASSWORD_UNCHANGED } });
    expect((await call('user/list', current)).json).toEqual(refused);

    const done = await call('user/reset-password', current, { username: 'priyanka_e', old_password: RIGHT, new_password: 'Fresh@Pass12' });
    expect(done.status).toBe(200);
    expect(decodeJwt(done.json.data.token).mcp).toBeUndefined();
    expect((await call('user/list', done.json.data.token)).status).toBe(200);
    expect(await server.db.one("SELECT must_change_password FROM console_users WHERE username = 'priyanka_e'")).toEqual({ must_change_password: 0 });
    expect((await signIn('priyanka_e', 'Fresh@Pass12', '198.51.100.50')).json.data.mustChangePassword).toBeUndefined();
  });

  it('the flag set while a session runs takes effect on its next call', async () => {
    const token = await tokenOf('sunil_jayasinghe', '198.51.100.51');
    expect((await call('user/list', token)).status).toBe(200);
    await server.db.query("UPDATE console_users SET must_change_password = 1 WHERE username = 'sunil_jayasinghe'");
    try {
      expect((await call('user/list', token)).json).toEqual({ statusCode: 403, data: { message: MUST_CHANGE_PASSWORD } });
      expect((await call('auth/logout', token)).status).toBe(200);
    } finally {
      await server.db.query("UPDATE console_users SET must_change_password = 0 WHERE username = 'sunil_jayasinghe'");
    }
  });
});
