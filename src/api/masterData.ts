/** The master-data calls (spec 002: IPG providers and currencies, banks, advertisements, app users, app versions). */
import { advertisementCalls } from './advertisements';
import { appUserCalls } from './appUsers';
import { appVersionCalls } from './appVersions';
import { bankCalls } from './banks';
import { providerCurrencyCalls } from './providerCurrencies';
import { providerCalls } from './providers';

export const masterDataCalls = [...providerCalls, ...providerCurrencyCalls, ...bankCalls, ...advertisementCalls, ...appUserCalls, ...appVersionCalls] as const;
