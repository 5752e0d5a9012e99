/**
 * IPG provider currencies through HTTP (spec 002 §2, §4, §5, §7, §8): whose provider a user sees,
 * today's rates flag, one change request for the whole list, the approval table, rate rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateMessages } from '../../src/api/providerCurrencies';
import { startServer, type TestServer } from './harness';
import { counts, pendingIn, requestStatus } from './masterDataHelpers';

let server: TestServer;
let admin: string;
let maker: string;
let auditor: string;
/** IPG bank officers of 7010 and 7056 (ipg-currency-view, ipg-currency-edit). */
let boc: string;
let combank: string;
/** IPG bank supervisors (ipg-currency-view, ipg-currency-approve) of 7010 and 7056, made for these tests. */
let bocChecker: string;
let combankChecker: string;

beforeAll(async () => {
  server = await startServer();
  const role = await server.db.one<{ id: number }>(
    `INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES ('IPG Bank Supervisor', 'IPGBANK', (SELECT id FROM user_levels WHERE level = 2), $1) RETURNING id`,
    [['ipg-currency-view', 'ipg-currency-approve']],
  );
  for (const [username, branch] of [
    ['boc_supervisor', '7010'],
    ['combank_supervisor', '7056'],
  ]) {
    await server.db.query(
      `INSERT INTO console_users (name, email, contact, username, user_type, branch_code, role_id, password_hash)
       SELECT $1, $1 || '@remit.lk', '0771234567', $1, 'IPGBANK', $2, $3, password_hash FROM console_users WHERE username = 'kasun_herath'`,
      [username, branch, role!.id],
    );
  }
  [admin, maker, auditor, boc, combank, bocChecker, combankChecker] = await Promise.all(
    ['admin', 'maker', 'auditor', 'kasun_herath', 'ishara_d', 'boc_supervisor', 'combank_supervisor'].map((u) => server.login(u)),
  );
});
afterAll(async () => {
  await server?.close();
});

const list = (token: string, provider_bank_code = '') => server.call('IPGProvider/currency/list', { provider_bank_code }, token);

interface Currency {
  currency_code: string;
  transaction_rate: number;
  settlement_rate: number;
  disabled: number;
}
const toItems = (code: string, currencies: Currency[]) =>
  currencies.map((c) => ({ disabled: c.disabled, provider_bank_code: code, currency_code: c.currency_code, transaction_rate: c.transaction_rate, settlement_rate: c.settlement_rate }));

describe('whose currencies a user sees', () => {
  it('an IPG bank user sees the provider of their own branch, with or without naming it', async () => {
    for (const code of ['', '7010']) {
      const reply = await list(boc, code);
      expect(reply.statusCode).toBe(200);
      expect(reply.data.provider).toMatchObject({ provider_bank_code: '7010', provider_bank_name: 'Bank of Ceylon IPG', locked: 0 });
      expect(reply.data.currencies.map((c: Currency) => c.currency_code)).toEqual(expect.arrayContaining(['USD', 'EUR', 'GBP', 'AED', 'SAR', 'QAR', 'KWD', 'JPY', 'KRW', 'AUD', 'CAD']));
    }
  });

  it('is refused another provider’s currencies (403), in list and save', async () => {
    expect(await list(boc, '7056')).toEqual({ statusCode: 403, data: { message: 'You can only work with the currencies of your own IPG provider' } });
    const other = (await list(combank)).data;
    expect((await server.call('IPGProvider/currency/save', { provider_bank_code: '7056', currencies: toItems('7056', other.currencies) }, boc)).statusCode).toBe(403);
  });

  it('a super user opens the provider named in the route, and must name one', async () => {
    expect((await list(admin, '7056')).data.provider.provider_bank_code).toBe('7056');
    expect(await list(admin, '')).toEqual({ statusCode: 422, data: { message: 'Please select a provider' } });
    expect((await list(admin, '9999')).statusCode).toBe(404);
  });

  it('a user whose branch is no provider gets 404; a user without the permission 403', async () => {
    expect(await list(maker)).toEqual({ statusCode: 404, data: { message: 'No IPG provider is linked to your branch' } });
    expect(await list(auditor)).toEqual({ statusCode: 403, data: { message: 'Forbidden: needs one of ipg-currency-view, ipg-provider-currency-view' } });
    expect((await server.call('IPGProvider/currency/save', { provider_bank_code: '7010', currencies: [] }, bocChecker)).statusCode).toBe(403);
    expect((await server.call('IPGProvider/currency/approve', { changeRequestID: 1, actionTaken: 'approve' }, boc)).statusCode).toBe(403);
  });

  it('hasRatesUpdated is true only when today’s rates were approved today', async () => {
    expect((await list(boc)).data.hasRatesUpdated).toBe(false);
    expect((await list(combank)).data.hasRatesUpdated).toBe(true);
  });
});

