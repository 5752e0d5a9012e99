/**
 * The send-money actions: hold, manual fund transfer, void and refund (spec 001 §4, §7, §8).
 *
 * Each runs in one database transaction that locks the transaction's row (SELECT ... FOR UPDATE),
 * so concurrent requests on one transaction are taken one after the other, and then:
 *
 * 1. replays the reply of the same action when it was the last thing that happened to the row (a
 *    success at any time, a failure within REPLAY_FAILURE_MS), so a repeated identical request does
 *    not act twice;
 * 2. asks the guard of src/domain/transactionGuards.ts (the one the console uses to show the
 *    button): a refusal is a 422 with the reason and changes nothing;
 * 3. calls the payment network (src/server/payments), records what it answered on the row (statuses,
 *    times, ids, messages, try count, overall status; the roll-ups follow by trigger, migration 60),
 *    records the action in transaction_actions (unique per state of the row) and in the activity log.
 *
 * A network refusal is recorded like a success (the row keeps the failure's code and message) and
 * answered with 422 and the network's message; a network that cannot be reached changes nothing (502).
 */
import { ceftHold, ceftManualFundTransfer, ceftRefund, ceftVoid } from '../../../api/transactions';
import { moneyApprovalApprove } from '../../../api/controls';
import { isLocked } from '../../../domain/guards';
import { holdRefusal, manualFundTransferRefusal, refundRefusal, voidRefusal, type CeftActionRow } from '../../../domain/transactionGuards';
import { HOLD, overallStatusOf, SUCCESS } from '../../../domain/transactionStatus';
import type { Db } from '../../db/db';
import { handle, type Ctx, type Handler } from '../../http/handle';
import { HttpError } from '../../http/httpError';
import { paymentNetwork, type NetworkResult, type PaymentNetwork } from '../../payments';
import { requestApprovalIfLarge } from '../../moneyApprovals';
import type { MoneyActionKind } from '../../observability/recorder';

export type ActionName = 'HOLD' | 'MANUAL_FUND_TRANSFER' | 'VOID' | 'REFUND';

/** A failed attempt is replayed to a repeated request for this long; after it, a retry acts again. */
export const REPLAY_FAILURE_MS = 60_000;

/** The send-money row as the actions read it. */
export interface CeftDbRow extends CeftActionRow {
  id: number;
  trace: string;
  country: string;
  currency_code: string;
  amount: number;
  amount_usd: number;
  amount_lkr: number;
  bank_code: string;
  account_number: string;
  initiated_time: Date;
  card_payment_time: Date | null;
  ipg_transaction_id: string | null;
  refund_commission: number | null;
  status: string;
  action_seq: number;
  ceft_payment_description: string | null;
  /** 1 while a money action on it waits for approval (src/server/moneyApprovals.ts). */
  locked: number;
}

/** What an action changes on the row, and what the caller is told. */
interface Outcome {
  ok: boolean;
  patch: Record<string, unknown>;
  message: string;
}

interface ActionSpec {
  readonly action: ActionName;
  /** For the activity log. */
  readonly verb: string;
  readonly refusal: (row: CeftDbRow, ctx: Ctx, now: Date) => string | undefined;
  readonly perform: (row: CeftDbRow, network: PaymentNetwork, now: Date, ctx: Ctx, note: string) => Promise<Outcome>;
}

interface Reply {
  statusCode: number;
  message: string;
}

const STATUS_FIELDS = ['card_payment_status', 'ceft_payment_status', 'ceft_try_count', 'refund_requested', 'ipg_void_status', 'ipg_refund_status', 'status'] as const;

function snapshot(row: Record<string, unknown>) {
  return Object.fromEntries(STATUS_FIELDS.map((k) => [k, row[k] ?? null]));
}

/** The columns the actions read; a placeholder card payment time (before year 1000) reads as null. */
const ACTION_COLUMNS = `id, trace, country, currency_code, amount, amount_usd, amount_lkr, bank_code, account_number, initiated_time,
  CASE WHEN card_payment_time < '1000-01-01' THEN NULL ELSE card_payment_time END AS card_payment_time,
  card_payment_status, ipg_transaction_id, refund_commission, ceft_payment_status, ceft_payment_description, ceft_try_count,
  refund_requested, ipg_void_status, ipg_refund_status, status, action_seq, locked`;

async function lockRow(db: Db, by: { id: number } | { trace: string }): Promise<CeftDbRow> {
  const row =
    'id' in by
      ? await db.one<CeftDbRow>(`SELECT ${ACTION_COLUMNS} FROM ceft_transactions WHERE id = $1 FOR UPDATE`, [by.id])
      : await db.one<CeftDbRow>(`SELECT ${ACTION_COLUMNS} FROM ceft_transactions WHERE trace = $1 FOR UPDATE`, [by.trace]);
  if (!row) throw new HttpError(404, 'Transaction not found');
  return row;
}

