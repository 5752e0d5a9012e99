/**
 * Maker-checker invariants of the change-request engine (src/server/changeRequests.ts), through real
 * HTTP on two server instances sharing one database (on PostgreSQL: two apps with their own pools):
 *
 * - races: 20 parallel approvals of one role EDIT give one 200 and one applied change (the version moves
 *   once, one activity row); approvals racing rejections give one decision; the maker's own attempts
 *   mixed into the race never decide it;
 * - a fault in the middle of applying a change (a temporary trigger that RAISEs on the second or the
 *   last table the approval writes) leaves nothing applied and the request pending; once the fault is
 *   gone the approval succeeds, once;
 * - a model-based test (fast-check commands) over submit, approve, reject and edit-behind-the-request
 *   on roles and users: after every command each record equals the model, no record changed without an
 *   approval by a user other than its maker, and self-approval is always refused.
 *
 * The existing races on users (tests/api/changeRequests.test.ts) are not repeated here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleId, startServer, type ApiClient, type ApiReply, type TestServer } from './harness';

let server: TestServer;
let peer: ApiClient & { close(): Promise<void> };
const tokens: Record<'maker' | 'checker' | 'admin', string> = { maker: '', checker: '', admin: '' };
let makerRole: number;
let passwordHash: string;

beforeAll(async () => {
  server = await startServer();
  peer = await server.startPeer();
  [tokens.maker, tokens.checker, tokens.admin] = await Promise.all([server.login('maker'), server.login('checker'), server.login('admin')]);
  makerRole = await roleId(server.db, 'Maker');
  passwordHash = (await server.db.one<{ password_hash: string }>("SELECT password_hash FROM console_users WHERE username = 'maker'"))!.password_hash;
});
afterAll(async () => {
  await peer?.close();
  await server?.close();
});

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter += 1)}`;

/** A role inserted directly (version 1, unlocked), as the engine would have created it. */
async function insertRole(name: string, permissions: string[] = ['user-view'], level = 1): Promise<number> {
  const row = await server.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ($1, 'BACKEND', (SELECT id FROM user_levels WHERE level = $2), $3) RETURNING id`,
    [name, level, permissions],
  );
  return row!.id;
}

async function insertUser(username: string, name: string, contact: string): Promise<number> {
  const row = await server.db.one<{ id: number }>(
    `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
     VALUES ($1, $2, $3, $4, 'BACKEND', 'HO', $5, $6) RETURNING id`,
    [name, `${username}@remit.lk`, contact, username, makerRole, passwordHash],
  );
  return row!.id;
}

const levelId = async (level: number) => (await server.db.one<{ id: number }>('SELECT id FROM user_levels WHERE level = $1', [level]))!.id;

interface RoleState {
  role_name: string;
  user_level: number;
  permissions: string[];
  locked: number;
  version: number;
}
const roleState = async (id: number) => server.db.one<RoleState>('SELECT role_name, user_level, permissions, locked, version FROM roles WHERE id = $1', [id]);

interface RequestState {
  status: string;
  decided_by: string | null;
  requested_by: string;
}
const requestState = async (id: number) => (await server.db.one<RequestState>('SELECT status, decided_by, requested_by FROM change_requests WHERE id = $1', [id]))!;

/** Activity rows of the decisions of change request `id`. */
const decisionsLogged = async (id: number) =>
  server.db.query<{ type: string; username: string }>("SELECT type, username FROM activity_logs WHERE type IN ('CHANGE_APPROVED', 'CHANGE_REJECTED') AND description LIKE $1", [
    `%(change request #${id} by %`,
  ]);

const byStatus = (replies: ApiReply[]) => {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
};

