/**
 * KYC review through the real server: the list, create-request vs update-status, the statuses the
 * server decides, the reasons it requires, group consistency, permissions and one decision per
 * submission under concurrency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycFieldOrder, setApproved, setReason, type KycData } from '../../src/domain/kyc';
import { hashPassword } from '../../src/server/auth/passwords';
import { startServer, TEST_SCRYPT_N, type TestServer } from './harness';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';

let server: TestServer;
let checker: string;

beforeAll(async () => {
  server = await startServer();
  checker = await server.login('checker');
});
afterAll(async () => {
  await server?.close();
});

interface ListRow {
  kycId: number;
  status: string;
  uid: string;
  email: string;
  phone_no: string;
  created_at: string;
  updated_at: string;
  currentData: KycData;
  submittedData: KycData | null;
}

async function list(body: Record<string, unknown> = {}, token = checker): Promise<ListRow[]> {
  const reply = await server.call('kyc/get-all', { fetchCount: 99999999, ...body }, token);
  expect(reply.statusCode).toBe(200);
  return reply.data.kycList as ListRow[];
}

/** A pending record: a first submission (no earlier one) or a re-submission. */
async function pendingRecord(earlier: boolean, skip: readonly number[] = []): Promise<ListRow> {
  const rows = (await list({ kycStatus: 'PENDING' })).filter((r) => (r.submittedData !== null) === earlier && !skip.includes(r.kycId));
  expect(rows.length, `a pending record ${earlier ? 'with' : 'without'} an earlier submission`).toBeGreaterThan(0);
  return rows[0];
}

const approveAll = (d: KycData): KycData => kycFieldOrder.reduce((acc, k) => setApproved(acc, k, true), d);

async function stored(kycId: number) {
  const record = await server.db.one<{ status: string; updated_at: Date }>('SELECT status, updated_at FROM kyc_records WHERE id = $1', [kycId]);
  const subs = await server.db.query<{ seq: number; fields: { key: string; approved: boolean; reason: string }[]; decision: string | null; decided_by: string | null }>(
    'SELECT seq, fields, decision, decided_by FROM kyc_submissions WHERE kyc_id = $1 ORDER BY seq',
    [kycId],
  );
  return { record: record!, subs };
}

describe('the KYC list', () => {
  it('lists records latest first, with the current submission as an ordered field map', async () => {
    const rows = await list();
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.map((r) => r.kycId)).toEqual([...rows.map((r) => r.kycId)].sort((a, b) => b - a));
    for (const r of rows) expect(Object.keys(r.currentData)).toEqual(kycFieldOrder);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['PENDING', 'APPROVED', 'REJECTED']));
    expect(rows.some((r) => r.submittedData !== null)).toBe(true);
    expect(rows.some((r) => r.submittedData === null)).toBe(true);
  });

  it('filters by status and by UID, email or contact number, and honours the fetch count', async () => {
    expect((await list({ kycStatus: 'APPROVED' })).every((r) => r.status === 'APPROVED')).toBe(true);
    expect((await list({ kycStatus: 'PENDING' })).every((r) => r.status === 'PENDING')).toBe(true);
    const one = (await list())[3];
    for (const text of [one.uid, one.email.slice(0, 30).toUpperCase(), one.phone_no.slice(-6)]) {
      const found = await list({ data: text });
      expect(found.map((r) => r.kycId)).toContain(one.kycId);
      const t = text.toLowerCase();
      expect(found.every((r) => r.uid.toLowerCase().includes(t) || r.email.toLowerCase().includes(t) || r.phone_no.includes(t))).toBe(true);
    }
    expect(await list({ data: 'nobody-has-this' })).toEqual([]);
    expect((await list({ fetchCount: 10 })).length).toBe(10);
  });

  it('refuses a search text over 30 characters and an unknown status, naming the field', async () => {
    const long = await server.call('kyc/get-all', { data: 'x'.repeat(31) }, checker);
    expect(long).toEqual({ statusCode: 400, data: { message: 'data: Search text can have at most 30 characters' } });
    const status = await server.call('kyc/get-all', { kycStatus: 'MAYBE' }, checker);
    expect(status.statusCode).toBe(400);
    expect(status.data.message).toMatch(/^kycStatus: /);
  });
});

