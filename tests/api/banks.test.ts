/** Banks through HTTP as maker, checker and users without the permission (spec 002 §2, §5, §7, §8). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestOf } from '../../src/api/contract';
import { bankApprove, bankCreate, bankEdit, bankGetForEdit, bankList } from '../../src/api/banks';
import { expectOk, expectStatus, startServer, type TestServer } from './harness';
import { bigPngBase64, counts, fetchImage, GIF_BASE64, JPEG_BASE64, pendingIn, pngBase64, requestStatus, TEXT_BASE64 } from './masterDataHelpers';

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

const newBank = (overrides: Partial<RequestOf<typeof bankCreate>> = {}): RequestOf<typeof bankCreate> => ({
  bank_code: 'LOLC_7135',
  bank_name: 'LOLC Finance',
  logo: pngBase64(),
  disabled: 0,
  ...overrides,
});
const bankId = async (code: string) => (await server.db.one<{ id: number }>('SELECT id FROM banks WHERE bank_code = $1', [code]))?.id;
const stored = () => counts(server, ['banks', 'change_requests', 'images']);

describe('bank/list', () => {
  it('lists the Sri Lankan banks with their codes, a served logo and the status', async () => {
    const reply = await server.call(bankList, {}, checker);
    expectOk(reply);
    const boc = reply.data.banks.find((b) => b.bank_code === '7010');
    expect(boc).toMatchObject({ bank_name: 'Bank of Ceylon', status: 'Active', disabled: 0, locked: 0 });
    expect(reply.data.banks.length).toBeGreaterThanOrEqual(30);
    expect(reply.data.banks.some((b) => b.status === 'Inactive')).toBe(true);
    const image = await fetchImage(server, String(boc?.logo));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toMatch(/max-age/);
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('serves only stored PNG or JPEG images by their exact path', async () => {
    expect((await fetchImage(server, 'images/banks/none-0000.png')).status).toBe(404);
    expect((await server.raw('/images/../package.json')).status).toBe(404);
    expect((await server.raw('/images/banks/%2e%2e/x.png')).status).toBe(404);
    await server.db.query("INSERT INTO images (path, content_type, bytes) VALUES ('images/test/evil.png', 'image/svg+xml', $1)", [Buffer.from('<svg onload="alert(1)"/>')]);
    expect((await fetchImage(server, 'images/test/evil.png')).status).toBe(404);
  });

  it('is refused (403) to users without bank-view, and create to users without bank-create', async () => {
    expect(await server.call(bankList, {}, auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of bank-view' } });
    expectStatus(await server.call(bankCreate, newBank(), checker), 403);
    expectStatus(await server.call(bankEdit, { id: 1, ...newBank() }, checker), 403);
    expectStatus(await server.call(bankApprove, { changeRequestID: 1, actionTaken: 'approve' }, maker), 403);
  });
});

describe('a bank CREATE request', () => {
  it('is pending with newRecord (logo stored and served), approved by the checker it creates the bank', async () => {
    const body = newBank();
    const reply = await server.ok(bankCreate, body, maker);
    expect(reply.data.message).toBe('Bank sent for approval');
    const id = reply.data.changeRequestId;
    expect(await bankId(body.bank_code)).toBeUndefined();

    const request = pendingIn(await server.ok(bankList, {}, checker), id);
    expect(request).toMatchObject({ type: 'Bank', pendingAction: 'CREATE', requestedBy: 'maker', originalRecord: null });
    expect(request.newRecord.bank_code).toEqual({ header: 'Bank Code', type: 'STRING', value: body.bank_code });
    expect(request.newRecord.status.value).toBe('Active');
    expect(request.newRecord.logo.type).toBe('IMAGE');
    const logoPath = String(request.newRecord.logo.value);
    expect(logoPath).toMatch(/^images\/banks\/.+\.png$/);
    expect(Buffer.from(await (await fetchImage(server, logoPath)).arrayBuffer()).toString('base64')).toBe(body.logo);

    // the maker may not decide it
    expectStatus(await server.call(bankApprove, { changeRequestID: id, actionTaken: 'approve' }, maker), 403);
    expect(await server.call(bankApprove, { changeRequestID: id, actionTaken: 'approve' }, checker)).toEqual({ statusCode: 200, data: { message: 'Bank approved successfully' } });
    const created = (await server.ok(bankList, {}, checker)).data.banks.find((b) => b.bank_code === body.bank_code);
    expect(created).toMatchObject({ bank_name: body.bank_name, logo: logoPath, status: 'Active', locked: 0 });
  });

  it('rejected is discarded, with its uploaded logo', async () => {
    const body = newBank({ bank_code: 'REJECT_ME', bank_name: 'Reject Me Bank' });
    const id = (await server.ok(bankCreate, body, maker)).data.changeRequestId;
    const logoPath = String(pendingIn(await server.ok(bankList, {}, checker), id).newRecord.logo.value);
    expect(await server.call(bankApprove, { changeRequestID: id, actionTaken: 'reject' }, checker)).toEqual({ statusCode: 200, data: { message: 'Bank rejected successfully' } });
    expect(await bankId(body.bank_code)).toBeUndefined();
    expect(await requestStatus(server, id)).toBe('REJECTED');
    expect((await fetchImage(server, logoPath)).status).toBe(404);
  });

  it("withdrawn by its maker is discarded, with its uploaded logo (the adapter's onRejected, as on a rejection)", async () => {
    const body = newBank({ bank_code: 'WITHDRAW_ME', bank_name: 'Withdraw Me Bank' });
    const id = (await server.call('bank/create', body, maker)).data.changeRequestId;
    const logoPath = String(pendingIn(await server.call('bank/list', {}, checker), id).newRecord.logo.value);
    expect((await fetchImage(server, logoPath)).status).toBe(200);
    expect((await server.call('changeRequest/withdraw', { changeRequestID: id }, maker)).statusCode).toBe(200);
    expect(await requestStatus(server, id)).toBe('WITHDRAWN');
    expect(await bankId(body.bank_code)).toBeUndefined();
    expect((await fetchImage(server, logoPath)).status).toBe(404);
  });

  it('refuses a code that exists or is pending, with 422', async () => {
    expect(await server.call(bankCreate, newBank({ bank_code: '7010' }), maker)).toEqual({ statusCode: 422, data: { message: 'Bank Code "7010" already exists' } });
    const body = newBank({ bank_code: 'PENDING_BANK' });
    await server.ok(bankCreate, body, maker);
    expect(await server.call(bankCreate, { ...body, bank_code: 'pending_bank' }, maker)).toEqual({ statusCode: 422, data: { message: 'Bank Code "pending_bank" is already pending approval' } });
  });
});

describe('a bank EDIT request', () => {
  it('keeps an unchanged logo sent back as its path, locks the bank, and applies on approval', async () => {
    const id = (await bankId('7162'))!;
    const { bank } = (await server.ok(bankGetForEdit, { id }, maker)).data;
    expect(bank).toMatchObject({ id, bank_code: '7162', bank_name: 'Nations Trust Bank', locked: 0 });
    const body: RequestOf<typeof bankEdit> = { id, bank_code: bank.bank_code, bank_name: 'Nations Trust Bank PLC', logo: String(bank.logo), disabled: 0 };
    const reply = await server.ok(bankEdit, body, maker);
    expect(reply.data.message).toBe('Bank sent for approval');

    const list = await server.ok(bankList, {}, checker);
    const request = pendingIn(list, reply.data.changeRequestId);
    expect(request.pendingAction).toBe('EDIT');
    expect(request.originalRecord!.bank_name.value).toBe('Nations Trust Bank');
    expect(request.newRecord.bank_name.value).toBe('Nations Trust Bank PLC');
    expect(request.newRecord.logo.value).toBe(bank.logo);
    expect(list.data.banks.find((b) => b.id === id)?.locked).toBe(1);

    // locked: a second request is refused
    expect(await server.call(bankEdit, { ...body, bank_name: 'Someone Else' }, maker)).toEqual({ statusCode: 409, data: { message: 'Bank is locked: a change request is already pending' } });

    await server.ok(bankApprove, { changeRequestID: reply.data.changeRequestId, actionTaken: 'approve' }, checker);
    const after = (await server.ok(bankGetForEdit, { id }, maker)).data.bank;
    expect(after).toMatchObject({ bank_name: 'Nations Trust Bank PLC', logo: bank.logo, locked: 0 });
  });

  it('stores a new logo (a JPEG is accepted) and refuses a changed code or another record’s logo path', async () => {
    const id = (await bankId('7287'))!;
    const { bank } = (await server.ok(bankGetForEdit, { id }, maker)).data;
    const other = (await server.ok(bankGetForEdit, { id: (await bankId('7010'))! }, maker)).data.bank;
    const before = await stored();
    expect(await server.call(bankEdit, { id, bank_code: 'SEYLAN', bank_name: bank.bank_name, logo: bank.logo, disabled: 0 }, maker)).toEqual({
      statusCode: 422,
      data: { message: 'Bank Code cannot be changed' },
    });
    expect(await server.call(bankEdit, { id, bank_code: bank.bank_code, bank_name: bank.bank_name, logo: other.logo, disabled: 0 }, maker)).toEqual({
      statusCode: 400,
      data: { message: 'logo: Uploaded image is invalid' },
    });
    expect(await stored()).toEqual(before);

    const reply = await server.ok(bankEdit, { id, bank_code: bank.bank_code, bank_name: bank.bank_name, logo: JPEG_BASE64, disabled: 1 }, maker);
    const request = pendingIn(await server.ok(bankList, {}, checker), reply.data.changeRequestId);
    expect(String(request.newRecord.logo.value)).toMatch(/\.jpg$/);
    expect(request.newRecord.status.value).toBe('Not Active');
    const image = await fetchImage(server, String(request.newRecord.logo.value));
    expect(image.headers.get('content-type')).toBe('image/jpeg');
  });

  it('of an unknown bank is 404', async () => {
    expectStatus(await server.call(bankEdit, { id: 99999, ...newBank() }, maker), 404);
    expectStatus(await server.call(bankGetForEdit, { id: 99999 }, maker), 404);
  });
});

describe('bad inputs get a 400 with the specification’s message and store nothing', () => {
  it.each([
    ['a logo of 100 KB or more', { logo: bigPngBase64(100 * 1024) }, 'logo: Uploaded image is invalid'],
    ['text instead of an image', { logo: TEXT_BASE64 }, 'logo: Uploaded image is invalid'],
    ['a GIF', { logo: GIF_BASE64 }, 'logo: Uploaded image is invalid'],
    ['a data: prefix', { logo: `data:image/png;base64,${pngBase64()}` }, 'logo: Uploaded image is invalid'],
    ['no logo', { logo: '' }, 'logo: Please upload an image'],
    ['a short name', { bank_name: 'AB' }, 'bank_name: Name can only have alphanumeric characters with &. and should be at least 3 characters long'],
    ['a name with other characters', { bank_name: 'Bank (Ceylon)' }, 'bank_name: Name can only have alphanumeric characters with &. and should be at least 3 characters long'],
    ['a code with a dash', { bank_code: 'AB-12' }, "bank_code: Bank Code can only have alphanumeric characters with '_' and should be at least 3 characters long"],
    ['a name over 100 characters', { bank_name: 'A'.repeat(101) }, 'bank_name: Name can only have alphanumeric characters with &. and should be at least 3 characters long'],
  ])('%s', async (_what, change, message) => {
    const before = await stored();
    expect(await server.call('bank/create', { ...newBank({ bank_code: 'BAD_INPUT' }), ...change }, maker)).toEqual({ statusCode: 400, data: { message } });
    expect(await stored()).toEqual(before);
  });

  it('accepts a name with & and . (the rule’s characters)', async () => {
    await server.ok(bankCreate, newBank({ bank_code: 'AMEX_LK', bank_name: 'American Express & Co. Ltd' }), maker);
  });
});
