import { describe, expect, it } from 'vitest';
import { recordTitleOf, rowChanges } from '../../src/console/changeRequestDiff';

const f = (header: string, value: unknown) => ({ header, type: 'STRING' as const, value });

describe('recordTitleOf', () => {
  it('names a record by its most telling field, from the new record, else the original', () => {
    expect(recordTitleOf({ newRecord: { name: f('Name', 'Nimal Perera'), username: f('Username', 'nimal_perera') }, originalRecord: null })).toBe('nimal_perera');
    expect(recordTitleOf({ newRecord: { bank_code: f('Bank Code', '7010'), bank_name: f('Bank Name', 'BOC') }, originalRecord: null })).toBe('7010');
    expect(recordTitleOf({ newRecord: { signin: f('Sign-in', 'Unlocked') }, originalRecord: { username: f('Username', 'sanduni_k') } })).toBe('sanduni_k');
    expect(recordTitleOf({ newRecord: { x: f('X', '') }, originalRecord: null })).toBe('-');
  });
});

describe('rowChanges', () => {
  const keys = ['currency_code', 'transaction_rate'];
  it('pairs rows by currency and tells added, removed, changed and unchanged rows apart', () => {
    const prev = [
      { currency_code: 'USD', transaction_rate: 300 },
      { currency_code: 'EUR', transaction_rate: 330 },
      { currency_code: 'JPY', transaction_rate: 2 },
    ];
    const next = [
      { currency_code: 'USD', transaction_rate: 305.1234 },
      { currency_code: 'EUR', transaction_rate: 330 },
      { currency_code: 'GBP', transaction_rate: 390 },
    ];
    expect(rowChanges(next, prev, keys).map((r) => [r.key, r.kind])).toEqual([
      ['USD', 'changed'],
      ['EUR', 'same'],
      ['GBP', 'added'],
      ['JPY', 'removed'],
    ]);
  });
  it('with no old list (a create) every row is as it is', () => {
    expect(rowChanges([{ currency_code: 'USD', transaction_rate: 1 }], undefined, keys).map((r) => r.kind)).toEqual(['same']);
  });
});
