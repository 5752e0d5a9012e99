/**
 * The Activity Log Report (the server's own log: sign-ins, change requests, decisions, KYC decisions,
 * exports) and the User Activity Log Report (mobile app users' events), through the real server.
 */
import { format } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { activityLogsScreen, userActivityLogsScreen } from '../../screens/activityLogs';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

let server: TestServer;
let admin: string;

const local = (d: Date) => format(d, "yyyy-MM-dd'T'HH:mm:ss");
function today() {
  const d = format(new Date(), 'yyyy-MM-dd');
  return { from: `${d}T00:00:01`, to: `${d}T23:59:00` };
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

async function activity(body: Record<string, unknown>, token = admin) {
  const reply = await server.call('report/get-activity-report', { ...today(), fetchCount: 99999999, ...body }, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data as { logs: { id: number; level: string; type: string; user: string; description: string; created_at: string }[]; filteredList: unknown[]; fields: unknown[] };
}

describe('the activity log report', () => {
  it('shows sign-ins, change requests, decisions and KYC decisions written by the server', async () => {
    const maker = await server.login('maker');
    const created = await server.call('user/create', sampleBody('user/create'), maker);
    expect(created.statusCode).toBe(200);
    const checker = await server.login('checker');
    expect((await server.call('user/approve', { changeRequestID: created.data.changeRequestId, actionTaken: 'reject' }, checker)).statusCode).toBe(200);
    const kyc = (await server.call('kyc/get-all', { kycStatus: 'PENDING', fetchCount: 99999999 }, checker)).data.kycList.find((r: { submittedData: unknown }) => r.submittedData === null);
    const approved = Object.fromEntries(Object.entries(kyc.currentData as Record<string, object>).map(([k, f]) => [k, { ...f, approved: true, reason: '' }]));
    expect((await server.call('kyc/create-request', { userId: kyc.kycId, kycData: approved }, checker)).statusCode).toBe(200);

    const { logs } = await activity({});
    const has = (user: string, type: string, text = '') => logs.some((l) => l.user === user && l.type === type && l.description.includes(text));
    expect(has('maker', 'LOGIN', 'Signed in')).toBe(true);
    expect(has('maker', 'CHANGE_REQUEST', 'Requested CREATE of User')).toBe(true);
    expect(has('checker', 'CHANGE_REJECTED', 'Rejected CREATE of User')).toBe(true);
    expect(has('checker', 'KYC_APPROVED', `KYC ${kyc.kycId} `)).toBe(true);
  });

  it('filters by username (contains, any case), orders latest first and honours the fetch count', async () => {
    await server.login('auditor');
    const { logs, filteredList, fields } = await activity({ username: 'AUDIT' });
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((l) => l.user.toLowerCase().includes('audit'))).toBe(true);
    expect(filteredList).toEqual(logs);
    expect(fields).toEqual(exportFieldsOf(activityLogsScreen));
    const all = (await activity({})).logs;
    const times = all.map((l) => Date.parse(l.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await activity({ fetchCount: 3 })).logs).toEqual(all.slice(0, 3));
  });

  it('reads the range at minute precision (From sent with seconds 1, To with seconds 0)', async () => {
    const minute = new Date();
    minute.setSeconds(0, 0);
    minute.setTime(minute.getTime() - 10 * 60_000);
    for (const [offset, description] of [
      [-1_000, 'just before the minute'],
      [0, 'at the start of the minute'],
      [30_000, 'in the middle of the minute'],
      [59_999, 'at the end of the minute'],
      [60_000, 'just after the minute'],
    ] as const) {
      await server.db.query(`INSERT INTO activity_logs (level, type, username, description, created_at) VALUES ('INFO', 'TEST', 'range_probe', $1, $2)`, [
        description,
        new Date(minute.getTime() + offset),
      ]);
    }
    const from = local(new Date(minute.getTime() + 1_000));
    const to = local(minute);
    const { logs } = await activity({ from, to, username: 'range_probe' });
    expect(logs.map((l) => l.description).sort()).toEqual(['at the end of the minute', 'at the start of the minute', 'in the middle of the minute']);
  });

  it('refuses To before From, a bad date and a long username, naming the field', async () => {
    const d = format(new Date(), 'yyyy-MM-dd');
    expect(await server.call('report/get-activity-report', { from: `${d}T10:00:01`, to: `${d}T09:00:00`, fetchCount: 10, username: '' }, admin)).toEqual({
      statusCode: 400,
      data: { message: 'to: To cannot be before From' },
    });
    expect(await server.call('report/get-activity-report', { from: `${d}T25:00:01`, to: `${d}T09:00:00`, fetchCount: 10, username: '' }, admin)).toEqual({
      statusCode: 400,
      data: { message: 'from: Please enter a valid date and time' },
    });
    expect(await server.call('report/get-activity-report', { ...today(), fetchCount: 10, username: 'x'.repeat(31) }, admin)).toEqual({
      statusCode: 400,
      data: { message: 'username: Username can have at most 30 characters' },
    });
  });

  it('is refused without activity-log-report-view', async () => {
    const auditor = await server.login('auditor');
    expect(await server.call('report/get-activity-report', { ...today(), fetchCount: 10, username: '' }, auditor)).toEqual({
      statusCode: 403,
      data: { message: 'Forbidden: needs one of activity-log-report-view' },
    });
  });
});

describe('the export log', () => {
  it('writes an EXPORT row naming the screen, the file and the number of rows', async () => {
    const maker = await server.login('maker');
    expect(await server.call('report/log-export', { screen: 'users', fileName: 'Users_2024-05-01.xlsx', rows: 42 }, maker)).toEqual({
      statusCode: 200,
      data: { message: 'Export logged' },
    });
    const { logs } = await activity({ username: 'maker' });
    expect(logs.find((l) => l.type === 'EXPORT')).toMatchObject({ user: 'maker', level: 'INFO', description: 'Exported 42 rows of Users as Users_2024-05-01.xlsx' });
  });

  it('refuses a screen the caller may not open (403) and an unknown screen (400)', async () => {
    const auditor = await server.login('auditor');
    expect(await server.call('report/log-export', { screen: 'users', fileName: 'Users.pdf', rows: 1 }, auditor)).toEqual({
      statusCode: 403,
      data: { message: 'Forbidden: you may not open Users' },
    });
    expect(await server.call('report/log-export', { screen: 'nowhere', fileName: 'x.pdf', rows: 1 }, admin)).toEqual({
      statusCode: 400,
      data: { message: 'screen: Unknown screen nowhere' },
    });
    expect((await server.call('report/log-export', { screen: 'users', fileName: 'x.pdf', rows: 1 })).statusCode).toBe(401);
  });
});

describe('the user activity log report', () => {
  async function mobile(body: Record<string, unknown>) {
    const reply = await server.call('Report/get-mobile-activity-report', { ...today(), fetchCount: 99999999, searchParameter: '', ...body }, admin);
    expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
    return reply.data as { filteredList: { id: number; mobile_user_name: string; mobile_user_email: string; device_name: string; event_description: string; created_at: string }[]; fields: unknown };
  }

  it('has the recent events of the mobile app users, latest first, with the export fields of the screen', async () => {
    const start = new Date(Date.now() - 86_400_000);
    const { filteredList, fields } = await mobile({ from: local(start), to: local(new Date()) });
    expect(filteredList.length).toBeGreaterThan(10);
    expect(fields).toEqual(exportFieldsOf(userActivityLogsScreen));
    start.setSeconds(0, 0);
    for (const r of filteredList) {
      expect(Date.parse(r.created_at)).toBeGreaterThanOrEqual(start.getTime());
      expect(Date.parse(r.created_at)).toBeLessThanOrEqual(Date.now());
      expect(r.mobile_user_name).toMatch(/\S+ \S+/);
      expect(r.mobile_user_email).toContain('@');
      expect(r.device_name).not.toBe('');
    }
    const times = filteredList.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await mobile({ from: local(start), to: local(new Date()), fetchCount: 10 })).filteredList).toEqual(filteredList.slice(0, 10));
  });

  it('finds one user by name, email or phone number', async () => {
    const someone = await server.db.one<{ id: number; first_name: string; last_name: string; email: string; contact: string }>(
      'SELECT u.id, u.first_name, u.last_name, u.email, u.contact FROM app_users u JOIN mobile_activity_logs m ON m.app_user_id = u.id GROUP BY u.id ORDER BY count(*) DESC LIMIT 1',
    );
    const month = { from: local(new Date(Date.now() - 31 * 86_400_000)), to: local(new Date()) };
    const expected = await server.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mobile_activity_logs WHERE app_user_id = $1 AND created_at >= $2', [
      someone!.id,
      new Date(Date.now() - 31 * 86_400_000 - 60_000),
    ]);
    for (const text of [someone!.email, someone!.contact]) {
      const { filteredList } = await mobile({ ...month, searchParameter: text });
      expect(filteredList.length, text).toBe(expected!.n);
      expect(new Set(filteredList.map((r) => r.mobile_user_email))).toEqual(new Set([someone!.email]));
    }
    const byName = await mobile({ ...month, searchParameter: `${someone!.first_name} ${someone!.last_name}`.toUpperCase() });
    expect(byName.filteredList.every((r) => r.mobile_user_name.toUpperCase() === `${someone!.first_name} ${someone!.last_name}`.toUpperCase())).toBe(true);
    expect(byName.filteredList.length).toBeGreaterThanOrEqual(expected!.n);
  });

  it('refuses a search over 30 characters and To before From', async () => {
    const d = format(new Date(), 'yyyy-MM-dd');
    expect((await server.call('Report/get-mobile-activity-report', { ...today(), fetchCount: 10, searchParameter: 'x'.repeat(31) }, admin)).data.message).toBe(
      'searchParameter: Search text can have at most 30 characters',
    );
    expect((await server.call('Report/get-mobile-activity-report', { from: `${d}T10:00:01`, to: `${d}T09:59:00`, fetchCount: 10, searchParameter: '' }, admin)).data.message).toBe(
      'to: To cannot be before From',
    );
  });
});
