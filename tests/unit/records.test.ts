/**
 * The one describer of a change request's record (src/definitions/records.ts): built from the form's
 * fields (labels, kinds, option labels) or a record's declared display fields, and the item-list kind.
 */
import { describe, expect, it } from 'vitest';
import { defineRecord, describeRecord, displayFieldOf, displayFieldsOf, itemCellText, type Lookup } from '../../src/definitions/records';
import { rowChanges } from '../../src/console/changeRequestDiff';
import { bankRecord } from '../../screens/banks';
import { userRecord } from '../../screens/users';
import { roleRecord } from '../../screens/roles';
import { advertisementRecord } from '../../screens/advertisements';
import { appVersionRecord } from '../../screens/appVersions';
import { appUserRecord } from '../../screens/appUsers';
import { providerCurrencyRecord } from '../../screens/providerCurrencies';
import { moneyRecord } from '../../screens/moneyApprovals';
import { records } from '../../screens/records';

const noLookup: Lookup = async () => undefined;

describe('describeRecord from a form', () => {
  it('a bank: each form field under its label, the logo as an image, the Status radio as its option label', async () => {
    expect(await describeRecord(bankRecord, { bank_code: '7135', bank_name: 'Peoples Bank', logo: 'images/banks/x.png', disabled: 1 }, noLookup)).toEqual({
      bank_code: { header: 'Bank Code', type: 'STRING', value: '7135' },
      bank_name: { header: 'Bank Name', type: 'STRING', value: 'Peoples Bank' },
      logo: { header: 'Logo', type: 'IMAGE', value: 'images/banks/x.png' },
      status: { header: 'Status', type: 'STRING', value: 'Not Active' },
    });
  });

  it('a user: labels from the server look-ups, the user type by its option label, never the password or its hash', async () => {
    const asked: string[] = [];
    const lookup: Lookup = async (name, value, values) => {
      asked.push(`${name}:${String(value)}:${String(values.type)}`);
      return name === 'branch' ? 'Kandy' : name === 'role' ? 'Maker' : undefined;
    };
    const values = { type: 'BACKEND', name: 'Nimal', username: 'nimal', email: 'n@x.lk', contact: '0771234567', branch_code: '002', role: 2, disabled: 0, password: 'Secret@123', password_hash: 'h' };
    const shown = await describeRecord(userRecord, values, lookup);
    expect(Object.keys(shown)).toEqual(['name', 'username', 'email', 'contact', 'user_type', 'branch', 'role', 'status']);
    expect(shown.contact).toEqual({ header: 'Contact Number', type: 'STRING', value: '0771234567' });
    expect(shown.user_type!.value).toBe('Backend User');
    expect(shown.branch).toEqual({ header: 'Branch', type: 'STRING', value: 'Kandy' });
    expect(shown.role!.value).toBe('Maker');
    expect(shown.status!.value).toBe('Active');
    expect(asked).toEqual(['branch:002:BACKEND', 'role:2:BACKEND']);
    expect(JSON.stringify(shown)).not.toMatch(/Secret|password/);
  });

  it('a look-up that finds nothing shows the value itself', async () => {
    const shown = await describeRecord(roleRecord, { role_name: 'Ops', user_type: 'IPGBANK', user_level: 9, permissions: ['user-view'], disabled: 0 }, noLookup);
    expect(shown.user_level!.value).toBe('9');
    expect(shown.user_type!.value).toBe('IPG Bank User');
    expect(shown.permissions).toEqual({ header: 'Permissions', type: 'STRING_ARRAY', value: ['user-view'] });
  });

  it('an advertisement: the header the form overrides, images with their links as a field of their own', async () => {
    const images = [
      { image: 'images/ads/a.png', link: 'https://a.example' },
      { image: 'images/ads/b.png', link: '' },
    ];
    const shown = await describeRecord(advertisementRecord, { title: 'Gift', countries: ['AE'], valid_from: '2027-05-01', valid_to: '2027-05-31', images, disabled: 0 }, noLookup);
    expect(shown.title!.header).toBe('Title');
    expect(shown.images).toEqual({ header: 'Images', type: 'IMAGE_ARRAY', value: images });
    expect(shown.links).toEqual({ header: 'Links', type: 'STRING_ARRAY', value: ['https://a.example', ''] });
    expect(shown.countries).toEqual({ header: 'Countries', type: 'STRING_ARRAY', value: ['AE'] });
  });

  it('an app version: renamed fields, toggles as tags of their values, a switch as Yes/No', async () => {
    expect(await describeRecord(appVersionRecord, { appVersion: '2.5.0+52', platforms: ['ANDROID', 'HUAWEI'], forceUpdate: 0 }, noLookup)).toEqual({
      version: { header: 'Version', type: 'STRING', value: '2.5.0+52' },
      platforms: { header: 'Platforms', type: 'STRING_ARRAY', value: ['ANDROID', 'HUAWEI'] },
      force_update: { header: 'Force Update', type: 'STRING', value: 'No' },
    });
  });

  it('a derived (display-only) field and a password are not record fields', () => {
    const fields = displayFieldsOf([
      { kind: 'password', key: 'password', label: 'Password' },
      { kind: 'checkboxGroups', key: 'role', label: 'Permissions', groups: () => [], derived: () => [] },
      { kind: 'text', key: 'name', label: 'Name' },
    ]);
    expect(fields.map((f) => f.name)).toEqual(['name']);
  });
});

