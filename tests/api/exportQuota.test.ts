/**
 * Server export files: the per-user quota (EXPORT_QUOTA_FILES, EXPORT_QUOTA_BYTES) and download links
 * that follow what happened since they were handed out (the list's permission withdrawn by an approved
 * role edit, another provider's rows, the session that asked for the link signed out or the account
 * disabled), through real HTTP as the users would try, on PGlite and PostgreSQL; and the lists other
 * than the transaction lists read for an export batch by batch from the database (a cursor, or pages
 * after the last row), never their whole reply at once. The app's own export poller is off here: each
 * test runs the worker code when it wants the queue written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { roleId, startServer, type TestServer } from './harness';
import { drainQueue, type WorkerDeps } from '../../src/server/exportJobs/worker';
import { DEFAULT_EXPORT_SETTINGS, type ExportSettings } from '../../src/server/exportJobs/settings';
import { authServices } from '../../src/server/app';
import type { Db, ReadSnapshot } from '../../src/server/db/db';
import { makeCtx } from '../../src/server/http/handle';
import { loadSessionUser } from '../../src/server/auth/sessionUser';
import { exportableListOf, listBodyOf, openSource } from '../../src/server/exportJobs/sources';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { activityLogsScreen } from '../../screens/activityLogs';
import { appUsersScreen } from '../../screens/appUsers';

const CEFT = 'Transaction/get-ceftTransaction';
/** Tests that run many export jobs, each with a thread of its own: time enough on a loaded 2-core machine. */
const MANY_JOBS_MS = 300_000;
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
const filters = (fetchCount: number) => ({ from_date: `${day(-30)}T00:00:01`, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount });

let server: TestServer;
const tokens: Record<string, string> = {};

function deps(settings: Partial<ExportSettings> = {}): WorkerDeps {
  return { db: server.db, clock: server.now, businessTimeZone: zone, settings: { ...DEFAULT_EXPORT_SETTINGS, ...settings }, auth: authServices({ db: server.db, secret: server.secret }, server.now) };
}

/** Starts an export of `fetchCount` send-money rows as .csv and runs the queue: the job's id. */
async function exportDone(token: string, fetchCount: number, settings: Partial<ExportSettings> = {}): Promise<number> {
  const job = await server.call('export/start-job', { call: CEFT, body: filters(fetchCount), format: 'csv' }, token);
  expect(job.statusCode, JSON.stringify(job.data)).toBe(200);
  await drainQueue(deps(settings));
  return job.data.id as number;
}

async function state(jobId: number): Promise<{ state: string; message: string | null; file_bytes: number | null }> {
  const row = await server.db.one<{ state: string; message: string | null; file_bytes: number | null }>('SELECT state, message, file_bytes FROM export_jobs WHERE id = $1', [jobId]);
  return { ...row!, file_bytes: row!.file_bytes === null ? null : Number(row!.file_bytes) };
}

async function chunksOf(jobId: number): Promise<number> {
  return Number((await server.db.one<{ n: number }>('SELECT count(*) AS n FROM export_job_chunks WHERE job_id = $1', [jobId]))!.n);
}

/** The message of a refused download (the reply's envelope: { statusCode, data: { message } }). */
async function messageOf(res: Response): Promise<string> {
  return ((await res.json()) as { data: { message: string } }).data.message;
}

async function link(token: string, jobId: number) {
  return server.call('export/download-link', { jobId }, token);
}

beforeAll(async () => {
  server = await startServer({ businessTimeZone: zone });
  for (const u of ['admin', 'maker', 'checker', 'kasun_herath', 'ruvini_a']) tokens[u] = await server.login(u);
});
afterAll(async () => {
  await server?.close();
});

