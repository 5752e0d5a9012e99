/**
 * Settlement (README "Settlement"): a batch for today settles every successful send-money transaction
 * (ceft_transactions with status SUCCESS) not settled before, one row per currency and account:
 *
 *   FC amount     = Σ amount
 *   FC commission = Σ (ipg_commission + bank_charge)
 *   FC net amount = FC amount − FC commission
 *   rate          = the acquiring provider's settlement rate for the currency at generation time
 *   LKR amount    = round(FC net amount × rate, 2)
 *
 * The acquiring provider of a currency is the first active IPG provider (lowest id) with that currency
 * enabled and a settlement rate above 0 (LKR: rate 1); transactions in a currency no provider settles
 * stay pending and the report says so. Each transaction is settled exactly once (settled_transactions is keyed by
 * the transaction); generating takes an advisory lock, so two generate calls at once give one batch,
 * and there is at most one batch of each kind (scheduled, instant) per date.
 */
import { generateInstantSettlement, generateSettlement, instantSettlementReport, settlementReport, type SettlementRow } from '../api/reports';
import { exportFieldsOf } from '../console/exportFields';
import { NO_PENDING_SEND_MONEY_CODE, reportMessages } from '../domain/reports';
import { instantSettlementScreen, settlementScreen } from '../../screens/settlement';
import { localDay } from './areas/transactionsStats';
import { pgErrorCode, type Db } from './db/db';
import { handle, type Ctx } from './http/handle';
import { HttpError } from './http/httpError';

export type SettlementKind = 'SCHEDULED' | 'INSTANT';

const kindText: Record<SettlementKind, string> = { SCHEDULED: 'scheduled', INSTANT: 'instant' };

/**
 * The acquiring provider and its settlement rate per currency: the first active provider (lowest id)
 * with the currency enabled and a settlement rate above 0; LKR, which needs no conversion, at rate 1
 * by the first active provider unless a provider lists LKR itself.
 */
export const ROUTING_SQL = `
  SELECT currency_code, provider_bank_code, settlement_rate FROM (
    SELECT DISTINCT ON (c.currency_code) c.currency_code, p.provider_bank_code, c.settlement_rate
      FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
     WHERE c.disabled = 0 AND p.disabled = 0 AND c.settlement_rate > 0
     ORDER BY c.currency_code, p.id
  ) listed
  UNION ALL
  SELECT * FROM (
    SELECT 'LKR'::text AS currency_code, p.provider_bank_code, 1::numeric AS settlement_rate
      FROM ipg_providers p
     WHERE p.disabled = 0
       AND NOT EXISTS (SELECT 1 FROM ipg_provider_currencies c JOIN ipg_providers q ON q.id = c.provider_id
                        WHERE c.currency_code = 'LKR' AND c.disabled = 0 AND q.disabled = 0 AND c.settlement_rate > 0)
     ORDER BY p.id
     LIMIT 1
  ) lkr`;

/** Successful send-money transactions not settled yet (alias t). */
const PENDING_WHERE = `t.status = 'SUCCESS' AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id)`;

export interface RateStatus {
  hasRatesUpdated: boolean;
  messages: string[];
}

/**
 * Whether every active IPG provider with an enabled currency had its rates approved today, one line
 * per provider, and a line per currency whose pending transactions no provider can settle.
 */
export async function rateStatus(db: Db, now: Date): Promise<RateStatus> {
  const today = localDay(now);
  const providers = await db.query<{ provider_bank_name: string; last: string | null }>(
    `SELECT p.provider_bank_name,
            (SELECT to_char(max(a.rate_date), 'YYYY-MM-DD') FROM ipg_provider_rate_approvals a WHERE a.provider_id = p.id) AS last
       FROM ipg_providers p
      WHERE p.disabled = 0 AND EXISTS (SELECT 1 FROM ipg_provider_currencies c WHERE c.provider_id = p.id AND c.disabled = 0)
      ORDER BY p.id`,
  );
  const messages = providers.map((p) =>
    p.last === today
      ? `${p.provider_bank_name}: today's rates were approved`
      : p.last
        ? `${p.provider_bank_name}: today's rates are not approved yet; the settlement rates approved on ${p.last} will be used`
        : `${p.provider_bank_name}: no rates have been approved yet`,
  );
  const unsettleable = await db.query<{ currency_code: string; n: number }>(
    `WITH routing AS (${ROUTING_SQL})
     SELECT t.currency_code, count(*)::int AS n FROM ceft_transactions t
      WHERE ${PENDING_WHERE} AND t.currency_code NOT IN (SELECT currency_code FROM routing)
      GROUP BY t.currency_code ORDER BY t.currency_code`,
  );
  for (const u of unsettleable) {
    messages.push(`${u.n} successful ${u.currency_code} transaction${u.n === 1 ? '' : 's'} cannot be settled: no active IPG provider has a settlement rate for ${u.currency_code}`);
  }
  return { hasRatesUpdated: providers.every((p) => p.last === today), messages };
}

