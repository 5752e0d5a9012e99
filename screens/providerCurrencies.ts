/**
 * IPG provider currencies (spec 002 §2 "IPG Provider Currencies"): a hand-written editor (the
 * ProviderCurrencies component) on two routes. Without an id, a user sees the provider of their own
 * branch (the menu entry, hidden from super users); with an id, a super user sees that provider.
 */
import type { CustomScreen } from '../src/definitions/definitions';

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
