/**
 * Settlement (docs/settlement.md): a batch for today settles every successful send-money transaction
 * (ceft_transactions with status SUCCESS) not settled before, one row per currency and account:
 *
 *   FC amount     = Σ amount
 *   FC commission = Σ (ipg_commission + bank_charge)
 *   FC net amount = FC amount − FC commission
 *   rate          = the acquiring provider's settlement rate for the currency at generation time
 *   LKR amount    = round(FC net amount × rate, 2)
 *
 * one row per currency, account and acquiring provider. The acquiring provider is the transaction's
 * own (provider_bank_code, migration 76: the IPG whose gateway took the card payment), no longer
 * guessed from the currency; its rate is its enabled currency's settlement rate above 0 (LKR: rate 1
 * unless the provider lists LKR itself). A transaction whose provider is unknown, inactive or has no
 * such rate stays pending and the report says so. Each transaction is settled exactly once
 * (settled_transactions is keyed by the transaction); generating takes an advisory lock, so two
 * generate calls at once give one batch, and there is at most one batch of each kind (scheduled,
 * instant) per date. Generating needs settlement-report-generate and is refused to IPG bank users (a
 * batch settles every provider); viewing needs settlement-report-view, and an IPG bank user sees their
 * own provider's rows and rate messages only (./providerScope.ts).
 */
import { generateInstantSettlement, generateSettlement, instantSettlementReport, settlementReport, type SettlementRow } from '../../api/reports';
import { exportFieldsOf } from '../../definitions/exportFields';
import { NO_PENDING_SEND_MONEY_CODE, reportMessages } from '../../domain/reports';
import { instantSettlementScreen, settlementScreen } from '../../../screens/settlement';
import { localDay } from './transactions/stats';
import { pgErrorCode, type Db } from '../db/db';
import { handle, type BodyOf, type Ctx } from '../http/handle';
import { pageSql, type ListRows, type RowsQuery } from '../db/keyset';
import { matchingRows } from './matching';
import { HttpError } from '../http/httpError';
import { providerScopeOf } from '../providerScope';

export type SettlementKind = 'SCHEDULED' | 'INSTANT';

const kindText: Record<SettlementKind, string> = { SCHEDULED: 'scheduled', INSTANT: 'instant' };

/**
 * The settlement rate of each active provider per currency it settles: its enabled currencies with a
 * settlement rate above 0, and LKR, which needs no conversion, at rate 1 unless it lists LKR itself.
 */
export const PROVIDER_RATES_SQL = `
  SELECT p.provider_bank_code, c.currency_code, c.settlement_rate
    FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
   WHERE c.disabled = 0 AND p.disabled = 0 AND c.settlement_rate > 0
  UNION ALL
  SELECT p.provider_bank_code, 'LKR'::text, 1::numeric
    FROM ipg_providers p
   WHERE p.disabled = 0
     AND NOT EXISTS (SELECT 1 FROM ipg_provider_currencies c
                      WHERE c.provider_id = p.id AND c.currency_code = 'LKR' AND c.disabled = 0 AND c.settlement_rate > 0)`;

/** The transaction (alias t) has a settlement rate at its own provider (CTE `rates` of PROVIDER_RATES_SQL). */
const SETTLEABLE = `EXISTS (SELECT 1 FROM rates r WHERE r.provider_bank_code = t.provider_bank_code AND r.currency_code = t.currency_code)`;

/**
 * Successful send-money transactions not settled yet (alias t): `settled` mirrors settled_transactions
 * (migration 180's triggers), `awaiting_settlement` is "status SUCCESS and not settled" as one generated
 * column (migration 200) and a partial index holds exactly these rows, so the pending ones are found
 * without reading the settled history, and the planner estimates them from the column's own statistics.
 */
const PENDING_WHERE = `t.awaiting_settlement`;

export interface RateStatus {
  hasRatesUpdated: boolean;
  messages: string[];
}

/**
 * Whether every active IPG provider with an enabled currency had its rates approved today, one line
 * per provider, and a line per currency and provider whose pending transactions cannot be settled.
 * With a provider scope (an IPG bank user), that provider's lines only.
 */
