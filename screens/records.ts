/**
 * Every record a change request can be about, with its display fields (src/definitions/records.ts):
 * the server describes a request's record by its entry, the approval modal finds a field's kind (an
 * item list's columns) in it by the request's type.
 */
import type { RecordDefinition } from '../src/definitions/records';
import { advertisementRecord } from './advertisements';
import { appUserRecord } from './appUsers';
import { appVersionRecord } from './appVersions';
import { bankRecord } from './banks';
import { moneyRecord } from './moneyApprovals';
import { providerCurrencyRecord } from './providerCurrencies';
import { providerRecord } from './providers';
import { roleRecord } from './roles';
import { userRecord } from './users';

export const records: readonly RecordDefinition[] = [userRecord, roleRecord, bankRecord, advertisementRecord, appVersionRecord, appUserRecord, providerRecord, providerCurrencyRecord, moneyRecord];