describe('saving the currency list', () => {
  it('sends one change request for the whole list; a second user of the same provider approves it and today’s rates count as updated', async () => {
    const before = (await list(boc)).data;
    const items = toItems('7010', before.currencies);
    const usd = items.find((c) => c.currency_code === 'USD')!;
    const jpy = items.find((c) => c.currency_code === 'JPY')!;
    usd.transaction_rate = 304.1234;
    usd.settlement_rate = 299.5;
    jpy.disabled = 1;
    const reply = await server.call('IPGProvider/currency/save', { provider_bank_code: '7010', currencies: items }, boc);
    expect(reply).toMatchObject({ statusCode: 200, data: { message: 'IPG provider currencies saved' } });
    const id = reply.data.changeRequestId;

    // pending: nothing applied, the provider is locked, a second save is refused
    const pending = await list(bocChecker);
    expect(pending.data.provider.locked).toBe(1);
    expect(pending.data.currencies.find((c: Currency) => c.currency_code === 'USD').transaction_rate).toBe(before.currencies.find((c: Currency) => c.currency_code === 'USD').transaction_rate);
    expect(await server.call('IPGProvider/currency/save', { provider_bank_code: '7010', currencies: items }, boc)).toEqual({
      statusCode: 409,
      data: { message: 'IPG Provider Currency is locked: a change request is already pending' },
    });

    // the approval view: one table of currency_code, transaction_rate, settlement_rate and status, old beside new
    const request = pendingIn(pending, id);
    expect(request).toMatchObject({ type: 'IPG Provider Currency', pendingAction: 'EDIT', requestedBy: 'kasun_herath' });
    expect(request.newRecord.provider.value).toBe('Bank of Ceylon IPG (7010)');
    const newRows = request.newRecord.currencies.value as Record<string, unknown>[];
    const oldRows = request.originalRecord!.currencies.value as Record<string, unknown>[];
    expect(Object.keys(newRows[0])).toEqual(['currency_code', 'transaction_rate', 'settlement_rate', 'disabled']);
    expect(newRows.find((r) => r.currency_code === 'USD')).toEqual({ currency_code: 'USD', transaction_rate: '304.1234', settlement_rate: '299.5000', disabled: 0 });
    expect(oldRows.find((r) => r.currency_code === 'USD')!.transaction_rate).toBe(before.currencies.find((c: Currency) => c.currency_code === 'USD').transaction_rate.toFixed(4));
    expect(newRows.find((r) => r.currency_code === 'JPY')!.disabled).toBe(1);
    // other providers' users do not see it
    expect((await list(combankChecker)).data.changeRequests).toEqual([]);
    // nor its history, asked by id (as the inbox does not show it, an id from elsewhere is not found)
    expect(await server.call('changeRequest/history', { changeRequestID: id }, combankChecker)).toEqual({ statusCode: 404, data: { message: 'Change request not found' } });
    expect((await server.call('changeRequest/history', { changeRequestID: id }, bocChecker)).statusCode).toBe(200);

    // the maker may not approve; a supervisor of another provider may not either
    expect((await server.call('IPGProvider/currency/approve', { changeRequestID: id, actionTaken: 'approve' }, combankChecker)).statusCode).toBe(403);
    expect((await server.call('IPGProvider/currency/approve', { changeRequestID: id, actionTaken: 'approve' }, admin)).statusCode).toBe(200);
    expect(await requestStatus(server, id)).toBe('APPROVED');

    const after = (await list(boc)).data;
    expect(after.provider.locked).toBe(0);
    expect(after.hasRatesUpdated).toBe(true);
    expect(after.currencies.find((c: Currency) => c.currency_code === 'USD')).toMatchObject({ transaction_rate: 304.1234, settlement_rate: 299.5, disabled: 0 });
    expect(after.currencies.find((c: Currency) => c.currency_code === 'JPY').disabled).toBe(1);
  });

  it('approved by a supervisor of the same bank; rejected requests change nothing', async () => {
    const before = (await list(combank)).data;
    const items = toItems('7056', before.currencies).map((c) => (c.currency_code === 'EUR' ? { ...c, transaction_rate: 330.0001 } : c));
    const first = (await server.call('IPGProvider/currency/save', { provider_bank_code: '7056', currencies: items }, combank)).data.changeRequestId;
    expect((await server.call('IPGProvider/currency/approve', { changeRequestID: first, actionTaken: 'reject' }, combankChecker)).data.message).toBe('IPG Provider Currency rejected successfully');
    expect((await list(combank)).data.currencies).toEqual(before.currencies);

    const second = (await server.call('IPGProvider/currency/save', { provider_bank_code: '7056', currencies: items }, combank)).data.changeRequestId;
    expect(await server.call('IPGProvider/currency/approve', { changeRequestID: second, actionTaken: 'approve' }, combankChecker)).toEqual({
      statusCode: 200,
      data: { message: 'IPG Provider Currency approved successfully' },
    });
    expect((await list(combank)).data.currencies.find((c: Currency) => c.currency_code === 'EUR').transaction_rate).toBe(330.0001);
  });
});