describe('deciding a first submission: kyc/create-request', () => {
  it('rejects with a reason: the server sets REJECTED, keeps every decision and reason, and logs it', async () => {
    const row = await pendingRecord(false);
    let data = approveAll(row.currentData);
    data = setApproved(data, 'city', false);
    data = setReason(data, 'address', 'Address is incomplete');
    const before = await server.db.one<{ n: number }>("SELECT count(*)::int AS n FROM activity_logs WHERE type = 'KYC_REJECTED'");

    const reply = await server.call('kyc/create-request', { userId: row.kycId, kycData: data }, checker);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'KYC request created', status: 'REJECTED' } });

    const { record, subs } = await stored(row.kycId);
    expect(record.status).toBe('REJECTED');
    expect(subs).toHaveLength(1);
    expect(subs[0].decision).toBe('REJECTED');
    expect(subs[0].decided_by).toBe('checker');
    const byKey = Object.fromEntries(subs[0].fields.map((f) => [f.key, f]));
    expect(subs[0].fields.map((f) => f.key)).toEqual(kycFieldOrder);
    for (const k of ['country', 'city', 'addressLine1', 'addressLine2']) expect(byKey[k]).toMatchObject({ approved: false, reason: 'Address is incomplete' });
    for (const k of ['firstName', 'dialCode', 'uid', 'userImage']) expect(byKey[k]).toMatchObject({ approved: true, reason: '' });

    const after = await server.db.one<{ n: number }>("SELECT count(*)::int AS n FROM activity_logs WHERE type = 'KYC_REJECTED'");
    expect(after!.n).toBe(before!.n + 1);
    const log = await server.db.one<{ username: string; description: string }>("SELECT username, description FROM activity_logs WHERE type = 'KYC_REJECTED' ORDER BY id DESC LIMIT 1");
    expect(log!.username).toBe('checker');
    expect(log!.description).toContain(`KYC ${row.kycId} `);
    expect(log!.description).toContain('City: Address is incomplete');

    // the list shows the decision
    const listed = (await list()).find((r) => r.kycId === row.kycId)!;
    expect(listed.status).toBe('REJECTED');
    expect(listed.currentData.city).toMatchObject({ approved: false, reason: 'Address is incomplete' });

    // a submission is decided once
    const again = await server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }, checker);
    expect(again).toEqual({ statusCode: 409, data: { message: 'This KYC submission has already been reviewed' } });
    expect((await stored(row.kycId)).record.status).toBe('REJECTED');
  });

  it('approves when every field is approved', async () => {
    const row = await pendingRecord(false);
    const reply = await server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }, checker);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'KYC request created', status: 'APPROVED' } });
    expect((await stored(row.kycId)).record.status).toBe('APPROVED');
  });

  it('refuses update-status on a record without an earlier submission', async () => {
    const row = await pendingRecord(false);
    const reply = await server.call('kyc/update-status', { kycId: row.kycId, kycData: approveAll(row.currentData) }, checker);
    expect(reply).toEqual({ statusCode: 409, data: { message: 'This KYC record has no earlier submission: decide it with kyc/create-request' } });
    expect((await stored(row.kycId)).record.status).toBe('PENDING');
  });
});

describe('deciding a re-submission: kyc/update-status', () => {
  it('refuses create-request on a record with an earlier submission', async () => {
    const row = await pendingRecord(true);
    const reply = await server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }, checker);
    expect(reply).toEqual({ statusCode: 409, data: { message: 'This KYC record has an earlier submission: decide it with kyc/update-status' } });
  });

  it('approves the re-submission; the earlier submission stays as it was decided', async () => {
    const row = await pendingRecord(true);
    const earlierBefore = (await stored(row.kycId)).subs[0];
    const reply = await server.call('kyc/update-status', { kycId: row.kycId, kycData: approveAll(row.currentData) }, checker);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'KYC updated successfully', status: 'APPROVED' } });
    const { record, subs } = await stored(row.kycId);
    expect(record.status).toBe('APPROVED');
    expect(subs[0]).toEqual(earlierBefore);
    expect(subs[1].decision).toBe('APPROVED');
  });

  it('rejects the re-submission when one field is rejected', async () => {
    const row = await pendingRecord(true);
    let data = approveAll(row.currentData);
    data = setApproved(data, 'userImage', false);
    data = setReason(data, 'userImage', 'Selfie is blurred');
    const reply = await server.call('kyc/update-status', { kycId: row.kycId, kycData: data }, checker);
    expect(reply).toEqual({ statusCode: 200, data: { message: 'KYC updated successfully', status: 'REJECTED' } });
    expect((await stored(row.kycId)).record.status).toBe('REJECTED');
  });
});