async function submitRoleEdit(id: number, changes: Partial<{ user_level: number; permissions: string[]; role_name: string }>, token = tokens.maker) {
  const current = (await roleState(id))!;
  const reply = await server.call(
    'role/edit',
    { id, role_name: current.role_name, user_type: 'BACKEND', user_level: current.user_level, permissions: current.permissions, disabled: 0, ...changes },
    token,
  );
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

describe('races on one change request (two server instances)', () => {
  it('20 parallel approvals of a role EDIT: one 200, the change applied once, one activity row', async () => {
    const id = await insertRole(unique('Race Role '));
    const level2 = await levelId(2);
    const request = await submitRoleEdit(id, { user_level: level2, permissions: ['user-view', 'role-view'] });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : server).call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, i % 3 ? tokens.checker : tokens.admin)),
    );
    expect(byStatus(replies)).toEqual({ 200: 1, 409: 19 });
    expect(replies.find((r) => r.statusCode === 200)!.data).toEqual({ message: 'Role approved successfully' });
    for (const r of replies.filter((x) => x.statusCode === 409)) expect(r.data).toEqual({ message: 'Change request already decided' });
    expect(await roleState(id)).toMatchObject({ user_level: level2, permissions: ['user-view', 'role-view'], locked: 0, version: 2 });
    const decided = await requestState(request);
    expect(decided.status).toBe('APPROVED');
    const logged = await decisionsLogged(request);
    expect(logged).toEqual([{ type: 'CHANGE_APPROVED', username: decided.decided_by }]);
  });

  it('approvals racing rejections of a role CREATE: one decision, and the role exists exactly when approved', async () => {
    for (let round = 0; round < 6; round++) {
      const name = unique('Raced Create ');
      const created = await server.call('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, tokens.maker);
      expect(created.statusCode).toBe(200);
      const request = created.data.changeRequestId as number;
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? peer : server).call('role/approve', { changeRequestID: request, actionTaken: (i + round) % 2 ? 'reject' : 'approve' }, (i >> 1) % 2 ? tokens.checker : tokens.admin),
        ),
      );
      expect(byStatus(replies)).toEqual({ 200: 1, 409: 19 });
      const { status } = await requestState(request);
      const roles = await server.db.query<{ id: number; locked: number; version: number }>('SELECT id, locked, version FROM roles WHERE role_name = $1', [name]);
      const logged = await decisionsLogged(request);
      expect(logged).toHaveLength(1);
      if (status === 'APPROVED') {
        expect(replies.find((r) => r.statusCode === 200)!.data.message).toBe('Role approved successfully');
        expect(roles).toEqual([{ id: roles[0].id, locked: 0, version: 1 }]);
        expect(logged[0].type).toBe('CHANGE_APPROVED');
      } else {
        expect(status).toBe('REJECTED');
        expect(replies.find((r) => r.statusCode === 200)!.data.message).toBe('Role rejected successfully');
        expect(roles).toEqual([]);
        expect(logged[0].type).toBe('CHANGE_REJECTED');
      }
    }
  });

  it("the maker's own approvals mixed into the race never decide it", async () => {
    const id = await insertRole(unique('Self Race '));
    const request = await submitRoleEdit(id, { permissions: ['role-view'] }, tokens.admin);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? peer : server).call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, i % 4 === 0 ? tokens.checker : tokens.admin)),
    );
    const fromChecker = replies.filter((_, i) => i % 4 === 0);
    const fromMaker = replies.filter((_, i) => i % 4 !== 0);
    expect(byStatus(fromChecker)).toEqual({ 200: 1, 409: 4 });
    // the maker is told it is their own request, or (once decided) that it is decided: never a 200
    for (const r of fromMaker) expect([403, 409]).toContain(r.statusCode);
    expect(fromMaker.filter((r) => r.statusCode === 403).every((r) => r.data.message === 'You cannot approve or reject your own change request')).toBe(true);
    expect(await requestState(request)).toEqual({ status: 'APPROVED', decided_by: 'checker', requested_by: 'admin' });
    expect(await roleState(id)).toMatchObject({ permissions: ['role-view'], version: 2, locked: 0 });
  });
});

