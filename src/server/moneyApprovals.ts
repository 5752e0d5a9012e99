/**
 * Four eyes on large money actions (docs/security.md "Money"). With MONEY_ACTION_APPROVAL_ABOVE_USD
 * set, a void, refund or manual fund transfer of a send-money transaction whose amount_usd is above it
 * does not run: the maker's call checks the action's guard (as the action would), then stores a pending
 * change request on the transaction through the change-request engine's named operations (one per
 * action), which locks the row, and answers "sent for approval". A second person holding the same
 * action permission approves it (transaction/money-approval/approve): the engine takes the request's
 * row lock (two approvals at once: one decides, the other is told it is decided), checks the row's
 * version and the maker's guard again, and the action runs then, once, through the same code as an
 * immediate action (src/server/areas/transactions/actions.ts runAction: the approver's guard, the
 * payment network, the money-once triggers of migration 75), in the decision's transaction. A guard
 * that refuses at approval (the day moved on, a refund already succeeded) refuses the approval with
 * its reason and leaves the request pending for a rejection. At or below the amount, or unset, the
 * action runs at once as the specification says.
 */
import { moneyRecord } from '../../screens/moneyApprovals';
import type { ChangeRequest } from '../api/contract';
import type { MoneyApprovalRow } from '../api/controls';
import { hasPermission, type Permission } from '../domain/permissions';
import { manualFundTransferRefusal, refundRefusal, voidRefusal, type CeftActionRow } from '../domain/transactionGuards';
import { decide, displayField, type Decision, pendingChangeRequests, submitOperation, type DisplayMap, type EntityAdapter, type RecordOperation } from './changeRequests';
import type { Row } from './db/db';
import { makeCtx, type Ctx } from './http/handle';
import { HttpError } from './http/httpError';
import { runAction, type ActionName } from './areas/transactions/actions';

export type MoneyAction = Exclude<ActionName, 'HOLD'>;

/** The change requests' entity type: what the approvals show as the record's type (the approvals inbox's area). */
export const MONEY_ENTITY = moneyRecord.type;
/** The table of the transactions a money action's request locks. */
export const MONEY_TABLE = 'ceft_transactions';

interface MoneyActionInfo {
  /** The engine's operation name, stored in change_requests.operation. */
  operation: string;
  label: string;
  shown: MoneyApprovalRow['action'];
  permission: Permission;
}

export const moneyActions: Record<MoneyAction, MoneyActionInfo> = {
  VOID: { operation: 'void', label: 'void', shown: 'Void', permission: 'transaction-refund' },
  REFUND: { operation: 'refund', label: 'refund', shown: 'Refund', permission: 'transaction-refund' },
  MANUAL_FUND_TRANSFER: { operation: 'manual-fund-transfer', label: 'manual fund transfer', shown: 'Manual Fund Transfer', permission: 'transaction-retry' },
};

const actionOfOperation = (operation: string | null): MoneyAction | undefined => (Object.keys(moneyActions) as MoneyAction[]).find((a) => moneyActions[a].operation === operation);

/** The operations (stored names) these permissions decide: each money action's own permission. */
export function moneyOperationsDecidableBy(permissions: readonly string[]): string[] {
  return Object.values(moneyActions)
    .filter((a) => hasPermission(permissions, a.permission))
    .map((a) => a.operation);
}

/** A money request's operation as the approvals show it ('Refund', 'Void', 'Manual Fund Transfer'). */
export function moneyOperationLabel(operation: string): string | undefined {
  const action = actionOfOperation(operation);
  return action && moneyActions[action].shown;
}

/** What the approvals inbox shows as a money request's changed fields: the action and the amount. */
export function moneyChangedFields(request: { new_record: DisplayMap }): string[] {
  const shown = (key: string) => {
    const v = request.new_record?.[key]?.value;
    return typeof v === 'string' ? v : undefined;
  };
  const amount = shown('amount');
  const usd = shown('amount_usd');
  return [`Action: ${shown('action') ?? '?'}`, `Amount: ${amount ?? '?'}${usd && usd !== amount ? ` (${usd})` : ''}`];
}