describe('the file quota (EXPORT_QUOTA_FILES, default 5)', () => {
  it(
    'keeps the 5 newest of 11 exports of one user; the older files answer 410 naming the limit; another user keeps theirs',
    async () => {
      const othersJob = await exportDone(tokens.checker!, 5);
      const ids: number[] = [];
      for (let i = 0; i < 11; i++) ids.push(await exportDone(tokens.maker!, 5));
      const states = await Promise.all(ids.map(async (id) => (await state(id)).state));
      expect(states).toEqual([...Array<string>(6).fill('expired'), ...Array<string>(5).fill('done')]);
      for (const id of ids.slice(0, 6)) expect(await chunksOf(id)).toBe(0);
      const gone = await link(tokens.maker!, ids[0]!);
      expect(gone.statusCode).toBe(410);
      expect(gone.data.message).toMatch(/deleted to make room for your newer export .*at most 5 export files \(EXPORT_QUOTA_FILES\)/);
      for (const id of ids.slice(6)) expect((await link(tokens.maker!, id)).statusCode).toBe(200);
      // the other user's file is not the maker's quota's business
      const other = await link(tokens.checker!, othersJob);
      expect(other.statusCode).toBe(200);
      expect((await server.raw(other.data.url)).status).toBe(200);
    },
    MANY_JOBS_MS,
  );

  it(
    'deletes a file already downloaded before an older one not yet downloaded, and a link handed out before answers 410',
    async () => {
      const a = await exportDone(tokens.admin!, 3, { quotaFiles: 2 });
      const b = await exportDone(tokens.admin!, 3, { quotaFiles: 2 });
      const linkB = await link(tokens.admin!, b);
      expect(linkB.statusCode).toBe(200);
      const c = await exportDone(tokens.admin!, 3, { quotaFiles: 2 });
      expect([(await state(a)).state, (await state(b)).state, (await state(c)).state]).toEqual(['done', 'expired', 'done']);
      const res = await server.raw(linkB.data.url);
      expect(res.status).toBe(410);
      expect(await messageOf(res)).toMatch(/EXPORT_QUOTA_FILES/);
    },
    MANY_JOBS_MS,
  );
});

describe('the byte quota (EXPORT_QUOTA_BYTES)', () => {
  it(
    'deletes older files to make room, and fails a file that alone passes it, with a message naming the limit and nothing kept',
    async () => {
      const token = tokens.ruvini_a!;
      const first = await exportDone(token, 20);
      const size = (await state(first)).file_bytes!;
      expect(size).toBeGreaterThan(0);
      const quotaBytes = Math.floor(size * 2.5);
      const second = await exportDone(token, 20, { quotaBytes });
      expect((await state(first)).state).toBe('done');
      const third = await exportDone(token, 20, { quotaBytes });
      expect([(await state(first)).state, (await state(second)).state, (await state(third)).state]).toEqual(['expired', 'done', 'done']);
      expect((await link(token, first)).data.message).toMatch(/EXPORT_QUOTA_BYTES/);

      const tooBig = await exportDone(token, 99_999_999, { quotaBytes });
      const failed = await state(tooBig);
      expect(failed.state).toBe('failed');
      expect(failed.message).toBe(
        `The file passed the export quota of ${quotaBytes.toLocaleString('en-US')} bytes per user (EXPORT_QUOTA_BYTES) before it was finished: export fewer rows or columns, or as Excel (.xlsx is compressed)`,
      );
      expect(await chunksOf(tooBig)).toBe(0);
      const status = await server.call('export/job-status', { jobId: tooBig }, token);
      expect(status.data.message).toMatch(/EXPORT_QUOTA_BYTES/);
      const kept = await server.db.one<{ n: number; bytes: number }>(
        `SELECT count(*) AS n, coalesce(sum(length(c.bytes)), 0) AS bytes FROM export_job_chunks c JOIN export_jobs j ON j.id = c.job_id WHERE j.user_id = (SELECT id FROM console_users WHERE username = 'ruvini_a')`,
      );
      expect(Number(kept!.bytes)).toBeLessThanOrEqual(quotaBytes);
    },
    MANY_JOBS_MS,
  );
});

