/**
 * The live-count stream (GET /api/changeRequest/events) lives no longer than the session and the
 * permissions that opened it, and tells each user only what they may decide: it ends at logout (at
 * once in the same process, at the next heartbeat in another), when the account is disabled or its
 * role loses its approve permissions (by an approved edit), at its own password change and when the
 * session expires; a user who decides one area hears of that area only; one account holds at most
 * five streams in a process (another closes the oldest).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { startServer, type ApiClient, type TestServer } from './harness';

/** The main server keeps the default heartbeat (25 s): what it ends within a few seconds, it ends at once, not at a heartbeat. */
let server: TestServer;
/** A server with a 300 ms heartbeat, for what only the heartbeat notices (another process's logout, the session's end on a moved clock). */
let beating: TestServer;
let maker: string;
let checker: string;
let admin: string;

beforeAll(async () => {
  [server, beating] = await Promise.all([startServer(), startServer({ eventsHeartbeatMs: 300 })]);
  [maker, checker, admin] = await Promise.all(['maker', 'checker', 'admin'].map((u) => server.login(u)));
});
afterAll(async () => {
  await Promise.all([server?.close(), beating?.close()]);
});

/** A console user with exactly these permissions (the demo password), made in SQL; returns the role's id. */
async function userWith(on: TestServer, username: string, permissions: string[]): Promise<number> {
  const role = await on.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) SELECT $1, user_type, user_level, $2 FROM roles WHERE role_name = 'Maker' RETURNING id`,
    [`Role of ${username.replace(/_/g, ' ')}`, permissions],
  );
  await on.db.query(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     SELECT $3, $1 || '@example.lk', contact, $1, user_type, branch_code, $2, password_hash FROM console_users WHERE username = 'maker'`,
    [username, role!.id, username.replace(/_/g, ' ')],
  );
  return role!.id;
}

const WAIT_MS = 10_000;
/** The streams one account may hold open in one server process. */
const MAX_STREAMS_PER_ACCOUNT = 5;

/** An open stream, read in the background: what arrived so far, and whether (and how) it ended. */
interface OpenStream {
  readonly status: number;
  text(): string;
  /** Resolves with everything read once `pattern` has arrived; fails after 10 s or if the stream ends first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Resolves with everything read once the server has ended the stream; fails after 10 s. */
  ended(): Promise<string>;
  isEnded(): boolean;
  cancel(): Promise<void>;
}

async function openStream(client: ApiClient, token: string): Promise<OpenStream> {
  const res = await fetch(`${client.url}/api/changeRequest/events`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        wake();
      }
    } catch {
      // cancelled by the test
    }
    done = true;
    wake();
  })();
  const until = (test: () => boolean, what: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what} did not happen within ${WAIT_MS} ms; the stream read: ${JSON.stringify(text)}`));
      }, WAIT_MS);
      const check = () => {
        if (test()) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(text);
        } else if (done) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`the stream ended before ${what}; it read: ${JSON.stringify(text)}`));
        }
      };
      waiters.add(check);
      check();
    });
  await until(() => text.includes(': connected'), 'the connection');
  return {
    status: res.status,
    text: () => text,
    waitFor: (pattern) => until(() => pattern.test(text), `${pattern}`),
    ended: () =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the stream was still open after ${WAIT_MS} ms; it read: ${JSON.stringify(text)}`)), WAIT_MS);
        const check = () => {
          if (!done) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(text);
        };
        waiters.add(check);
        check();
      }),
    isEnded: () => done,
    cancel: () => reader.cancel().catch(() => {}),
  };
}

const changeOf = (area: string) => new RegExp(`event: change\\ndata: \\{"type":"${area}"\\}\\n\\n`);
const endEvent = (reason: string) => `event: end\ndata: {"reason":"${reason}"}\n\n`;

