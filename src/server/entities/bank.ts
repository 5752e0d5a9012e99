/** Banks as a maker-checker entity. */
import { bankRecord } from '../../../screens/banks';
import { isPendingCreation, type EntityAdapter } from '../changeRequests';
import type { Row } from '../db/db';
import { HttpError } from '../http/httpError';
import { deleteImages } from './images';

/** What a bank request carries: the logo as a stored path (an upload is stored when the request is made). */
export interface BankPayload {
  bank_code: string;
  bank_name: string;
  logo: string;
  disabled: 0 | 1;
}

export const bankEntity: EntityAdapter<BankPayload> = {
  type: bankRecord.type,
  record: bankRecord,
  table: 'banks',

  /** A bank request that will not be applied: its uploaded logo is deleted unless the bank uses it. */
  async onRejected(db, request) {
    const logo = request.payload.logo;
    const kept = request.record_id === null ? undefined : (await db.one<{ logo: string | null }>('SELECT logo FROM banks WHERE id = $1', [request.record_id]))?.logo;
    if (logo && logo !== kept) await deleteImages(db, [logo]);
  },

  fromRow: (row: Row) => ({
    bank_code: String(row.bank_code),
    bank_name: String(row.bank_name),
    logo: row.logo === null || row.logo === undefined ? '' : String(row.logo),
    disabled: Number(row.disabled) === 0 ? 0 : 1,
  }),

  async check(db, action, v, recordId) {
    if (action === 'EDIT') {
      const current = await db.one<{ bank_code: string }>('SELECT bank_code FROM banks WHERE id = $1', [recordId]);
      if (current && current.bank_code !== v.bank_code) throw new HttpError(422, 'Bank Code cannot be changed');
      return;
    }
    const taken = await db.one('SELECT 1 FROM banks WHERE lower(bank_code) = lower($1)', [v.bank_code]);
    if (taken) throw new HttpError(422, `Bank Code "${v.bank_code}" already exists`);
    if (await isPendingCreation(db, bankEntity.type, 'bank_code', v.bank_code)) throw new HttpError(422, `Bank Code "${v.bank_code}" is already pending approval`);
  },

  async apply(db, action, recordId, v, at) {
    if (action === 'CREATE') {
      const row = await db.one<{ id: number }>('INSERT INTO banks (bank_code, bank_name, logo, disabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id', [
        v.bank_code,
        v.bank_name,
        v.logo,
        v.disabled,
        at,
      ]);
      return row!.id;
    }
    if (action === 'DELETE') {
      await db.query('UPDATE banks SET disabled = 1 WHERE id = $1', [recordId]);
      return recordId!;
    }
    await db.query('UPDATE banks SET bank_name = $2, logo = $3, disabled = $4 WHERE id = $1', [recordId, v.bank_name, v.logo, v.disabled]);
    return recordId!;
  },
};