describe('a fault in the middle of applying a change', () => {
  /** A trigger that fails the statement, as a crash or a lost connection would, after the record was written. */
  async function injectFault(table: string, events: 'INSERT' | 'UPDATE', when: string) {
    await server.db.exec(`
      CREATE OR REPLACE FUNCTION test_injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault'; END $$;
      CREATE TRIGGER test_injected_fault BEFORE ${events} ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION test_injected_fault();`);
    return async () => {
      await server.db.exec(`DROP TRIGGER test_injected_fault ON ${table}; DROP FUNCTION test_injected_fault();`);
    };
  }

  it('failing on the change request (written after the record): nothing applied, still pending; then it succeeds once', async () => {
    const id = await insertRole(unique('Fault Role '), ['user-view']);
    const request = await submitRoleEdit(id, { permissions: ['user-view', 'role-view'] });
    const before = await roleState(id);
    expect(before).toMatchObject({ locked: 1, version: 1 });

    const removeFault = await injectFault('change_requests', 'UPDATE', "NEW.status = 'APPROVED'");
    try {
      for (const client of [server, peer]) {
        const reply = await client.call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, tokens.checker);
        expect(reply.statusCode).toBe(500);
        expect(reply.data.message).toBe('Internal server error');
        expect(JSON.stringify(reply)).not.toMatch(/injected fault|trigger|change_requests/);
      }
    } finally {
      await removeFault();
    }
    expect(await roleState(id)).toEqual(before);
    expect(await requestState(request)).toEqual({ status: 'PENDING', decided_by: null, requested_by: 'maker' });
    expect(await decisionsLogged(request)).toEqual([]);
    const list = await server.call('role/list', {}, tokens.checker);
    expect(list.data.changeRequests.map((r: { changeRequestId: number }) => r.changeRequestId)).toContain(request);

    expect(await server.call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, tokens.checker)).toEqual({
      statusCode: 200,
      data: { message: 'Role approved successfully' },
    });
    expect(await roleState(id)).toMatchObject({ permissions: ['user-view', 'role-view'], locked: 0, version: 2 });
    expect(await decisionsLogged(request)).toEqual([{ type: 'CHANGE_APPROVED', username: 'checker' }]);
  });

  it('failing on the activity log (the last write) of a CREATE: no record created, still pending; then it succeeds once', async () => {
    const name = unique('Fault Create ');
    const created = await server.call('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, tokens.maker);
    const request = created.data.changeRequestId as number;
    const removeFault = await injectFault('activity_logs', 'INSERT', "NEW.type = 'CHANGE_APPROVED'");
    try {
      expect((await peer.call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, tokens.admin)).statusCode).toBe(500);
    } finally {
      await removeFault();
    }
    expect(await server.db.query('SELECT id FROM roles WHERE role_name = $1', [name])).toEqual([]);
    expect(await requestState(request)).toEqual({ status: 'PENDING', decided_by: null, requested_by: 'maker' });
    // the name is still reserved by the pending request
    expect((await server.call('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 }, tokens.admin)).statusCode).toBe(422);

    expect((await peer.call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, tokens.admin)).statusCode).toBe(200);
    expect(await server.db.query('SELECT locked, version FROM roles WHERE role_name = $1', [name])).toEqual([{ locked: 0, version: 1 }]);
    expect(await decisionsLogged(request)).toEqual([{ type: 'CHANGE_APPROVED', username: 'admin' }]);
  });

  it('failing on the record itself after the request was locked: a rejection still goes through', async () => {
    const id = await insertRole(unique('Fault Reject '));
    const request = await submitRoleEdit(id, { permissions: ['role-view'] });
    const removeFault = await injectFault('roles', 'UPDATE', 'NEW.version > OLD.version');
    try {
      expect((await server.call('role/approve', { changeRequestID: request, actionTaken: 'approve' }, tokens.checker)).statusCode).toBe(500);
      expect(await roleState(id)).toMatchObject({ permissions: ['user-view'], locked: 1, version: 1 });
      expect((await server.call('role/approve', { changeRequestID: request, actionTaken: 'reject' }, tokens.checker)).statusCode).toBe(200);
    } finally {
      await removeFault();
    }
    expect(await roleState(id)).toMatchObject({ permissions: ['user-view'], locked: 0, version: 1 });
    expect(await requestState(request)).toMatchObject({ status: 'REJECTED', decided_by: 'checker' });
  });
});

// ---- the model-based test -------------------------------------------------------------------------

type Kind = 'role' | 'user';
type Actor = keyof typeof tokens;

interface ModelRecord {
  kind: Kind;
  id: number;
  /** Role: role_name, user_level, permissions; user: username, name, contact. */
  fields: Record<string, unknown>;
  version: number;
  locked: boolean;
}

interface ModelRequest {
  id: number;
  kind: Kind;
  action: 'CREATE' | 'EDIT';
  recordId?: number;
  maker: Actor;
  fields: Record<string, unknown>;
  baseVersion?: number;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
}

interface Model {
  prefix: string;
  records: ModelRecord[];
  requests: ModelRequest[];
}

interface Real {
  /** Commands run so far in this run, for the failure message. */
  log: string[];
}

const typeName = { role: 'Role', user: 'User' } as const;
const PERMISSION_SETS = [['user-view'], ['user-view', 'role-view'], ['role-view', 'bank-view'], ['bank-view']] as const;
const CONTACTS = ['0771234567', '0719876543', '0760000001'] as const;
let levelIds: number[] = [];

