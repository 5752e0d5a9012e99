import type { Migration } from '../migrations';

/**
 * Performance at real volumes (issue 8; ids 60..69).
 *
 * ## Roll-ups kept by triggers
 *
 * The dashboards and the count cards read roll-ups instead of scanning the transaction tables:
 *
 * - transaction_daily_stats (migration 21): one row per (day, kind, country, currency_code, status)
 *   with the count and the sums of amount, amount_usd and amount_lkr;
 * - transaction_monthly_stats (here): the same per calendar month (`month` is its first day), about
 *   30 times fewer rows, for all-time figures, years and the last twelve months;
 * - bill_daily_billers (here): successful bill payments per (day, biller_code), count and USD sum
 *   (Top Billers).
 *
 * They are maintained by triggers on the five transaction tables, not by the code paths that write
 * transactions: every INSERT, UPDATE (a status change by a money action or anything else that moves
 * a row between buckets: its time, country, currency, status or amounts) and DELETE is folded into the
 * roll-ups in the same database transaction, whoever writes (the API, the seeder, settlement, a
 * script, psql). The triggers are statement-level with transition tables: one aggregate per
 * statement, so a bulk INSERT of 5,000 rows does a few hundred upserts, not 5,000; an UPDATE that
 * moves nothing nets to zero and writes nothing. Roll-up rows are upserted in key order (no deadlock
 * between two statements that touch the same buckets); TRUNCATE of a transaction table empties its
 * kind's roll-up rows. A bucket that empties keeps its row with count 0 (readers skip or sum it).
 * Concurrent writers of the same bucket (same day, kind, country, currency and status) wait for each
 * other's commit on that roll-up row; for this service's write rate that is the price of exact,
 * always-current figures.
 *
 * The same SQL runs on PGlite and PostgreSQL (plpgsql, transition tables: PostgreSQL 10+; a trigger
 * with transition tables has one event, hence three triggers per table).
 *
 * A roll-up day is the calendar date of initiated_time in the zone stored in app_settings under
 * `transaction_day_time_zone` (the database's TimeZone when this migration ran; the seeder sets it to
 * the API server's zone and rebuilds when it changes, see transactionsStats.ts): the API's days are
 * local days of the server, and this keeps the triggers independent of each session's TimeZone.
 * `transaction_stats_rebuild()` recomputes every roll-up by scanning the tables once.
 *
 * ## Indexes
 *
 * The initiated-time index of every kind carries app_user_id (INCLUDE), so Active Users over 30 days
 * reads the index alone. The lists' search is a prefix search (LIKE 'x%' on the customer id, trace
 * and account number, the wire contract), served by the text_pattern_ops btrees of migration 20;
 * no pg_trgm index is made: trigram indexes serve infix search (LIKE '%x%'), which no call does, and
 * would slow every insert. (The extension is also per database, not per schema, and PGlite lacks it.)
 */

const kinds = [
  ['ceft', 'ceft_transactions'],
  ['bill', 'bill_transactions'],
  ['echannelling', 'echannelling_transactions'],
  ['thyaga', 'thyaga_transactions'],
  ['insurance', 'insurance_transactions'],
] as const;

/** Upserts the grouped deltas `g` (day, country, currency_code, status, n, amount, usd, lkr) into the daily and monthly roll-ups. */
const upsertStats = (source: string) => `
    WITH d AS (${source}),
    g AS (
      SELECT (initiated_time AT TIME ZONE zone)::date AS day, country, currency_code, status,
             sum(n) AS n, sum(amount) AS amount, sum(amount_usd) AS usd, sum(amount_lkr) AS lkr
        FROM d GROUP BY 1, 2, 3, 4
      HAVING sum(n) <> 0 OR sum(amount) <> 0 OR sum(amount_usd) <> 0 OR sum(amount_lkr) <> 0
    ),
    daily AS (
      INSERT INTO transaction_daily_stats AS s (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
      SELECT day, k, country, currency_code, status, n, amount, usd, lkr FROM g ORDER BY day, country, currency_code, status
      ON CONFLICT (day, kind, country, currency_code, status) DO UPDATE SET
        count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
        amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr
      RETURNING 1
    )
    INSERT INTO transaction_monthly_stats AS s (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
    SELECT day - (extract(day FROM day)::int - 1), k, country, currency_code, status, sum(n), sum(amount), sum(usd), sum(lkr)
      FROM g GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (month, kind, country, currency_code, status) DO UPDATE SET
      count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
      amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr;`;

const columns = 'initiated_time, country, currency_code, status';
const plus = `SELECT ${columns}, 1 AS n, amount, amount_usd, amount_lkr FROM new_rows`;
const minus = `SELECT ${columns}, -1 AS n, -amount AS amount, -amount_usd AS amount_usd, -amount_lkr AS amount_lkr FROM old_rows`;

/** Successful bill payments per day and biller. */
const upsertBillers = (source: string) => `
    WITH d AS (${source})
    INSERT INTO bill_daily_billers AS s (day, biller_code, count, amount_usd)
    SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, sum(n), sum(amount_usd) FROM d
     GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(amount_usd) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, biller_code) DO UPDATE SET count = s.count + EXCLUDED.count, amount_usd = s.amount_usd + EXCLUDED.amount_usd;`;

