/**
 * Server export jobs of the lists and reports other than the transaction lists ("every list
 * and report"): users, app users, the two activity logs, the two settlement reports and segregation of
 * duties. Each goes through the same job path as the transaction lists, read through the list call's
 * own handler as the job's owner: the start refuses a bad body naming the field (400) and a user
 * without the list's permission (403); the owner downloads a file whose rows are the rows the list call
 * answers them (read back: .csv as text, .xlsx with exceljs); another user cannot see or download it.
 * An IPG bank officer's settlement report export holds their own provider's rows only, as their list
 * call does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import ExcelJS from 'exceljs';
import { startServer, type TestServer } from './harness';
import { drainQueue, type WorkerDeps } from '../../src/server/exportJobs/worker';
import { DEFAULT_EXPORT_SETTINGS } from '../../src/server/exportJobs/settings';
import { authServices } from '../../src/server/app';
import { exportFieldsFor } from '../../src/definitions/exportFields';
import { formatCell } from '../../src/formats/cells';
import { csvField } from '../../src/formats/csv';
import type { AnyListScreen } from '../../src/definitions/definitions';
import { usersScreen } from '../../screens/users';
import { appUsersScreen } from '../../screens/appUsers';
import { activityLogsScreen, userActivityLogsScreen } from '../../screens/activityLogs';
import { instantSettlementScreen, settlementScreen } from '../../screens/settlement';
import { segregationScreen } from '../../screens/segregation';

const ALL = 99_999_999;
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const today = format(new Date(), 'yyyy-MM-dd');
const monthAgo = format(new Date(Date.now() - 30 * 86_400_000), 'yyyy-MM-dd');

interface Kind {
  call: string;
  screen: AnyListScreen;
  body: Record<string, unknown>;
  /** A body field the call refuses, and the field's name in the 400. */
  bad: { body: Record<string, unknown>; field: string };
  /** A demo user without the list's permission. */
  refused: string;
  /** The Duration line of the file. */
  duration: string;
}

const kinds: Kind[] = [
  { call: 'user/list', screen: usersScreen, body: { data: '', fetchCount: ALL }, bad: { body: { data: '', fetchCount: 'many' }, field: 'fetchCount' }, refused: 'auditor', duration: '-' },
  {
    call: 'AppUser/list',
    screen: appUsersScreen,
    body: { data: '', countryCode: '', fetchCount: ALL },
    bad: { body: { data: '', countryCode: 'TOOLONG', fetchCount: ALL }, field: 'countryCode' },
    refused: 'kasun_herath',
    duration: '-',
  },
  {
    call: 'report/get-activity-report',
    screen: activityLogsScreen,
    body: { from: `${monthAgo}T00:00:00`, to: `${today}T23:59:59`, fetchCount: ALL, username: '' },
    bad: { body: { from: 'yesterday', to: `${today}T23:59:59`, fetchCount: ALL, username: '' }, field: 'from' },
    refused: 'kasun_herath',
    duration: `${monthAgo} 00:00:00 to ${today} 23:59:59`,
  },
  {
    call: 'Report/get-mobile-activity-report',
    screen: userActivityLogsScreen,
    body: { from: `${monthAgo}T00:00:00`, to: `${today}T23:59:59`, fetchCount: ALL, searchParameter: '' },
    bad: { body: { from: `${monthAgo}T00:00:00`, to: 'later', fetchCount: ALL, searchParameter: '' }, field: 'to' },
    refused: 'kasun_herath',
    duration: `${monthAgo} 00:00:00 to ${today} 23:59:59`,
  },
  {
    call: 'report/get-settlement-report',
    screen: settlementScreen,
    body: { date: today, fetchCount: ALL },
    bad: { body: { date: '2026-13-45', fetchCount: ALL }, field: 'date' },
    refused: 'auditor',
    duration: today,
  },
  {
    call: 'Report/get-instant-settlement-report',
    screen: instantSettlementScreen,
    body: { date: today },
    bad: { body: { date: 'today' }, field: 'date' },
    refused: 'auditor',
    duration: today,
  },
  {
    call: 'report/segregation-of-duties',
    screen: segregationScreen,
    body: { threshold: 0.5, days: 90 },
    bad: { body: { threshold: 2, days: 90 }, field: 'threshold' },
    refused: 'kasun_herath',
    duration: '-',
  },
];

let server: TestServer;
const tokens: Record<string, string> = {};

