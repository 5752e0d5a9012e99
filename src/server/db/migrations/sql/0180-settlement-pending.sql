-- Settlement's pending transactions without reading the history (issue 21). Generating a batch settles
-- every successful send-money transaction not settled before (src/server/areas/settlement.ts); it found
-- them as status SUCCESS and no settled_transactions row, which reads every successful transaction of
-- every month, settled years ago or not: the cost grew with the history, not with what is pending.
--
-- Now each send-money transaction carries `settled` (true while a settled_transactions row names it),
-- kept by statement triggers on settled_transactions, and a partial index holds exactly the pending
-- ones (status SUCCESS, not settled): a few rows in each month partition, none in the old ones.
-- settled_transactions stays the record of which batch and row settled a transaction; `settled` only
-- mirrors it (a test compares the two after generation and deletion).

ALTER TABLE ceft_transactions ADD COLUMN settled boolean NOT NULL DEFAULT false;
UPDATE ceft_transactions t SET settled = true FROM settled_transactions s WHERE s.transaction_id = t.id AND s.transaction_initiated_time = t.initiated_time;
CREATE INDEX ceft_transactions_settlement_pending ON ceft_transactions (id) WHERE status = 'SUCCESS' AND NOT settled;

-- Keeps ceft_transactions.settled equal to "a settled_transactions row names it" (one statement per
-- statement, from the transition tables; only rows whose flag changes are written). The rows are
-- named by their key (id, initiated_time) as two arrays to an EXECUTE, so that the UPDATE is planned
-- with the values in hand and reads only the month partitions of those times (a batch of today's
-- transactions: this month's); joined to the transition table instead, it probed every month's index
-- for every row. An id and a time from different rows could pair up by the arrays alone: the
-- settled_transactions check on each row keeps the flag exact.
CREATE FUNCTION settled_transactions_flag() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
  times timestamptz[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE ceft_transactions SET settled = false WHERE settled;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT array_agg(DISTINCT transaction_id), array_agg(DISTINCT transaction_initiated_time) INTO ids, times FROM old_rows;
    IF ids IS NOT NULL THEN
      EXECUTE 'UPDATE ceft_transactions t SET settled = false
                WHERE t.id = ANY ($1) AND t.initiated_time = ANY ($2) AND t.settled
                  AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id AND s.transaction_initiated_time = t.initiated_time)'
        USING ids, times;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT array_agg(DISTINCT transaction_id), array_agg(DISTINCT transaction_initiated_time) INTO ids, times FROM new_rows;
    IF ids IS NOT NULL THEN
      EXECUTE 'UPDATE ceft_transactions t SET settled = true
                WHERE t.id = ANY ($1) AND t.initiated_time = ANY ($2) AND NOT t.settled
                  AND EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id AND s.transaction_initiated_time = t.initiated_time)'
        USING ids, times;
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER settled_transactions_flag_ins AFTER INSERT ON settled_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_upd AFTER UPDATE ON settled_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_del AFTER DELETE ON settled_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_trunc AFTER TRUNCATE ON settled_transactions FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();

ANALYZE ceft_transactions;
