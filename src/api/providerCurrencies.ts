/** IPG provider currencies and their rates (spec 002 §2 "IPG Provider Currencies", §3, §5, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall } from './contract';
import { providerRow } from './providers';

export const rateMessages = {
  transaction: 'value must be greater than 0.0001 and less than 9999999999',
  settlement: 'value must be greater than 0.0 and less than 9999999999',
  decimals: 'value can have at most 4 decimals',
} as const;

/** Rate inputs: 4 decimals, at most 10 digits (spec 002 §5, §9). */
export const rateLimits = { decimals: 4, maxDigits: 10, max: 9999999999, minTransaction: 0.0001, minSettlement: 0 } as const;

/** True when the number, as written in JSON, has at most 4 decimals (300.1234 yes, 300.12345 and 1e-7 no). */
export function hasAtMostFourDecimals(v: number): boolean {
  const [mantissa, exponent] = String(v).toLowerCase().split('e');
  const decimals = (mantissa.split('.')[1]?.length ?? 0) - Number(exponent ?? 0);
  return decimals <= rateLimits.decimals;
}

export const transactionRate = z
  .number()
  .min(rateLimits.minTransaction, rateMessages.transaction)
  .max(rateLimits.max, rateMessages.transaction)
  .refine(hasAtMostFourDecimals, rateMessages.decimals)
  .meta({ multipleOf: 0.0001 });

export const settlementRate = z
  .number()
  .min(rateLimits.minSettlement, rateMessages.settlement)
  .max(rateLimits.max, rateMessages.settlement)
  .refine(hasAtMostFourDecimals, rateMessages.decimals)
  .meta({ multipleOf: 0.0001 });

export const currencyRow = z.object({
  id: z.number(),
  currency_code: z.string(),
  transaction_rate: z.number(),
  settlement_rate: z.number(),
  /** 0 = active. */
  disabled: z.number(),
  updated_at: z.string(),
});
export type CurrencyRow = z.infer<typeof currencyRow>;

export const providerCode = z.string().max(100);

export const currencyItem = z.strictObject({
  disabled: z.union([z.literal(0), z.literal(1)]),
  provider_bank_code: providerCode,
  currency_code: z.string().regex(/^[A-Z]{3}$/, 'currency code must be 3 capital letters'),
  transaction_rate: transactionRate,
  settlement_rate: settlementRate,
});
export type CurrencyItem = z.infer<typeof currencyItem>;

export const currencySaveBody = z
  .strictObject({
    provider_bank_code: providerCode.min(1, 'Please select a provider'),
    currencies: z.array(currencyItem).min(1, 'The currency list is empty').max(200),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.currencies.forEach((c, i) => {
      if (c.provider_bank_code !== v.provider_bank_code) {
        ctx.addIssue({ code: 'custom', path: ['currencies', i, 'provider_bank_code'], message: 'must be the provider_bank_code of the request' });
      }
      if (seen.has(c.currency_code)) ctx.addIssue({ code: 'custom', path: ['currencies', i, 'currency_code'], message: `${c.currency_code} is listed twice` });
      seen.add(c.currency_code);
    });
  });

export const currencyList = defineCall({
  path: 'IPGProvider/currency/list',
  answers: [403, 404, 422],
  access: anyOf('ipg-currency-view', 'ipg-provider-currency-view'),
  summary:
    "A provider's currencies and rates, whether today's rates are approved, and its pending currency requests. A super user names the provider; anyone else gets the provider of their own branch (403 for another one).",
  request: z.strictObject({ provider_bank_code: providerCode.default('') }),
  data: z.object({
    currencies: z.array(currencyRow),
    provider: providerRow,
    changeRequests: z.array(changeRequest),
    /** True when rates were approved today. */
    hasRatesUpdated: z.boolean(),
  }),
});

export const currencySave = defineCall({
  path: 'IPGProvider/currency/save',
  answers: [403, 404, 409, 422],
  access: anyOf('ipg-currency-edit'),
  summary: "Request a change to a provider's whole currency list (one change request; the provider is locked until it is decided).",
  request: currencySaveBody,
  data: z.object({ message: z.string(), changeRequestId: z.number() }),
});

export const currencyApprove = defineCall({
  path: 'IPGProvider/currency/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('ipg-currency-approve'),
  summary: "Approve (apply, and count as today's rates) or reject a pending currency list request.",
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const providerCurrencyCalls = [currencyList, currencySave, currencyApprove] as const;
