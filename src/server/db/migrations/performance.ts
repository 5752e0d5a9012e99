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
 * ## Activity for Active Users and Active Beneficiaries
 *
 * app_user_activity keeps each app user's latest initiated_time over the five kinds, and
 * beneficiary_activity each (app user, bank, account)'s latest successful remittance; the audit
 * dashboard counts those at or after 30 days ago through an index instead of reading 30 days of
 * transactions (~60,000 rows at 1M). Triggers keep them too: an INSERT raises the latest time
 * (greatest); an UPDATE that changes the user, time (or, for remittances, status, bank or account)
 * and a DELETE recompute the affected keys from the tables (a maximum cannot be taken back), through
 * the app_user_id indexes.
 *
 * Migration 63: beneficiary_activity also counts the beneficiaries rows registered under each key
 * (column `beneficiaries`, kept by triggers on beneficiaries; a key with beneficiaries but no
 * successful remittance keeps a row with last_success null), so Active Beneficiaries is a sum without
 * a join. The activity upserts rewrite a row only when its time changes, and a rebuild TRUNCATEs.
 *
 * Migration 64: app_user_activity_days and beneficiary_activity_days count the same per UTC day of
 * the latest time (statement triggers on the two activity tables). A bulk load in one transaction
 * (the seeder) still leaves hundreds of thousands of dead row versions in the activity tables until
 * VACUUM (one per key and statement), and scanning those cost ~60 to 500 ms; Active Users reads
 * the ~30 day rows plus one day's index range of the activity tables instead (about 1 ms).
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

/** Upserts the per-key deltas of the beneficiaries rows (`d`: app_user_id, bank_code, account_number, n) into beneficiary_activity. */
const beneficiaryCounts = (source: string) => `
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success, beneficiaries)
    SELECT app_user_id, bank_code, account_number, NULL, sum(n) FROM (${source}) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET beneficiaries = x.beneficiaries + EXCLUDED.beneficiaries;`;
const beneficiaryPlus = `SELECT app_user_id, bank_code, account_number, 1 AS n FROM new_rows`;
const beneficiaryMinus = `SELECT app_user_id, bank_code, account_number, -1 AS n FROM old_rows`;

/** The UTC day number of a timestamptz (days since 1970-01-01 UTC; the same in every session time zone). */
const utcDay = (column: string) => `floor(extract(epoch FROM ${column}) / 86400)::integer`;
/** Upserts the per-day deltas (`d`: day, n) into a day table of migration 64. */
const activityDays = (table: string, column: string, source: string) => `
    INSERT INTO ${table} AS s (day, ${column})
    SELECT day, sum(n) FROM (${source}) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET ${column} = s.${column} + EXCLUDED.${column};`;
const userDaysPlus = `SELECT ${utcDay('last_time')} AS day, 1 AS n FROM new_rows`;
const userDaysMinus = `SELECT ${utcDay('last_time')} AS day, -1 AS n FROM old_rows`;
const beneficiaryDaysPlus = `SELECT ${utcDay('last_success')} AS day, beneficiaries AS n FROM new_rows WHERE last_success IS NOT NULL`;
const beneficiaryDaysMinus = `SELECT ${utcDay('last_success')} AS day, -beneficiaries AS n FROM old_rows WHERE last_success IS NOT NULL`;

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
/**
 * The end of transaction_activity_maintain (migrations 62 and 63): after a DELETE or UPDATE, the
 * app users and (send money) beneficiary keys whose rows changed are recomputed.
 */
