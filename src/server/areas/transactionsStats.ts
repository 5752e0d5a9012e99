/**
 * The roll-ups of the transactions (transaction_daily_stats, transaction_monthly_stats,
 * bill_daily_billers): kept equal to the transaction tables by the triggers of migration 60
 * (src/server/db/migrations/performance.ts) on every insert, update and delete, whoever writes. This
 * file holds what the application needs around them: the day of a time, and the zone the triggers
 * compute days in.
 */
import type { Db } from '../db/db';

/** The roll-up's day of a time: its calendar date in the server's local time zone. */
export function localDay(t: Date): string {
  const m = t.getMonth() + 1;
  const d = t.getDate();
  return `${t.getFullYear()}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** The API server's time zone (the zone of `localDay`). */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Makes the triggers compute roll-up days in the server's time zone: when the stored zone
 * (app_settings.transaction_day_time_zone) is another one, stores this one and rebuilds the roll-ups
 * from the tables (one scan; a zone's other name, e.g. Etc/UTC for UTC, rebuilds once too). Returns
 * whether it rebuilt. The seeder calls it before loading.
 */
export async function syncRollupTimeZone(db: Db, zone = serverTimeZone()): Promise<boolean> {
  return db.tx(async (tx) => {
    const stored = await tx.one<{ value: string }>(`SELECT value FROM app_settings WHERE key = 'transaction_day_time_zone' FOR UPDATE`);
    if (stored?.value === zone) return false;
    await tx.query(
      `INSERT INTO app_settings (key, value) VALUES ('transaction_day_time_zone', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [zone],
    );
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
