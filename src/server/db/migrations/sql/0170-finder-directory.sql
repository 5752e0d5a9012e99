-- The top-bar lookup's directory (issue 21). Find by trace, ID or UID (src/server/areas/finder.ts) names
-- no time, so on the tables partitioned by month (migration 140) every partition of all five tables was
-- planned and probed for each lookup: measured at 1,000,000 transactions (about 30 months), p95 from about
-- 11 ms before the partitions to 89-255 ms after, most of it planning. transaction_traces (one row per
-- transaction: its kind and trace) now also carries the row's id, initiated_time, uid and
-- provider_bank_code, kept by the same statement triggers. A lookup reads the matches from here through
-- three small indexes (kind and trace: the primary key; kind and id; kind, uid and newest first), then
-- fetches those rows from their month partitions by id and initiated_time, which the planner prunes.
--
-- The columns are filled from the five tables, then made NOT NULL (provider_bank_code may be NULL, as
-- on the transaction). The maintenance function below replaces migration 140's: on UPDATE it rewrites
-- the rows whose trace, id, time, uid or provider changed (EXCEPT ALL between the transition tables, as
-- before for the trace alone).

ALTER TABLE transaction_traces ADD COLUMN id integer, ADD COLUMN initiated_time timestamptz, ADD COLUMN uid text, ADD COLUMN provider_bank_code text;
UPDATE transaction_traces x SET id = t.id, initiated_time = t.initiated_time, uid = t.uid, provider_bank_code = t.provider_bank_code FROM ceft_transactions t WHERE x.kind = 'ceft' AND x.trace = t.trace;
UPDATE transaction_traces x SET id = t.id, initiated_time = t.initiated_time, uid = t.uid, provider_bank_code = t.provider_bank_code FROM bill_transactions t WHERE x.kind = 'bill' AND x.trace = t.trace;
UPDATE transaction_traces x SET id = t.id, initiated_time = t.initiated_time, uid = t.uid, provider_bank_code = t.provider_bank_code FROM echannelling_transactions t WHERE x.kind = 'echannelling' AND x.trace = t.trace;
UPDATE transaction_traces x SET id = t.id, initiated_time = t.initiated_time, uid = t.uid, provider_bank_code = t.provider_bank_code FROM thyaga_transactions t WHERE x.kind = 'thyaga' AND x.trace = t.trace;
UPDATE transaction_traces x SET id = t.id, initiated_time = t.initiated_time, uid = t.uid, provider_bank_code = t.provider_bank_code FROM insurance_transactions t WHERE x.kind = 'insurance' AND x.trace = t.trace;
ALTER TABLE transaction_traces ALTER COLUMN id SET NOT NULL, ALTER COLUMN initiated_time SET NOT NULL, ALTER COLUMN uid SET NOT NULL;
CREATE INDEX transaction_traces_id ON transaction_traces (kind, id);
CREATE INDEX transaction_traces_uid_newest ON transaction_traces (kind, uid, initiated_time DESC, id DESC);

CREATE OR REPLACE FUNCTION transaction_traces_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM transaction_traces WHERE kind = k;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO transaction_traces (kind, trace, id, initiated_time, uid, provider_bank_code)
      SELECT k, trace, id, initiated_time, uid, provider_bank_code FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM transaction_traces x USING old_rows o WHERE x.kind = k AND x.trace = o.trace;
  ELSE
    DELETE FROM transaction_traces x
      USING (SELECT trace, id, initiated_time, uid, provider_bank_code FROM old_rows EXCEPT ALL SELECT trace, id, initiated_time, uid, provider_bank_code FROM new_rows) o
      WHERE x.kind = k AND x.trace = o.trace;
    INSERT INTO transaction_traces (kind, trace, id, initiated_time, uid, provider_bank_code)
      SELECT k, trace, id, initiated_time, uid, provider_bank_code
        FROM (SELECT trace, id, initiated_time, uid, provider_bank_code FROM new_rows EXCEPT ALL SELECT trace, id, initiated_time, uid, provider_bank_code FROM old_rows) n;
  END IF;
  RETURN NULL;
END $$;

ANALYZE transaction_traces;
