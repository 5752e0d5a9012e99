/** IPG providers through HTTP: list, activate/deactivate through maker-checker (spec 002 §2, §7, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyList } from '../../src/api/providerCurrencies';
import { providerApprove, providerDisable, providerList } from '../../src/api/providers';
import { expectOk, expectStatus, startServer, type TestServer } from './harness';
import { fetchImage, pendingIn, requestStatus } from './masterDataHelpers';

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

const providerId = async (code: string) => (await server.db.one<{ id: number }>('SELECT id FROM ipg_providers WHERE provider_bank_code = $1', [code]))!.id;
const providerOf = async (code: string, token = checker) => {
  const provider = (await server.ok(providerList, {}, token)).data.providers.find((p) => p.provider_bank_code === code);
  if (!provider) throw new Error(`no provider ${code} in the list`);
  return provider;
};

describe('IPGProvider/list', () => {
  it('lists the providers with their logo, status and lock', async () => {
    const reply = await server.call(providerList, {}, maker);
    expectOk(reply);
    expect(reply.data.providers.map((p) => p.provider_bank_code)).toEqual(expect.arrayContaining(['7010', '7056', '7135', '7278', '7083']));
    const boc = await providerOf('7010');
    expect(boc).toMatchObject({ provider_bank_name: 'Bank of Ceylon IPG', status: 'Active', disabled: 0, locked: 0 });
    expect(boc.provider_logo).toEqual(expect.any(String));
    expect((await fetchImage(server, boc.provider_logo ?? '')).status).toBe(200);
    expect((await providerOf('7083')).status).toBe('Inactive');
    expect(reply.data.changeRequests).toEqual([]);
  });

  it('is refused (403) without ipg-provider-view; disable without ipg-provider-edit; approve without ipg-provider-approve', async () => {
    expect(await server.call(providerList, {}, auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of ipg-provider-view' } });
    expectStatus(await server.call(providerDisable, { id: 1, disable: true }, checker), 403);
    expectStatus(await server.call(providerApprove, { changeRequestID: 1, actionTaken: 'approve' }, maker), 403);
  });
});

describe('deactivate and activate', () => {
  it('are sent for approval, lock the provider, and apply only when a second user approves', async () => {
    const id = await providerId('7278');
    const reply = await server.call(providerDisable, { id, disable: true }, maker);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'IPG Provider sent for approval' } });
    expectOk(reply);
    const list = await server.ok(providerList, {}, checker);
    const request = pendingIn(list, reply.data.changeRequestId);
    expect(request).toMatchObject({ type: 'IPG Provider', pendingAction: 'EDIT', requestedBy: 'maker' });
    expect(request.originalRecord!.status.value).toBe('Active');
    expect(request.newRecord.status.value).toBe('Not Active');
    expect(request.newRecord.provider_logo.type).toBe('IMAGE');
    expect(await providerOf('7278')).toMatchObject({ status: 'Active', locked: 1 });

    // a locked provider refuses a second request, and its currency list too
    expect(await server.call(providerDisable, { id, disable: true }, maker)).toEqual({ statusCode: 409, data: { message: 'IPG Provider is locked: a change request is already pending' } });
    const admin = await server.login('admin');
    const currencies = (await server.ok(currencyList, { provider_bank_code: '7278' }, admin)).data;
    expect(currencies.provider.locked).toBe(1);

    expectStatus(await server.call(providerApprove, { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, maker), 403);
    expect(await server.call(providerApprove, { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker)).toEqual({
      statusCode: 200,
      data: { message: 'IPG Provider approved successfully' },
    });
    expect(await providerOf('7278')).toMatchObject({ status: 'Inactive', disabled: 1, locked: 0 });

    // activate again, rejected: nothing changes
    const again = await server.ok(providerDisable, { id, disable: false }, maker);
    expect((await server.ok(providerApprove, { changeRequestID: again.data.changeRequestId, actionTaken: 'reject' }, checker)).data.message).toBe('IPG Provider rejected successfully');
    expect(await requestStatus(server, again.data.changeRequestId)).toBe('REJECTED');
    expect(await providerOf('7278')).toMatchObject({ status: 'Inactive', locked: 0 });
  });

  it('refuses a change to the state the provider is already in (422) and an unknown provider (404)', async () => {
    expect(await server.call(providerDisable, { id: await providerId('7056'), disable: false }, maker)).toEqual({ statusCode: 422, data: { message: 'IPG Provider is already active' } });
    expectStatus(await server.call(providerDisable, { id: 9999, disable: true }, maker), 404);
    expect((await server.call('IPGProvider/disable', { id: 'one', disable: true }, maker)).data.message).toMatch(/^id: /);
  });
});
