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
-- statement, from the transition tables; only rows whose flag changes are written).
CREATE FUNCTION settled_transactions_flag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE ceft_transactions SET settled = false WHERE settled;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE ceft_transactions t SET settled = false
      FROM (SELECT DISTINCT transaction_id, transaction_initiated_time FROM old_rows) o
     WHERE t.id = o.transaction_id AND t.initiated_time = o.transaction_initiated_time AND t.settled
       AND NOT EXISTS (SELECT 1 FROM settled_transactions s WHERE s.transaction_id = t.id AND s.transaction_initiated_time = t.initiated_time);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE ceft_transactions t SET settled = true
      FROM (SELECT DISTINCT transaction_id, transaction_initiated_time FROM new_rows) n
     WHERE t.id = n.transaction_id AND t.initiated_time = n.transaction_initiated_time AND NOT t.settled;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER settled_transactions_flag_ins AFTER INSERT ON settled_transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_upd AFTER UPDATE ON settled_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_del AFTER DELETE ON settled_transactions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();
CREATE TRIGGER settled_transactions_flag_trunc AFTER TRUNCATE ON settled_transactions FOR EACH STATEMENT EXECUTE FUNCTION settled_transactions_flag();

ANALYZE ceft_transactions;
