/**
 * Server export jobs through real HTTP, as different users, on PGlite and PostgreSQL: the
 * start (permission, body, one job per user), the queue run by the worker code (the app's own poller is
 * off here, so each test decides when a worker runs), the files read back (.xlsx with exceljs, .csv, .pdf),
 * the owner-only signed download, the expiry, a permission withdrawn before the job runs, and a killed
 * worker's job picked up by another. Expected rows are counted from the database with plain SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import ExcelJS from 'exceljs';
import { startServer, type TestServer } from './harness';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { formatCell } from '../../src/formats/cells';
import { ceftScreen } from '../../screens/transactions';
import { claimJob, storeChunk } from '../../src/server/exportJobs/queue';
import { drainQueue, runClaim, type WorkerDeps } from '../../src/server/exportJobs/worker';
import { DEFAULT_EXPORT_SETTINGS } from '../../src/server/exportJobs/settings';
import { authServices } from '../../src/server/app';

const CEFT = 'Transaction/get-ceftTransaction';
const BILL = 'Transaction/billTransactions';
const ALL = 99_999_999;
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};
const filters = (extra: Record<string, unknown> = {}) => ({ from_date: `${day(-30)}T00:00:01`, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount: ALL, ...extra });
const fields = exportFieldsOf(ceftScreen);
const FORMULA = '=HYPERLINK("http://evil.example","x")';

let server: TestServer;
let admin: string;
let maker: string;
let kasun: string;
let formulaId: number;

function deps(extra: Partial<WorkerDeps> = {}): WorkerDeps {
  return { db: server.db, clock: server.now, businessTimeZone: zone, settings: { ...DEFAULT_EXPORT_SETTINGS }, auth: authServices({ db: server.db, secret: server.secret }, server.now), ...extra };
}

/** The rows of the range in the database (the provider's only, when given). */
async function countCeft(provider?: string): Promise<number> {
  const from = new Date(`${day(-30)}T00:00:00`);
  const to = new Date(`${day(0)}T23:59:00`);
  to.setMinutes(to.getMinutes() + 1);
  const row = await server.db.one<{ n: number }>(`SELECT count(*) AS n FROM ceft_transactions WHERE initiated_time >= $1 AND initiated_time < $2 AND ($3::text IS NULL OR provider_bank_code = $3)`, [
    from,
    to,
    provider ?? null,
  ]);
  return Number(row!.n);
}

async function start(token: string, body: Record<string, unknown>) {
  return server.call('export/start-job', body, token);
}