/** The reply of the same action if it is the last thing that happened to this row (and still replayable). */
async function replayOf(db: Db, row: CeftDbRow, action: ActionName, now: Date): Promise<Reply | undefined> {
  const last = await db.one<{ action: string; seq_after: number; outcome: string; status_code: number; message: string; created_at: Date }>(
    `SELECT action, seq_after, outcome, status_code, message, created_at FROM transaction_actions
      WHERE kind = 'ceft' AND transaction_id = $1 ORDER BY id DESC LIMIT 1`,
    [row.id],
  );
  if (!last || last.action !== action || last.seq_after !== row.action_seq) return undefined;
  if (last.outcome !== 'SUCCESS' && now.getTime() - last.created_at.getTime() > REPLAY_FAILURE_MS) return undefined;
  return { statusCode: last.status_code, message: last.message };
}

/** The transfer's network answer as the row records it. */
function reversalPatch(prefix: 'ipg_void' | 'ipg_refund', r: NetworkResult): Record<string, unknown> {
  return {
    [`${prefix}_payment_time`]: r.time,
    [`${prefix}_status`]: r.status,
    [`${prefix}_tran_id`]: r.transactionId,
    [`${prefix}_description`]: r.description,
    [`${prefix}_code`]: r.code,
    [`${prefix}_message`]: r.message,
  };
}

/**
 * The idempotency key of one attempt: the same for every retry of an action on the row in the same
 * state (a retry after the server stopped between the network's answer and the commit), different
 * once the row has moved on. A network that honours it does not act twice on one attempt.
 */
function attemptKey(row: CeftDbRow, action: ActionName): string {
  return `ceft:${row.id}:${action}:${row.action_seq}`;
}

function reversalRequest(row: CeftDbRow, action: ActionName, businessTimeZone: string) {
  return {
    businessTimeZone,
    reference: row.trace,
    idempotencyKey: attemptKey(row, action),
    ipgTransactionId: row.ipg_transaction_id,
    amount: Number(row.amount),
    currency: row.currency_code,
    cardPaymentTime: row.card_payment_time,
    refundCommission: row.refund_commission === null ? null : Number(row.refund_commission),
  };
}

const specs: Record<ActionName, ActionSpec> = {
  HOLD: {
    action: 'HOLD',
    verb: 'Hold of the fund transfer',
    refusal: (row, ctx) => holdRefusal(row, ctx.user),
    async perform(row, network, now, ctx, note) {
      const r = await network.holdTransfer({ reference: row.trace, idempotencyKey: attemptKey(row, 'HOLD'), reason: note }, now);
      if (!r.ok) return { ok: false, patch: {}, message: r.description };
      return {
        ok: true,
        patch: { ceft_payment_status: HOLD, ceft_payment_description: `Held by ${ctx.user.username}${note ? `: ${note}` : ''}` },
        message: `Transaction hold successful: Id - ${row.id}`,
      };
    },
  },
  MANUAL_FUND_TRANSFER: {
    action: 'MANUAL_FUND_TRANSFER',
    verb: 'Manual fund transfer',
    refusal: (row, ctx) => manualFundTransferRefusal(row, ctx.user),
    async perform(row, network, now) {
      const attempt = row.ceft_try_count + 1;
      const r = await network.transferFunds(
        { reference: row.trace, idempotencyKey: attemptKey(row, 'MANUAL_FUND_TRANSFER'), bankCode: row.bank_code, accountNumber: row.account_number, amountLkr: Number(row.amount_lkr), attempt },
        now,
      );
      const patch = {
        ceft_payment_time: r.time,
        ceft_payment_status: r.ok ? SUCCESS : 'FAILED',
        ceft_payment_description: r.ok ? `${r.description} (manual)` : r.description,
        ceft_transaction_id: r.ok ? r.transactionId : null,
        ceft_try_count: attempt,
      };
      return { ok: r.ok, patch, message: r.ok ? `Fund transfer successful: Id - ${row.id}` : r.description };
    },
  },
  VOID: {
    action: 'VOID',
    verb: 'Void of the card payment',
    refusal: (row, ctx, now) => voidRefusal(row, ctx.user, ctx.businessTimeZone, now),
    async perform(row, network, now, ctx) {
      const r = await network.voidCardPayment(reversalRequest(row, 'VOID', ctx.businessTimeZone), now);
      return { ok: r.ok, patch: reversalPatch('ipg_void', r), message: r.ok ? `Transaction voided successfully: Id - ${row.id}` : r.description };
    },
  },
  REFUND: {
    action: 'REFUND',
    verb: 'Refund of the card payment',
    refusal: (row, ctx, now) => refundRefusal(row, ctx.user, ctx.businessTimeZone, now),
    async perform(row, network, now, ctx) {
      const r = await network.refundCardPayment(reversalRequest(row, 'REFUND', ctx.businessTimeZone), now);
      return { ok: r.ok, patch: reversalPatch('ipg_refund', r), message: r.ok ? `Transaction refunded successfully: Id - ${row.id}` : r.description };
    },
  },
};

