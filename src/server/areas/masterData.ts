/** The master-data handlers (spec 002: IPG providers and currencies, banks, advertisements, app users, app versions). */
import { advertisementHandlers } from './advertisements';
import { appUserHandlers } from './appUsers';
import { appVersionHandlers } from './appVersions';
import { bankHandlers } from './banks';
import { providerCurrencyHandlers } from './providerCurrencies';
import { providerHandlers } from './providers';

export const masterDataHandlers = [...providerHandlers, ...providerCurrencyHandlers, ...bankHandlers, ...advertisementHandlers, ...appUserHandlers, ...appVersionHandlers];