async function download(token: string, jobId: number): Promise<{ status: number; bytes: Buffer; type: string | null; disposition: string | null }> {
  const link = await server.call('export/download-link', { jobId }, token);
  expect(link.statusCode, JSON.stringify(link.data)).toBe(200);
  const res = await server.raw(link.data.url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
}

/** Every data row of an xlsx export over its sheets (below the header row), and each sheet's header. */
async function readXlsx(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets = wb.worksheets.map((ws, i) => {
    const headerRow = i === 0 ? 5 : 1;
    const values = (r: number) => (ws.getRow(r).values as unknown[]).slice(1);
    const rows: unknown[][] = [];
    for (let r = headerRow + 1; r <= ws.rowCount; r++) rows.push(values(r));
    return { name: ws.name, lead: i === 0 ? [1, 2, 3].map((r) => String(ws.getRow(r).getCell(1).value)) : [], header: values(headerRow), rows };
  });
  return sheets;
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

beforeAll(async () => {
  server = await startServer({ businessTimeZone: zone });
  [admin, maker, kasun] = await Promise.all(['admin', 'maker', 'kasun_herath'].map((u) => server.login(u)));
  // one row whose text a spreadsheet would take for a formula
  const row = await server.db.one<{ id: number }>(
    `UPDATE ceft_transactions SET card_payment_description = $1
      WHERE id = (SELECT id FROM ceft_transactions WHERE initiated_time >= now() - interval '10 days' ORDER BY id LIMIT 1) RETURNING id`,
    [FORMULA],
  );
  formulaId = row!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('start', () => {
  it('refuses a bad body naming the field, an unknown call, a format it cannot write, and a list the user may not read', async () => {
    const noFrom = await start(admin, { call: CEFT, body: { ...filters(), from_date: undefined }, format: 'xlsx' });
    expect(noFrom.statusCode).toBe(400);
    expect(noFrom.data.message).toMatch(/^body: from_date: /);
    const unknown = await start(admin, { call: 'Transaction/nothing', body: filters(), format: 'xlsx' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.message).toMatch(/^call: /);
    const docx = await start(admin, { call: CEFT, body: filters(), format: 'docx' });
    expect(docx.statusCode).toBe(400);
    expect(docx.data.message).toMatch(/format/);
    const country = await start(admin, { call: CEFT, body: filters({ country_code: 'ZZ' }), format: 'csv' });
    expect(country.statusCode).toBe(400);
    expect(country.data.message).toMatch(/country_code/);
    // the IPG bank officer has send-money-report-view but not bill-payment-report-view
    const bill = await start(kasun, { call: BILL, body: filters({ status: undefined }), format: 'xlsx' });
    expect(bill.statusCode).toBe(403);
    const none = await server.call('export/my-job', {}, kasun);
    expect(none.data.job).toBeNull();
    expect(none.data.serverAboveRows).toBe(100_000);
  });
});

describe('an xlsx export job, end to end', () => {
  let jobId: number;
  const expected = { rows: 0 };

  it('queues one job per user: a second start is 409 with a message', async () => {
    expected.rows = await countCeft();
    expect(expected.rows).toBeGreaterThan(0);
    const first = await start(admin, { call: CEFT, body: filters(), format: 'xlsx' });
    expect(first.statusCode, JSON.stringify(first.data)).toBe(200);
    expect(first.data).toMatchObject({ state: 'queued', format: 'xlsx', title: 'Send Money Transactions', rowsTotal: expected.rows, rowsWritten: 0, username: 'admin' });
    jobId = first.data.id;
    const second = await start(admin, { call: CEFT, body: filters(), format: 'csv' });
    expect(second.statusCode).toBe(409);
    expect(second.data.message).toMatch(/You already have an export waiting to start: Send Money Transactions/);
    const mine = await server.call('export/my-job', {}, admin);
    expect(mine.data.job).toMatchObject({ id: jobId, state: 'queued' });
    // no file yet
    expect((await server.call('export/download-link', { jobId }, admin)).statusCode).toBe(409);
  });

  it('is written by a worker: done, every row, logged with its row count', async () => {
    expect(await drainQueue(deps())).toBe(1);
    const status = await server.call('export/job-status', { jobId }, admin);
    expect(status.data).toMatchObject({ state: 'done', rowsWritten: expected.rows, rowsTotal: expected.rows, percent: 100 });
    expect(status.data.fileName).toMatch(/^ceftTransactions_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
    const log = await server.db.one<{ description: string; after: { rows: number } }>(
      `SELECT description, after FROM activity_logs WHERE type = 'EXPORT' AND username = 'admin' ORDER BY id DESC LIMIT 1`,
    );
    expect(log!.description).toBe(`Exported ${expected.rows} rows of Send Money Transactions as ${status.data.fileName} (server export job ${jobId})`);
    expect(log!.after.rows).toBe(expected.rows);
  });

  it('reads back with the lines, the header, every row, and the formula cell neutralised', async () => {
    const file = await download(admin, jobId);
    expect(file.status).toBe(200);
    expect(file.type).toMatch(/spreadsheetml/);
    expect(file.disposition).toMatch(/attachment; filename="ceftTransactions_/);
    const [sheet, ...more] = await readXlsx(file.bytes);
    expect(more).toHaveLength(0);
    expect(sheet!.lead[0]).toBe('Send Money Transactions');
    expect(sheet!.lead[1]).toMatch(/^On \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} by admin\. Times in \S+ \(UTC[+-]\d{2}:\d{2}\)$/);
    expect(sheet!.lead[2]).toBe(`Duration: ${day(-30)} 00:00:01 to ${day(0)} 23:59:00`);
    expect(sheet!.header).toEqual(fields.map((f) => f.header));
    expect(sheet!.rows).toHaveLength(expected.rows);
    const idColumn = fields.findIndex((f) => f.dataKey === 'id');
    const descColumn = fields.findIndex((f) => f.dataKey === 'card_payment_description');
    const row = sheet!.rows.find((r) => r[idColumn] === formulaId)!;
    expect(row[descColumn]).toBe(`'${FORMULA}`);
    // every time cell is the list call's time as the browser export shows it (the job reads the rows'
    // times as the UTC wall clock, src/api/listRows.ts, and makes them the documented wall clock first)
    const listed = await server.call(CEFT, filters(), admin);
    const byId = new Map((listed.data.filteredList as Record<string, unknown>[]).map((r) => [r.id, r]));
    const timeFields = fields.map((f, c) => ({ f, c })).filter(({ f }) => f.type === 'DATE');
    expect(timeFields.length).toBeGreaterThan(3);
    let times = 0;
    for (const cells of sheet!.rows) {
      const documented = byId.get(cells[idColumn])!;
      for (const { f, c } of timeFields) {
        // a real Excel date holding that wall clock (exceljs reads it as the same time in UTC); '-' stays text
        const text = String(formatCell(f, documented[f.dataKey], 'csv', zone));
        expect(cells[c] ?? '', `${f.dataKey} of ${String(cells[idColumn])}`).toEqual(/^\d{4}-/.test(text) ? new Date(`${text.replace(' ', 'T')}Z`) : text);
        if (documented[f.dataKey]) times++;
      }
    }
    expect(times).toBeGreaterThan(expected.rows);
  });

  it('is not the business of another user: no status, no link, no cancel; a forged link is refused', async () => {
    expect((await server.call('export/job-status', { jobId }, maker)).statusCode).toBe(404);
    const link = await server.call('export/download-link', { jobId }, maker);
    expect(link.statusCode).toBe(404);
    expect(link.data.message).toBe(`jobId: No export job ${jobId} of yours`);
    expect((await server.call('export/cancel-job', { jobId }, maker)).statusCode).toBe(404);
    const good = await server.call('export/download-link', { jobId }, admin);
    const forged = good.data.url.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`);
    expect((await server.raw(forged)).status).toBe(403);
    const otherJob = good.data.url.replace(`/export-file/${jobId}?`, `/export-file/${jobId + 1000}?`);
    expect((await server.raw(otherJob)).status).toBe(403);
  });

  it('expires: the link call answers 410 and a link handed out before answers 410', async () => {
    const link = await server.call('export/download-link', { jobId }, admin);
    await server.db.query(`UPDATE export_jobs SET expires_at = $2 WHERE id = $1`, [jobId, new Date(server.now().getTime() - 1000)]);
    const res = await server.raw(link.data.url);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { data: { message: string } }).data.message).toMatch(/expired/);
    const again = await server.call('export/download-link', { jobId }, admin);
    expect(again.statusCode).toBe(410);
    expect(again.data.message).toMatch(/has expired \(files are kept 24 hours\)/);
    expect((await server.call('export/job-status', { jobId }, admin)).data.state).toBe('expired');
    const chunks = await server.db.one<{ n: number }>('SELECT count(*) AS n FROM export_job_chunks WHERE job_id = $1', [jobId]);
    expect(Number(chunks!.n)).toBe(0);
  });
});

describe('csv, scope and permissions', () => {
  it("writes an IPG bank officer's own provider's rows only, as RFC 4180 with the formula neutralised", async () => {
    const provider = (await server.db.one<{ branch_code: string }>(`SELECT branch_code FROM console_users WHERE username = 'kasun_herath'`))!.branch_code;
    await server.db.query('UPDATE ceft_transactions SET provider_bank_code = $1 WHERE id = $2', [provider, formulaId]);
    const expected = await countCeft(provider);
    const job = await start(kasun, { call: CEFT, body: filters(), format: 'csv' });
    expect(job.statusCode, JSON.stringify(job.data)).toBe(200);
    expect(job.data.rowsTotal).toBe(expected);
    await drainQueue(deps());
    const file = await download(kasun, job.data.id);
    expect(file.type).toMatch(/^text\/csv/);
    const text = file.bytes.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...records] = parseCsv(text.slice(1));
    expect(header).toEqual(fields.map((f) => f.header));
    expect(records).toHaveLength(expected);
    const idColumn = fields.findIndex((f) => f.dataKey === 'id');
    const descColumn = fields.findIndex((f) => f.dataKey === 'card_payment_description');
    expect(records.find((r) => Number(r[idColumn]) === formulaId)![descColumn]).toBe(`'${FORMULA}`);
    // an administrator may fetch anyone's file
    expect((await download(admin, job.data.id)).bytes.equals(file.bytes)).toBe(true);
  });

  it('writes every time in the business time zone, whatever the zone of the rows as read (UTC)', async () => {
    // a zone away from UTC: a time read as if it were the business zone's wall clock would show 5:30 off
    const colombo = 'Asia/Colombo';
    const job = await start(admin, { call: CEFT, body: filters(), format: 'csv' });
    expect(job.statusCode, JSON.stringify(job.data)).toBe(200);
    await drainQueue(deps({ businessTimeZone: colombo }));
    const [, ...records] = parseCsv((await download(admin, job.data.id)).bytes.toString('utf8').slice(1));
    const listed = await server.call(CEFT, filters(), admin);
    const byId = new Map((listed.data.filteredList as Record<string, unknown>[]).map((r) => [r.id, r]));
    const idColumn = fields.findIndex((f) => f.dataKey === 'id');
    const timeFields = fields.map((f, c) => ({ f, c })).filter(({ f }) => f.type === 'DATE');
    let compared = 0;
    for (const cells of records) {
      const documented = byId.get(Number(cells[idColumn]));
      if (!documented) continue; // (the job read the range in Colombo's wall clock: a few rows differ at its ends)
      for (const { f, c } of timeFields) {
        expect(cells[c], `${f.dataKey} of ${cells[idColumn]}`).toBe(String(formatCell(f, documented[f.dataKey], 'csv', colombo)));
        if (documented[f.dataKey]) compared++;
      }
    }
    expect(compared).toBeGreaterThan(records.length);
  });

  it('checks the permission again when the job runs: withdrawn meanwhile, the job fails with a message and no file', async () => {
    const job = await start(kasun, { call: CEFT, body: filters({ fetchCount: 20 }), format: 'xlsx' });
    expect(job.statusCode).toBe(200);
    const role = (await server.db.one<{ id: number; permissions: string[] }>(`SELECT r.id, r.permissions FROM roles r JOIN console_users u ON u.role_id = r.id WHERE u.username = 'kasun_herath'`))!;
    await server.db.query('UPDATE roles SET permissions = $2 WHERE id = $1', [role.id, role.permissions.filter((p) => p !== 'send-money-report-view')]);
    try {
      await drainQueue(deps());
    } finally {
      await server.db.query('UPDATE roles SET permissions = $2 WHERE id = $1', [role.id, role.permissions]);
    }
    const status = await server.call('export/job-status', { jobId: job.data.id }, kasun);
    expect(status.data.state).toBe('failed');
    expect(status.data.message).toMatch(/^Forbidden/);
    expect((await server.call('export/download-link', { jobId: job.data.id }, kasun)).statusCode).toBe(409);
  });

  it('cancels a queued job: nothing is written, a second cancel is 409, and a new job may start', async () => {
    const job = await start(maker, { call: CEFT, body: filters(), format: 'csv' });
    const cancelled = await server.call('export/cancel-job', { jobId: job.data.id }, maker);
    expect(cancelled.data.state).toBe('cancelled');
    expect((await server.call('export/cancel-job', { jobId: job.data.id }, maker)).statusCode).toBe(409);
    expect(await drainQueue(deps())).toBe(0);
    const next = await start(maker, { call: CEFT, body: filters({ fetchCount: 30 }), format: 'pdf' });
    expect(next.statusCode).toBe(200);
    await drainQueue(deps());
    const file = await download(maker, next.data.id);
    expect(file.type).toBe('application/pdf');
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await server.call('export/job-status', { jobId: next.data.id }, maker)).data.rowsWritten).toBe(Math.min(30, await countCeft()));
  });

  it('starts a new sheet when a sheet is full', async () => {
    const expected = await countCeft();
    const job = await start(admin, { call: CEFT, body: filters(), format: 'xlsx' });
    expect(job.statusCode).toBe(200);
    const sheetRows = Math.max(10, Math.ceil((expected + 5) / 3));
    await drainQueue(deps({ sheetRows }));
    const sheets = await readXlsx((await download(admin, job.data.id)).bytes);
    expect(sheets.length).toBeGreaterThanOrEqual(2);
    expect(sheets[0]!.rows).toHaveLength(sheetRows - 5);
    for (const s of sheets) expect(s.header).toEqual(fields.map((f) => f.header));
    expect(sheets.reduce((n, s) => n + s.rows.length, 0)).toBe(expected);
    const ids = sheets.flatMap((s) => s.rows.map((r) => r[0]));
    expect(new Set(ids).size).toBe(expected);
  });
});

describe('a killed worker', () => {
  it('leaves its job to another worker once its lease runs out; the other writes it from the start', async () => {
    const expected = await countCeft();
    const job = await start(admin, { call: CEFT, body: filters(), format: 'csv' });
    const leaseMs = 30_000;
    const first = await claimJob(server.db, server.now(), leaseMs);
    expect(first?.job.id).toBe(job.data.id);
    // it wrote a bit and "died"
    expect(await storeChunk(server.db, first!, 0, new TextEncoder().encode('half a file'))).toBe(true);
    expect((await server.call('export/job-status', { jobId: job.data.id }, admin)).data.state).toBe('running');
    // while its lease holds, nobody else takes it
    expect(await claimJob(server.db, server.now(), leaseMs)).toBeUndefined();
    // after the lease: another worker claims it
    const later = new Date(server.now().getTime() + leaseMs + 1000);
    const second = await claimJob(server.db, later, leaseMs);
    expect(second?.job.id).toBe(job.data.id);
    expect(second?.job.attempts).toBe(2);
    // the dead worker, if it comes back, can write nothing more
    expect(await storeChunk(server.db, first!, 1, new TextEncoder().encode('more'))).toBe(false);
    expect(await runClaim(deps({ clock: () => later }), second!)).toBe('done');
    const file = await download(admin, job.data.id);
    const [header, ...records] = parseCsv(file.bytes.toString('utf8').slice(1));
    expect(header).toEqual(fields.map((f) => f.header));
    expect(records).toHaveLength(expected);
  });

  it('stops its file thread when the process stops mid-way: nothing more is written, and the job is written whole later', async () => {
    const expected = await countCeft();
    const job = await start(admin, { call: CEFT, body: filters(), format: 'xlsx' });
    const leaseMs = 30_000;
    const claim = await claimJob(server.db, server.now(), leaseMs);
    expect(claim?.job.id).toBe(job.data.id);
    // one row per batch; the process stops after the third batch
    let batches = 0;
    const stopped = await runClaim(deps({ settings: { ...DEFAULT_EXPORT_SETTINGS, batchRows: 1, leaseMs }, stopping: () => ++batches >= 3 }), claim!);
    expect(stopped).toBe('stopped');
    expect((await server.call('export/job-status', { jobId: job.data.id }, admin)).data).toMatchObject({ state: 'running' });
    const chunks = async () => Number((await server.db.one<{ n: number }>('SELECT count(*) AS n FROM export_job_chunks WHERE job_id = $1', [job.data.id]))!.n);
    const before = await chunks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await chunks()).toBe(before);
    // once its lease has run out another worker writes it from the start
    const later = new Date(server.now().getTime() + leaseMs + 1000);
    const again = await claimJob(server.db, later, leaseMs);
    expect(await runClaim(deps({ clock: () => later }), again!)).toBe('done');
    const sheets = await readXlsx((await download(admin, job.data.id)).bytes);
    expect(sheets.reduce((n, sh) => n + sh.rows.length, 0)).toBe(expected);
  });
});