describe('describeRecord from declared display fields', () => {
  it('an app user: a field absent from the values (the comment) is not shown', async () => {
    const values = { name: 'A B', uid: 'NIC 1', disabled: 0, hold: 1, user_hold_reason: 'why' };
    expect(Object.keys(await describeRecord(appUserRecord, values, noLookup))).toEqual(['name', 'uid', 'status', 'hold', 'user_hold_reason']);
    const withComment = await describeRecord(appUserRecord, { ...values, comment: 'held' }, noLookup);
    expect(withComment.comment).toEqual({ header: 'Comment', type: 'STRING', value: 'held' });
    expect(withComment.hold!.value).toBe('Yes');
  });

  it('a transaction: amounts with their currency, 2 decimals and separators', async () => {
    const shown = await describeRecord(moneyRecord, { id: 12, trace: 'T1', currency_code: 'AED', amount: 18365.5, amount_usd: 5000, account_number: '001', status: 'SUCCESS' }, noLookup);
    expect(shown.amount!.value).toBe('AED 18,365.50');
    expect(shown.amount_usd).toEqual({ header: 'Amount (USD)', type: 'STRING', value: 'USD 5,000.00' });
    expect(shown.id!.value).toBe('12');
  });
});

describe('the item-list kind', () => {
  it('sends the rows sorted by their key, only the declared columns, rates with their decimals, the status flag as it is', async () => {
    const lookup: Lookup = async (name, value) => (name === 'provider' ? `Bank of Ceylon IPG (${String(value)})` : undefined);
    const shown = await describeRecord(
      providerCurrencyRecord,
      {
        provider_bank_code: '7010',
        currencies: [
          { provider_bank_code: '7010', currency_code: 'USD', transaction_rate: 300.5, settlement_rate: 299, disabled: 0 },
          { provider_bank_code: '7010', currency_code: 'EUR', transaction_rate: 330.12346, settlement_rate: 329, disabled: 1 },
        ],
      },
      lookup,
    );
    expect(shown.provider).toEqual({ header: 'Provider', type: 'STRING', value: 'Bank of Ceylon IPG (7010)' });
    expect(shown.currencies).toEqual({
      header: 'Currencies',
      type: 'STRING',
      value: [
        { currency_code: 'EUR', transaction_rate: '330.1235', settlement_rate: '329.0000', disabled: 1 },
        { currency_code: 'USD', transaction_rate: '300.5000', settlement_rate: '299.0000', disabled: 0 },
      ],
    });
  });

  it('any record may declare one: the modal finds it by the request type, pairs rows by the declared key and shows a status column in words', async () => {
    const fees = defineRecord({
      type: 'Fee Table',
      fields: [
        {
          kind: 'itemList',
          name: 'fees',
          key: 'fees',
          header: 'Fees',
          rowKey: 'code',
          columns: [
            { key: 'label', header: 'Label' },
            { key: 'code', header: 'Code' },
            { key: 'disabled', header: 'Status', kind: 'status' },
          ],
        },
      ],
    });
    const shown = await describeRecord(
      fees,
      {
        fees: [
          { code: 'B', label: 'Same' },
          { code: 'A', label: 'Same', disabled: 1 },
        ],
      },
      noLookup,
    );
    const rows = shown.fees!.value as Record<string, unknown>[];
    expect(rows.map((r) => r.code)).toEqual(['A', 'B']);
    const field = displayFieldOf([fees], 'Fee Table', 'fees');
    expect(field?.kind).toBe('itemList');
    const changes = rowChanges([{ label: 'Same', code: 'A', disabled: 0 }], rows, ['label', 'code', 'disabled'], 'code');
    expect(changes.map((c) => [c.key, c.kind])).toEqual([
      ['A', 'changed'],
      ['B', 'removed'],
    ]);
    expect(itemCellText({ key: 'disabled', header: 'Status', kind: 'status' }, 1)).toBe('Inactive');
    expect(itemCellText({ key: 'disabled', header: 'Status', kind: 'status' }, 0)).toBe('Active');
    expect(itemCellText({ key: 'label', header: 'Label' }, '')).toBe('-');
  });

  it('the console finds the provider currency rates as an item list by the request type', () => {
    expect(displayFieldOf(records, 'IPG Provider Currency', 'currencies')?.kind).toBe('itemList');
    expect(displayFieldOf(records, 'Bank', 'currencies')).toBeUndefined();
    expect(new Set(records.map((r) => r.type)).size).toBe(records.length);
  });
});
