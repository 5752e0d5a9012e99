/**
 * IPG provider currencies (spec 002 §2 "IPG Provider Currencies"): a hand-written editor (the
 * ProviderCurrencies component) on two routes. Without an id, a user sees the provider of their own
 * branch (the menu entry, hidden from super users); with an id, a super user sees that provider.
 */
import type { CustomScreen } from '../src/definitions/definitions';
import { defineRecord } from '../src/definitions/records';

export const providerCurrenciesScreen: CustomScreen = {
  kind: 'custom',
  id: 'providerCurrencies',
  route: '/ipgProviderCurrencies',
  title: 'IPG Provider Currencies',
  breadcrumb: [{ label: 'IPG Provider Currencies' }],
  component: 'ProviderCurrencies',
  access: { anyOf: ['ipg-currency-view'] },
  // 'Main': IPG bank users hold none of the Administrator menu's permissions
  menu: { section: 'Main', label: 'IPG Provider Currencies', order: 5, hiddenFromSuper: true, needsOwnProvider: true },
};

export const providerCurrenciesOfScreen: CustomScreen = {
  kind: 'custom',
  id: 'providerCurrencies.provider',
  route: '/ipgProviderCurrencies/$id',
  title: 'IPG Provider Currencies',
  breadcrumb: [{ label: 'IPG Providers', to: '/provider' }, { label: 'Currencies' }],
  component: 'ProviderCurrencies',
  access: { anyOf: ['ipg-currency-view', 'ipg-provider-currency-view'] },
};

/**
 * A provider's currency list as its change request (one for the whole list) shows it: the provider,
 * and the rates as an item list (spec 002: currency_code, transaction_rate, settlement_rate and
 * status, disabled 0 = Active, else Inactive, old values shown when changed).
 */
export const providerCurrencyRecord = defineRecord({
  type: 'IPG Provider Currency',
  fields: [
    { kind: 'lookup', name: 'provider', key: 'provider_bank_code', header: 'Provider', lookup: 'provider' },
    {
      kind: 'itemList',
      name: 'currencies',
      key: 'currencies',
      header: 'Currencies',
      columns: [
        { key: 'currency_code', header: 'currency_code' },
        { key: 'transaction_rate', header: 'transaction_rate', kind: 'rate', decimals: 4 },
        { key: 'settlement_rate', header: 'settlement_rate', kind: 'rate', decimals: 4 },
        { key: 'disabled', header: 'status', kind: 'status' },
      ],
    },
  ],
});