/** The editable fields of variant `v` of a record (its name-like key stays). */
function variantFields(kind: Kind, record: Pick<ModelRecord, 'fields'>, v: number): Record<string, unknown> {
  if (kind === 'role') return { ...record.fields, user_level: levelIds[v % levelIds.length], permissions: [...PERMISSION_SETS[v % PERMISSION_SETS.length]] };
  return { ...record.fields, name: `Model User V${v}`, contact: CONTACTS[v % CONTACTS.length] };
}

function body(kind: Kind, fields: Record<string, unknown>, id?: number): Record<string, unknown> {
  const idPart = id === undefined ? {} : { id };
  if (kind === 'role') return { ...idPart, role_name: fields.role_name, user_type: 'BACKEND', user_level: fields.user_level, permissions: fields.permissions, disabled: 0 };
  const username = String(fields.username);
  return {
    ...idPart,
    type: 'BACKEND',
    name: fields.name,
    email: `${username}@remit.lk`,
    contact: fields.contact,
    username,
    branch_code: 'HO',
    role: makerRole,
    disabled: 0,
    ...(id === undefined ? { password: 'Model@Pass12' } : {}),
  };
}

function pickRecord(model: Model, kind: Kind, slot: number): ModelRecord | undefined {
  const of = model.records.filter((r) => r.kind === kind);
  return of.length ? of[slot % of.length] : undefined;
}

function expectReply(real: Real, reply: ApiReply, status: number, message?: string) {
  const where = `after ${real.log.join(' → ')}`;
  expect(reply.statusCode, `${where}: ${JSON.stringify(reply.data)}`).toBe(status);
  if (message !== undefined) expect(reply.data.message, where).toBe(message);
}

class SubmitEdit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly slot: number,
    readonly actor: 'maker' | 'admin',
    readonly variant: number,
    readonly onPeer: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.log.push(this.toString());
    const record = pickRecord(model, this.kind, this.slot)!;
    const fields = variantFields(this.kind, record, this.variant);
    const reply = await (this.onPeer ? peer : server).call(`${this.kind}/edit`, body(this.kind, fields, record.id), tokens[this.actor]);
    if (record.locked) {
      seen.locked += 1;
      return expectReply(real, reply, 409, `${typeName[this.kind]} is locked: a change request is already pending`);
    }
    expectReply(real, reply, 200, `${typeName[this.kind]} sent for approval`);
    record.locked = true;
    model.requests.push({ id: reply.data.changeRequestId, kind: this.kind, action: 'EDIT', recordId: record.id, maker: this.actor, fields, baseVersion: record.version, status: 'PENDING' });
  }
  toString = () => `edit(${this.kind}#${this.slot} by ${this.actor} v${this.variant})`;
}

class SubmitCreate implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly actor: 'maker' | 'admin',
    readonly variant: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.log.push(this.toString());
    counter += 1;
    const key = `${model.prefix}${counter}`;
    const base = this.kind === 'role' ? { role_name: `${key} Role` } : { username: `${key}_u` };
    const fields = variantFields(this.kind, { fields: base }, this.variant);
    const reply = await server.call(`${this.kind}/create`, body(this.kind, fields), tokens[this.actor]);
    expectReply(real, reply, 200, `${typeName[this.kind]} sent for approval`);
    model.requests.push({ id: reply.data.changeRequestId, kind: this.kind, action: 'CREATE', maker: this.actor, fields, status: 'PENDING' });
  }
  toString = () => `create(${this.kind} by ${this.actor} v${this.variant})`;
}

/** How often each kind of answer came up over all runs (the test asserts each did). */
const seen = { applied: 0, rejected: 0, stale: 0, ownRequest: 0, decided: 0, noPermission: 0, locked: 0 };