function deps(extra: Partial<WorkerDeps> = {}): WorkerDeps {
  return { db: server.db, clock: server.now, businessTimeZone: zone, settings: { ...DEFAULT_EXPORT_SETTINGS }, auth: authServices({ db: server.db, secret: server.secret }, server.now), ...extra };
}

async function download(token: string, jobId: number): Promise<Buffer> {
  const link = await server.call('export/download-link', { jobId }, token);
  expect(link.statusCode, JSON.stringify(link.data)).toBe(200);
  const res = await server.raw(link.data.url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Starts a job as `user`, reads what the list call answers them meanwhile (the start itself is in the
 * activity log, so the list is read after it), runs the queue, and answers the finished job and the list.
 */
async function exportAs(user: string, kind: Kind, body: Record<string, unknown>, fmt: 'csv' | 'xlsx') {
  const started = await server.call('export/start-job', { call: kind.call, body, format: fmt }, tokens[user]);
  expect(started.statusCode, JSON.stringify(started.data)).toBe(200);
  const expected = await listLines(user, kind, body);
  expect(await drainQueue(deps())).toBe(1);
  const status = await server.call('export/job-status', { jobId: started.data.id }, tokens[user]);
  expect(status.data.state, JSON.stringify(status.data)).toBe('done');
  return { job: status.data as { id: number; rowsWritten: number; fileName: string }, expected };
}

/** What the list call answers `user` for `body`: its rows as the CSV export writes them (dates as text; Excel's are real dates). */
async function listLines(user: string, kind: Kind, body: Record<string, unknown>): Promise<{ header: string; lines: string[]; count: number }> {
  const reply = await server.call(kind.call, body, tokens[user]);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  const rows = kind.screen.source.rows(reply.data as never) as Record<string, unknown>[];
  const fields = exportFieldsFor(kind.screen, reply.data);
  const header = fields.map((f) => csvField(f.header)).join(',');
  const lines = rows.map((row) =>
    fields
      .map((f) => {
        const column = kind.screen.columns.find((c) => c.key === f.dataKey && c.kind === 'list' && c.itemFields);
        const v = row[f.dataKey];
        const text = column?.itemFields && Array.isArray(v) ? v.map((item: Record<string, unknown>) => column.itemFields!.map((i) => `${i.label}: ${item[i.key] ?? ''}`).join(', ')).join('\n') : v;
        return csvField(formatCell(f, text, 'csv', zone));
      })
      .join(','),
  );
  return { header, lines, count: rows.length };
}

/** A CSV file's records as lines (the header first), its BOM and final CRLF checked. */
function csvText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return text.slice(1, -2);
}

beforeAll(async () => {
  server = await startServer({ businessTimeZone: zone });
  for (const u of ['admin', 'maker', 'auditor', 'kasun_herath']) tokens[u] = await server.login(u);
  // today's scheduled settlement batch (every pending transaction), then two later ones of two
  // providers in the instant batch
  expect((await server.call('report/generate-settlement-report', { useYesterdaysRates: true }, tokens.admin)).statusCode).toBe(200);
  for (const [i, provider] of ['7010', '7056'].entries()) {
    await server.db.query(
      `INSERT INTO ceft_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, account_number, initiated_time,
                                      card_payment_status, ceft_payment_status, ipg_commission, bank_charge, status, tran_type, bank_code, created_at, updated_at, provider_bank_code)
       VALUES ($1, '851157480V', 'AE', 'USD', 42.42, 42.42, 12000, '7007890123', $2, 'SUCCESS', 'SUCCESS', 0.53, 0.46, 'SUCCESS', 'CEFT', '7010', $2, $2, $3)`,
      [`EXPORTLATE${i}`, new Date(Date.now() - 60_000), provider],
    );
  }
  expect((await server.call('report/generate-instant-settlement-report', { useYesterdaysRates: true }, tokens.admin)).statusCode).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

describe.each(kinds)('a server export of $call', (kind) => {
  it('refuses a bad body naming the field, and a user without the list permission', async () => {
    const bad = await server.call('export/start-job', { call: kind.call, body: kind.bad.body, format: 'csv' }, tokens.admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.data.message).toMatch(new RegExp(`^body: ${kind.bad.field}: `));
    const refused = await server.call('export/start-job', { call: kind.call, body: kind.body, format: 'csv' }, tokens[kind.refused]);
    expect(refused.statusCode).toBe(403);
    // the list call itself refuses them the same way
    expect((await server.call(kind.call, kind.body, tokens[kind.refused])).statusCode).toBe(403);
  });

  it("writes the list call's rows as .csv for its owner only", async () => {
    const { job, expected } = await exportAs('admin', kind, kind.body, 'csv');
    expect(job.rowsWritten).toBe(expected.count);
    expect(expected.count).toBeGreaterThan(0);
    expect(job.fileName).toMatch(new RegExp(`^${kind.screen.exports!.fileBase}_.*\\.csv$`));
    const text = csvText(await download(tokens.admin, job.id));
    expect(text).toBe([expected.header, ...expected.lines].join('\r\n'));
    // another user: no status, no link
    expect((await server.call('export/job-status', { jobId: job.id }, tokens.maker)).statusCode).toBe(404);
    expect((await server.call('export/download-link', { jobId: job.id }, tokens.maker)).statusCode).toBe(404);
  });

  it('writes .xlsx with the title, By and Duration lines and every row', async () => {
    const { job, expected } = await exportAs('admin', kind, kind.body, 'xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download(tokens.admin, job.id)) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getRow(1).getCell(1).value)).toBe(kind.screen.exports!.title);
    expect(String(ws.getRow(2).getCell(1).value)).toMatch(/^On .* by admin\./);
    expect(String(ws.getRow(3).getCell(1).value)).toBe(`Duration: ${kind.duration}`);
    expect(ws.rowCount - 5).toBe(expected.count);
  });
});

describe('provider scope', () => {
  it("gives an IPG bank officer's settlement report export their own provider's rows only, as their list call does", async () => {
    const kind = kinds.find((k) => k.call === 'report/get-settlement-report')!;
    const everyone = await listLines('admin', kind, kind.body);
    const { job, expected: theirs } = await exportAs('kasun_herath', kind, kind.body, 'csv');
    const text = csvText(await download(tokens.kasun_herath, job.id));
    expect(text).toBe([theirs.header, ...theirs.lines].join('\r\n'));
    expect(theirs.count).toBeGreaterThan(0);
    expect(theirs.count).toBeLessThan(everyone.count);
  });
});

describe('some columns only', () => {
  const ceftBody = { from_date: `${monthAgo}T00:00:01`, to_date: `${today}T23:59:00`, country_code: '', data: '', status: '', fetchCount: ALL };

  it('writes only the columns asked for, in their order, of a transaction list and of another list', async () => {
    const ceft = await server.call('export/start-job', { call: 'Transaction/get-ceftTransaction', body: ceftBody, format: 'csv', columns: ['trace', 'id', 'currency_code'] }, tokens.admin);
    expect(ceft.statusCode, JSON.stringify(ceft.data)).toBe(200);
    expect(await drainQueue(deps())).toBe(1);
    const lines = csvText(await download(tokens.admin, ceft.data.id)).split('\r\n');
    expect(lines[0]).toBe('Trace,ID,Currency');
    const list = await server.call('Transaction/get-ceftTransaction', ceftBody, tokens.admin);
    const rows = (list.data as { filteredList: { id: number; trace: string; currency_code: string }[] }).filteredList;
    expect(rows.length).toBeGreaterThan(0);
    expect(lines.slice(1)).toEqual(rows.map((r) => `${r.trace},${r.id},${r.currency_code}`));

    const kind = kinds.find((k) => k.call === 'user/list')!;
    const users = await server.call('export/start-job', { call: kind.call, body: kind.body, format: 'csv', columns: ['username', 'status'] }, tokens.admin);
    expect(users.statusCode, JSON.stringify(users.data)).toBe(200);
    expect(await drainQueue(deps())).toBe(1);
    const userLines = csvText(await download(tokens.admin, users.data.id)).split('\r\n');
    const reply = await server.call(kind.call, kind.body, tokens.admin);
    const userRows = kind.screen.source.rows(reply.data as never) as { username: string; status: string }[];
    expect(userLines.slice(1)).toEqual(userRows.map((u) => `${u.username},${u.status}`));
  });

  it('refuses an unknown or repeated column naming `columns`', async () => {
    const unknown = await server.call('export/start-job', { call: 'Transaction/get-ceftTransaction', body: ceftBody, format: 'csv', columns: ['id', 'password'] }, tokens.admin);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.message).toMatch(/^columns: password is not a column/);
    const twice = await server.call('export/start-job', { call: 'user/list', body: kinds[0]!.body, format: 'csv', columns: ['id', 'id'] }, tokens.admin);
    expect(twice.statusCode).toBe(400);
    expect(twice.data.message).toMatch(/^columns: id is named twice/);
    const empty = await server.call('export/start-job', { call: 'user/list', body: kinds[0]!.body, format: 'csv', columns: [] }, tokens.admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.data.message).toMatch(/columns/);
  });
});
