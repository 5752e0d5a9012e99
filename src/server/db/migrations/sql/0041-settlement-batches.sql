
-- A settlement batch: kind SCHEDULED (the daily report) or INSTANT, for one local date, at most one
-- of each kind per date. It settles successful send-money transactions not settled before.
CREATE TABLE settlement_batches (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('SCHEDULED', 'INSTANT')),
  batch_date date NOT NULL,
  generated_by text NOT NULL,
  generated_at timestamptz NOT NULL,
  -- true when today's rates were not approved yet and the user confirmed using the earlier ones
  used_earlier_rates boolean NOT NULL DEFAULT false,
  transaction_count integer NOT NULL CHECK (transaction_count > 0),
  UNIQUE (kind, batch_date)
);

-- One row per currency and (beneficiary) account of a batch: the FC sums of its transactions, the
-- acquiring provider's settlement rate, and LKR = net x rate rounded to 2 decimals.
CREATE TABLE settlement_rows (
  id serial PRIMARY KEY,
  batch_id integer NOT NULL REFERENCES settlement_batches(id),
  tran_date date NOT NULL,
  currency_code text NOT NULL,
  account_number text NOT NULL,
  provider_bank_code text NOT NULL,
  transaction_count integer NOT NULL CHECK (transaction_count > 0),
  fc_amount numeric(16,2) NOT NULL,
  fc_commission numeric(16,2) NOT NULL,
  fc_net_amount numeric(16,2) NOT NULL,
  fc_rate numeric(14,4) NOT NULL CHECK (fc_rate > 0),
  lkr_amount numeric(20,2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (batch_id, currency_code, account_number),
  CHECK (fc_net_amount = fc_amount - fc_commission),
  CHECK (lkr_amount = round(fc_net_amount * fc_rate, 2))
);
CREATE INDEX settlement_rows_provider ON settlement_rows (provider_bank_code, batch_id);

-- Which batch and row settled a transaction: the primary key settles each transaction at most once.
CREATE TABLE settled_transactions (
  transaction_id integer PRIMARY KEY REFERENCES ceft_transactions(id),
  batch_id integer NOT NULL REFERENCES settlement_batches(id),
  row_id integer NOT NULL REFERENCES settlement_rows(id)
);
CREATE INDEX settled_transactions_row ON settled_transactions (row_id);