export interface GeneratedBatch {
  batchId: number;
  rows: number;
  transactions: number;
  lkrTotal: string;
}

/** Generates today's batch of `kind`; see the file comment for what it settles. */
export async function generateBatch(ctx: Ctx, kind: SettlementKind, useEarlierRates: boolean): Promise<GeneratedBatch> {
  try {
    return await ctx.tx(async (t) => {
      const db = t.db;
      // one generator at a time across all server processes: both kinds settle from the same pool
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('settlement-generation'))`);
      const now = t.clock();
      const day = localDay(now);
      if (await db.one('SELECT 1 FROM settlement_batches WHERE kind = $1 AND batch_date = $2::date', [kind, day])) {
        throw new HttpError(409, reportMessages.alreadyGenerated);
      }
      const rates = await rateStatus(db, now);
      if (!rates.hasRatesUpdated && !useEarlierRates) throw new HttpError(422, reportMessages.ratesNotUpdated);

      const ids = (
        await db.query<{ id: number }>(
          `WITH routing AS (${ROUTING_SQL})
           SELECT t.id FROM ceft_transactions t
            WHERE ${PENDING_WHERE} AND t.initiated_time <= $1 AND t.currency_code IN (SELECT currency_code FROM routing)
            ORDER BY t.id
            FOR UPDATE OF t`,
          [now],
        )
      ).map((r) => r.id);
      if (ids.length === 0) throw new HttpError(422, reportMessages.noPendingSendMoney, NO_PENDING_SEND_MONEY_CODE);

      const groups = await db.query<{
        currency_code: string;
        account_number: string;
        provider_bank_code: string;
        fc_rate: string;
        transaction_count: number;
        first_time: Date;
        fc_amount: string;
        fc_commission: string;
      }>(
        `WITH routing AS (${ROUTING_SQL})
         SELECT t.currency_code, t.account_number, r.provider_bank_code, r.settlement_rate::text AS fc_rate, count(*)::int AS transaction_count,
                min(t.initiated_time) AS first_time, sum(t.amount)::text AS fc_amount,
                sum(coalesce(t.ipg_commission, 0) + coalesce(t.bank_charge, 0))::text AS fc_commission
           FROM ceft_transactions t JOIN routing r ON r.currency_code = t.currency_code
          WHERE t.id IN (SELECT value::int FROM json_array_elements_text($1::json))
          GROUP BY t.currency_code, t.account_number, r.provider_bank_code, r.settlement_rate
          ORDER BY t.currency_code, t.account_number`,
        [ids],
      );

      const batch = await db.one<{ id: number }>(
        `INSERT INTO settlement_batches (kind, batch_date, generated_by, generated_at, used_earlier_rates, transaction_count)
         VALUES ($1, $2::date, $3, $4, $5, $6) RETURNING id`,
        [kind, day, t.user.username, now, !rates.hasRatesUpdated, ids.length],
      );
      const batchId = batch!.id;
      await insertRows(
        db,
        batchId,
        groups.map((g) => ({ ...g, tran_date: localDay(new Date(g.first_time)) })),
        now,
      );
      const linked = await db.query(
        `INSERT INTO settled_transactions (transaction_id, batch_id, row_id)
         SELECT t.id, $2, r.id FROM ceft_transactions t
           JOIN settlement_rows r ON r.batch_id = $2 AND r.currency_code = t.currency_code AND r.account_number = t.account_number
          WHERE t.id IN (SELECT value::int FROM json_array_elements_text($1::json))
         RETURNING transaction_id`,
        [ids, batchId],
      );
      if (linked.length !== ids.length) throw new Error(`settlement ${batchId}: linked ${linked.length} of ${ids.length} transactions`);
      const total = await db.one<{ lkr: string }>("SELECT to_char(sum(lkr_amount), 'FM999,999,999,999,990.00') AS lkr FROM settlement_rows WHERE batch_id = $1", [batchId]);

      await t.log({
        type: 'SETTLEMENT_GENERATED',
        description:
          `Generated the ${kindText[kind]} settlement report for ${day}: ${ids.length} transaction${ids.length === 1 ? '' : 's'} in ${groups.length} row${groups.length === 1 ? '' : 's'}, LKR ${total!.lkr}` +
          (rates.hasRatesUpdated ? '' : " (today's rates were not approved: the earlier settlement rates were used)"),
        after: { batchId, kind, batchDate: day, rows: groups.length, transactions: ids.length, lkrTotal: total!.lkr, usedEarlierRates: !rates.hasRatesUpdated },
      });
      return { batchId, rows: groups.length, transactions: ids.length, lkrTotal: total!.lkr };
    });
  } catch (err) {
    // the unique (kind, batch_date) backs the check above should two generators ever slip past the lock
    if (pgErrorCode(err) === '23505') throw new HttpError(409, reportMessages.alreadyGenerated);
    throw err;
  }
}

export interface RowInput {
  tran_date: string;
  currency_code: string;
  account_number: string;
  provider_bank_code: string;
  transaction_count: number;
  fc_amount: string;
  fc_commission: string;
  fc_rate: string;
}

/** Inserts a batch's rows: net and LKR are computed here, in numeric, by the definition. */
export async function insertRows(db: Db, batchId: number, rows: readonly RowInput[], at: Date): Promise<{ id: number; currency_code: string; account_number: string }[]> {
  const out: { id: number; currency_code: string; account_number: string }[] = [];
  for (let i = 0; i < rows.length; i += 2000) {
    out.push(
      ...(await db.query<{ id: number; currency_code: string; account_number: string }>(
        `INSERT INTO settlement_rows (batch_id, tran_date, currency_code, account_number, provider_bank_code, transaction_count,
                                      fc_amount, fc_commission, fc_net_amount, fc_rate, lkr_amount, created_at, updated_at)
         SELECT $2, x.tran_date::date, x.currency_code, x.account_number, x.provider_bank_code, x.transaction_count,
                x.fc_amount::numeric, x.fc_commission::numeric, x.fc_amount::numeric - x.fc_commission::numeric, x.fc_rate::numeric,
                round((x.fc_amount::numeric - x.fc_commission::numeric) * x.fc_rate::numeric, 2), $3, $3
           FROM json_to_recordset($1::json) AS x(tran_date text, currency_code text, account_number text, provider_bank_code text,
                                                  transaction_count integer, fc_amount text, fc_commission text, fc_rate text)
         RETURNING id, currency_code, account_number`,
        [rows.slice(i, i + 2000), batchId, at],
      )),
    );
  }
  return out;
}

/** The provider an IPG bank user is limited to ('' for everyone else). */
async function providerScope(ctx: Ctx): Promise<string> {
  const me = await ctx.db.one<{ branch_code: string; user_type: string }>('SELECT branch_code, user_type FROM console_users WHERE id = $1', [ctx.user.id]);
  return me?.user_type === 'IPGBANK' ? me.branch_code : '';
}

async function listRows(ctx: Ctx, kind: SettlementKind, date: string, fetchCount: number): Promise<SettlementRow[]> {
  const rows = await ctx.db.query<Omit<SettlementRow, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date }>(
    `SELECT r.id, to_char(r.tran_date, 'YYYY-MM-DD') AS tran_date, to_char(b.batch_date, 'YYYY-MM-DD') AS batch_date, r.currency_code, r.account_number,
            r.fc_amount::float8 AS fc_amount, r.fc_commission::float8 AS fc_commission, r.fc_net_amount::float8 AS fc_net_amount,
            r.fc_rate::float8 AS fc_rate, r.lkr_amount::float8 AS lkr_amount, r.created_at, r.updated_at
       FROM settlement_rows r JOIN settlement_batches b ON b.id = r.batch_id
      WHERE b.kind = $1 AND b.batch_date = $2::date AND ($3 = '' OR r.provider_bank_code = $3)
      ORDER BY r.id
      LIMIT $4`,
    [kind, date, await providerScope(ctx), fetchCount],
  );
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() }));
}

const scheduledFields = exportFieldsOf(settlementScreen);
const instantFields = exportFieldsOf(instantSettlementScreen);

export const settlementHandlers = [
  handle(settlementReport, async (ctx, { date, fetchCount }) => {
    const rows = await listRows(ctx, 'SCHEDULED', date, fetchCount);
    return { data: { transactions: rows, filteredList: rows, fields: scheduledFields, ...(await rateStatus(ctx.db, ctx.clock())) } };
  }),
  handle(instantSettlementReport, async (ctx, { date }) => {
    const rows = await listRows(ctx, 'INSTANT', date, 99_999_999);
    return { data: { transactions: rows, filteredList: rows, fields: instantFields, ...(await rateStatus(ctx.db, ctx.clock())) } };
  }),
  handle(generateSettlement, async (ctx, { useYesterdaysRates }) => {
    const b = await generateBatch(ctx, 'SCHEDULED', useYesterdaysRates);
    return { data: { message: reportMessages.settlementGenerated, batchId: b.batchId, rows: b.rows, transactions: b.transactions } };
  }),
  handle(generateInstantSettlement, async (ctx, { useYesterdaysRates }) => {
    const b = await generateBatch(ctx, 'INSTANT', useYesterdaysRates);
    return { data: { message: reportMessages.settlementGenerated, batchId: b.batchId, rows: b.rows, transactions: b.transactions } };
  }),
];