describe('download links follow what happened since', () => {
  it("stop working once the role lost the list's view permission through an approved role edit; no new link is given", async () => {
    const token = tokens.kasun_herath!;
    const job = await exportDone(token, 5);
    const before = await link(token, job);
    expect(before.statusCode).toBe(200);
    expect((await server.raw(before.data.url)).status).toBe(200);

    const id = await roleId(server.db, 'IPG Bank Officer');
    const { role } = (await server.call('role/get-for-edit', { id }, tokens.maker)).data;
    const edit = await server.call(
      'role/edit',
      { id, role_name: role.role_name, user_type: role.user_type, user_level: role.user_level, permissions: role.permissions.filter((p: string) => p !== 'send-money-report-view'), disabled: 0 },
      tokens.maker,
    );
    expect(edit.statusCode, JSON.stringify(edit.data)).toBe(200);
    const decided = await server.call('changeRequest/decide', { changeRequestID: edit.data.changeRequestId, actionTaken: 'approve' }, tokens.checker);
    expect(decided.statusCode, JSON.stringify(decided.data)).toBe(200);

    const res = await server.raw(before.data.url);
    expect(res.status).toBe(403);
    expect(await messageOf(res)).toMatch(/send-money-report-view/);
    const again = await link(token, job);
    expect(again.statusCode).toBe(403);
    expect(again.data.message).toMatch(/send-money-report-view/);
  });

  it("refuse an IPG bank user a file of another provider's rows: moved to another provider, their own earlier file is refused", async () => {
    const token = tokens.ruvini_a!;
    const job = await exportDone(token, 5);
    const before = await link(token, job);
    expect(before.statusCode).toBe(200);
    const own = (await server.db.one<{ branch_code: string }>(`SELECT branch_code FROM console_users WHERE username = 'ruvini_a'`))!.branch_code;
    const other = (await server.db.one<{ code: string }>('SELECT provider_bank_code AS code FROM ipg_providers WHERE provider_bank_code <> $1 ORDER BY id LIMIT 1', [own]))!.code;
    // what an approved user edit of her branch leaves in the database
    await server.db.query(`UPDATE console_users SET branch_code = $1 WHERE username = 'ruvini_a'`, [other]);
    try {
      const res = await server.raw(before.data.url);
      expect(res.status).toBe(403);
      expect(await messageOf(res)).toBe(`Forbidden: this file holds provider ${own}'s rows, and you may see provider ${other}'s rows only`);
      const again = await link(token, job);
      expect(again.statusCode).toBe(403);
      expect(again.data.message).toMatch(/provider/);
      // an administrator still may
      const admins = await link(tokens.admin!, job);
      expect(admins.statusCode).toBe(200);
      expect((await server.raw(admins.data.url)).status).toBe(200);
    } finally {
      await server.db.query(`UPDATE console_users SET branch_code = $1 WHERE username = 'ruvini_a'`, [own]);
    }
  });

  it("stop working when the session that asked for them signs out (401), while another session's link of the same user works", async () => {
    const a = await server.login('maker');
    const b = await server.login('maker');
    const jobId = await exportDone(a, 3);
    const linkA = await link(a, jobId);
    const linkB = await link(b, jobId);
    expect(linkA.statusCode).toBe(200);
    expect(linkB.statusCode).toBe(200);
    expect((await server.call('auth/logout', undefined, a)).statusCode).toBe(200);
    const res = await server.raw(linkA.data.url);
    expect(res.status).toBe(401);
    expect(await messageOf(res)).toMatch(/^Unauthorized: the session this download link was asked for has ended/);
    expect((await server.raw(linkB.data.url)).status).toBe(200);
  });

  it('stop working once the account is disabled, and a link of one session cannot be moved to another (its signature covers the session)', async () => {
    const token = await server.login('checker');
    const other = await server.login('checker');
    const job = await exportDone(token, 3);
    const given = await link(token, job);
    expect(given.statusCode).toBe(200);
    const otherLink = await link(other, job);
    const url = new URL(given.data.url, server.url);
    url.searchParams.set('sid', new URL(otherLink.data.url, server.url).searchParams.get('sid')!);
    expect((await server.raw(url.pathname + url.search)).status).toBe(403);
    await server.db.query(`UPDATE console_users SET disabled = 1 WHERE username = 'checker'`);
    try {
      expect((await server.raw(given.data.url)).status).toBe(401);
    } finally {
      await server.db.query(`UPDATE console_users SET disabled = 0 WHERE username = 'checker'`);
    }
  });
});