const money = (n: unknown) => Number(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The engine adapter for one call: the operations run the action with this caller's context. */
function moneyAdapter(ctx: Ctx, outcome: { reply?: { statusCode: number; message: string } } = {}): EntityAdapter<Row> {
  const operation = (action: MoneyAction): RecordOperation<{ action: MoneyAction }> => ({
    label: moneyActions[action].label,
    async check(_db, row, _payload, maker, when) {
      const guardRow = row as unknown as CeftActionRow;
      const refused =
        action === 'VOID'
          ? voidRefusal(guardRow, maker, ctx.businessTimeZone, when.at)
          : action === 'REFUND'
            ? refundRefusal(guardRow, maker, ctx.businessTimeZone, when.at)
            : manualFundTransferRefusal(guardRow, maker);
      if (refused) throw new HttpError(422, when.stage === 'request' ? refused : `${refused} (checked again at approval; reject the request)`);
    },
    describe: () => ({ before: { action: displayField('Action', 'None') }, after: { action: displayField('Action', moneyActions[action].shown) } }),
    async apply(db, row) {
      const inTx = makeCtx(db, ctx.user, ctx.clock, ctx.auth, ctx.businessTimeZone, ctx.client, ctx, db, ctx.metrics);
      const reply = await runAction(inTx, action, { id: Number(row.id) }, '', { approved: true });
      outcome.reply = reply;
      return {
        type: `TRANSACTION_${action}_APPROVED`,
        description: `Approved ${moneyActions[action].label} of send-money transaction ${String(row.id)} (USD ${money(row.amount_usd)}) ran: ${reply.message}`,
      };
    },
  });
  return {
    type: MONEY_ENTITY,
    record: moneyRecord,
    table: MONEY_TABLE,
    fromRow: (row) => row,
    apply: () => {
      throw new Error('money actions change a transaction through their operations only');
    },
    operations: Object.fromEntries((Object.keys(moneyActions) as MoneyAction[]).map((a) => [moneyActions[a].operation, operation(a)])) as Record<string, RecordOperation<never>>,
  };
}

/**
 * The maker's side: when approvals are on and the transaction is above the amount, stores the request
 * and returns the reply to send; otherwise undefined (the action runs at once).
 */
export async function requestApprovalIfLarge(ctx: Ctx, action: MoneyAction, by: { id: number } | { trace: string }): Promise<{ message: string; changeRequestId: number } | undefined> {
  const above = ctx.moneyApprovalAboveUsd;
  if (above === null) return undefined;
  const row =
    'id' in by
      ? await ctx.db.one<{ id: number; amount_usd: number }>('SELECT id, amount_usd FROM ceft_transactions WHERE id = $1', [by.id])
      : await ctx.db.one<{ id: number; amount_usd: number }>('SELECT id, amount_usd FROM ceft_transactions WHERE trace = $1', [by.trace]);
  if (!row) throw new HttpError(404, 'Transaction not found');
  if (!(Number(row.amount_usd) > above)) return undefined;
  const id = await submitOperation(ctx, moneyAdapter(ctx), { operation: moneyActions[action].operation, recordId: row.id, payload: { action } });
  return {
    message: `${moneyActions[action].shown} of transaction ${row.id} (USD ${money(row.amount_usd)}, above USD ${money(above)}) sent for approval (change request #${id})`,
    changeRequestId: id,
  };
}

/** The pending money action requests this user may decide (holds the action's permission, not their own: as the approvals inbox), oldest first. */
export async function pendingMoneyApprovals(ctx: Ctx): Promise<{ requests: MoneyApprovalRow[]; changeRequests: ChangeRequest[] }> {
  const rows = await ctx.db.query<{
    id: number;
    operation: string;
    record_id: number;
    requested_by: string;
    requested_by_id: number | null;
    requested_at: Date;
    trace: string;
    currency_code: string;
    amount: number;
    amount_usd: number;
  }>(
    `SELECT c.id, c.operation, c.record_id, c.requested_by, c.requested_by_id, c.requested_at, t.trace, t.currency_code, t.amount::float8 AS amount, t.amount_usd::float8 AS amount_usd
       FROM change_requests c JOIN ceft_transactions t ON t.id = c.record_id
      WHERE c.entity_type = $1 AND c.status = 'PENDING' AND c.requested_by_id IS DISTINCT FROM $2
        AND c.operation IN (SELECT jsonb_array_elements_text($3::jsonb)) ORDER BY c.id`,
    [MONEY_ENTITY, ctx.user.id, JSON.stringify(moneyOperationsDecidableBy(ctx.user.permissions))],
  );
  const visible = rows;
  const ids = new Set(visible.map((r) => r.id));
  const requests = visible.map((r) => ({
    changeRequestId: r.id,
    transactionId: r.record_id,
    trace: r.trace,
    action: moneyActions[actionOfOperation(r.operation)!].shown,
    currency: r.currency_code,
    amount: r.amount,
    amountUsd: r.amount_usd,
    requestedBy: r.requested_by,
    requestedTime: r.requested_at.toISOString(),
  }));
  const changeRequests = (await pendingChangeRequests(ctx.db, { type: MONEY_ENTITY })).filter((c) => ids.has(c.changeRequestId));
  return { requests, changeRequests };
}

/** The checker's side: approve (the action runs) or reject; the decider needs the action's own permission. */
export async function decideMoneyApproval(ctx: Ctx, decision: Decision): Promise<{ message: string }> {
  const request = await ctx.db.one<{ operation: string | null; record_id: number }>('SELECT operation, record_id FROM change_requests WHERE id = $1 AND entity_type = $2', [
    decision.changeRequestID,
    MONEY_ENTITY,
  ]);
  const action = request && actionOfOperation(request.operation);
  if (!request || !action) throw new HttpError(404, 'Change request not found');
  const permission = moneyActions[action].permission;
  if (!hasPermission(ctx.user.permissions, permission)) throw new HttpError(403, `Forbidden: deciding a ${moneyActions[action].label} needs the permission ${permission}`);
  const outcome: { reply?: { statusCode: number; message: string } } = {};
  const decided = await decide(ctx, moneyAdapter(ctx, outcome), decision);
  if (decision.actionTaken === 'reject' || !outcome.reply) return decided;
  return {
    message: outcome.reply.statusCode === 200 ? `Approved: ${outcome.reply.message}` : `Approved, but the payment network refused the ${moneyActions[action].label}: ${outcome.reply.message}`,
  };
}
