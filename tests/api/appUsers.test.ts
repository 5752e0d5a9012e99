/** App users through HTTP: search, and deactivate/activate and hold/unhold through maker-checker (spec 002 §2, §5, §7, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { appUsersScreen } from '../../screens/appUsers';
import { startServer, type TestServer } from './harness';
import { counts, fetchImage, pendingIn, requestStatus } from './masterDataHelpers';

let server: TestServer;
let maker: string;
let checker: string;
let auditor: string;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  [maker, checker, auditor, admin] = await Promise.all([server.login('maker'), server.login('checker'), server.login('auditor'), server.login('admin')]);
});
afterAll(async () => {
  await server?.close();
});

interface AppUser {
  id: number;
  firstName: string;
  uid: string;
  uidType: string;
  email: string;
  contact: string;
  countryCode: string;
  country: string;
  status: string;
  disabled: number;
  hold: number;
  locked: number;
  user_hold_reason: string;
  selfie: string | null;
  uidFront: string | null;
  uidBack: string | null;
}
const search = async (body: Record<string, unknown>, token = maker) =>
  (await server.call('AppUser/list', body, token)).data as { appUsers: AppUser[]; countries: { code: string; name: string }[]; changeRequests: unknown[]; fields: unknown[] };
const userById = async (id: number) => (await search({ data: '', fetchCount: 99999999 })).appUsers.find((u) => u.id === id)!;
/** An active user, not held and not locked, in the seeded data. */
async function activeUser(skip = 0): Promise<AppUser> {
  const { appUsers } = await search({ data: '', fetchCount: 200 });
  return appUsers.filter((u) => u.disabled === 0 && u.hold === 0 && u.locked === 0)[skip];
}

describe('AppUser/list', () => {
  it('has thousands of app users across the countries the service serves, newest first', async () => {
    const all = await search({ data: '', countryCode: '', fetchCount: 99999999 });
    expect(all.appUsers.length).toBeGreaterThanOrEqual(3000);
    expect(new Set(all.appUsers.map((u) => u.countryCode)).size).toBeGreaterThanOrEqual(12);
    expect(all.appUsers.map((u) => u.id)).toEqual([...all.appUsers.map((u) => u.id)].sort((a, b) => b - a));
    expect(all.appUsers.some((u) => u.status === 'Inactive')).toBe(true);
    expect(all.appUsers.some((u) => u.status === 'On Hold' && u.user_hold_reason !== '')).toBe(true);
    expect(new Set(all.appUsers.map((u) => u.uidType))).toEqual(new Set(['NIC', 'PASSPORT']));
    expect(all.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['AE', 'SA', 'QA', 'KW', 'KR', 'JP', 'IT', 'LK']));
    expect(all.fields).toEqual(exportFieldsOf(appUsersScreen));
    const withImages = all.appUsers.find((u) => u.selfie && u.uidFront && u.uidBack)!;
    for (const path of [withImages.selfie!, withImages.uidFront!, withImages.uidBack!]) expect((await fetchImage(server, path)).status).toBe(200);
    expect(all.appUsers.some((u) => u.uidType === 'PASSPORT' && u.uidBack === null)).toBe(true);
  });

  it('finds users by the start of their UID, email or contact number, in a country, up to the fetch count', async () => {
    const sample = (await search({ data: '', fetchCount: 50 })).appUsers[7];
    expect((await search({ data: sample.uid.slice(0, 6).toLowerCase(), fetchCount: 99999999 })).appUsers.map((u) => u.id)).toContain(sample.id);
    expect((await search({ data: sample.email.slice(0, 8).toUpperCase(), fetchCount: 99999999 })).appUsers.map((u) => u.id)).toContain(sample.id);
    expect((await search({ data: `+${sample.contact.slice(0, 7)}`, fetchCount: 99999999 })).appUsers.map((u) => u.id)).toContain(sample.id);
    const inCountry = await search({ countryCode: sample.countryCode, fetchCount: 99999999 });
    expect(inCountry.appUsers.length).toBeGreaterThan(0);
    expect(inCountry.appUsers.every((u) => u.countryCode === sample.countryCode)).toBe(true);
    expect((await search({ fetchCount: 25 })).appUsers).toHaveLength(25);
    expect((await search({ data: '%', fetchCount: 99999999 })).appUsers).toHaveLength(0);
    expect((await server.call('AppUser/list', { data: 'x'.repeat(31) }, maker)).statusCode).toBe(400);
  });

  it('is open to auditors (auditor-app-user-view), who may not act; only approvers get change requests', async () => {
    const reply = await server.call('AppUser/list', { fetchCount: 5 }, auditor);
    expect(reply.statusCode).toBe(200);
    expect(reply.data.appUsers).toHaveLength(5);
    expect(reply.data.changeRequests).toEqual([]);
    expect((await server.call('AppUser/disable', { id: 1, disable: true }, auditor)).statusCode).toBe(403);
    expect((await server.call('AppUser/hold', { id: 1, hold: true, description: 'x' }, checker)).statusCode).toBe(403);
    expect((await server.call('AppUser/approve', { changeRequestID: 1, actionTaken: 'approve' }, maker)).statusCode).toBe(403);
  });
});