describe('bad rates and lists get a 4xx with the message and store nothing', () => {
  const stored = () => counts(server, ['change_requests']);
  async function refused(change: (items: ReturnType<typeof toItems>) => unknown[], status: number, message: string) {
    const current = (await list(admin, '7135')).data;
    const before = await stored();
    const body = { provider_bank_code: '7135', currencies: change(toItems('7135', current.currencies)) };
    expect(await server.call('IPGProvider/currency/save', body, admin)).toEqual({ statusCode: status, data: { message } });
    expect(await stored()).toEqual(before);
    expect((await list(admin, '7135')).data.provider.locked).toBe(0);
  }

  it('a transaction rate below 0.0001 or above 9999999999', async () => {
    await refused((l) => l.map((c, i) => (i === 0 ? { ...c, transaction_rate: 0 } : c)), 400, `currencies.0.transaction_rate: ${rateMessages.transaction}`);
    await refused((l) => l.map((c, i) => (i === 1 ? { ...c, transaction_rate: 10_000_000_000 } : c)), 400, `currencies.1.transaction_rate: ${rateMessages.transaction}`);
  });

  it('a settlement rate below 0 or above 9999999999, and more than 4 decimals', async () => {
    await refused((l) => l.map((c, i) => (i === 0 ? { ...c, settlement_rate: -1 } : c)), 400, `currencies.0.settlement_rate: ${rateMessages.settlement}`);
    await refused((l) => l.map((c, i) => (i === 0 ? { ...c, settlement_rate: 99_999_999_999 } : c)), 400, `currencies.0.settlement_rate: ${rateMessages.settlement}`);
    await refused((l) => l.map((c, i) => (i === 0 ? { ...c, transaction_rate: 300.12345 } : c)), 400, 'currencies.0.transaction_rate: value can have at most 4 decimals');
  });

  it('a list that leaves out a currency, adds one the provider does not offer, or names another provider', async () => {
    await refused((l) => l.slice(1), 422, `The currency list must hold exactly the provider's currencies (missing AED)`);
    await refused((l) => [...l, { ...l[0], currency_code: 'XAU' }], 422, "The currency list must hold exactly the provider's currencies (not offered by this provider: XAU)");
    await refused((l) => l.map((c, i) => (i === 2 ? { ...c, provider_bank_code: '7010' } : c)), 400, 'currencies.2.provider_bank_code: must be the provider_bank_code of the request');
    await refused((l) => [...l, l[0]], 400, `currencies.${(await list(admin, '7135')).data.currencies.length}.currency_code: AED is listed twice`);
  });
});

describe('the demo data: the rates flow without a super user', () => {
  it("the demo IPG bank checker ruvini_a (7010) sees and approves kasun_herath's rate change; today's rates count as updated", async () => {
    const ruvini = await server.login('ruvini_a');
    const mine = await list(ruvini);
    expect(mine.statusCode).toBe(200);
    expect(mine.data.provider.provider_bank_code).toBe('7010');
    const items = toItems('7010', mine.data.currencies);
    items[0].settlement_rate = 123.4567;
    const saved = await server.call('IPGProvider/currency/save', { provider_bank_code: '7010', currencies: items }, boc);
    expect(saved.statusCode).toBe(200);
    const id = saved.data.changeRequestId;
    expect(pendingIn(await list(ruvini), id)).toMatchObject({ requestedBy: 'kasun_herath' });
    expect(await server.call('IPGProvider/currency/approve', { changeRequestID: id, actionTaken: 'approve' }, ruvini)).toMatchObject({ statusCode: 200 });
    expect(await requestStatus(server, id)).toBe('APPROVED');
    const after = (await list(ruvini)).data;
    expect(after.hasRatesUpdated).toBe(true);
    expect(after.currencies.find((c: Currency) => c.currency_code === items[0].currency_code).settlement_rate).toBe(123.4567);
  });
});
