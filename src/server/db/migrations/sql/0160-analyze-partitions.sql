-- The tables migration 140 made (partitioned by month) hold the moved rows but no planner statistics:
-- autovacuum analyzes each month partition in its own time and never a partitioned table itself, so
-- until then a list's first statement may get a poor plan (measured on 1,000,000 transactions: the
-- list reply's first byte 1.8 s before, 0.6 s after). Gather them now, once; the seeders ANALYZE
-- what they load.
ANALYZE ceft_transactions;
ANALYZE bill_transactions;
ANALYZE echannelling_transactions;
ANALYZE thyaga_transactions;
ANALYZE insurance_transactions;
ANALYZE activity_logs;
ANALYZE insurance_dependants;
ANALYZE settled_transactions;
ANALYZE transaction_traces;