export async function rateStatus(db: Db, now: Date, zone: string, scope?: string): Promise<RateStatus> {
  const today = localDay(now, zone);
  const providers = await db.query<{ provider_bank_name: string; last: string | null }>(
    `SELECT p.provider_bank_name,
            (SELECT to_char(max(a.rate_date), 'YYYY-MM-DD') FROM ipg_provider_rate_approvals a WHERE a.provider_id = p.id) AS last
       FROM ipg_providers p
      WHERE p.disabled = 0 AND EXISTS (SELECT 1 FROM ipg_provider_currencies c WHERE c.provider_id = p.id AND c.disabled = 0)
        AND ($1::text IS NULL OR p.provider_bank_code = $1)
      ORDER BY p.id`,
    [scope ?? null],
  );
  const messages = providers.map((p) =>
    p.last === today
      ? `${p.provider_bank_name}: today's rates were approved`
      : p.last
        ? `${p.provider_bank_name}: today's rates are not approved yet; the settlement rates approved on ${p.last} will be used`
        : `${p.provider_bank_name}: no rates have been approved yet`,
  );
  const unsettleable = await db.query<{ currency_code: string; provider_bank_code: string | null; provider_bank_name: string | null; n: number }>(
    `WITH rates AS (${PROVIDER_RATES_SQL})
     SELECT t.currency_code, t.provider_bank_code, min(p.provider_bank_name) AS provider_bank_name, count(*)::int AS n
       FROM ceft_transactions t LEFT JOIN ipg_providers p ON p.provider_bank_code = t.provider_bank_code
      WHERE ${PENDING_WHERE} AND NOT ${SETTLEABLE} AND ($1::text IS NULL OR t.provider_bank_code = $1)
      GROUP BY t.currency_code, t.provider_bank_code ORDER BY t.currency_code, t.provider_bank_code`,
    [scope ?? null],
  );
  for (const u of unsettleable) {
    const what = `${u.n} successful ${u.currency_code} transaction${u.n === 1 ? '' : 's'}`;
    messages.push(
      u.provider_bank_code === null
        ? `${what} cannot be settled: no IPG provider is recorded for ${u.n === 1 ? 'it' : 'them'}`
        : `${what} of ${u.provider_bank_name ?? u.provider_bank_code} cannot be settled: the provider has no active settlement rate for ${u.currency_code}`,
    );
  }
  return { hasRatesUpdated: providers.every((p) => p.last === today), messages };
}

export interface GeneratedBatch {
  batchId: number;
  rows: number;
  transactions: number;
  lkrTotal: string;
  usedEarlierRates: boolean;
}

