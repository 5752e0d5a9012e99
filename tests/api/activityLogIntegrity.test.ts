/**
 * The activity log as evidence, beyond activityLogs.test.ts (the report screens):
 * rows cannot be changed or removed by the application; every call that changes stored data writes
 * rows naming the caller, when and what (with before/after for requests, decisions and money
 * actions), found by walking every call of the contract; and passwords and tokens sent through every
 * call end up in neither the database nor the server's log output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCalls } from '../../src/api/index';
import { replaceTransactions } from '../../src/server/seed/transactions';
import { seedDemo } from '../../src/server/seed/demo';
import { startExtraApp, type ExtraApp } from './extraApp';
import { startServer, TEST_SCRYPT_N, type TestServer, useEnvironment } from './harness';
import { sampleBody } from './samples';

let server: TestServer;
const tokens: Record<string, string> = {};

useEnvironment({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });
beforeAll(async () => {
  server = await startServer();
  for (const u of ['admin', 'maker', 'checker', 'ishara_d']) tokens[u] = await server.login(u);
});
afterAll(async () => {
  await server?.close();
});

interface LogRow {
  id: number;
  level: string;
  type: string;
  username: string;
  description: string;
  before: unknown;
  after: unknown;
  created_at: Date;
}

/** Every activity-log row, each with a digest of its whole content. */
async function logFingerprint() {
  return server.db.query<{ id: number; digest: string }>('SELECT id, md5(a::text) AS digest FROM activity_logs a ORDER BY id');
}

async function maxLogId(): Promise<number> {
  return (await server.db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM activity_logs'))!.id;
}

describe('the application cannot change the activity log', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of activity-log rows, and the rows stay as they were', async () => {
    await server.login('auditor');
    const before = await logFingerprint();
    expect(before.length).toBeGreaterThan(0);
    await expect(server.db.query("UPDATE activity_logs SET description = 'tampered' WHERE id = $1", [before[0].id])).rejects.toThrow(/activity_logs is insert-only/);
    await expect(server.db.query('DELETE FROM activity_logs WHERE id = $1', [before[before.length - 1].id])).rejects.toThrow(/activity_logs is insert-only/);
    await expect(server.db.query('DELETE FROM activity_logs')).rejects.toThrow(/activity_logs is insert-only/);
    await expect(server.db.exec('TRUNCATE activity_logs')).rejects.toThrow(/activity_logs is insert-only/);
    await expect(server.db.exec('TRUNCATE activity_logs RESTART IDENTITY CASCADE')).rejects.toThrow(/activity_logs is insert-only/);
    // inside a transaction too: the statement fails and nothing of it stays
    await expect(server.db.tx(async (tx) => tx.query("UPDATE activity_logs SET username = 'someone_else'"))).rejects.toThrow(/insert-only/);
    expect(await logFingerprint()).toEqual(before);
  });
});

interface Walked {
  path: string;
  /** The caller (the username signing in, for auth/login). */
  as: string;
  status: number;
  /** Tables with a row inserted, changed or deleted by the call. */
  changed: string[];
  logs: LogRow[];
  t0: number;
  t1: number;
}

/** The calls that change stored data; the walk must make each of them succeed at least once. */
const MUTATIONS = [
  'auth/login',
  'auth/logout',
  'user/create',
  'user/edit',
  'user/change-password',
  'user/reset-password',
  'user/approve',
  'role/create',
  'role/edit',
  'role/approve',
  'kyc/create-request',
  'kyc/update-status',
  'report/generate-settlement-report',
  'Transaction/ceft/void',
  'Transaction/ceft/refund',
  'Transaction/ceft/manualFundTransfer',
  'Transaction/ceft/hold',
  'IPGProvider/disable',
  'IPGProvider/approve',
  'IPGProvider/currency/save',
  'IPGProvider/currency/approve',
  'bank/create',
  'bank/edit',
  'bank/approve',
  'advertisement/create',
  'advertisement/edit',
  'advertisement/approve',
  'AppUser/disable',
  'AppUser/hold',
  'AppUser/approve',
  'appVersion/create',
  'appVersion/approve',
];

