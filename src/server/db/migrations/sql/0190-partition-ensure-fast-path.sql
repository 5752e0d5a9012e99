-- month_partition_ensure (migration 140) took its advisory lock before looking whether the partition
-- exists, and an advisory transaction lock is held until the caller's transaction ends: a long
-- transaction that had ensured its months (the seeder loading millions of rows in one) held up every
-- other caller in the database, a server's start-up and daily run included, even when there was
-- nothing to make. Now an existing partition is answered before the lock; the lock is taken only to
-- make one (and the existence checked again under it, as before).
CREATE OR REPLACE FUNCTION month_partition_ensure(parent text, month date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', month)::date;
  part text := parent || '_p' || to_char(date_trunc('month', month), 'YYYYMM');
BEGIN
  IF parent NOT IN ('ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions', 'activity_logs') THEN
    RAISE EXCEPTION 'month_partition_ensure: % is not a table partitioned by month', parent;
  END IF;
  IF to_regclass(part) IS NOT NULL THEN
    RETURN 'exists';
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