/**
 * Runs one action on one send-money transaction; see the file comment for the steps. While a money
 * action on the row waits for approval (the row is locked), no action runs on it but the approved one
 * (`approved`: called by the approval, src/server/moneyApprovals.ts).
 */
export async function runAction(ctx: Ctx, action: ActionName, by: { id: number } | { trace: string }, note = '', options: { approved?: boolean } = {}): Promise<Reply> {
  // counted once its transaction has ended (src/server/observability/recorder.ts): a replayed reply is not an action
  const kind = action.toLowerCase() as MoneyActionKind;
  let replayed = false;
  try {
    const reply = await actOnce(ctx, action, by, note, options, () => void (replayed = true));
    if (!replayed) ctx.metrics.moneyAction(kind, reply.statusCode === 200 ? 'ok' : 'failed');
    return reply;
  } catch (err) {
    // 404 (no such transaction): nothing was acted on
    if (!(err instanceof HttpError && err.status === 404)) ctx.metrics.moneyAction(kind, err instanceof HttpError && (err.status === 409 || err.status === 422) ? 'refused' : 'failed');
    throw err;
  }
}

async function actOnce(ctx: Ctx, action: ActionName, by: { id: number } | { trace: string }, note: string, options: { approved?: boolean }, onReplay: () => void): Promise<Reply> {
  const spec = specs[action];
  const network = await paymentNetwork();
  return ctx.tx(async (tx) => {
    const now = tx.clock();
    const row = await lockRow(tx.db, by);
    const replay = await replayOf(tx.db, row, action, now);
    if (replay) {
      onReplay();
      return replay;
    }
    if (row.locked !== 0 && !options.approved) throw new HttpError(409, 'A money action on this transaction is waiting for approval: decide it first');

    const refused = spec.refusal(row, tx, now);
    if (refused) throw new HttpError(422, refused);

    let outcome: Outcome;
    try {
      outcome = await spec.perform(row, network, now, tx, note);
    } catch {
      throw new HttpError(502, 'The payment network could not be reached; nothing was changed');
    }

    const next = { ...row, ...outcome.patch } as CeftDbRow;
    const status = overallStatusOf({ card: next.card_payment_status, payout: next.ceft_payment_status, void: next.ipg_void_status, refund: next.ipg_refund_status });
    const seq = row.action_seq + 1;
    const sets = { ...outcome.patch, status, action_seq: seq, updated_at: now };
    const columns = Object.keys(sets);
    await tx.db.query(`UPDATE ceft_transactions SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [row.id, ...columns.map((c) => sets[c as keyof typeof sets])]);

    const reply: Reply = { statusCode: outcome.ok ? 200 : 422, message: outcome.message };
    await tx.db.query(
      `INSERT INTO transaction_actions (kind, transaction_id, action, seq_before, seq_after, outcome, status_code, message, username, status_before, status_after, created_at)
       VALUES ('ceft', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [row.id, action, row.action_seq, seq, outcome.ok ? 'SUCCESS' : 'FAILED', reply.statusCode, reply.message, tx.user.username, row.status, status, now],
    );
    await tx.log({
      level: outcome.ok ? 'INFO' : 'WARN',
      type: `TRANSACTION_${action}`,
      description: `${spec.verb} of send-money transaction ${row.id} (trace ${row.trace}) ${outcome.ok ? 'succeeded' : `failed: ${outcome.message}`} through ${network.name}${note ? `; reason: ${note}` : ''}`,
      before: snapshot(row as unknown as Record<string, unknown>),
      after: snapshot({ ...next, status } as unknown as Record<string, unknown>),
    });
    return reply;
  });
}

async function answer(ctx: Ctx, action: ActionName, by: { id: number } | { trace: string }, note = '') {
  if (action !== 'HOLD') {
    const sent = await requestApprovalIfLarge(ctx, action, by);
    if (sent) return { data: sent };
  }
  const reply = await runAction(ctx, action, by, note);
  if (reply.statusCode !== 200) throw new HttpError(reply.statusCode, reply.message);
  return { data: { message: reply.message } };
}

export const transactionActionHandlers: readonly Handler[] = [
  handle(ceftHold, (ctx, body) => answer(ctx, 'HOLD', { id: body.id }, body.description.trim()), { guards: [isLocked, holdRefusal] }),
  handle(ceftManualFundTransfer, (ctx, body) => answer(ctx, 'MANUAL_FUND_TRANSFER', { trace: body.trace.trim() }), {
    guards: [isLocked, manualFundTransferRefusal],
    fourEyes: { approve: moneyApprovalApprove },
  }),
  handle(ceftVoid, (ctx, body) => answer(ctx, 'VOID', { id: body.transactionID }), { guards: [isLocked, voidRefusal], fourEyes: { approve: moneyApprovalApprove } }),
  handle(ceftRefund, (ctx, body) => answer(ctx, 'REFUND', { id: body.transactionID }), { guards: [isLocked, refundRefusal], fourEyes: { approve: moneyApprovalApprove } }),
];