class Decide implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly slot: number,
    readonly actor: Actor,
    readonly approve: boolean,
    readonly onPeer: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    real.log.push(this.toString());
    const request = model.requests[this.slot % model.requests.length];
    const reply = await (this.onPeer ? peer : server).call(`${request.kind}/approve`, { changeRequestID: request.id, actionTaken: this.approve ? 'approve' : 'reject' }, tokens[this.actor]);
    if (this.actor === 'maker') {
      seen.noPermission += 1;
      return expectReply(real, reply, 403, `Forbidden: needs one of ${request.kind}-approve`);
    }
    if (request.status !== 'PENDING') {
      seen.decided += 1;
      return expectReply(real, reply, 409, 'Change request already decided');
    }
    if (request.maker === this.actor) {
      seen.ownRequest += 1;
      return expectReply(real, reply, 403, 'You cannot approve or reject your own change request');
    }
    const record = request.recordId === undefined ? undefined : model.records.find((r) => r.id === request.recordId && r.kind === request.kind)!;
    if (this.approve && record && record.version !== request.baseVersion) {
      seen.stale += 1;
      return expectReply(real, reply, 409, 'The record changed since this request was made');
    }
    expectReply(real, reply, 200, `${typeName[request.kind]} ${this.approve ? 'approved' : 'rejected'} successfully`);
    seen[this.approve ? 'applied' : 'rejected'] += 1;
    request.status = this.approve ? 'APPROVED' : 'REJECTED';
    if (record) {
      record.locked = false;
      if (this.approve) {
        record.fields = { ...request.fields };
        record.version += 1;
      }
    } else if (this.approve) {
      const created = await server.db.one<{ record_id: number }>('SELECT record_id FROM change_requests WHERE id = $1', [request.id]);
      model.records.push({ kind: request.kind, id: created!.record_id, fields: { ...request.fields }, version: 1, locked: false });
    }
  }
  toString = () => `${this.approve ? 'approve' : 'reject'}(request#${this.slot} by ${this.actor})`;
}

/** Someone edits the record directly in the database behind a pending request (its version moves). */
class EditBehind implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly slot: number,
    readonly variant: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.log.push(this.toString());
    const record = pickRecord(model, this.kind, this.slot)!;
    const fields = variantFields(this.kind, record, this.variant);
    if (this.kind === 'role') {
      await server.db.query('UPDATE roles SET user_level = $2, permissions = $3, version = version + 1 WHERE id = $1', [record.id, fields.user_level, fields.permissions]);
    } else {
      await server.db.query('UPDATE console_users SET name = $2, contact = $3, version = version + 1 WHERE id = $1', [record.id, fields.name, fields.contact]);
    }
    record.fields = fields;
    record.version += 1;
  }
  toString = () => `editBehind(${this.kind}#${this.slot} v${this.variant})`;
}

/** The database agrees with the model, and no decision was taken by the request's own maker. */
async function checkInvariants(model: Model, real: Real) {
  const where = `after ${real.log.join(' → ')}`;
  const roles = await server.db.query<{ id: number; role_name: string; user_level: number; permissions: string[]; locked: number; version: number }>(
    'SELECT id, role_name, user_level, permissions, locked, version FROM roles WHERE role_name LIKE $1 ORDER BY id',
    [`${model.prefix}%`],
  );
  const users = await server.db.query<{ id: number; username: string; name: string; contact: string; locked: number; version: number }>(
    'SELECT id, username, name, contact, locked, version FROM console_users WHERE username LIKE $1 ORDER BY id',
    [`${model.prefix}%`],
  );
  const actual = [
    ...roles.map((r) => ({ kind: 'role', id: r.id, fields: { role_name: r.role_name, user_level: r.user_level, permissions: r.permissions }, version: r.version, locked: r.locked === 1 })),
    ...users.map((u) => ({ kind: 'user', id: u.id, fields: { username: u.username, name: u.name, contact: u.contact }, version: u.version, locked: u.locked === 1 })),
  ];
  const expected = [...model.records].sort((a, b) => (a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1));
  expect(actual, where).toEqual(expected);

  const ids = model.requests.map((r) => r.id);
  if (ids.length === 0) return;
  const stored = await server.db.query<{ id: number; status: string; requested_by: string; decided_by: string | null }>(
    "SELECT id, status, requested_by, decided_by FROM change_requests WHERE id = ANY (string_to_array($1, ',')::int[]) ORDER BY id",
    [ids.join(',')],
  );
  expect(
    stored.map((s) => ({ id: s.id, status: s.status, maker: s.requested_by })),
    where,
  ).toEqual(model.requests.map((r) => ({ id: r.id, status: r.status, maker: r.maker })).sort((a, b) => a.id - b.id));
  for (const s of stored) if (s.status !== 'PENDING') expect(s.decided_by!.toLowerCase(), where).not.toBe(s.requested_by.toLowerCase());
  // every decision is in the activity log once, by its checker
  const logged = await server.db.query<{ type: string; username: string; description: string }>(
    "SELECT type, username, description FROM activity_logs WHERE type IN ('CHANGE_APPROVED', 'CHANGE_REJECTED') AND description ~ $1",
    [`\\(change request #(${ids.join('|')}) by `],
  );
  const decided = stored.filter((s) => s.status !== 'PENDING');
  expect(logged.length, where).toBe(decided.length);
  for (const s of decided) {
    const rows = logged.filter((l) => l.description.includes(`(change request #${s.id} by `));
    expect(
      rows.map((l) => [l.type, l.username]),
      where,
    ).toEqual([[s.status === 'APPROVED' ? 'CHANGE_APPROVED' : 'CHANGE_REJECTED', s.decided_by]]);
  }
}

