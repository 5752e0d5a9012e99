
-- One row per money action that reached the payment network (hold, manual fund transfer, void,
-- refund), whatever its outcome. seq_before is the transaction's action_seq the action was decided
-- on: the unique key makes it impossible for two actions to be applied to the same state of a
-- transaction, and a repeated identical request finds this row and gets its reply again instead of
-- acting twice.
CREATE TABLE transaction_actions (
  id serial PRIMARY KEY,
  kind text NOT NULL,
  transaction_id integer NOT NULL,
  action text NOT NULL CHECK (action IN ('HOLD', 'MANUAL_FUND_TRANSFER', 'VOID', 'REFUND')),
  seq_before integer NOT NULL,
  seq_after integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('SUCCESS', 'FAILED')),
  status_code integer NOT NULL,
  message text NOT NULL,
  username text NOT NULL,
  status_before text NOT NULL,
  status_after text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, transaction_id, seq_before)
);
CREATE INDEX transaction_actions_latest ON transaction_actions (kind, transaction_id, action, id);

-- The daily roll-up the dashboards and the count cards read instead of scanning the transactions:
-- one row per (day, kind, country, currency_code, status) with the number of transactions and the
-- sums of their amount (in currency_code), amount_usd and amount_lkr. day is the calendar date of
-- initiated_time in the server's local time zone; kind is ceft, bill, echannelling, thyaga or
-- insurance; status is the overall status (SUCCESS, PENDING, FAILED, REFUNDED, HOLD). The seeder
-- fills it, and every action that changes a transaction's status moves that transaction from the
-- old status's row to the new one in the same database transaction, so the sums always equal the
-- transaction tables.
CREATE TABLE transaction_daily_stats (
  day date NOT NULL,
  kind text NOT NULL,
  country text NOT NULL,
  currency_code text NOT NULL,
  status text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  amount numeric(18,2) NOT NULL DEFAULT 0,
  amount_usd numeric(18,2) NOT NULL DEFAULT 0,
  amount_lkr numeric(20,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (day, kind, country, currency_code, status)
);
CREATE INDEX transaction_daily_stats_kind_status ON transaction_daily_stats (kind, status, day);
COMMENT ON TABLE transaction_daily_stats IS
  'Daily roll-up of transactions: count and sums of amount (currency_code), amount_usd and amount_lkr per local day of initiated_time, kind, country, currency and overall status; kept equal to the transaction tables by the seeder and by every status change.';
