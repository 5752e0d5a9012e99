/** The rate input's rules and the rate ranges (spec 002 §5, §9). */
import { describe, expect, it } from 'vitest';
import { formatRate, parseRateText, RATE_AFTER_BACKSPACE, rateUnits, typeRateDigit } from '../../src/console/ui/rate';
import { currencySaveBody, hasAtMostFourDecimals, rateMessages, settlementRate, transactionRate } from '../../src/api/providerCurrencies';
import { rateErrors } from '../../src/custom/ProviderCurrencies';

const rules = { decimals: 4, maxDigits: 10 };
const typeAll = (start: number, digits: string) => [...digits].reduce((v, d) => typeRateDigit(v, Number(d), rules), start);

describe('rate input: entered from the right', () => {
  it('shifts each digit in at the last decimal place', () => {
    expect(typeAll(0, '1')).toBe(0.0001);
    expect(typeAll(0, '12')).toBe(0.0012);
    expect(typeAll(0, '3051234')).toBe(305.1234);
    expect(typeAll(305.1234, '5')).toBe(3051.2345);
  });

  it('takes at most 10 digits', () => {
    const full = typeAll(0, '1234567890');
    expect(full).toBe(123456.789);
    expect(typeAll(full, '1')).toBe(full);
  });

  it('Backspace resets to zero', () => {
    expect(RATE_AFTER_BACKSPACE).toBe(0);
    expect(typeAll(RATE_AFTER_BACKSPACE, '5')).toBe(0.0005);
  });

  it('shows comma grouping and 4 decimals', () => {
    expect(formatRate(0, 4)).toBe('0.0000');
    expect(formatRate(3051.2345, 4)).toBe('3,051.2345');
    expect(formatRate(123456.789, 4)).toBe('123,456.7890');
    expect(formatRate(0.2185, 4)).toBe('0.2185');
    expect(rateUnits(304.1234, 4)).toBe(3041234);
  });

  it('reads pasted text as a number, or its digits from the right', () => {
    expect(parseRateText('1,234.5', rules)).toBe(1234.5);
    expect(parseRateText('301.25', rules)).toBe(301.25);
    expect(parseRateText('12', rules)).toBe(0.0012);
    expect(parseRateText('1.23456', rules)).toBe(12.3456);
    expect(parseRateText('abc', rules)).toBeNull();
    expect(parseRateText('12345678901', rules)).toBeNull();
  });
});

describe('rate ranges and messages', () => {
  it('transaction rate: 0.0001 to 9999999999', () => {
    expect(transactionRate.safeParse(0.0001).success).toBe(true);
    expect(transactionRate.safeParse(9999999999).success).toBe(true);
    expect(transactionRate.safeParse(0).error?.issues[0].message).toBe('value must be greater than 0.0001 and less than 9999999999');
    expect(transactionRate.safeParse(10000000000).error?.issues[0].message).toBe(rateMessages.transaction);
  });

  it('settlement rate: 0 to 9999999999', () => {
    expect(settlementRate.safeParse(0).success).toBe(true);
    expect(settlementRate.safeParse(-0.0001).error?.issues[0].message).toBe('value must be greater than 0.0 and less than 9999999999');
  });

  it('at most 4 decimals', () => {
    expect(hasAtMostFourDecimals(304.1234)).toBe(true);
    expect(hasAtMostFourDecimals(3041234 / 10000)).toBe(true);
    expect(hasAtMostFourDecimals(300.12345)).toBe(false);
    expect(hasAtMostFourDecimals(1e-7)).toBe(false);
    expect(hasAtMostFourDecimals(1e21)).toBe(true);
  });

  it('the editor reports each row’s messages before saving', () => {
    expect(rateErrors([{ currency_code: 'USD', transaction_rate: 300, settlement_rate: 299, disabled: 0 }])).toEqual({});
    expect(rateErrors([{ currency_code: 'EUR', transaction_rate: 0, settlement_rate: 325, disabled: 0 }])).toEqual({ EUR: { transaction: rateMessages.transaction, settlement: undefined } });
  });

  it('the whole list names one provider, once per currency', () => {
    const item = { disabled: 0, provider_bank_code: '7010', currency_code: 'USD', transaction_rate: 1, settlement_rate: 1 };
    expect(currencySaveBody.safeParse({ provider_bank_code: '7010', currencies: [item] }).success).toBe(true);
    const twice = currencySaveBody.safeParse({ provider_bank_code: '7010', currencies: [item, item] });
    expect(twice.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual(['currencies.1.currency_code: USD is listed twice']);
  });
});
