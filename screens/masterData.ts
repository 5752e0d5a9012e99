/** The master-data screens (spec 002: IPG providers and currencies, banks, advertisements, app users, app versions). */
import { providersScreen } from './providers';
import { providerCurrenciesOfScreen, providerCurrenciesScreen } from './providerCurrencies';
import { bankCreateScreen, bankEditScreen, banksScreen } from './banks';
import { advertisementCreateScreen, advertisementEditScreen, advertisementsScreen } from './advertisements';
import { appUsersScreen } from './appUsers';
import { appVersionCreateScreen, appVersionsScreen } from './appVersions';

export const masterDataScreens = [
  providersScreen,
  providerCurrenciesScreen,
  providerCurrenciesOfScreen,
  banksScreen,
  bankCreateScreen,
  bankEditScreen,
  advertisementsScreen,
  advertisementCreateScreen,
  advertisementEditScreen,
  appUsersScreen,
  appVersionsScreen,
  appVersionCreateScreen,
] as const;
