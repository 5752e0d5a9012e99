/** What a money action's confirmation says besides the specification's sentence, and its confirm button. */
import { describe, expect, it } from 'vitest';
import { formatMoney, formatAmount } from '../../src/domain/amounts';
import { moneyActionSummary, moneyActionVerb, type MoneyActionRow } from '../../src/domain/moneyActionSummary';
import { ceftRowActions } from '../../screens/transactions';
import { confirmAboutOf } from '../../src/console/confirmAbout';
import type { CeftAuditRow, CeftRow } from '../../src/api/transactions';

const row: MoneyActionRow = {
  id: 10607,
  trace: 'TRC0000010607',
  uid: '199012345678',
  currency_code: 'USD',
  amount: 1234.5,
  account_number: '0012345678',
  bank_name: 'Commercial Bank',
  ceft_try_count: 3,
  refund_commission: 2.5,
};

describe('amounts', () => {
  it('writes 2 decimals with thousands separators, the currency after the amount', () => {
    expect(formatAmount(1234567.891)).toBe('1,234,567.89');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(null)).toBe('-');
    expect(formatMoney(1234.5, 'USD')).toBe('1,234.50 USD');
    expect(formatMoney(-12, 'LKR')).toBe('-12.00 LKR');
  });
});

describe('moneyActionVerb', () => {
  it('names the action, with the amount where money moves', () => {
    expect(moneyActionVerb('refund', row)).toBe('Refund 1,234.50 USD');
    expect(moneyActionVerb('void', row)).toBe('Void 1,234.50 USD');
    expect(moneyActionVerb('manualFundTransfer', row)).toBe('Retry fund transfer 1,234.50 USD');
    expect(moneyActionVerb('hold', row)).toBe('Hold transaction');
    expect(moneyActionVerb('refund', { amount: 99999.999, currency_code: 'GBP' })).toBe('Refund 100,000.00 GBP');
  });
});

describe('moneyActionSummary', () => {
  it('lists the transaction, its amount and currency, the customer and the beneficiary', () => {
    expect(moneyActionSummary('refund', row).facts).toEqual([
      { label: 'Tran ID', value: '10607' },
      { label: 'Trace', value: 'TRC0000010607' },
      { label: 'Amount', value: '1,234.50 USD' },
      { label: 'Customer (NIC/Passport)', value: '199012345678' },
      { label: 'Beneficiary account', value: '0012345678 at Commercial Bank' },
    ]);
  });

  it("names the bank by its code on the auditor's rows", () => {
    const { bank_name: _name, ...audit } = row;
    const facts = moneyActionSummary('hold', { ...audit, bank_code: '7056' }).facts;
    expect(facts.find((f) => f.label === 'Beneficiary account')?.value).toBe('0012345678 at bank code 7056');
  });

  it('says what each action does to the money', () => {
    expect(moneyActionSummary('hold', row).effect).toBe('The payout to the beneficiary is stopped and the transaction shows HOLD; no money moves. A manual fund transfer can still pay it later.');
    expect(moneyActionSummary('manualFundTransfer', row).effect).toBe('The payout is sent again by CEFT to account 0012345678 at Commercial Bank (try 4).');
    expect(moneyActionSummary('void', row).effect).toBe("Today's card payment is cancelled at the card gateway: the customer is not charged, and no payout can follow.");
    expect(moneyActionSummary('refund', row).effect).toBe("The card payment is refunded to the customer's card, less the 2.5% refund commission the service keeps; no payout can follow.");
    expect(moneyActionSummary('refund', { ...row, refund_commission: null }).effect).toBe("The card payment is refunded in full to the customer's card; no payout can follow.");
    expect(moneyActionSummary('refund', { ...row, refund_commission: 0 }).effect).toBe("The card payment is refunded in full to the customer's card; no payout can follow.");
  });
});

describe('the send-money row actions', () => {
  const ceftRow = { ...row, bank_name: 'Commercial Bank' } as unknown as CeftRow;
  const actions = ceftRowActions<CeftRow | CeftAuditRow>();
  const callOf = (id: string) => {
    const run = actions.find((a) => a.id === id)!.run;
    if (run.kind !== 'call') throw new Error(`${id} is not a call`);
    return run;
  };

  /** What the confirmation adds, as the runtime builds it from the action's `about`. */
  const added = (id: string) => {
    const about = callOf(id).confirm?.about;
    if (!about) throw new Error(`${id} says nothing about itself`);
    return confirmAboutOf(about, ceftRow);
  };

  it('keep the specification sentence and add the summary and the verb', () => {
    const refund = callOf('refund');
    expect(refund.confirm?.message(ceftRow)).toBe('Taking this action will refund the card payment of the customer (Tran ID - 10607). Do you want to continue?');
    expect(added('refund')).toEqual({ summary: moneyActionSummary('refund', row), verb: 'Refund 1,234.50 USD' });
    expect(added('manualFundTransfer').verb).toBe('Retry fund transfer 1,234.50 USD');
    expect(added('void').verb).toBe('Void 1,234.50 USD');
    expect(added('hold')).toEqual({ summary: moneyActionSummary('hold', row), verb: 'Hold transaction' });
    expect(actions.map((a) => [a.id, a.tone])).toEqual([
      ['hold', 'danger'],
      ['manualFundTransfer', 'danger'],
      ['void', 'danger'],
      ['refund', 'danger'],
    ]);
  });

  it('hold asks for an optional reason, sent trimmed as the description', () => {
    const hold = callOf('hold');
    expect(hold.input).toEqual({ label: 'Reason (optional)', maxLength: 200, tooLongMessage: 'Hold reason can have at most 200 characters' });
    expect(hold.body(ceftRow, { comment: 'Beneficiary name mismatch' })).toEqual({ id: 10607, description: 'Beneficiary name mismatch' });
    expect(hold.body(ceftRow, { comment: '' })).toEqual({ id: 10607, description: '' });
  });
});