/** What the activity log must say about a successful call: the type, and whether before/after are filled. */
function expectedLog(path: string, description: string): { type: RegExp; before: boolean; after: boolean } {
  if (path === 'auth/login') return { type: /^LOGIN$/, before: false, after: false };
  if (path === 'auth/logout') return { type: /^LOGOUT$/, before: false, after: false };
  // a refresh replaces the session's current token (console_sessions)
  if (path === 'auth/token') return { type: /^TOKEN_REFRESHED$/, before: false, after: false };
  if (path === 'user/change-password') return { type: /^PASSWORD_CHANGED$/, before: false, after: false };
  if (path === 'user/reset-password') return { type: /^PASSWORD_RESET$/, before: false, after: false };
  if (path.startsWith('kyc/')) return { type: /^KYC_(APPROVED|REJECTED)$/, before: false, after: true };
  if (path.startsWith('report/generate-')) return { type: /^SETTLEMENT_GENERATED$/, before: false, after: true };
  if (path === 'report/log-export') return { type: /^EXPORT$/, before: false, after: true };
  // server export jobs (the finished export itself is logged by the worker as EXPORT)
  if (path === 'export/start-job') return { type: /^EXPORT_REQUESTED$/, before: false, after: true };
  if (path === 'export/cancel-job') return { type: /^EXPORT_CANCELLED$/, before: false, after: true };
  if (path === 'export/download-link') return { type: /^EXPORT_DOWNLOAD$/, before: false, after: true };
  if (path === 'report/verify-activity-log') return { type: /^ACTIVITY_LOG_VERIFIED$/, before: false, after: false };
  if (path.startsWith('Transaction/ceft/')) return { type: /^TRANSACTION_(VOID|REFUND|MANUAL_FUND_TRANSFER|HOLD)$/, before: true, after: true };
  // withdrawal by the maker, decisions from the approvals inbox (one, or several with one summary entry)
  if (path === 'changeRequest/withdraw') return { type: /^CHANGE_WITHDRAWN$/, before: !/\(CREATE of /.test(description), after: true };
  if (path === 'changeRequest/decide-many') return { type: /^CHANGE_BULK_DECISION$/, before: false, after: false };
  if (path.endsWith('/approve') || path === 'changeRequest/decide') return { type: /^CHANGE_(APPROVED|REJECTED)$/, before: !/ CREATE of /.test(description), after: true };
  return { type: /^CHANGE_REQUEST$/, before: !/Requested CREATE of /.test(description), after: true };
}

describe('every change is in the activity log', () => {
  const walked: Walked[] = [];

  beforeAll(async () => {
    // a row trigger on every table but the log notes which tables each call changes
    const tables = (
      await server.db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT IN ('activity_logs', 'activity_log_chain') AND NOT (SELECT relispartition FROM pg_class WHERE oid = to_regclass(table_name::text))",
      )
    ).map((r) => r.table_name);
    await server.db.exec(`CREATE TABLE walk_changes (table_name text NOT NULL);
      CREATE FUNCTION walk_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO walk_changes VALUES (coalesce((SELECT p.relname FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent WHERE i.inhrelid = TG_RELID), TG_TABLE_NAME)); RETURN NULL; END $$;`);
    for (const t of tables) {
      await server.db.exec(`CREATE TRIGGER walk_${t}_change AFTER INSERT OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION walk_note_change();
        CREATE TRIGGER walk_${t}_update AFTER UPDATE ON ${t} FOR EACH ROW WHEN (OLD::text IS DISTINCT FROM NEW::text) EXECUTE FUNCTION walk_note_change();`);
    }
  });
  afterAll(async () => {
    await server.db.exec('DROP TABLE walk_changes; DROP FUNCTION walk_note_change() CASCADE;');
  });

  async function walk(path: string, as: string, body: unknown, token?: string): Promise<Walked> {
    await server.db.exec('DELETE FROM walk_changes');
    const since = await maxLogId();
    const t0 = server.now().getTime();
    const reply = await server.call(path, body, token);
    const t1 = server.now().getTime();
    const changed = (await server.db.query<{ table_name: string }>('SELECT DISTINCT table_name FROM walk_changes ORDER BY 1')).map((r) => r.table_name);
    const logs = await server.db.query<LogRow>('SELECT * FROM activity_logs WHERE id > $1 ORDER BY id', [since]);
    const step = { path, as, status: reply.statusCode, changed, logs, t0, t1 };
    walked.push(step);
    return step;
  }

  /** A send-money transaction in a state, not used by the walk yet, made ready with `prepare` (a refund request, a try count). */
  const usedRows = new Set<number>();
  async function ceftRow(where: string, prepare?: string): Promise<{ id: number; trace: string }> {
    const rows = await server.db.query<{ id: number; trace: string }>(`SELECT id, trace FROM ceft_transactions WHERE ${where} ORDER BY id DESC LIMIT 50`);
    const row = rows.find((r) => !usedRows.has(r.id));
    if (!row) throw new Error(`no transaction where ${where}`);
    usedRows.add(row.id);
    if (prepare) await server.db.query(`UPDATE ceft_transactions SET ${prepare} WHERE id = $1`, [row.id]);
    return row;
  }

  it('walks every call of the contract as a user allowed to make it', async () => {
    const open = `card_payment_status = 'SUCCESS' AND ceft_payment_status = 'FAILED' AND ipg_void_status IS NULL AND ipg_refund_status IS NULL`;
    const holdable = `card_payment_status = 'SUCCESS' AND ceft_payment_status IN ('PENDING', 'FAILED') AND coalesce(ipg_void_status, '') <> 'SUCCESS' AND coalesce(ipg_refund_status, '') <> 'SUCCESS' AND ceft_try_count < 100`;
    const kyc = (await server.call('kyc/get-all', { kycStatus: 'PENDING', fetchCount: 99999999 }, tokens.checker)).data.kycList as {
      kycId: number;
      submittedData: unknown;
      currentData: Record<string, object>;
    }[];
    const approveAll = (data: Record<string, object>) => Object.fromEntries(Object.entries(data).map(([k, f]) => [k, { ...f, approved: true, reason: '' }]));
    const first = kyc.find((r) => r.submittedData === null)!;
    const again = kyc.find((r) => r.submittedData !== null)!;
    const currencies = (await server.call('IPGProvider/currency/list', { provider_bank_code: '7056' }, tokens.ishara_d)).data.currencies as {
      currency_code: string;
      transaction_rate: number;
      settlement_rate: number;
      disabled: number;
    }[];
    const mahesh = await server.login('mahesh_s');

    const plan: Record<string, () => Promise<{ as: string; body: unknown; token?: string }>> = {
      'auth/login': async () => ({ as: 'admin', body: { username: 'admin', password: 'Demo@Pass1' } }),
      // an account without privilege: a checker's password would be a change request (privilege.test.ts)
      'user/change-password': async () => ({ as: 'admin', body: { username: 'sanduni_k', password: 'Fresh@Pass12' } }),
      'user/reset-password': async () => ({ as: 'mahesh_s', token: mahesh, body: { username: 'mahesh_s', old_password: 'Demo@Pass1', new_password: 'Fresh@Pass12' } }),
      'role/edit': async () => ({ as: 'admin', body: { ...(sampleBody('role/edit') as object), permissions: ['auditor-report-view', 'user-view'] } }),
      'kyc/create-request': async () => ({ as: 'checker', body: { userId: first.kycId, kycData: approveAll(first.currentData) } }),
      'kyc/update-status': async () => ({ as: 'checker', body: { kycId: again.kycId, kycData: approveAll(again.currentData) } }),
      'Transaction/ceft/void': async () => ({ as: 'maker', body: { transactionID: (await ceftRow(open, 'refund_requested = true, card_payment_time = now()')).id } }),
      'Transaction/ceft/refund': async () => ({ as: 'maker', body: { transactionID: (await ceftRow(open, "refund_requested = true, card_payment_time = now() - interval '3 days'")).id } }),
      'Transaction/ceft/manualFundTransfer': async () => ({ as: 'maker', body: { trace: (await ceftRow(`${open} AND ceft_try_count < 100`, 'ceft_try_count = 120')).trace } }),
      'Transaction/ceft/hold': async () => ({ as: 'maker', body: { id: (await ceftRow(holdable)).id, description: 'Checked by the activity-log walk' } }),
      'IPGProvider/currency/save': async () => ({
        as: 'ishara_d',
        body: {
          provider_bank_code: '7056',
          currencies: currencies.map((c) => ({
            disabled: c.disabled,
            provider_bank_code: '7056',
            currency_code: c.currency_code,
            transaction_rate: c.currency_code === 'USD' ? 301.5 : c.transaction_rate,
            settlement_rate: c.settlement_rate,
          })),
        },
      }),
      'AppUser/hold': async () => ({ as: 'admin', body: { ...(sampleBody('AppUser/hold') as object), id: 2 } }),
    };

    // every call but the decisions and sign-out, in contract order
    for (const call of allCalls) {
      if (call.path.endsWith('/approve') || call.path === 'auth/logout') continue;
      const step = await (plan[call.path] ?? (async () => ({ as: 'admin', body: sampleBody(call.path) })))();
      await walk(call.path, step.as, step.body, call.access === 'public' ? undefined : (step.token ?? tokens[step.as]));
    }
    // the decisions: each pending request by another user, approved by the checker or else the administrator
    for (const call of allCalls.filter((c) => c.path.endsWith('/approve'))) {
      const pending = await server.db.query<{ id: number; requested_by: string }>("SELECT id, requested_by FROM change_requests WHERE status = 'PENDING' ORDER BY id");
      let done = false;
      for (const as of ['checker', 'admin']) {
        for (const r of pending.filter((p) => p.requested_by !== as)) {
          if (done) break;
          const step = await walk(call.path, as, { changeRequestID: r.id, actionTaken: 'approve' }, tokens[as]);
          done = step.status === 200;
        }
      }
    }
    // a rejection, a failed sign-in and a sign-out
    const rejected = await server.call('user/create', { ...(sampleBody('user/create') as object), username: 'walk_rejected', email: 'walk.rejected@remit.lk' }, tokens.admin);
    await walk('user/approve', 'checker', { changeRequestID: rejected.data.changeRequestId, actionTaken: 'reject' }, tokens.checker);
    await walk('auth/login', 'admin', { username: 'admin', password: 'Wrong@Pass99' });
    await walk('auth/logout', 'tharindu_r', {}, await server.login('tharindu_r'));

    const succeeded = new Set(walked.filter((w) => w.status === 200 && w.changed.length > 0).map((w) => w.path));
    expect(MUTATIONS.filter((p) => !succeeded.has(p))).toEqual([]);
    expect(walked.some((w) => w.path === 'user/approve' && w.logs.some((l) => l.type === 'CHANGE_REJECTED'))).toBe(true);
  });

  it('logs every call that changed stored data, as its caller, at the time of the call', () => {
    const silent = walked.filter((w) => w.changed.length > 0 && w.logs.length === 0).map((w) => `${w.path} changed ${w.changed.join(', ')}`);
    expect(silent).toEqual([]);
    for (const w of walked.filter((x) => x.changed.length > 0)) {
      for (const l of w.logs) {
        expect(l.username.toLowerCase(), `${w.path}: ${l.type}`).toBe(w.as);
        expect(l.created_at.getTime(), `${w.path}: ${l.type}`).toBeGreaterThanOrEqual(w.t0);
        expect(l.created_at.getTime(), `${w.path}: ${l.type}`).toBeLessThanOrEqual(w.t1);
        expect(l.description, `${w.path}: ${l.type}`).not.toBe('');
      }
    }
  });

  it('says what happened: sign-ins and failures, requests and decisions with before and after, money actions with the state before and after, exports', () => {
    expect(walked.find((w) => w.path === 'auth/login' && w.status === 401)?.logs.map((l) => [l.type, l.level])).toEqual([['LOGIN_FAILED', 'WARN']]);
    expect(walked.find((w) => w.path === 'report/log-export')?.logs.map((l) => l.type)).toEqual(['EXPORT']);
    for (const w of walked.filter((x) => x.status === 200 && (x.changed.length > 0 || x.path === 'report/log-export'))) {
      const matching = w.logs.filter((l) => expectedLog(w.path, l.description).type.test(l.type));
      expect(matching.length, `${w.path}: ${w.logs.map((l) => l.type).join(', ')}`).toBe(1);
      const [log] = matching;
      const expected = expectedLog(w.path, log.description);
      expect(log.before !== null, `${w.path} ${log.type} before: ${log.description}`).toBe(expected.before);
      expect(log.after !== null, `${w.path} ${log.type} after: ${log.description}`).toBe(expected.after);
      if (w.path.startsWith('Transaction/ceft/')) expect(log.before).not.toEqual(log.after);
    }
  });
});