describe('deactivate and activate', () => {
  it('are sent for approval, lock the user, and apply only when a checker approves', async () => {
    const user = await activeUser(0);
    const reply = await server.call('AppUser/disable', { id: user.id, disable: true }, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'App user sent for approval' } });
    expect(await userById(user.id)).toMatchObject({ status: 'Active', locked: 1 });
    expect((await search({ fetchCount: 5 }, maker)).changeRequests).toEqual([]); // the maker cannot approve: none are sent to them

    const request = pendingIn(await server.call('AppUser/list', { fetchCount: 1 }, checker), reply.data.changeRequestId);
    expect(request).toMatchObject({ type: 'App User', pendingAction: 'EDIT', requestedBy: 'maker' });
    expect(request.originalRecord!.status.value).toBe('Active');
    expect(request.newRecord.status.value).toBe('Not Active');
    expect(request.newRecord.uid.value).toBe(`${user.uidType} ${user.uid}`);

    // locked: a second request is refused
    expect(await server.call('AppUser/hold', { id: user.id, hold: true, description: 'Fraud check' }, maker)).toEqual({
      statusCode: 409,
      data: { message: 'App User is locked: a change request is already pending' },
    });
    expect(await server.call('AppUser/approve', { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'App User approved successfully' },
    });
    expect(await userById(user.id)).toMatchObject({ status: 'Inactive', disabled: 1, locked: 0 });
    expect(await server.call('AppUser/disable', { id: user.id, disable: true }, maker)).toEqual({ statusCode: 422, data: { message: 'App user is already inactive' } });

    const back = await server.call('AppUser/disable', { id: user.id, disable: false }, maker);
    expect((await server.call('AppUser/approve', { changeRequestID: back.data.changeRequestId, actionTaken: 'approve' }, admin)).statusCode).toBe(200);
    expect(await userById(user.id)).toMatchObject({ status: 'Active', disabled: 0 });
  });
});

describe('hold and unhold', () => {
  it('need a comment, are sent for approval, and a rejected one changes nothing', async () => {
    const user = await activeUser(1);
    const before = await counts(server, ['change_requests']);
    for (const description of ['', '   ']) {
      expect(await server.call('AppUser/hold', { id: user.id, hold: true, description }, maker)).toEqual({ statusCode: 400, data: { message: 'description: Hold/Unhold comment is required.' } });
    }
    expect((await server.call('AppUser/hold', { id: user.id, hold: true, description: 'x'.repeat(101) }, maker)).data.message).toBe('description: Hold/Unhold comment can have at most 100 characters');
    expect(await counts(server, ['change_requests'])).toEqual(before);
    expect((await userById(user.id)).locked).toBe(0);

    const held = await server.call('AppUser/hold', { id: user.id, hold: true, description: '  Beneficiary account mismatch reported by the bank ' }, maker);
    const request = pendingIn(await server.call('AppUser/list', { fetchCount: 1 }, checker), held.data.changeRequestId);
    expect(request.newRecord.hold.value).toBe('Yes');
    expect(request.newRecord.comment.value).toBe('Beneficiary account mismatch reported by the bank');
    expect((await server.call('AppUser/approve', { changeRequestID: held.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect(await userById(user.id)).toMatchObject({ status: 'On Hold', hold: 1, user_hold_reason: 'Beneficiary account mismatch reported by the bank', locked: 0 });

    const release = await server.call('AppUser/hold', { id: user.id, hold: false, description: 'Bank confirmed the account' }, maker);
    expect((await server.call('AppUser/approve', { changeRequestID: release.data.changeRequestId, actionTaken: 'reject' }, checker)).data.message).toBe('App User rejected successfully');
    expect(await requestStatus(server, release.data.changeRequestId)).toBe('REJECTED');
    expect(await userById(user.id)).toMatchObject({ status: 'On Hold', hold: 1, locked: 0 });

    const again = await server.call('AppUser/hold', { id: user.id, hold: false, description: 'Bank confirmed the account' }, maker);
    expect((await server.call('AppUser/approve', { changeRequestID: again.data.changeRequestId, actionTaken: 'approve' }, checker)).statusCode).toBe(200);
    expect(await userById(user.id)).toMatchObject({ status: 'Active', hold: 0, user_hold_reason: '' });
  });

  it('of an unknown user is 404', async () => {
    expect((await server.call('AppUser/hold', { id: 999999, hold: true, description: 'x' }, maker)).statusCode).toBe(404);
  });
});
