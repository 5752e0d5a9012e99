-- The pending search planned by its own statistics (issue 21). Migration 180 found the pending send-money
-- transactions as status SUCCESS and NOT settled, through a partial index. The planner multiplies the
-- two conditions' frequencies as if they were independent: at 10,000,000 transactions, most of them
-- successful and most of those settled, it expected about 250,000 pending rows where there were 1,451,
-- and chose parallel scans of every month (74-89 ms for a search that runs in 6.7 ms on the index).
--
-- `awaiting_settlement` is the one condition as one column, computed by PostgreSQL on every insert and
-- update (a stored generated column: no trigger keeps it, no statement can set it). Its own statistics,
-- per month partition, say how many rows are pending: none in the old months, a few in the current
-- one. The partial index holds exactly these rows, as migration 180's did.
ALTER TABLE ceft_transactions ADD COLUMN awaiting_settlement boolean GENERATED ALWAYS AS (status = 'SUCCESS' AND NOT settled) STORED;
DROP INDEX ceft_transactions_settlement_pending;
CREATE INDEX ceft_transactions_awaiting_settlement ON ceft_transactions (id) WHERE awaiting_settlement;
ANALYZE ceft_transactions;