let counter = 0;
/** A role request by the maker (a 'Role' announcement); returns its change request id. */
async function requestRole(): Promise<number> {
  counter += 1;
  const reply = await server.call('role/create', { role_name: `Events Role ${counter}`, user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }, maker);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

/** A user edit requested by the admin (who holds every permission the user's role holds) and approved by the checker. */
async function approvedUserEdit(username: string, changes: Record<string, unknown>): Promise<void> {
  const id = (await server.db.one<{ id: number }>('SELECT id FROM console_users WHERE username = $1', [username]))!.id;
  const { customUser } = (await server.call('user/get-for-edit', { id }, admin)).data;
  const body = {
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
  const requested = await server.call('user/edit', body, admin);
  expect(requested.statusCode, JSON.stringify(requested.data)).toBe(200);
  const decided = await server.call('user/approve', { changeRequestID: requested.data.changeRequestId, actionTaken: 'approve' }, checker);
  expect(decided.statusCode, JSON.stringify(decided.data)).toBe(200);
}

/** A role edit requested by the admin and approved by the checker. */
async function approvedRoleEdit(roleId: number, changes: Record<string, unknown>): Promise<void> {
  const { role } = (await server.call('role/get-for-edit', { id: roleId }, admin)).data;
  const body = { id: roleId, role_name: role.role_name, user_type: role.user_type, user_level: role.user_level, disabled: role.disabled, permissions: role.permissions, ...changes };
  const requested = await server.call('role/edit', body, admin);
  expect(requested.statusCode, JSON.stringify(requested.data)).toBe(200);
  const decided = await server.call('role/approve', { changeRequestID: requested.data.changeRequestId, actionTaken: 'approve' }, checker);
  expect(decided.statusCode, JSON.stringify(decided.data)).toBe(200);
}

describe('the stream ends with the session', () => {
  it('ends at once at logout, and the token opens no new one', async () => {
    await userWith(server, 'events_logout', ['role-approve']);
    const token = await server.login('events_logout');
    const stream = await openStream(server, token);
    const other = await openStream(server, checker);
    expect((await server.call('auth/logout', undefined, token)).statusCode).toBe(200);
    expect(await stream.ended()).toContain(endEvent('session'));
    // the checker's own stream goes on and hears the next request
    await requestRole();
    await other.waitFor(changeOf('Role'));
    expect(other.isEnded()).toBe(false);
    await other.cancel();
    expect((await fetch(`${server.url}/api/changeRequest/events`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('ends when the account is disabled by an approved user edit', async () => {
    await userWith(server, 'events_disabled', ['role-approve']);
    const stream = await openStream(server, await server.login('events_disabled'));
    await approvedUserEdit('events_disabled', { disabled: 1 });
    expect(await stream.ended()).toContain(endEvent('session'));
  });

  it('ends when the role loses its approve permissions by an approved role edit, or the role is disabled', async () => {
    const roleId = await userWith(server, 'events_role', ['role-approve', 'bank-view']);
    const stream = await openStream(server, await server.login('events_role'));
    await approvedRoleEdit(roleId, { permissions: ['bank-view'] });
    expect(await stream.ended()).toContain(endEvent('permission'));

    const disabledRole = await userWith(server, 'events_role_disabled', ['role-approve', 'bank-view']);
    const second = await openStream(server, await server.login('events_role_disabled'));
    await approvedRoleEdit(disabledRole, { disabled: 1 });
    expect(await second.ended()).toContain(endEvent('permission'));
  });

  it("ends at the account's own password change (its other tokens are revoked)", async () => {
    await userWith(server, 'events_password', ['role-approve']);
    const token = await server.login('events_password');
    const stream = await openStream(server, token);
    const changed = await server.call('user/reset-password', { username: 'events_password', old_password: DEMO_PASSWORD, new_password: 'Fresh@Pass12' }, token);
    expect(changed.statusCode, JSON.stringify(changed.data)).toBe(200);
    expect(await stream.ended()).toContain(endEvent('session'));
  });

  it('ends at the next heartbeat after a logout on another server process', async () => {
    await userWith(beating, 'events_elsewhere', ['role-approve']);
    const token = await beating.login('events_elsewhere');
    const stream = await openStream(beating, token);
    const peer = await beating.startPeer();
    try {
      expect((await peer.call('auth/logout', undefined, token)).statusCode).toBe(200);
      expect(await stream.ended()).toContain(endEvent('session'));
    } finally {
      await peer.close();
    }
  });

  it('ends when the session expires', async () => {
    await userWith(beating, 'events_expiry', ['role-approve']);
    const token = await beating.login('events_expiry');
    const stream = await openStream(beating, token);
    // keep-alives while the session holds
    await stream.waitFor(/: keep-alive\n\n[^]*: keep-alive\n\n/);
    beating.advanceClock(12 * 3600_000 + 60_000);
    try {
      expect(await stream.ended()).toContain(endEvent('session'));
    } finally {
      beating.resetClock();
    }
  });
});

describe('what a stream is told', () => {
  it('a user who may decide one area hears of that area only', async () => {
    await userWith(server, 'events_one_area', ['role-approve']);
    const stream = await openStream(server, await server.login('events_one_area'));
    // a user request (area User), then a role request (area Role)
    counter += 1;
    const user = await server.call(
      'user/create',
      {
        type: 'BACKEND',
        name: 'Events One Area',
        email: `events${counter}@example.lk`,
        contact: '0771234567',
        username: `events_new_${counter}`,
        branch_code: 'HO',
        role: (await server.db.one<{ id: number }>("SELECT id FROM roles WHERE role_name = 'Maker'"))!.id,
        password: 'Fresh@Pass12',
        disabled: 0,
      },
      maker,
    );
    expect(user.statusCode, JSON.stringify(user.data)).toBe(200);
    await requestRole();
    const text = await stream.waitFor(changeOf('Role'));
    expect(text).not.toMatch(changeOf('User'));
    expect(text.match(/event: change/g)).toHaveLength(1);
    // the checker (every approve permission) hears both on a stream of their own
    const all = await openStream(server, checker);
    await server.call('changeRequest/withdraw', { changeRequestID: user.data.changeRequestId }, maker);
    await all.waitFor(changeOf('User'));
    await all.cancel();
    await stream.cancel();
  });

  it(`one account holds ${MAX_STREAMS_PER_ACCOUNT} streams in a process: another closes the oldest`, async () => {
    await userWith(server, 'events_many', ['role-approve']);
    const token = await server.login('events_many');
    const streams: OpenStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) streams.push(await openStream(server, token));
    const sixth = await openStream(server, token);
    expect(await streams[0]!.ended()).toContain(endEvent('superseded'));
    // the other five live on and hear the next request
    await requestRole();
    for (const s of [...streams.slice(1), sixth]) await s.waitFor(changeOf('Role'));
    expect(streams.slice(1).some((s) => s.isEnded()) || sixth.isEnded()).toBe(false);
    // a seventh closes the second: never more than five
    const seventh = await openStream(server, token);
    expect(await streams[1]!.ended()).toContain(endEvent('superseded'));
    for (const s of [...streams.slice(2), sixth, seventh]) await s.cancel();
  });

  it('many streams of one token at once: never more than five stay open', async () => {
    await userWith(server, 'events_burst', ['role-approve']);
    const token = await server.login('events_burst');
    const streams = await Promise.all(Array.from({ length: 20 }, () => openStream(server, token)));
    // every stream beyond five is ended by the server, with its reason
    await expect.poll(() => streams.filter((s) => s.isEnded()).length, { timeout: WAIT_MS }).toBe(20 - MAX_STREAMS_PER_ACCOUNT);
    for (const s of streams.filter((s) => s.isEnded())) expect(s.text()).toContain(endEvent('superseded'));
    for (const s of streams) await s.cancel();
  });
});