/** Generates today's batch of `kind`; see the file comment for what it settles. */
export async function generateBatch(ctx: Ctx, kind: SettlementKind, useEarlierRates: boolean): Promise<GeneratedBatch> {
  try {
    return await ctx.tx(async (t) => {
      const db = t.db;
      // one generator at a time across all server processes: both kinds settle from the same pool
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('settlement-generation'))`);
      const now = t.clock();
      // the batch date is the business day (BUSINESS_TIME_ZONE), not the server process's date
      const day = localDay(now, t.businessTimeZone);
      if (await db.one('SELECT 1 FROM settlement_batches WHERE kind = $1 AND batch_date = $2::date', [kind, day])) {
        throw new HttpError(409, reportMessages.alreadyGenerated);
      }
      const rates = await rateStatus(db, now, t.businessTimeZone);
      if (!rates.hasRatesUpdated && !useEarlierRates) throw new HttpError(422, reportMessages.ratesNotUpdated);

      // each with its initiated time (as PostgreSQL prints it, exact to the microsecond): the statements
      // below find the rows by their key (id, initiated_time), one month partition each
      const pending = await db.query<RowKey & { id: number; at: string }>(
        `WITH rates AS (${PROVIDER_RATES_SQL})
         SELECT t.id, t.initiated_time::text AS at, t.currency_code, t.account_number, t.provider_bank_code FROM ceft_transactions t
          WHERE ${PENDING_WHERE} AND t.initiated_time <= $1 AND ${SETTLEABLE}
          ORDER BY t.id
          FOR UPDATE OF t`,
        [now],
      );
      const ids = pending.map((r) => r.id);
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
        `WITH rates AS (${PROVIDER_RATES_SQL})
         SELECT t.currency_code, t.account_number, r.provider_bank_code, r.settlement_rate::text AS fc_rate, count(*)::int AS transaction_count,
                min(t.initiated_time) AS first_time, sum(t.amount)::text AS fc_amount,
                sum(coalesce(t.ipg_commission, 0) + coalesce(t.bank_charge, 0))::text AS fc_commission
           FROM ceft_transactions t JOIN rates r ON r.provider_bank_code = t.provider_bank_code AND r.currency_code = t.currency_code
          WHERE (t.id, t.initiated_time) IN (SELECT x.id, x.at FROM json_to_recordset($1::json) AS x(id integer, at timestamptz))
          GROUP BY t.currency_code, t.account_number, r.provider_bank_code, r.settlement_rate
          ORDER BY t.currency_code, t.account_number, r.provider_bank_code`,
        [pending.map((p) => ({ id: p.id, at: p.at }))],
      );

      const batch = await db.one<{ id: number }>(
        `INSERT INTO settlement_batches (kind, batch_date, generated_by, generated_at, used_earlier_rates, transaction_count)
         VALUES ($1, $2::date, $3, $4, $5, $6) RETURNING id`,
        [kind, day, t.user.username, now, !rates.hasRatesUpdated, ids.length],
      );
      const batchId = batch!.id;
      const made = await insertRows(
        db,
        batchId,
        groups.map((g) => ({ ...g, tran_date: localDay(new Date(g.first_time), t.businessTimeZone) })),
        now,
      );
      // each transaction to its row (same currency, account and provider), linked by its key: the
      // database checks each link against the transaction (foreign key) and reads nothing else
      const rowOf = new Map(made.map((r) => [rowKey(r), r.id]));
      const links = pending.map((p) => ({ id: p.id, at: p.at, row: rowOf.get(rowKey(p)) }));
      const linked = await db.query(
        `INSERT INTO settled_transactions (transaction_id, transaction_initiated_time, batch_id, row_id)
         SELECT x.id, x.at, $2, x.row FROM json_to_recordset($1::json) AS x(id integer, at timestamptz, "row" integer) WHERE x.row IS NOT NULL
         RETURNING transaction_id`,
        [links, batchId],
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
      return { batchId, rows: groups.length, transactions: ids.length, lkrTotal: total!.lkr, usedEarlierRates: !rates.hasRatesUpdated };
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

/** What makes a settlement row: its currency, account and provider (one row per such triple in a batch). */
interface RowKey {
  currency_code: string;
  account_number: string;
  provider_bank_code: string;
}

function rowKey(r: RowKey): string {
  return `${r.currency_code}|${r.account_number}|${r.provider_bank_code}`;
}

/** Inserts a batch's rows: net and LKR are computed here, in numeric, by the definition. */
export async function insertRows(db: Db, batchId: number, rows: readonly RowInput[], at: Date): Promise<(RowKey & { id: number })[]> {
  const out: (RowKey & { id: number })[] = [];
  for (let i = 0; i < rows.length; i += 2000) {
    out.push(
      ...(await db.query<RowKey & { id: number }>(
        `INSERT INTO settlement_rows (batch_id, tran_date, currency_code, account_number, provider_bank_code, transaction_count,
                                      fc_amount, fc_commission, fc_net_amount, fc_rate, lkr_amount, created_at, updated_at)
         SELECT $2, x.tran_date::date, x.currency_code, x.account_number, x.provider_bank_code, x.transaction_count,
                x.fc_amount::numeric, x.fc_commission::numeric, x.fc_amount::numeric - x.fc_commission::numeric, x.fc_rate::numeric,
                round((x.fc_amount::numeric - x.fc_commission::numeric) * x.fc_rate::numeric, 2), $3, $3
           FROM json_to_recordset($1::json) AS x(tran_date text, currency_code text, account_number text, provider_bank_code text,
                                                  transaction_count integer, fc_amount text, fc_commission text, fc_rate text)
         RETURNING id, currency_code, account_number, provider_bank_code`,
        [rows.slice(i, i + 2000), batchId, at],
      )),
    );
  }
  return out;
}

type SettlementQueryRow = Omit<SettlementRow, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/** The query of a batch's rows of `date`, limited to the provider of an IPG bank user (`scope`), by id. */
function settlementRowsQuery(kind: SettlementKind, date: string, fetchCount: number, scope: string | undefined): RowsQuery {
  return {
    sql: `SELECT r.id, to_char(r.tran_date, 'YYYY-MM-DD') AS tran_date, to_char(b.batch_date, 'YYYY-MM-DD') AS batch_date, r.currency_code, r.account_number,
                 r.fc_amount::float8 AS fc_amount, r.fc_commission::float8 AS fc_commission, r.fc_net_amount::float8 AS fc_net_amount,
                 r.fc_rate::float8 AS fc_rate, r.lkr_amount::float8 AS lkr_amount, r.created_at, r.updated_at
            FROM settlement_rows r JOIN settlement_batches b ON b.id = r.batch_id
           WHERE b.kind = $1 AND b.batch_date = $2::date AND ($3::text IS NULL OR r.provider_bank_code = $3)`,
    params: [kind, date, scope ?? null],
    keys: [{ column: 'id', type: 'integer' }],
    descending: false,
    limit: fetchCount,
  };
}

const toSettlementRow = (r: SettlementQueryRow): SettlementRow => ({ ...r, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString() });

/** The settlement reports' rows (their handlers and their server exports), in the caller's provider scope. */
export const settlementReportRows: ListRows<BodyOf<typeof settlementReport>, SettlementQueryRow, Ctx> = {
  query: async (ctx, { date, fetchCount }) => settlementRowsQuery('SCHEDULED', date, fetchCount, await providerScopeOf(ctx.db, ctx.user)),
  toRow: toSettlementRow,
};
export const instantSettlementReportRows: ListRows<BodyOf<typeof instantSettlementReport>, SettlementQueryRow, Ctx> = {
  query: async (ctx, { date }) => settlementRowsQuery('INSTANT', date, 99_999_999, await providerScopeOf(ctx.db, ctx.user)),
  toRow: toSettlementRow,
};

/** A batch's rows of `date`, limited to the provider of an IPG bank user (`scope`). */
async function listRows(ctx: Ctx, kind: SettlementKind, date: string, fetchCount: number, scope: string | undefined): Promise<{ rows: SettlementRow[]; matching: number }> {
  const q = settlementRowsQuery(kind, date, fetchCount, scope);
  const page = pageSql(q, q.limit);
  const rows = await ctx.db.query<SettlementQueryRow>(page.sql, page.params);
  return {
    rows: rows.map(toSettlementRow),
    matching: await matchingRows(ctx.db, rows.length, fetchCount, `FROM (${q.sql}) page`, q.params),
  };
}

const scheduledFields = exportFieldsOf(settlementScreen);
const instantFields = exportFieldsOf(instantSettlementScreen);

/** A report's reply: the rows and rate messages the caller may see. */
async function report(ctx: Ctx, kind: SettlementKind, date: string, fetchCount: number) {
  const scope = await providerScopeOf(ctx.db, ctx.user);
  const { rows, matching } = await listRows(ctx, kind, date, fetchCount, scope);
  return { matching, transactions: rows, filteredList: rows, fields: kind === 'SCHEDULED' ? scheduledFields : instantFields, ...(await rateStatus(ctx.db, ctx.clock(), ctx.businessTimeZone, scope)) };
}

/** Generating settles every provider's transactions: refused to a user limited to one provider. */
async function generate(ctx: Ctx, kind: SettlementKind, useEarlierRates: boolean) {
  if ((await providerScopeOf(ctx.db, ctx.user)) !== undefined) throw new HttpError(403, 'Forbidden: an IPG bank user may not generate the settlement of every provider');
  const b = await generateBatch(ctx, kind, useEarlierRates);
  return { data: { message: reportMessages.settlementGenerated, batchId: b.batchId, rows: b.rows, transactions: b.transactions, usedEarlierRates: b.usedEarlierRates } };
}

export const settlementHandlers = [
  handle(settlementReport, async (ctx, { date, fetchCount }) => {
    const { matching, ...data } = await report(ctx, 'SCHEDULED', date, fetchCount);
    return { data, top: { matching } };
  }),
  handle(instantSettlementReport, async (ctx, { date }) => {
    const { matching: _all, ...data } = await report(ctx, 'INSTANT', date, 99_999_999);
    return { data };
  }),
  // the documented empty body uses the earlier rates when needed; only an explicit false refuses them
  handle(generateSettlement, (ctx, { useYesterdaysRates }) => generate(ctx, 'SCHEDULED', useYesterdaysRates !== false)),
  handle(generateInstantSettlement, (ctx, { useYesterdaysRates }) => generate(ctx, 'INSTANT', useYesterdaysRates !== false)),
];