const recomputeChanged = `  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT app_user_id) INTO users FROM old_rows WHERE app_user_id IS NOT NULL;
  ELSE
    SELECT array_agg(DISTINCT u) INTO users FROM (
      SELECT o.app_user_id AS u FROM old_rows o JOIN new_rows n USING (id)
       WHERE (o.app_user_id, o.initiated_time) IS DISTINCT FROM (n.app_user_id, n.initiated_time)
      UNION ALL
      SELECT n.app_user_id FROM old_rows o JOIN new_rows n USING (id)
       WHERE (o.app_user_id, o.initiated_time) IS DISTINCT FROM (n.app_user_id, n.initiated_time)
    ) c WHERE u IS NOT NULL;
  END IF;
  IF users IS NOT NULL THEN
    PERFORM app_user_activity_recompute(users);
  END IF;
  IF ceft THEN
    IF TG_OP = 'DELETE' THEN
      SELECT json_agg(json_build_object('u', app_user_id, 'b', bank_code, 'a', account_number)) INTO keys
        FROM old_rows WHERE app_user_id IS NOT NULL AND status = 'SUCCESS';
    ELSE
      SELECT json_agg(json_build_object('u', u, 'b', b, 'a', a)) INTO keys FROM (
        SELECT o.app_user_id AS u, o.bank_code AS b, o.account_number AS a FROM old_rows o JOIN new_rows n USING (id)
         WHERE (o.app_user_id, o.initiated_time, o.status, o.bank_code, o.account_number) IS DISTINCT FROM (n.app_user_id, n.initiated_time, n.status, n.bank_code, n.account_number)
        UNION ALL
        SELECT n.app_user_id, n.bank_code, n.account_number FROM old_rows o JOIN new_rows n USING (id)
         WHERE (o.app_user_id, o.initiated_time, o.status, o.bank_code, o.account_number) IS DISTINCT FROM (n.app_user_id, n.initiated_time, n.status, n.bank_code, n.account_number)
      ) c WHERE u IS NOT NULL;
    END IF;
    IF keys IS NOT NULL THEN
      PERFORM beneficiary_activity_recompute(keys);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
`;

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
  {
    id: 62,
    name: 'performance: latest activity per app user and per beneficiary, kept by triggers (Active Users, Active Beneficiaries)',
    sql: `
CREATE TABLE app_user_activity (
  app_user_id integer PRIMARY KEY,
  last_time timestamptz NOT NULL
);
CREATE INDEX app_user_activity_last ON app_user_activity (last_time);
COMMENT ON TABLE app_user_activity IS 'Latest initiated_time of any transaction of each app user; kept by the triggers of migration 62.';

CREATE TABLE beneficiary_activity (
  app_user_id integer NOT NULL,
  bank_code text NOT NULL,
  account_number text NOT NULL,
  last_success timestamptz NOT NULL,
  PRIMARY KEY (app_user_id, bank_code, account_number)
);
CREATE INDEX beneficiary_activity_last ON beneficiary_activity (last_success);
COMMENT ON TABLE beneficiary_activity IS
  'Latest initiated_time of a successful remittance to each (app user, bank, account); kept by the triggers of migration 62.';

-- the latest time of one app user over every kind, from the tables
CREATE FUNCTION app_user_last_time(u integer) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT max(t) FROM (
${kinds.map(([, t]) => `    SELECT max(initiated_time) AS t FROM ${t} WHERE app_user_id = u`).join('\n    UNION ALL\n')}
  ) x
$$;

-- recomputes the given app users' rows from the tables
CREATE FUNCTION app_user_activity_recompute(users integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH m AS (SELECT u, app_user_last_time(u) AS t FROM unnest(users) u),
  gone AS (DELETE FROM app_user_activity a USING m WHERE a.app_user_id = m.u AND m.t IS NULL)
  INSERT INTO app_user_activity AS a (app_user_id, last_time)
  SELECT u, t FROM m WHERE t IS NOT NULL ORDER BY u
  ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time;
END
$$;

CREATE FUNCTION beneficiary_activity_recompute(keys json) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH k AS (SELECT DISTINCT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(keys) e),
  m AS (SELECT u, b, a, (SELECT max(initiated_time) FROM ceft_transactions t
                          WHERE t.app_user_id = k.u AND t.bank_code = k.b AND t.account_number = k.a AND t.status = 'SUCCESS') AS t FROM k),
  gone AS (DELETE FROM beneficiary_activity x USING m WHERE x.app_user_id = m.u AND x.bank_code = m.b AND x.account_number = m.a AND m.t IS NULL)
  INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
  SELECT u, b, a, t FROM m WHERE t IS NOT NULL ORDER BY u, b, a
  ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success;
END
$$;

CREATE FUNCTION transaction_activity_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM app_user_activity;
  DELETE FROM beneficiary_activity;
  INSERT INTO app_user_activity (app_user_id, last_time)
  SELECT app_user_id, max(t) FROM (
${kinds.map(([, t]) => `    SELECT app_user_id, max(initiated_time) AS t FROM ${t} WHERE app_user_id IS NOT NULL GROUP BY 1`).join('\n    UNION ALL\n')}
  ) x GROUP BY 1;
  INSERT INTO beneficiary_activity (app_user_id, bank_code, account_number, last_success)
  SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM ceft_transactions
   WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3;
END
$$;

CREATE FUNCTION transaction_activity_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ceft boolean := TG_ARGV[0] = 'ceft';
  users integer[];
  keys json;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM transaction_activity_rebuild();
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_user_activity AS a (app_user_id, last_time)
    SELECT app_user_id, max(initiated_time) FROM new_rows WHERE app_user_id IS NOT NULL GROUP BY 1 ORDER BY 1
    ON CONFLICT (app_user_id) DO UPDATE SET last_time = greatest(a.last_time, EXCLUDED.last_time);
    IF ceft THEN
      INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
      SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM new_rows
       WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = greatest(x.last_success, EXCLUDED.last_success);
    END IF;
    RETURN NULL;
  END IF;
${recomputeChanged}${kinds.map(([kind, table]) => triggersOf(table, 'transaction_activity_maintain', `'${kind}'`)).join('\n')}

SELECT transaction_activity_rebuild();
`,
  },
  {
    id: 63,
    name: 'performance: beneficiary_activity counts its beneficiaries (Active Beneficiaries without a join), the activity upserts write only what changes, rebuilds compact',
    sql: `
-- a key with registered beneficiaries but no successful remittance keeps a row with last_success null
ALTER TABLE beneficiary_activity ALTER COLUMN last_success DROP NOT NULL;
ALTER TABLE beneficiary_activity ADD COLUMN beneficiaries integer NOT NULL DEFAULT 0;
COMMENT ON TABLE beneficiary_activity IS
  'Per (app user, bank, account): the latest initiated_time of a successful remittance (null: none) and the number of beneficiaries rows with that key; kept by the triggers of migrations 62 and 63.';
DROP INDEX beneficiary_activity_last;
CREATE INDEX beneficiary_activity_last ON beneficiary_activity (last_success) INCLUDE (beneficiaries);

CREATE OR REPLACE FUNCTION app_user_activity_recompute(users integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH m AS (SELECT u, app_user_last_time(u) AS t FROM unnest(users) u),
  gone AS (DELETE FROM app_user_activity a USING m WHERE a.app_user_id = m.u AND m.t IS NULL)
  INSERT INTO app_user_activity AS a (app_user_id, last_time)
  SELECT u, t FROM m WHERE t IS NOT NULL ORDER BY u
  ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time WHERE a.last_time IS DISTINCT FROM EXCLUDED.last_time;
END
$$;

CREATE OR REPLACE FUNCTION beneficiary_activity_recompute(keys json) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  gone json;
BEGIN
  WITH k AS (SELECT DISTINCT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(keys) e),
  m AS (SELECT u, b, a, (SELECT max(initiated_time) FROM ceft_transactions t
                          WHERE t.app_user_id = k.u AND t.bank_code = k.b AND t.account_number = k.a AND t.status = 'SUCCESS') AS t FROM k),
  up AS (
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
    SELECT u, b, a, t FROM m WHERE t IS NOT NULL ORDER BY u, b, a
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success
     WHERE x.last_success IS DISTINCT FROM EXCLUDED.last_success
  )
  SELECT json_agg(json_build_object('u', u, 'b', b, 'a', a)) INTO gone FROM m WHERE t IS NULL;
  IF gone IS NOT NULL THEN
    -- no successful remittance left: the row goes unless beneficiaries are registered under the key
    WITH g AS (SELECT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(gone) e)
    DELETE FROM beneficiary_activity x USING g WHERE x.app_user_id = g.u AND x.bank_code = g.b AND x.account_number = g.a AND x.beneficiaries = 0;
    WITH g AS (SELECT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(gone) e)
    UPDATE beneficiary_activity x SET last_success = NULL FROM g
     WHERE x.app_user_id = g.u AND x.bank_code = g.b AND x.account_number = g.a AND x.last_success IS NOT NULL;
  END IF;
END
$$;

-- TRUNCATE, not DELETE: a rebuild leaves fresh, compact tables (no dead rows for the readers to skip)
CREATE OR REPLACE FUNCTION transaction_activity_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE app_user_activity, beneficiary_activity;
  INSERT INTO app_user_activity (app_user_id, last_time)
  SELECT app_user_id, max(t) FROM (
${kinds.map(([, t]) => `    SELECT app_user_id, max(initiated_time) AS t FROM ${t} WHERE app_user_id IS NOT NULL GROUP BY 1`).join('\n    UNION ALL\n')}
  ) x GROUP BY 1;
  INSERT INTO beneficiary_activity (app_user_id, bank_code, account_number, last_success, beneficiaries)
  SELECT app_user_id, bank_code, account_number, max(s), sum(n) FROM (
    SELECT app_user_id, bank_code, account_number, max(initiated_time) AS s, 0 AS n FROM ceft_transactions
     WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3
    UNION ALL
    SELECT app_user_id, bank_code, account_number, NULL, count(*) FROM beneficiaries GROUP BY 1, 2, 3
  ) x GROUP BY 1, 2, 3;
END
$$;

-- as in migration 62, but an INSERT rewrites a row only when it raises the latest time (a bulk load
-- no longer leaves a dead row version per user and statement)
CREATE OR REPLACE FUNCTION transaction_activity_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ceft boolean := TG_ARGV[0] = 'ceft';
  users integer[];
  keys json;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM transaction_activity_rebuild();
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_user_activity AS a (app_user_id, last_time)
    SELECT app_user_id, max(initiated_time) FROM new_rows WHERE app_user_id IS NOT NULL GROUP BY 1 ORDER BY 1
    ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time WHERE a.last_time < EXCLUDED.last_time;
    IF ceft THEN
      INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
      SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM new_rows
       WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success
       WHERE x.last_success IS NULL OR x.last_success < EXCLUDED.last_success;
    END IF;
    RETURN NULL;
  END IF;
${recomputeChanged}
-- the beneficiaries count of each key follows the beneficiaries table. Both this trigger and the
-- transaction triggers write a key through an upsert on its beneficiary_activity row, so two
-- concurrent writers of one key wait for each other there and neither misses the other's row.
CREATE FUNCTION beneficiary_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM beneficiary_activity WHERE last_success IS NULL;
    UPDATE beneficiary_activity SET beneficiaries = 0 WHERE beneficiaries <> 0;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN${beneficiaryCounts(beneficiaryPlus)}
  ELSIF TG_OP = 'DELETE' THEN${beneficiaryCounts(beneficiaryMinus)}
  ELSE${beneficiaryCounts(`${beneficiaryPlus} UNION ALL ${beneficiaryMinus}`)}
  END IF;
  IF TG_OP <> 'INSERT' THEN
    -- keys left with neither a beneficiary nor a successful remittance
    DELETE FROM beneficiary_activity x USING (SELECT DISTINCT app_user_id, bank_code, account_number FROM old_rows) o
     WHERE x.app_user_id = o.app_user_id AND x.bank_code = o.bank_code AND x.account_number = o.account_number
       AND x.beneficiaries = 0 AND x.last_success IS NULL;
  END IF;
  RETURN NULL;
END
$$;
${triggersOf('beneficiaries', 'beneficiary_counts_maintain', '')}

SELECT transaction_activity_rebuild();
ANALYZE app_user_activity, beneficiary_activity;
`,
  },
  {
    id: 64,
    name: 'performance: activity per UTC day (Active Users and Active Beneficiaries from ~30 day rows, however bloated the activity tables)',
    sql: `
CREATE TABLE app_user_activity_days (
  day integer PRIMARY KEY,
  users bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE app_user_activity_days IS
  'app_user_activity per UTC day of last_time (day = floor(epoch / 86400)): the number of app users; kept by the triggers of migration 64.';
CREATE TABLE beneficiary_activity_days (
  day integer PRIMARY KEY,
  beneficiaries bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE beneficiary_activity_days IS
  'beneficiary_activity per UTC day of last_success (day = floor(epoch / 86400)): the sum of beneficiaries; kept by the triggers of migration 64.';

INSERT INTO app_user_activity_days (day, users)
SELECT ${utcDay('last_time')}, count(*) FROM app_user_activity GROUP BY 1;
INSERT INTO beneficiary_activity_days (day, beneficiaries)
SELECT ${utcDay('last_success')}, sum(beneficiaries) FROM beneficiary_activity WHERE last_success IS NOT NULL GROUP BY 1;

CREATE FUNCTION app_user_activity_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM app_user_activity_days;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN${activityDays('app_user_activity_days', 'users', userDaysPlus)}
  ELSIF TG_OP = 'DELETE' THEN${activityDays('app_user_activity_days', 'users', userDaysMinus)}
  ELSE${activityDays('app_user_activity_days', 'users', `${userDaysPlus} UNION ALL ${userDaysMinus}`)}
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION beneficiary_activity_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM beneficiary_activity_days;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN${activityDays('beneficiary_activity_days', 'beneficiaries', beneficiaryDaysPlus)}
  ELSIF TG_OP = 'DELETE' THEN${activityDays('beneficiary_activity_days', 'beneficiaries', beneficiaryDaysMinus)}
  ELSE${activityDays('beneficiary_activity_days', 'beneficiaries', `${beneficiaryDaysPlus} UNION ALL ${beneficiaryDaysMinus}`)}
  END IF;
  RETURN NULL;
END
$$;
${triggersOf('app_user_activity', 'app_user_activity_days_maintain', '')}
${triggersOf('beneficiary_activity', 'beneficiary_activity_days_maintain', '')}
`,
  },
];