const billPlus = `SELECT initiated_time, biller_code, 1 AS n, amount_usd FROM new_rows WHERE status = 'SUCCESS'`;
const billMinus = `SELECT initiated_time, biller_code, -1 AS n, -amount_usd AS amount_usd FROM old_rows WHERE status = 'SUCCESS'`;

const triggersOf = (table: string, fn: string, arg: string) => `
CREATE TRIGGER ${table}_${fn}_ins AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${arg});
CREATE TRIGGER ${table}_${fn}_upd AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${arg});
CREATE TRIGGER ${table}_${fn}_del AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${arg});
CREATE TRIGGER ${table}_${fn}_trunc AFTER TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${arg});`;

/** Recomputes every roll-up from the tables (one scan of each). */
const rebuild = `
CREATE FUNCTION transaction_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := transaction_day_time_zone();
BEGIN
  LOCK TABLE ${kinds.map(([, t]) => t).join(', ')} IN SHARE MODE;
  DELETE FROM transaction_daily_stats;
  DELETE FROM transaction_monthly_stats;
  DELETE FROM bill_daily_billers;
  INSERT INTO transaction_daily_stats (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
${kinds
  .map(
    ([kind, table]) =>
      `  SELECT (initiated_time AT TIME ZONE zone)::date, '${kind}', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM ${table} GROUP BY 1, 3, 4, 5`,
  )
  .join('\n  UNION ALL\n')};
  INSERT INTO transaction_monthly_stats (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
  SELECT day - (extract(day FROM day)::int - 1), kind, country, currency_code, status, sum(count), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM transaction_daily_stats GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO bill_daily_billers (day, biller_code, count, amount_usd)
  SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, count(*), sum(amount_usd) FROM bill_transactions WHERE status = 'SUCCESS' GROUP BY 1, 2;
END
$$;`;

export const performanceMigrations: readonly Migration[] = [
  {
    id: 60,
    name: 'performance: monthly and biller roll-ups, all roll-ups kept by triggers on the transaction tables',
    sql: `
INSERT INTO app_settings (key, value) VALUES ('transaction_day_time_zone', current_setting('TimeZone')) ON CONFLICT (key) DO NOTHING;

CREATE FUNCTION transaction_day_time_zone() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT value FROM app_settings WHERE key = 'transaction_day_time_zone'), current_setting('TimeZone'))
$$;

CREATE TABLE transaction_monthly_stats (
  month date NOT NULL,
  kind text NOT NULL,
  country text NOT NULL,
  currency_code text NOT NULL,
  status text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  amount numeric(18,2) NOT NULL DEFAULT 0,
  amount_usd numeric(18,2) NOT NULL DEFAULT 0,
  amount_lkr numeric(20,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (month, kind, country, currency_code, status)
);
COMMENT ON TABLE transaction_monthly_stats IS
  'transaction_daily_stats per calendar month (month = its first day); kept by the triggers of migration 60.';

CREATE TABLE bill_daily_billers (
  day date NOT NULL,
  biller_code text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  amount_usd numeric(18,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (day, biller_code)
);
COMMENT ON TABLE bill_daily_billers IS
  'Successful bill payments per local day of initiated_time and biller: count and USD sum; kept by the triggers of migration 60.';

CREATE FUNCTION transaction_stats_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := TG_ARGV[0];
  zone text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM transaction_daily_stats WHERE kind = k;
    DELETE FROM transaction_monthly_stats WHERE kind = k;
    RETURN NULL;
  END IF;
  zone := transaction_day_time_zone();
  IF TG_OP = 'INSERT' THEN${upsertStats(plus)}
  ELSIF TG_OP = 'DELETE' THEN${upsertStats(minus)}
  ELSE${upsertStats(`${plus} UNION ALL ${minus}`)}
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION bill_billers_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM bill_daily_billers;
    RETURN NULL;
  END IF;
  zone := transaction_day_time_zone();
  IF TG_OP = 'INSERT' THEN${upsertBillers(billPlus)}
  ELSIF TG_OP = 'DELETE' THEN${upsertBillers(billMinus)}
  ELSE${upsertBillers(`${billPlus} UNION ALL ${billMinus}`)}
  END IF;
  RETURN NULL;
END
$$;
${kinds.map(([kind, table]) => triggersOf(table, 'transaction_stats_maintain', `'${kind}'`)).join('\n')}
${triggersOf('bill_transactions', 'bill_billers_maintain', '')}
${rebuild}

SELECT transaction_stats_rebuild();
`,
  },
  {
    id: 61,
    name: 'performance: the initiated-time indexes carry app_user_id (Active Users from the index alone)',
    sql: `
${kinds.map(([, table]) => `DROP INDEX ${table}_initiated;\nCREATE INDEX ${table}_initiated ON ${table} (initiated_time) INCLUDE (app_user_id);`).join('\n')}
`,
  },
];
