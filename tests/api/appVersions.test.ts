/** App versions through HTTP as maker, checker and users without the permission (spec 002 §2, §5, §7, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appVersionApprove, appVersionCreate, appVersionList } from '../../src/api/appVersions';
import { expectOk, expectStatus, startServer, type TestServer } from './harness';
import { counts, pendingIn, requestStatus } from './masterDataHelpers';

let server: TestServer;
let maker: string;
let checker: string;
let auditor: string;

beforeAll(async () => {
  server = await startServer();
  [maker, checker, auditor] = await Promise.all([server.login('maker'), server.login('checker'), server.login('auditor')]);
});
afterAll(async () => {
  await server?.close();
});

const versions = async () => (await server.ok(appVersionList, {}, checker)).data.list;
const stored = () => counts(server, ['app_versions', 'change_requests']);

describe('appVersion/list', () => {
  it('lists the versions per platform, newest first', async () => {
    const list = await versions();
    expect(list.length).toBeGreaterThanOrEqual(10);
    expect(list.map((v) => v.id)).toEqual([...list.map((v) => v.id)].sort((a, b) => b - a));
    for (const p of ['ANDROID', 'IOS', 'HUAWEI']) expect(list.some((v) => v.platforms.includes(p))).toBe(true);
    expect(list.some((v) => v.force_update === 1)).toBe(true);
    expect(list.every((v) => /^\d{1,4}\.\d{1,4}\.\d{1,4}\+\d{1,4}$/.test(v.version))).toBe(true);
  });

  it('is refused (403) without the permissions', async () => {
    expect(await server.call(appVersionList, {}, auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of app-version-view' } });
    expectStatus(await server.call(appVersionCreate, { appVersion: '3.0.0+1', platforms: 'IOS', forceUpdate: 0 }, checker), 403);
    expectStatus(await server.call(appVersionApprove, { changeRequestID: 1, actionTaken: 'approve' }, maker), 403);
  });
});

describe('an app version CREATE request', () => {
  it('is pending, approved by the checker it is created; a rejected one is discarded', async () => {
    const reply = await server.call(appVersionCreate, { appVersion: '2.5.0+52', platforms: 'HUAWEI,ANDROID', forceUpdate: 1 }, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'AppVersion sent for approval' } });
    expectOk(reply);
    expect((await versions()).some((v) => v.version === '2.5.0+52')).toBe(false);
    const list = await server.ok(appVersionList, {}, checker);
    const request = pendingIn(list, reply.data.changeRequestId);
    expect(request).toMatchObject({ type: 'App Version', pendingAction: 'CREATE', originalRecord: null });
    expect(request.newRecord).toEqual({
      version: { header: 'Version', type: 'STRING', value: '2.5.0+52' },
      platforms: { header: 'Platforms', type: 'STRING_ARRAY', value: ['ANDROID', 'HUAWEI'] },
      force_update: { header: 'Force Update', type: 'STRING', value: 'Yes' },
    });
    expect(await server.call(appVersionCreate, { appVersion: '2.5.0+52', platforms: 'IOS', forceUpdate: 0 }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'App version 2.5.0+52 is already pending approval' },
    });
    expectStatus(await server.call(appVersionApprove, { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, maker), 403);
    expect(await server.call(appVersionApprove, { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'App Version approved successfully' },
    });
    expect((await versions())[0]).toMatchObject({ version: '2.5.0+52', platforms: ['ANDROID', 'HUAWEI'], force_update: 1 });
    expect(await server.call(appVersionCreate, { appVersion: '2.5.0+52', platforms: 'IOS', forceUpdate: 0 }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'App version 2.5.0+52 already exists' },
    });

    const rejected = await server.ok(appVersionCreate, { appVersion: '2.5.1+53', platforms: 'IOS', forceUpdate: 0 }, maker);
    expect((await server.ok(appVersionApprove, { changeRequestID: rejected.data.changeRequestId, actionTaken: 'reject' }, checker)).data.message).toBe('App Version rejected successfully');
    expect(await requestStatus(server, rejected.data.changeRequestId)).toBe('REJECTED');
    expect((await versions()).some((v) => v.version === '2.5.1+53')).toBe(false);
  });
});

describe('bad inputs get a 400 with the specification’s message and store nothing', () => {
  it.each([
    ['a version part with 5 digits', { appVersion: '10000.0.0+1' }, 'appVersion: Each part of the version can only have up to 4 digits'],
    ['a build with 5 digits', { appVersion: '1.0.0+12345' }, 'appVersion: Each part of the version can only have up to 4 digits'],
    ['an empty part', { appVersion: '1..0+1' }, 'appVersion: Please enter a value'],
    ['no build', { appVersion: '1.2.3' }, 'appVersion: Please enter a value'],
    ['letters', { appVersion: '1.a.0+1' }, 'appVersion: Each part of the version can only have up to 4 digits'],
    ['no platform', { platforms: '' }, 'platforms: Please select at least one platform'],
    ['an unknown platform', { platforms: 'ANDROID,WINDOWS' }, 'platforms: unknown platform WINDOWS'],
    ['a platform twice', { platforms: 'IOS,IOS' }, 'platforms: a platform is listed twice'],
    ['force update 2', { forceUpdate: 2 }, /^forceUpdate: /],
  ])('%s', async (_what, change, message) => {
    const before = await stored();
    const reply = await server.call('appVersion/create', { appVersion: '3.1.0+60', platforms: 'ANDROID', forceUpdate: 0, ...change }, maker);
    expect(reply.statusCode).toBe(400);
    if (typeof message === 'string') expect(reply.data.message).toBe(message);
    else expect(reply.data.message).toMatch(message);
    expect(await stored()).toEqual(before);
  });
});