describe('the server enforces the review rules', () => {
  async function refused(kycData: KycData, row: ListRow, message: string) {
    const before = await stored(row.kycId);
    const reply = await server.call('kyc/create-request', { userId: row.kycId, kycData }, checker);
    expect(reply).toEqual({ statusCode: 400, data: { message } });
    expect(await stored(row.kycId)).toEqual(before);
  }

  it('refuses a rejected field without a reason, naming it', async () => {
    const row = await pendingRecord(false);
    await refused(setApproved(approveAll(row.currentData), 'gender', false), row, 'kycData.gender.reason: Reject reason is required for fields marked as rejected.');
  });

  it('refuses a rejected UID group whose document images have no reasons', async () => {
    const row = await pendingRecord(false);
    const data = setReason(setApproved(approveAll(row.currentData), 'uid', false), 'uid', 'Expired');
    await refused(
      data,
      row,
      'kycData.uidFrontImage.reason: Reject reason is required for fields marked as rejected.; kycData.uidBackImage.reason: Reject reason is required for fields marked as rejected.',
    );
  });

  it('refuses a group whose members disagree', async () => {
    const row = await pendingRecord(false);
    const data = approveAll(row.currentData);
    await refused({ ...data, phoneNo: { ...data.phoneNo, approved: false, reason: 'Wrong' } }, row, 'kycData.dialCode: The Contact fields (dialCode, phoneNo) must be approved or rejected together');
  });

  it('refuses an approved field that carries a reason, and a changed value', async () => {
    const row = await pendingRecord(false);
    const data = approveAll(row.currentData);
    await refused({ ...data, email: { ...data.email, reason: 'x' } }, row, 'kycData.email.reason: An approved field has no reject reason');
    await refused({ ...data, uid: { ...data.uid, value: 'FORGED' } }, row, 'kycData.uid: The value differs from the submission under review; reload it');
  });

  it('refuses a reason over 100 characters, an unknown field and a status in the body', async () => {
    const row = await pendingRecord(false);
    const data = setApproved(approveAll(row.currentData), 'email', false);
    const long = await server.call('kyc/create-request', { userId: row.kycId, kycData: { ...data, email: { ...data.email, reason: 'x'.repeat(101) } } }, checker);
    expect(long).toEqual({ statusCode: 400, data: { message: 'kycData.email.reason: Reject reason can have at most 100 characters' } });
    const extra = await server.call('kyc/create-request', { userId: row.kycId, kycData: { ...data, salary: data.email } }, checker);
    expect(extra.statusCode).toBe(400);
    expect(extra.data.message).toBe('kycData: Unrecognized key: "salary"');
    const status = await server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData), status: 'APPROVED' }, checker);
    expect(status.statusCode).toBe(400);
    expect((await stored(row.kycId)).record.status).toBe('PENDING');
  });

  it('answers 404 for an unknown record', async () => {
    const row = await pendingRecord(false);
    const reply = await server.call('kyc/create-request', { userId: 999999, kycData: approveAll(row.currentData) }, checker);
    expect(reply).toEqual({ statusCode: 404, data: { message: 'KYC record not found' } });
  });
});

describe('permissions', () => {
  it('lets a kyc-view holder list but not decide; the auditor may not even list', async () => {
    const maker = await server.login('maker');
    const row = await pendingRecord(false);
    expect((await server.call('kyc/get-all', {}, maker)).statusCode).toBe(200);
    for (const [path, body] of [
      ['kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }],
      ['kyc/update-status', { kycId: row.kycId, kycData: approveAll(row.currentData) }],
    ] as const) {
      expect(await server.call(path, body, maker)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of kyc-approve' } });
    }
    const auditor = await server.login('auditor');
    expect(await server.call('kyc/get-all', {}, auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of kyc-view' } });
    expect((await stored(row.kycId)).record.status).toBe('PENDING');
  });

  it('needs kyc-view as well as kyc-approve to decide', async () => {
    const role = await server.db.one<{ id: number }>(
      `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('KYC Approver Only', 'BACKEND', (SELECT id FROM user_levels WHERE level = 2), $1) RETURNING id`,
      [['kyc-approve']],
    );
    await server.db.query(
      `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
       VALUES ('Approve Only', 'approve.only@remit.lk', '0770000999', 'approve_only', 'BACKEND', 'HO', $1, $2)`,
      [role!.id, await hashPassword(DEMO_PASSWORD, TEST_SCRYPT_N)],
    );
    const token = await server.login('approve_only');
    const row = await pendingRecord(false);
    const reply = await server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }, token);
    expect(reply).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs kyc-view and kyc-approve' } });
    expect((await stored(row.kycId)).record.status).toBe('PENDING');
  });
});

describe('one decision per submission', () => {
  it('two reviewers deciding at once on two servers: exactly one decision is applied', async () => {
    const peer = await server.startPeer();
    try {
      const other = await peer.login('kumari_fernando');
      const row = await pendingRecord(false);
      const rejected = setReason(setApproved(approveAll(row.currentData), 'dialCode', false), 'contact', 'Phone number could not be verified');
      const replies = await Promise.all([
        server.call('kyc/create-request', { userId: row.kycId, kycData: approveAll(row.currentData) }, checker),
        peer.call('kyc/create-request', { userId: row.kycId, kycData: rejected }, other),
      ]);
      const codes = replies.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409]);
      const winner = replies.find((r) => r.statusCode === 200)!;
      const { record, subs } = await stored(row.kycId);
      expect(record.status).toBe(winner.data.status);
      expect(subs[0].decision).toBe(winner.data.status);
      const logs = await server.db.query("SELECT 1 FROM activity_logs WHERE type LIKE 'KYC_%' AND description LIKE $1 AND created_at > now() - interval '1 hour'", [`KYC ${row.kycId} %`]);
      expect(logs).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });
});
