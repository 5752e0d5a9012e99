/**
 * IPG provider currencies: a super user works on the provider named in the request; anyone else on
 * the provider of their own branch (an IPG bank user's branch code is the provider bank code), and
 * is refused (403) another provider's. Saving sends the whole list as one change request.
 */
import { currencyApprove, currencyList, currencySave, type CurrencyRow } from '../../api/providerCurrencies';
import { isSuperUser } from '../../domain/permissions';
import { decide, pendingChangeRequests, submit, type Decision } from '../changeRequests';
import { providerCurrencyEntity, ratesUpdatedOn, recordRateApproval } from '../entities/provider';
import { handle, type Ctx } from '../http/handle';
import { HttpError, notFound } from '../http/httpError';
import { findProviderByCode, toProviderRow, type ProviderTableRow } from './providers';

export const OTHER_PROVIDER_MESSAGE = 'You can only work with the currencies of your own IPG provider';
export const NO_PROVIDER_MESSAGE = 'No IPG provider is linked to your branch';

/** The provider the caller may work on, given the code they asked for ('' = their own). */
export async function providerOfCaller(ctx: Ctx, requested: string): Promise<ProviderTableRow> {
  if (isSuperUser(ctx.user.permissions)) {
    if (!requested) throw new HttpError(422, 'Please select a provider');
    const provider = await findProviderByCode(ctx.db, requested);
    if (!provider) throw notFound('IPG Provider');
    return provider;
  }
  const me = await ctx.db.one<{ branch_code: string; user_type: string }>('SELECT branch_code, user_type FROM console_users WHERE id = $1', [ctx.user.id]);
  const own = me?.user_type === 'IPGBANK' ? await findProviderByCode(ctx.db, me.branch_code) : undefined;
  if (requested && requested !== own?.provider_bank_code) throw new HttpError(403, OTHER_PROVIDER_MESSAGE);
  if (!own) throw new HttpError(404, NO_PROVIDER_MESSAGE);
  return own;
}

interface CurrencyTableRow {
  id: number;
  currency_code: string;
  transaction_rate: number;
  settlement_rate: number;
  disabled: number;
  updated_at: Date;
}

export const providerCurrencyHandlers = [
  handle(currencyList, async (ctx, { provider_bank_code }) => {
    const provider = await providerOfCaller(ctx, provider_bank_code);
    const rows = await ctx.db.query<CurrencyTableRow>(
      'SELECT id, currency_code, transaction_rate, settlement_rate, disabled, updated_at FROM ipg_provider_currencies WHERE provider_id = $1 ORDER BY currency_code',
      [provider.id],
    );
    const currencies: CurrencyRow[] = rows.map((r) => ({
      id: r.id,
      currency_code: r.currency_code,
      transaction_rate: Number(r.transaction_rate),
      settlement_rate: Number(r.settlement_rate),
      disabled: r.disabled,
      updated_at: r.updated_at.toISOString(),
    }));
    const mine = new Set(
      (await ctx.db.query<{ id: number }>("SELECT id FROM change_requests WHERE entity_type = $1 AND status = 'PENDING' AND record_id = $2", [providerCurrencyEntity.type, provider.id])).map(
        (r) => r.id,
      ),
    );
    const changeRequests = (await pendingChangeRequests(ctx.db, providerCurrencyEntity)).filter((r) => mine.has(r.changeRequestId));
    return {
      data: {
        currencies,
        provider: toProviderRow(provider),
        changeRequests,
        hasRatesUpdated: await ratesUpdatedOn(ctx.db, provider.id, ctx.clock(), ctx.businessTimeZone),
      },
    };
  }),

  handle(
    currencySave,
    async (ctx, body) => {
      const provider = await providerOfCaller(ctx, body.provider_bank_code);
      const changeRequestId = await submit(ctx, providerCurrencyEntity, {
        action: 'EDIT',
        recordId: provider.id,
        payload: { provider_bank_code: provider.provider_bank_code, currencies: body.currencies },
      });
      return { data: { message: 'IPG provider currencies saved', changeRequestId } };
    },
    { changeRequest: { entity: providerCurrencyEntity.type, approve: currencyApprove } },
  ),

  handle(currencyApprove, async (ctx, decision) => ({ data: await decideProviderCurrencies(ctx, decision) }), { decides: [providerCurrencyEntity.type] }),
];

/** The provider whose currency requests this user may decide: any (null) for a super user, else their own branch's (undefined: none). */
export async function currencyProviderOfDecider(ctx: Ctx): Promise<number | null | undefined> {
  if (isSuperUser(ctx.user.permissions)) return null;
  return (await providerOfCaller(ctx, '').catch(() => undefined))?.id;
}

/** Approves or rejects a provider's currency request: only a super user or the provider's own checker; an approval records today's rates as approved. */
export function decideProviderCurrencies(ctx: Ctx, decision: Decision): Promise<{ message: string }> {
  return ctx.tx(async (t) => {
    const request = await t.db.one<{ entity_type: string; record_id: number | null }>('SELECT entity_type, record_id FROM change_requests WHERE id = $1', [decision.changeRequestID]);
    if (request && request.entity_type === providerCurrencyEntity.type) {
      const own = await currencyProviderOfDecider(t);
      if (own !== null && own !== request.record_id) throw new HttpError(403, OTHER_PROVIDER_MESSAGE);
    }
    const result = await decide(t, providerCurrencyEntity, decision);
    if (decision.actionTaken === 'approve' && request?.record_id) await recordRateApproval(t.db, request.record_id, decision.changeRequestID, t.user.username, t.clock(), t.businessTimeZone);
    return result;
  });
}