const withInvariants = (cmd: fc.AsyncCommand<Model, Real>): fc.AsyncCommand<Model, Real> => ({
  check: (m) => cmd.check(m),
  async run(m, r) {
    await cmd.run(m, r);
    await checkInvariants(m, r);
  },
  toString: () => cmd.toString(),
});

describe('model-based: submit, approve, reject and edit behind the request', () => {
  it('keeps every record equal to the model; nothing changes without an approval by someone other than the maker', async () => {
    levelIds = (await server.db.query<{ id: number }>('SELECT id FROM user_levels ORDER BY level')).map((r) => r.id);
    const kind = fc.constantFrom<Kind>('role', 'user');
    const slot = fc.nat(5);
    const variant = fc.nat(11);
    const commands = [
      fc.tuple(kind, slot, fc.constantFrom<'maker' | 'admin'>('maker', 'admin'), variant, fc.boolean()).map(([k, s, a, v, p]) => withInvariants(new SubmitEdit(k, s, a, v, p))),
      fc.tuple(kind, fc.constantFrom<'maker' | 'admin'>('maker', 'admin'), variant).map(([k, a, v]) => withInvariants(new SubmitCreate(k, a, v))),
      fc.tuple(fc.nat(20), fc.constantFrom<Actor>('maker', 'checker', 'admin', 'checker', 'admin'), fc.boolean(), fc.boolean()).map(([s, a, ap, p]) => withInvariants(new Decide(s, a, ap, p))),
      fc.tuple(fc.nat(20), fc.constantFrom<Actor>('checker', 'admin'), fc.boolean()).map(([s, a, p]) => withInvariants(new Decide(s, a, true, p))),
      fc.tuple(kind, slot, variant).map(([k, s, v]) => withInvariants(new EditBehind(k, s, v))),
    ];
    let runs = 0;
    let commandsRun = 0;
    // one scripted run first, so that every kind of answer is certainly exercised
    const scripted = [
      new SubmitEdit('role', 0, 'admin', 1, false),
      new Decide(0, 'admin', true, false),
      new Decide(0, 'maker', true, true),
      new EditBehind('role', 0, 2),
      new SubmitEdit('role', 0, 'maker', 3, true),
      new Decide(0, 'checker', true, false),
      new Decide(0, 'checker', true, true),
      new SubmitCreate('user', 'maker', 4),
      new Decide(1, 'admin', false, false),
      new SubmitCreate('role', 'admin', 5),
      new Decide(2, 'checker', true, true),
      new SubmitEdit('role', 2, 'maker', 6, false),
      new Decide(3, 'admin', true, true),
      new Decide(1, 'checker', true, false),
    ].map(withInvariants);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), async (cmds) => {
        runs += 1;
        const setup = async () => {
          const prefix = `mb${Date.now().toString(36)}${runs}x`;
          const records: ModelRecord[] = [];
          for (let i = 0; i < 2; i++) {
            const roleName = `${prefix}${i} Seed Role`;
            records.push({ kind: 'role', id: await insertRole(roleName), fields: { role_name: roleName, user_level: levelIds[0], permissions: ['user-view'] }, version: 1, locked: false });
            const username = `${prefix}${i}_seed`;
            records.push({
              kind: 'user',
              id: await insertUser(username, 'Model Seed User', CONTACTS[0]),
              fields: { username, name: 'Model Seed User', contact: CONTACTS[0] },
              version: 1,
              locked: false,
            });
          }
          return { model: { prefix, records, requests: [] } as Model, real: { log: [] } as Real };
        };
        const list = [...cmds];
        commandsRun += list.length;
        await fc.asyncModelRun(setup, list);
      }),
      { numRuns: 60, examples: [[scripted]] },
    );
    expect(runs).toBeGreaterThanOrEqual(60);
    console.log(`model-based: ${runs} runs, ${commandsRun} commands; answers: ${JSON.stringify(seen)}`);
    for (const [answer, n] of Object.entries(seen)) expect(n, answer).toBeGreaterThan(0);
  });
});