/** The Db, counting the most rows any one statement (or one FETCH of a cursor) handed back. */
function counting(db: Db): { db: Db; most: () => number } {
  let most = 0;
  const seen = <T>(rows: T[]) => {
    most = Math.max(most, rows.length);
    return rows;
  };
  const snapshot = async (): Promise<ReadSnapshot> => {
    const s = await db.readSnapshot!();
    return {
      ...s,
      one: (sql, params) => s.one(sql, params),
      async *batches<T>(sql: string, params: readonly unknown[], batchRows: number) {
        for await (const rows of s.batches<T>(sql, params, batchRows)) yield seen(rows);
      },
      release: () => s.release(),
    };
  };
  const wrapped: Db = {
    ...db,
    query: async <T>(sql: string, params?: readonly unknown[]) => seen(await db.query<T>(sql, params)),
    one: (sql, params) => db.one(sql, params),
    ...(db.readSnapshot ? { readSnapshot: snapshot } : {}),
  };
  return { db: wrapped, most: () => most };
}

describe('the lists other than the transaction lists, exported', () => {
  const monthAgo = day(-30);
  const cases = [
    { call: 'report/get-activity-report', body: { from: `${monthAgo}T00:00:00`, to: `${day(0)}T23:59:59`, fetchCount: 99_999_999, username: '' }, rows: 'logs', screen: activityLogsScreen },
    { call: 'AppUser/list', body: { data: '', countryCode: '', fetchCount: 99_999_999 }, rows: 'appUsers', screen: appUsersScreen },
  ] as const;
  for (const c of cases) {
    it(`${c.call}: read in batches of EXPORT_BATCH_ROWS (here 7), never a statement of more rows, the same rows in the same order as the list`, async () => {
      const reply = await server.call(c.call, c.body, tokens.admin);
      expect(reply.statusCode).toBe(200);
      const listed = reply.data[c.rows] as Record<string, unknown>[];
      expect(listed.length).toBeGreaterThan(20);
      const keys = exportFieldsOf(c.screen).map((f) => f.dataKey);

      const adminId = (await server.db.one<{ id: number; session_version: number }>(`SELECT id, session_version FROM console_users WHERE username = 'admin'`))!;
      const user = (await loadSessionUser(server.db, adminId.id, adminId.session_version))!;
      const count = counting(server.db);
      const ctx = makeCtx(count.db, user, server.now, authServices({ db: server.db, secret: server.secret }, server.now), zone, undefined, undefined, count.db);
      const list = exportableListOf(c.call);
      const source = await openSource(list, listBodyOf(list, c.body), ctx);
      const batches: number[] = [];
      const read: unknown[][] = [];
      try {
        for await (const batch of source.batches(7)) {
          batches.push(batch.rows);
          if ('texts' in batch) for (const t of batch.texts) read.push(JSON.parse(t) as unknown[]);
        }
      } finally {
        await source.close();
      }
      // rows the list call wrote meanwhile (the activity log's own lines) come after: compare the list's
      expect(source.total).toBeGreaterThanOrEqual(listed.length);
      expect(batches.every((n) => n === 7) || batches.slice(0, -1).every((n) => n === 7)).toBe(true);
      expect(batches.length).toBe(Math.ceil(source.total / 7));
      expect(count.most()).toBeLessThanOrEqual(7);
      const expected = listed.map((r) => keys.map((k) => r[k] ?? null));
      const ids = new Set(listed.map((r) => r.id));
      const idAt = keys.indexOf('id');
      const readOfListed = idAt >= 0 ? read.filter((r) => ids.has(r[idAt])) : read;
      expect(readOfListed).toEqual(expected);
    });
  }
});
