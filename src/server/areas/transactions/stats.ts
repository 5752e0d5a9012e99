/**
 * The roll-ups of the transactions (transaction_daily_stats, transaction_monthly_stats,
 * bill_daily_billers): kept equal to the transaction tables by the triggers of migration 60
 * (src/server/db/migrations/sql/0060-rollup-triggers.sql and the later roll-up migrations; notes in src/server/db/migrations/NOTES.md) on every insert, update and delete, whoever writes. This
 * file holds what the application needs around them: the day of a time, and the zone the triggers
 * compute days in.
 */
import type { Db } from '../../db/db';
import { businessDay } from '../../../domain/businessTime';

/**
 * The roll-up's day of a time: its business day, the calendar date in the business time zone
 * (BUSINESS_TIME_ZONE; the triggers compute days in the zone syncRollupTimeZone stored, which the
 * server sets to the business zone at start-up).
 */
export function localDay(t: Date, zone: string): string {
  return businessDay(t, zone);
}

/**
 * Makes the triggers compute roll-up days in the business time zone `zone`: when the stored zone
 * (app_settings.transaction_day_time_zone) is another one, stores this one and rebuilds the roll-ups
 * from the tables (one scan; a zone's other name, e.g. Etc/UTC for UTC, rebuilds once too). Returns
 * whether it rebuilt. The server calls it at start-up (buildApp), the seeder before loading.
 */
export async function syncRollupTimeZone(db: Db, zone: string): Promise<boolean> {
  return db.tx(async (tx) => {
    const stored = await tx.one<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'transaction_day_time_zone' FOR UPDATE`);
    if (stored?.value === zone) return false;
    await tx.query(`INSERT INTO app_settings (key, value) VALUES ('transaction_day_time_zone', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [zone]);
    await tx.query('SELECT transaction_stats_rebuild()');
    return true;
  });
}

/**
 * Recomputes every roll-up from the transaction tables (one scan of each). The function locks the
 * transaction tables against writers (SHARE) until the rebuild commits.
 */
export async function rebuildRollups(db: Db): Promise<void> {
  await db.tx((tx) => tx.query('SELECT transaction_stats_rebuild()'));
}
