/** IPG providers: list and activate/deactivate through maker-checker. */
import { providerApprove, providerDisable, providerList, type ProviderRow } from '../../api/providers';
import { decide, pendingChangeRequests, submit } from '../changeRequests';
import { providerEntity } from '../entities/provider';
import type { Db, Row } from '../db/db';
import { handle } from '../http/handle';
import { HttpError, notFound } from '../http/httpError';
import { listStatusText } from '../../domain/recordStatus';

export interface ProviderTableRow {
  id: number;
  provider_bank_code: string;
  provider_bank_name: string;
  provider_logo: string | null;
  disabled: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
}

export const providerColumns = 'id, provider_bank_code, provider_bank_name, provider_logo, disabled, locked, created_at, updated_at';

export function toProviderRow(r: ProviderTableRow): ProviderRow {
  return {
    id: r.id,
    provider_bank_code: r.provider_bank_code,
    provider_bank_name: r.provider_bank_name,
    provider_logo: r.provider_logo,
    disabled: r.disabled,
    status: listStatusText(r.disabled),
    locked: r.locked,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export async function findProviderByCode(db: Db, code: string): Promise<ProviderTableRow | undefined> {
  return db.one<ProviderTableRow>(`SELECT ${providerColumns} FROM ipg_providers WHERE provider_bank_code = $1`, [code]);
}

export const providerHandlers = [
  handle(providerList, async (ctx) => {
    const rows = await ctx.db.query<ProviderTableRow>(`SELECT ${providerColumns} FROM ipg_providers ORDER BY id`);
    return { data: { providers: rows.map(toProviderRow), changeRequests: await pendingChangeRequests(ctx.db, providerEntity) } };
  }),

  handle(
    providerDisable,
    async (ctx, { id, disable }) => {
      const changeRequestId = await ctx.tx(async (t) => {
        const row = await t.db.one<Row>('SELECT * FROM ipg_providers WHERE id = $1 FOR UPDATE', [id]);
        if (!row) throw notFound('IPG Provider');
        const current = providerEntity.fromRow(row);
        const wanted = disable ? 1 : 0;
        if (current.disabled === wanted && Number(row.locked) === 0) throw new HttpError(422, `IPG Provider is already ${disable ? 'inactive' : 'active'}`);
        return submit(t, providerEntity, { action: 'EDIT', recordId: id, payload: { ...current, disabled: wanted } });
      });
      return { data: { message: 'IPG Provider sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: providerEntity.type, approve: providerApprove } },
  ),

  handle(providerApprove, async (ctx, decision) => ({ data: await decide(ctx, providerEntity, decision) }), { decides: [providerEntity.type] }),
];
