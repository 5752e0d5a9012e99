-- Monthly partitions (issue 21): the five transaction tables are partitioned by RANGE on
-- initiated_time and the activity log on created_at (the columns the date filters use), one partition
-- per calendar month (UTC) named <table>_pYYYYMM, plus a DEFAULT partition <table>_default for rows of
-- a month that has no partition yet. A date-range query reads only the partitions of its range.
--
-- Each table is moved here: the old one is renamed, a partitioned one takes its name (same columns in
-- the same order, defaults, NOT NULL and CHECK constraints), a partition is made for every month its
-- rows fall in, the rows are copied (before any trigger exists on the new table: the roll-ups already
-- count them, and the activity log's hashes are kept as they are), the id sequence is handed over
-- (ids go on where they were), the old table is dropped, then the keys, indexes and triggers the old
-- one carried are made again under the same names. The server makes the months ahead (the current
-- month and the next three, src/server/db/partitions.ts) at start-up and daily, and the seeder the
-- months it writes, with month_partition_ensure below.
--
-- What changes with the keys (a partitioned table's unique keys must include the partition key):
-- - the primary key is (id, initiated_time) (activity log: (id, created_at)); ids stay unique in
--   practice, handed out by the same sequence;
-- - a trace is unique per kind through transaction_traces (primary key (kind, trace)), kept by
--   statement triggers on each table: the per-table unique trace index could no longer be unique on
--   trace alone; the trace index stays (non-unique) for the prefix search;
-- - settled_transactions and insurance_dependants carry the referenced transaction's initiated_time
--   and their foreign keys name (id, initiated_time), under their old names, ON UPDATE CASCADE (and
--   ON DELETE CASCADE for dependants as before); a BEFORE trigger fills the time from the transaction
--   when the writer leaves it out, so writers that name the id alone keep working;
-- - the activity log's chain_seq index is unique on (chain_seq, created_at): positions are handed out
--   one by one by the chain head (migration 95), which is unchanged.

-- The month partition of `parent` (one of the six tables) for the month of `month`: made unless it
-- exists. 'created' or 'exists'; 'blocked' when the DEFAULT partition already holds rows of that month
-- (PostgreSQL refuses the new partition then: those rows stay in DEFAULT, where every query still finds
-- them). Partitions of the activity log also refuse TRUNCATE (migration 50), since a TRUNCATE of a
-- partition does not fire the parent's statement triggers.
CREATE FUNCTION month_partition_ensure(parent text, month date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', month)::date;
  part text := parent || '_p' || to_char(date_trunc('month', month), 'YYYYMM');
BEGIN
  IF parent NOT IN ('ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions', 'activity_logs') THEN
    RAISE EXCEPTION 'month_partition_ensure: % is not a table partitioned by month', parent;
  END IF;
  -- server processes starting at once take turns (the lock is held until their transaction ends)
  PERFORM pg_advisory_xact_lock(hashtext('month_partition_ensure'));
  IF to_regclass(part) IS NOT NULL THEN
    RETURN 'exists';
  END IF;
  BEGIN
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', part, parent,
                   (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
  EXCEPTION
    WHEN check_violation THEN
      RETURN 'blocked';
    WHEN duplicate_table THEN
      RETURN 'exists';
  END;
  IF parent = 'activity_logs' THEN
    EXECUTE format('CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_are_insert_only()', part);
  END IF;
  RETURN 'created';
END $$;

-- Each kind's traces, unique: what the unique trace index of each table held before.
CREATE TABLE transaction_traces (
  kind text NOT NULL,
  trace text NOT NULL,
  PRIMARY KEY (kind, trace)
);

-- Keeps transaction_traces equal to the traces of the kind's table (statement triggers with transition
-- tables, as the roll-ups: one statement per statement). A duplicate trace fails the writing statement
-- with a unique violation of transaction_traces_pkey.
CREATE FUNCTION transaction_traces_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM transaction_traces WHERE kind = k;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO transaction_traces (kind, trace) SELECT k, trace FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM transaction_traces x USING old_rows o WHERE x.kind = k AND x.trace = o.trace;
  ELSE
    DELETE FROM transaction_traces x USING (SELECT trace FROM old_rows EXCEPT ALL SELECT trace FROM new_rows) o WHERE x.kind = k AND x.trace = o.trace;
    INSERT INTO transaction_traces (kind, trace) SELECT k, trace FROM (SELECT trace FROM new_rows EXCEPT ALL SELECT trace FROM old_rows) n;
  END IF;
  RETURN NULL;
END $$;


-- ceft_transactions: partitioned by month of initiated_time
ALTER TABLE ceft_transactions RENAME TO ceft_transactions_unpartitioned;
CREATE TABLE ceft_transactions (LIKE ceft_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (initiated_time);
CREATE TABLE ceft_transactions_default PARTITION OF ceft_transactions DEFAULT;
SELECT month_partition_ensure('ceft_transactions', m) FROM (SELECT DISTINCT date_trunc('month', initiated_time AT TIME ZONE 'UTC')::date AS m FROM ceft_transactions_unpartitioned) months ORDER BY m;
INSERT INTO ceft_transactions SELECT * FROM ceft_transactions_unpartitioned;
INSERT INTO transaction_traces (kind, trace) SELECT 'ceft', trace FROM ceft_transactions_unpartitioned;
ALTER SEQUENCE ceft_transactions_id_seq OWNED BY ceft_transactions.id;
ALTER TABLE settled_transactions ADD COLUMN transaction_initiated_time timestamptz;
UPDATE settled_transactions s SET transaction_initiated_time = t.initiated_time FROM ceft_transactions_unpartitioned t WHERE t.id = s.transaction_id;
ALTER TABLE settled_transactions ALTER COLUMN transaction_initiated_time SET NOT NULL;
ALTER TABLE settled_transactions DROP CONSTRAINT settled_transactions_transaction_id_fkey;
DROP TABLE ceft_transactions_unpartitioned;
ALTER TABLE ceft_transactions ADD CONSTRAINT ceft_transactions_pkey PRIMARY KEY (id, initiated_time);
ALTER TABLE ceft_transactions ADD CONSTRAINT ceft_transactions_app_user_id_fkey FOREIGN KEY (app_user_id) REFERENCES app_users(id);
ALTER TABLE ceft_transactions ADD CONSTRAINT ceft_transactions_country_fkey FOREIGN KEY (country) REFERENCES countries(code);
CREATE INDEX ceft_transactions_account_number_prefix ON ceft_transactions (account_number text_pattern_ops);
CREATE INDEX ceft_transactions_app_user ON ceft_transactions (app_user_id);
CREATE INDEX ceft_transactions_country_initiated ON ceft_transactions (country, initiated_time);
CREATE INDEX ceft_transactions_initiated ON ceft_transactions (initiated_time) INCLUDE (app_user_id);
CREATE INDEX ceft_transactions_provider_initiated ON ceft_transactions (provider_bank_code, initiated_time);
CREATE INDEX ceft_transactions_status_initiated ON ceft_transactions (status, initiated_time);
CREATE INDEX ceft_transactions_trace ON ceft_transactions (trace text_pattern_ops);
CREATE INDEX ceft_transactions_uid_newest ON ceft_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX ceft_transactions_uid_prefix ON ceft_transactions (uid text_pattern_ops);
CREATE TRIGGER ceft_transactions_money_once_ins BEFORE INSERT ON ceft_transactions
  FOR EACH ROW WHEN (((NEW.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS')::int) > 1) EXECUTE FUNCTION ceft_money_moves_once();
CREATE TRIGGER ceft_transactions_money_once_upd BEFORE UPDATE OF ceft_payment_status, ipg_void_status, ipg_refund_status ON ceft_transactions
  FOR EACH ROW WHEN (((NEW.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS')::int) > 1) EXECUTE FUNCTION ceft_money_moves_once();
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_del AFTER DELETE ON ceft_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_ins AFTER INSERT ON ceft_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON ceft_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_upd AFTER UPDATE ON ceft_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_del AFTER DELETE ON ceft_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_ins AFTER INSERT ON ceft_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON ceft_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_upd AFTER UPDATE ON ceft_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_traces_maintain_ins AFTER INSERT ON ceft_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_traces_maintain_upd AFTER UPDATE ON ceft_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_traces_maintain_del AFTER DELETE ON ceft_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_traces_maintain_trunc AFTER TRUNCATE ON ceft_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('ceft');

-- bill_transactions: partitioned by month of initiated_time
ALTER TABLE bill_transactions RENAME TO bill_transactions_unpartitioned;
CREATE TABLE bill_transactions (LIKE bill_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (initiated_time);
CREATE TABLE bill_transactions_default PARTITION OF bill_transactions DEFAULT;
SELECT month_partition_ensure('bill_transactions', m) FROM (SELECT DISTINCT date_trunc('month', initiated_time AT TIME ZONE 'UTC')::date AS m FROM bill_transactions_unpartitioned) months ORDER BY m;
INSERT INTO bill_transactions SELECT * FROM bill_transactions_unpartitioned;
INSERT INTO transaction_traces (kind, trace) SELECT 'bill', trace FROM bill_transactions_unpartitioned;
ALTER SEQUENCE bill_transactions_id_seq OWNED BY bill_transactions.id;
DROP TABLE bill_transactions_unpartitioned;
ALTER TABLE bill_transactions ADD CONSTRAINT bill_transactions_pkey PRIMARY KEY (id, initiated_time);
ALTER TABLE bill_transactions ADD CONSTRAINT bill_transactions_app_user_id_fkey FOREIGN KEY (app_user_id) REFERENCES app_users(id);
ALTER TABLE bill_transactions ADD CONSTRAINT bill_transactions_country_fkey FOREIGN KEY (country) REFERENCES countries(code);
CREATE INDEX bill_transactions_account_number_prefix ON bill_transactions (account_number text_pattern_ops);
CREATE INDEX bill_transactions_app_user ON bill_transactions (app_user_id);
CREATE INDEX bill_transactions_country_initiated ON bill_transactions (country, initiated_time);
CREATE INDEX bill_transactions_initiated ON bill_transactions (initiated_time) INCLUDE (app_user_id);
CREATE INDEX bill_transactions_provider_initiated ON bill_transactions (provider_bank_code, initiated_time);
CREATE INDEX bill_transactions_status_initiated ON bill_transactions (status, initiated_time);
CREATE INDEX bill_transactions_success_biller ON bill_transactions (initiated_time) INCLUDE (biller_code, amount_usd) WHERE (status = 'SUCCESS'::text);
CREATE INDEX bill_transactions_trace ON bill_transactions (trace text_pattern_ops);
CREATE INDEX bill_transactions_uid_newest ON bill_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX bill_transactions_uid_prefix ON bill_transactions (uid text_pattern_ops);
CREATE TRIGGER bill_transactions_bill_billers_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_trunc AFTER TRUNCATE ON bill_transactions FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_transaction_activity_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON bill_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON bill_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_traces_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_traces_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_traces_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_traces_maintain_trunc AFTER TRUNCATE ON bill_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('bill');

-- echannelling_transactions: partitioned by month of initiated_time
ALTER TABLE echannelling_transactions RENAME TO echannelling_transactions_unpartitioned;
CREATE TABLE echannelling_transactions (LIKE echannelling_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (initiated_time);
CREATE TABLE echannelling_transactions_default PARTITION OF echannelling_transactions DEFAULT;
SELECT month_partition_ensure('echannelling_transactions', m) FROM (SELECT DISTINCT date_trunc('month', initiated_time AT TIME ZONE 'UTC')::date AS m FROM echannelling_transactions_unpartitioned) months ORDER BY m;
INSERT INTO echannelling_transactions SELECT * FROM echannelling_transactions_unpartitioned;
INSERT INTO transaction_traces (kind, trace) SELECT 'echannelling', trace FROM echannelling_transactions_unpartitioned;
ALTER SEQUENCE echannelling_transactions_id_seq OWNED BY echannelling_transactions.id;
DROP TABLE echannelling_transactions_unpartitioned;
ALTER TABLE echannelling_transactions ADD CONSTRAINT echannelling_transactions_pkey PRIMARY KEY (id, initiated_time);
ALTER TABLE echannelling_transactions ADD CONSTRAINT echannelling_transactions_app_user_id_fkey FOREIGN KEY (app_user_id) REFERENCES app_users(id);
ALTER TABLE echannelling_transactions ADD CONSTRAINT echannelling_transactions_country_fkey FOREIGN KEY (country) REFERENCES countries(code);
CREATE INDEX echannelling_transactions_app_user ON echannelling_transactions (app_user_id);
CREATE INDEX echannelling_transactions_country_initiated ON echannelling_transactions (country, initiated_time);
CREATE INDEX echannelling_transactions_initiated ON echannelling_transactions (initiated_time) INCLUDE (app_user_id);
CREATE INDEX echannelling_transactions_provider_initiated ON echannelling_transactions (provider_bank_code, initiated_time);
CREATE INDEX echannelling_transactions_status_initiated ON echannelling_transactions (status, initiated_time);
CREATE INDEX echannelling_transactions_trace ON echannelling_transactions (trace text_pattern_ops);
CREATE INDEX echannelling_transactions_uid_newest ON echannelling_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX echannelling_transactions_uid_prefix ON echannelling_transactions (uid text_pattern_ops);
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_del AFTER DELETE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_ins AFTER INSERT ON echannelling_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON echannelling_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_upd AFTER UPDATE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_del AFTER DELETE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_ins AFTER INSERT ON echannelling_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON echannelling_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_upd AFTER UPDATE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_traces_maintain_ins AFTER INSERT ON echannelling_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_traces_maintain_upd AFTER UPDATE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_traces_maintain_del AFTER DELETE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_traces_maintain_trunc AFTER TRUNCATE ON echannelling_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('echannelling');

-- thyaga_transactions: partitioned by month of initiated_time
ALTER TABLE thyaga_transactions RENAME TO thyaga_transactions_unpartitioned;
CREATE TABLE thyaga_transactions (LIKE thyaga_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (initiated_time);
CREATE TABLE thyaga_transactions_default PARTITION OF thyaga_transactions DEFAULT;
SELECT month_partition_ensure('thyaga_transactions', m) FROM (SELECT DISTINCT date_trunc('month', initiated_time AT TIME ZONE 'UTC')::date AS m FROM thyaga_transactions_unpartitioned) months ORDER BY m;
INSERT INTO thyaga_transactions SELECT * FROM thyaga_transactions_unpartitioned;
INSERT INTO transaction_traces (kind, trace) SELECT 'thyaga', trace FROM thyaga_transactions_unpartitioned;
ALTER SEQUENCE thyaga_transactions_id_seq OWNED BY thyaga_transactions.id;
DROP TABLE thyaga_transactions_unpartitioned;
ALTER TABLE thyaga_transactions ADD CONSTRAINT thyaga_transactions_pkey PRIMARY KEY (id, initiated_time);
ALTER TABLE thyaga_transactions ADD CONSTRAINT thyaga_transactions_app_user_id_fkey FOREIGN KEY (app_user_id) REFERENCES app_users(id);
ALTER TABLE thyaga_transactions ADD CONSTRAINT thyaga_transactions_country_fkey FOREIGN KEY (country) REFERENCES countries(code);
CREATE INDEX thyaga_transactions_app_user ON thyaga_transactions (app_user_id);
CREATE INDEX thyaga_transactions_country_initiated ON thyaga_transactions (country, initiated_time);
CREATE INDEX thyaga_transactions_initiated ON thyaga_transactions (initiated_time) INCLUDE (app_user_id);
CREATE INDEX thyaga_transactions_provider_initiated ON thyaga_transactions (provider_bank_code, initiated_time);
CREATE INDEX thyaga_transactions_status_initiated ON thyaga_transactions (status, initiated_time);
CREATE INDEX thyaga_transactions_trace ON thyaga_transactions (trace text_pattern_ops);
CREATE INDEX thyaga_transactions_uid_newest ON thyaga_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX thyaga_transactions_uid_prefix ON thyaga_transactions (uid text_pattern_ops);
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_del AFTER DELETE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_ins AFTER INSERT ON thyaga_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON thyaga_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_upd AFTER UPDATE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_del AFTER DELETE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_ins AFTER INSERT ON thyaga_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON thyaga_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_upd AFTER UPDATE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_traces_maintain_ins AFTER INSERT ON thyaga_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_traces_maintain_upd AFTER UPDATE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_traces_maintain_del AFTER DELETE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_traces_maintain_trunc AFTER TRUNCATE ON thyaga_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('thyaga');

-- insurance_transactions: partitioned by month of initiated_time
ALTER TABLE insurance_transactions RENAME TO insurance_transactions_unpartitioned;
CREATE TABLE insurance_transactions (LIKE insurance_transactions_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (initiated_time);
CREATE TABLE insurance_transactions_default PARTITION OF insurance_transactions DEFAULT;
SELECT month_partition_ensure('insurance_transactions', m) FROM (SELECT DISTINCT date_trunc('month', initiated_time AT TIME ZONE 'UTC')::date AS m FROM insurance_transactions_unpartitioned) months ORDER BY m;
INSERT INTO insurance_transactions SELECT * FROM insurance_transactions_unpartitioned;
INSERT INTO transaction_traces (kind, trace) SELECT 'insurance', trace FROM insurance_transactions_unpartitioned;
ALTER SEQUENCE insurance_transactions_id_seq OWNED BY insurance_transactions.id;
ALTER TABLE insurance_dependants ADD COLUMN insurance_transaction_initiated_time timestamptz;
UPDATE insurance_dependants d SET insurance_transaction_initiated_time = t.initiated_time FROM insurance_transactions_unpartitioned t WHERE t.id = d.insurance_transaction_id;
ALTER TABLE insurance_dependants ALTER COLUMN insurance_transaction_initiated_time SET NOT NULL;
ALTER TABLE insurance_dependants DROP CONSTRAINT insurance_dependants_insurance_transaction_id_fkey;
DROP TABLE insurance_transactions_unpartitioned;
ALTER TABLE insurance_transactions ADD CONSTRAINT insurance_transactions_pkey PRIMARY KEY (id, initiated_time);
ALTER TABLE insurance_transactions ADD CONSTRAINT insurance_transactions_app_user_id_fkey FOREIGN KEY (app_user_id) REFERENCES app_users(id);
ALTER TABLE insurance_transactions ADD CONSTRAINT insurance_transactions_country_fkey FOREIGN KEY (country) REFERENCES countries(code);
CREATE INDEX insurance_transactions_app_user ON insurance_transactions (app_user_id);
CREATE INDEX insurance_transactions_country_initiated ON insurance_transactions (country, initiated_time);
CREATE INDEX insurance_transactions_initiated ON insurance_transactions (initiated_time) INCLUDE (app_user_id);
CREATE INDEX insurance_transactions_provider_initiated ON insurance_transactions (provider_bank_code, initiated_time);
CREATE INDEX insurance_transactions_status_initiated ON insurance_transactions (status, initiated_time);
CREATE INDEX insurance_transactions_trace ON insurance_transactions (trace text_pattern_ops);
CREATE INDEX insurance_transactions_uid_newest ON insurance_transactions (uid, initiated_time DESC, id DESC);
CREATE INDEX insurance_transactions_uid_prefix ON insurance_transactions (uid text_pattern_ops);
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_del AFTER DELETE ON insurance_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_ins AFTER INSERT ON insurance_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON insurance_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_upd AFTER UPDATE ON insurance_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_del AFTER DELETE ON insurance_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_ins AFTER INSERT ON insurance_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON insurance_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_upd AFTER UPDATE ON insurance_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_traces_maintain_ins AFTER INSERT ON insurance_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_traces_maintain_upd AFTER UPDATE ON insurance_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_traces_maintain_del AFTER DELETE ON insurance_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_traces_maintain_trunc AFTER TRUNCATE ON insurance_transactions FOR EACH STATEMENT EXECUTE FUNCTION transaction_traces_maintain('insurance');

-- The references to a transaction carry its initiated_time (see the top of this file).
ALTER TABLE settled_transactions ADD CONSTRAINT settled_transactions_transaction_id_fkey
  FOREIGN KEY (transaction_id, transaction_initiated_time) REFERENCES ceft_transactions (id, initiated_time) ON UPDATE CASCADE;
ALTER TABLE insurance_dependants ADD CONSTRAINT insurance_dependants_insurance_transaction_id_fkey
  FOREIGN KEY (insurance_transaction_id, insurance_transaction_initiated_time) REFERENCES insurance_transactions (id, initiated_time) ON UPDATE CASCADE ON DELETE CASCADE;

CREATE FUNCTION settled_transactions_fill_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.transaction_initiated_time IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT initiated_time INTO NEW.transaction_initiated_time FROM ceft_transactions WHERE id = NEW.transaction_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "settled_transactions" violates foreign key constraint "settled_transactions_transaction_id_fkey"'
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'settled_transactions_transaction_id_fkey',
            DETAIL = format('Key (transaction_id)=(%s) is not present in table "ceft_transactions".', NEW.transaction_id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER settled_transactions_fill_time BEFORE INSERT OR UPDATE OF transaction_id ON settled_transactions
  FOR EACH ROW EXECUTE FUNCTION settled_transactions_fill_time();

CREATE FUNCTION insurance_dependants_fill_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.insurance_transaction_initiated_time IS NOT NULL THEN
    RETURN NEW;
  END IF;
  SELECT initiated_time INTO NEW.insurance_transaction_initiated_time FROM insurance_transactions WHERE id = NEW.insurance_transaction_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'insert or update on table "insurance_dependants" violates foreign key constraint "insurance_dependants_insurance_transaction_id_fkey"'
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'insurance_dependants_insurance_transaction_id_fkey',
            DETAIL = format('Key (insurance_transaction_id)=(%s) is not present in table "insurance_transactions".', NEW.insurance_transaction_id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER insurance_dependants_fill_time BEFORE INSERT OR UPDATE OF insurance_transaction_id ON insurance_dependants
  FOR EACH ROW EXECUTE FUNCTION insurance_dependants_fill_time();

-- activity_logs: partitioned by month of created_at; the hash chain's columns are copied as they are
ALTER TABLE activity_logs RENAME TO activity_logs_unpartitioned;
CREATE TABLE activity_logs (LIKE activity_logs_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at);
CREATE TABLE activity_logs_default PARTITION OF activity_logs DEFAULT;
CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON activity_logs_default FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_are_insert_only();
SELECT month_partition_ensure('activity_logs', m) FROM (SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS m FROM activity_logs_unpartitioned) months ORDER BY m;
INSERT INTO activity_logs SELECT * FROM activity_logs_unpartitioned;
ALTER SEQUENCE activity_logs_id_seq OWNED BY activity_logs.id;
DROP TABLE activity_logs_unpartitioned;
ALTER TABLE activity_logs ADD CONSTRAINT activity_logs_pkey PRIMARY KEY (id, created_at);
CREATE UNIQUE INDEX activity_logs_chain_seq ON activity_logs (chain_seq, created_at);
CREATE INDEX activity_logs_created_at ON activity_logs (created_at);
CREATE INDEX activity_logs_username_created ON activity_logs (lower(username), created_at);
CREATE TRIGGER activity_logs_chain BEFORE INSERT ON activity_logs FOR EACH ROW EXECUTE FUNCTION activity_logs_chain();
CREATE TRIGGER activity_logs_insert_only BEFORE DELETE OR UPDATE ON activity_logs FOR EACH ROW EXECUTE FUNCTION activity_logs_are_insert_only();
CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON activity_logs FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_are_insert_only();
