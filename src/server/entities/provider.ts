/**
 * IPG providers as maker-checker entities: the provider itself (activate/deactivate) and its currency
 * list (one request for the whole list). Both lock the provider row while a request is pending.
 */
import { businessDay } from '../../domain/businessTime';
import type { CurrencyItem } from '../../api/providerCurrencies';
import { providerCurrencyRecord } from '../../../screens/providerCurrencies';
import { providerRecord } from '../../../screens/providers';
import { type EntityAdapter } from '../changeRequests';
import type { Db, Row } from '../db/db';
import { HttpError } from '../http/httpError';

export interface ProviderPayload {
  provider_bank_code: string;
  provider_bank_name: string;
  provider_logo: string;
  disabled: 0 | 1;
}

export const providerEntity: EntityAdapter<ProviderPayload> = {
  type: providerRecord.type,
  record: providerRecord,
  table: 'ipg_providers',

  fromRow: (row: Row) => ({
    provider_bank_code: String(row.provider_bank_code),
    provider_bank_name: String(row.provider_bank_name),
    provider_logo: row.provider_logo === null || row.provider_logo === undefined ? '' : String(row.provider_logo),
    disabled: Number(row.disabled) === 0 ? 0 : 1,
  }),

  async apply(db, action, recordId, v) {
    if (action === 'CREATE') throw new HttpError(422, 'IPG providers are not created from the console');
    await db.query('UPDATE ipg_providers SET disabled = $2 WHERE id = $1', [recordId, action === 'DELETE' ? 1 : v.disabled]);
    return recordId!;
  },
};

// ---- the currency list ----------------------------------------------------------------------

/** A currency-list request: the whole list. Read from a provider row it has no list; `complete` loads it. */
export interface CurrencyListPayload {
  provider_bank_code: string;
  currencies?: CurrencyItem[];
}

export async function providerCurrencies(db: Db, providerCode: string): Promise<CurrencyItem[]> {
  const rows = await db.query<{ currency_code: string; transaction_rate: number; settlement_rate: number; disabled: number }>(
    `SELECT c.currency_code, c.transaction_rate, c.settlement_rate, c.disabled
       FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
      WHERE p.provider_bank_code = $1 ORDER BY c.currency_code`,
    [providerCode],
  );
  return rows.map((r) => ({
    provider_bank_code: providerCode,
    currency_code: r.currency_code,
    transaction_rate: Number(r.transaction_rate),
    settlement_rate: Number(r.settlement_rate),
    disabled: r.disabled === 0 ? 0 : 1,
  }));
}

export const providerCurrencyEntity: EntityAdapter<CurrencyListPayload> = {
  type: providerCurrencyRecord.type,
  record: providerCurrencyRecord,
  table: 'ipg_providers',

  fromRow: (row: Row) => ({ provider_bank_code: String(row.provider_bank_code) }),

  complete: async (db, v) => ({ ...v, currencies: v.currencies ?? (await providerCurrencies(db, v.provider_bank_code)) }),

  async check(db, _action, v) {
    const current = (await providerCurrencies(db, v.provider_bank_code)).map((c) => c.currency_code);
    const sent = (v.currencies ?? []).map((c) => c.currency_code);
    const missing = current.filter((c) => !sent.includes(c));
    const unknown = sent.filter((c) => !current.includes(c));
    if (missing.length || unknown.length) {
      const parts = [missing.length ? `missing ${missing.join(', ')}` : '', unknown.length ? `not offered by this provider: ${unknown.join(', ')}` : ''].filter(Boolean);
      throw new HttpError(422, `The currency list must hold exactly the provider's currencies (${parts.join('; ')})`);
    }
  },

  async apply(db, action, recordId, v, at) {
    if (action !== 'EDIT' || !v.currencies) throw new Error('A currency list request is an EDIT with the whole list');
    for (const c of v.currencies) {
      await db.query(
        `UPDATE ipg_provider_currencies SET transaction_rate = $3, settlement_rate = $4, disabled = $5, updated_at = $6
          WHERE provider_id = $1 AND currency_code = $2`,
        [recordId, c.currency_code, c.transaction_rate, c.settlement_rate, c.disabled, at],
      );
    }
    return recordId!;
  },
};

// ---- today's rates ----------------------------------------------------------------------------

/** The business day ('yyyy-MM-dd' in the business time zone) rates approved at this moment count for. */
export function rateDayOf(at: Date, zone: string): string {
  return businessDay(at, zone);
}

/** Records that the provider's rates were approved (the day is the business day of `at`). */
export async function recordRateApproval(db: Db, providerId: number, changeRequestId: number | null, approvedBy: string, at: Date, zone: string): Promise<void> {
  await db.query('INSERT INTO ipg_provider_rate_approvals (provider_id, rate_date, change_request_id, approved_by, approved_at) VALUES ($1, $2, $3, $4, $5)', [
    providerId,
    rateDayOf(at, zone),
    changeRequestId,
    approvedBy,
    at,
  ]);
}

/**
 * Whether the provider's rates were approved on the day of `at` (`hasRatesUpdated`). Other areas
 * (the settlement report) ask the same question through this function.
 */
export async function ratesUpdatedOn(db: Db, providerId: number, at: Date, zone: string): Promise<boolean> {
  const row = await db.one('SELECT 1 FROM ipg_provider_rate_approvals WHERE provider_id = $1 AND rate_date = $2 LIMIT 1', [providerId, rateDayOf(at, zone)]);
  return row !== undefined;
}