describe('no password or token in the database or the server log', () => {
  /** Valid passwords (the password rule), all carrying the mark searched for. */
  const PASSWORD_MARK = 'Snt1nel';
  const PASSWORDS = { wrong: 'Kx7#Snt1nelWr', created: 'Kx7#Snt1nelNw', changed: 'Kx7#Snt1nelCh', reset: 'Kx7#Snt1nelRs' };
  const SENTINEL_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJTbnQxbmVsVG9rZW4ifQ.U250MW5lbFNpZ25hdHVyZVZhbHVlMDAx';
  /** Put in every string field of every call: search fields may echo it into the database, but no log may. */
  const FIELD_SENTINEL = 'Fld5ntnlQ';
  const SCRYPT = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/;

  const lines: string[] = [];
  let app: ExtraApp;
  const issued: string[] = [];

  beforeAll(async () => {
    app = await startExtraApp(server, { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(username: string, password: string): Promise<number> {
    const reply = await app.post('auth/login', { username, password });
    if (reply.status === 200) issued.push(reply.json.data.token);
    return reply.status;
  }

  /** The string leaves of a body, as paths. */
  function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
    if (typeof value === 'string') return [path];
    if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...path, i]));
    if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
    return [];
  }
  function withLeaf(body: unknown, path: (string | number)[], text: string): unknown {
    const copy = structuredClone(body) as Record<string | number, unknown>;
    let at = copy;
    for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
    at[path[path.length - 1]] = text;
    return copy;
  }

  it('sends sentinel passwords through sign-in, user creation, password change and reset, a sentinel token through every call, and a sentinel into every string field', async () => {
    expect(await signIn('admin', 'Demo@Pass1')).toBe(200);
    expect(await signIn('checker', 'Demo@Pass1')).toBe(200);
    const [admin, checker] = issued;
    expect(await signIn('maker', PASSWORDS.wrong)).toBe(401);

    const created = await app.post(
      'user/create',
      { ...(sampleBody('user/create') as object), username: 'sentinel_user', email: 'sentinel.user@remit.lk', password: PASSWORDS.created },
      { token: admin },
    );
    expect(created.status).toBe(200);
    expect((await app.post('user/approve', { changeRequestID: created.json.data.changeRequestId, actionTaken: 'approve' }, { token: checker })).status).toBe(200);
    expect(await signIn('sentinel_user', PASSWORDS.wrong)).toBe(401);
    expect(await signIn('sentinel_user', PASSWORDS.created)).toBe(200);

    // sentinel_user holds the Maker role (user-password-reset): its reset is a change request the checker approves
    const changed = await app.post('user/change-password', { username: 'sentinel_user', password: PASSWORDS.changed }, { token: admin });
    expect(changed.status).toBe(200);
    expect((await app.post('user/approve', { changeRequestID: changed.json.data.changeRequestId, actionTaken: 'approve' }, { token: checker })).status).toBe(200);
    expect(await signIn('sentinel_user', PASSWORDS.changed)).toBe(200);
    const own = issued[issued.length - 1];
    expect((await app.post('user/reset-password', { username: 'sentinel_user', old_password: PASSWORDS.wrong, new_password: PASSWORDS.reset }, { token: own })).status).toBe(406);
    const reset = await app.post('user/reset-password', { username: 'sentinel_user', old_password: PASSWORDS.changed, new_password: PASSWORDS.reset }, { token: own });
    expect(reset.status).toBe(200);
    issued.push(reset.json.data.token);
    expect(await signIn('sentinel_user', PASSWORDS.reset)).toBe(200);

    // a sentinel token on every call, with a sentinel in every string field of the body
    for (const call of allCalls) {
      const body = stringLeaves(sampleBody(call.path)).reduce((b, path) => withLeaf(b, path, FIELD_SENTINEL), sampleBody(call.path));
      const reply = await app.post(call.path, body, { token: SENTINEL_TOKEN });
      expect(reply.status, call.path).toBe(401);
    }
    // as the administrator, the sentinel in one string field at a time, so that the others stay valid
    let sent = 0;
    for (const call of allCalls) {
      if (call.path === 'auth/logout') continue;
      const sample = sampleBody(call.path);
      for (const path of stringLeaves(sample)) {
        const reply = await app.post(call.path, withLeaf(sample, path, FIELD_SENTINEL), { token: admin });
        expect(reply.status, `${call.path} ${path.join('.')}`).toBeLessThan(500);
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(100);
  });

  it('finds no password and no token in any text or JSON column of any table; passwords are stored only as scrypt hashes', async () => {
    const needles = [PASSWORD_MARK, 'Demo@Pass1', SENTINEL_TOKEN, ...issued, ...issued.map((t) => t.split('.')[2])];
    const columns = await server.db.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
        ORDER BY 1, 2`,
    );
    expect(columns.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const rows = await server.db.query<{ needle: string }>(
        `SELECT DISTINCT n AS needle FROM "${table_name}" t, jsonb_array_elements_text($1::jsonb) n WHERE strpos(t."${column_name}"::text, n) > 0`,
        [JSON.stringify(needles)],
      );
      for (const r of rows) found.push(`${table_name}.${column_name}: ${r.needle.slice(0, 20)}`);
    }
    expect(found).toEqual([]);

    // the sentinel user's password went in, as a hash only
    const hashes = await server.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name ILIKE '%password%' AND data_type = 'text'`,
    );
    expect(hashes.map((h) => `${h.table_name}.${h.column_name}`)).toContain('console_users.password_hash');
    for (const h of hashes) {
      const values = await server.db.query<{ v: string }>(`SELECT "${h.column_name}" AS v FROM "${h.table_name}" WHERE "${h.column_name}" IS NOT NULL`);
      for (const { v } of values) expect(v, `${h.table_name}.${h.column_name}`).toMatch(SCRYPT);
    }
    const requested = await server.db.query<{ payload: Record<string, unknown> }>("SELECT payload FROM change_requests WHERE entity_type = 'User' AND action = 'CREATE'");
    expect(requested.length).toBeGreaterThan(0);
    for (const { payload } of requested) {
      expect(Object.keys(payload)).not.toContain('password');
      expect(payload.password_hash).toMatch(SCRYPT);
    }
    const stored = await server.db.one<{ password_hash: string }>("SELECT password_hash FROM console_users WHERE username = 'sentinel_user'");
    expect(stored!.password_hash).toMatch(SCRYPT);
  });

  it('writes no password, token or request field into the server log', () => {
    const log = lines.join('');
    expect(lines.filter((l) => l.includes('"incoming request"')).length).toBeGreaterThan(100);
    expect(log).toContain('"url":"/api/auth/login"');
    for (const needle of [PASSWORD_MARK, 'Demo@Pass1', SENTINEL_TOKEN, FIELD_SENTINEL, 'Bearer', ...issued, ...issued.map((t) => t.split('.')[2])]) {
      expect(log.includes(needle), needle.slice(0, 20)).toBe(false);
    }
  });
});

describe('seeding and loading transactions leave the activity log alone', () => {
  it('keeps every row through a second demo seed and `npm run seed -- --transactions N`', async () => {
    const before = await logFingerprint();
    expect(before.length).toBeGreaterThan(100);
    expect(await seedDemo(server.db, { scryptN: TEST_SCRYPT_N })).toBe(false);
    await replaceTransactions(server.db, { now: new Date(), count: 300 });
    const after = await logFingerprint();
    expect(after.slice(0, before.length)).toEqual(before);
  });
});
