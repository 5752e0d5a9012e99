/**
 * Keeping the daily roll-up (transaction_daily_stats, see migration 21) equal to the transaction
 * tables: a status change moves the transaction from its old status's row to the new one.
 */
import type { TransactionKind } from '../../domain/transactionStatus';
import type { Db } from '../db/db';

/** The roll-up's day of a time: its calendar date in the server's local time zone. */
export function localDay(t: Date): string {
  const m = t.getMonth() + 1;
  const d = t.getDate();
  return `${t.getFullYear()}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

export interface StatsKey {
  readonly day: string;
  readonly kind: TransactionKind;
  readonly country: string;
  readonly currency_code: string;
  readonly status: string;
}

export interface StatsDelta extends StatsKey {
  readonly count: number;
  readonly amount: number;
  readonly amount_usd: number;
  readonly amount_lkr: number;
}

/** The order roll-up rows are written in: the same in every transaction, so two status changes never deadlock. */
function keyOf(d: StatsKey): string {
  return [d.day, d.kind, d.country, d.currency_code, d.status].join('\u0000');
}

/** Adds the deltas to the roll-up (rows are created as needed), locking its rows in key order. */
export async function addDailyStats(db: Db, deltas: readonly StatsDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const ordered = [...deltas].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  await db.query(
    `INSERT INTO transaction_daily_stats (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
     SELECT day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr
       FROM json_populate_recordset(NULL::transaction_daily_stats, $1::json)
     ON CONFLICT (day, kind, country, currency_code, status) DO UPDATE SET
       count = transaction_daily_stats.count + EXCLUDED.count,
       amount = transaction_daily_stats.amount + EXCLUDED.amount,
       amount_usd = transaction_daily_stats.amount_usd + EXCLUDED.amount_usd,
       amount_lkr = transaction_daily_stats.amount_lkr + EXCLUDED.amount_lkr`,
    [ordered],
  );
}

export interface StatsRow {
  readonly initiated_time: Date;
  readonly country: string;
  readonly currency_code: string;
  readonly amount: number;
  readonly amount_usd: number;
  readonly amount_lkr: number;
}

/** Moves one transaction from `from` status to `to` status in the roll-up (nothing when equal). */
export async function moveDailyStats(db: Db, kind: TransactionKind, row: StatsRow, from: string, to: string): Promise<void> {
  if (from === to) return;
  const base = { day: localDay(row.initiated_time), kind, country: row.country, currency_code: row.currency_code };
  const sums = { amount: Number(row.amount), amount_usd: Number(row.amount_usd), amount_lkr: Number(row.amount_lkr) };
  await addDailyStats(db, [
    { ...base, status: from, count: -1, amount: -sums.amount, amount_usd: -sums.amount_usd, amount_lkr: -sums.amount_lkr },
    { ...base, status: to, count: 1, ...sums },
  ]);
}
