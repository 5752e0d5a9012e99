/**
 * Monthly partitions (migration 140): the five transaction tables are partitioned by RANGE on
 * initiated_time and the activity log on created_at, one partition per calendar month (UTC) named
 * `<table>_pYYYYMM`, and a DEFAULT partition `<table>_default` for rows of any month that has none.
 *
 * PGlite has no pg_partman, so the server makes the partitions itself, through the database function
 * `month_partition_ensure(table, month)` of migration 140 (it makes a missing month, never changes an
 * existing one, and lets concurrent callers take turns): at start-up and once a day after, the current
 * month and the next MONTHS_AHEAD (`ensurePartitionsAhead`, called from buildApp), and the seeder
 * the months it writes. A month whose rows already went to DEFAULT (the server was down over a month
 * boundary for longer than MONTHS_AHEAD months) is left there ('blocked'): every query still finds those
 * rows, it only reads DEFAULT for that month.
 */
import type { Db } from './db';

/** The tables partitioned by month, each with the column it is partitioned on. */
export const monthPartitioned = {
  ceft_transactions: 'initiated_time',
  bill_transactions: 'initiated_time',
  echannelling_transactions: 'initiated_time',
  thyaga_transactions: 'initiated_time',
  insurance_transactions: 'initiated_time',
  activity_logs: 'created_at',
} as const;

export type MonthPartitionedTable = keyof typeof monthPartitioned;

export const monthPartitionedTables = Object.keys(monthPartitioned) as MonthPartitionedTable[];

export const transactionTables = monthPartitionedTables.filter((t) => t !== 'activity_logs');

/** Months made ahead of the current one. */
export const MONTHS_AHEAD = 3;

/** What month_partition_ensure did for one table and month. */
export interface PartitionOutcome {
  readonly table: MonthPartitionedTable;
  /** The month's first day, YYYY-MM-DD (UTC). */
  readonly month: string;
  readonly outcome: 'created' | 'exists' | 'blocked';
}

/** The first day (UTC) of every month from `from`'s month to `to`'s month, as YYYY-MM-DD. */
export function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  let y = from.getUTCFullYear();
  let m = from.getUTCMonth();
  const lastY = to.getUTCFullYear();
  const lastM = to.getUTCMonth();
  while (y < lastY || (y === lastY && m <= lastM)) {
    months.push(`${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`);
    if (++m === 12) {
      m = 0;
      y++;
    }
  }
  return months;
}

/** Whether this database's tables are partitioned (migration 140 has run). */
export async function hasMonthPartitions(db: Db): Promise<boolean> {
  const row = await db.one<{ partitioned: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
                     WHERE c.oid = to_regclass('ceft_transactions')) AS partitioned`,
  );
  return row?.partitioned === true;
}

/**
 * Makes the month partitions of `tables` from `from`'s month to `to`'s month (UTC) where missing; the
 * outcomes of the months it made or could not make. Nothing on a database before migration 140.
 */
export async function ensureMonthPartitions(db: Db, from: Date, to: Date, tables: readonly MonthPartitionedTable[] = monthPartitionedTables): Promise<PartitionOutcome[]> {
  if (!(await hasMonthPartitions(db))) return [];
  const rows = await db.query<{ table: MonthPartitionedTable; month: string; outcome: PartitionOutcome['outcome'] }>(
    `SELECT t AS table, m AS month, month_partition_ensure(t, m::date) AS outcome
       FROM json_array_elements_text($1::json) AS t, json_array_elements_text($2::json) AS m ORDER BY m, t`,
    [tables, monthsBetween(from, to)],
  );
  return rows.filter((r) => r.outcome !== 'exists');
}

/** The current month and the next MONTHS_AHEAD, for every partitioned table. */
export function ensurePartitionsAhead(db: Db, now: Date, monthsAhead = MONTHS_AHEAD): Promise<PartitionOutcome[]> {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsAhead, 1));
  return ensureMonthPartitions(db, now, last);
}

/** One partition: its parent, name, bounds (as PostgreSQL prints them) and, with `counts`, its rows. */
export interface PartitionInfo {
  readonly table: string;
  readonly partition: string;
  readonly bounds: string;
  readonly rows?: number;
}

/** The partitions of the month-partitioned tables, in table and bound order. */
export async function listPartitions(db: Db, options: { counts?: boolean } = {}): Promise<PartitionInfo[]> {
  const parts = await db.query<{ table: string; partition: string; bounds: string }>(
    `SELECT p.relname AS table, c.relname AS partition, pg_get_expr(c.relpartbound, c.oid) AS bounds
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.oid = ANY (SELECT to_regclass(t) FROM json_array_elements_text($1::json) t)
      ORDER BY p.relname, c.relname`,
    [monthPartitionedTables],
  );
  if (!options.counts) return parts;
  const out: PartitionInfo[] = [];
  for (const p of parts) {
    if (!/^[a-z0-9_]+$/.test(p.partition)) throw new Error(`listPartitions: unexpected partition name ${p.partition}`);
    const row = await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ${p.partition}`);
    out.push({ ...p, rows: row?.n ?? 0 });
  }
  return out;
}

const DAY_MS = 86_400_000;

/**
 * Keeps the months ahead made while the server runs: once a day (`clock` is the server's; start-up
 * makes them before it, see buildApp). Failures are logged, not thrown: a missing month only sends its
 * rows to DEFAULT. Returns the stop.
 */
export function startPartitionMaintenance(options: {
  db: Db;
  clock: () => Date;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  everyMs?: number;
}): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = ensurePartitionsAhead(options.db, options.clock()).then(
      (made) => {
        const blocked = made.filter((m) => m.outcome === 'blocked');
        if (made.length > blocked.length) options.log.info({ created: made.filter((m) => m.outcome === 'created') }, 'month partitions created');
        if (blocked.length) options.log.warn({ blocked }, 'month partitions not made: their DEFAULT partition holds rows of that month');
      },
      (err: unknown) => options.log.warn({ err }, 'month partitions: could not make the months ahead'),
    );
  };
  const timer = setInterval(run, options.everyMs ?? DAY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
