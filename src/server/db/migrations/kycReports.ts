import type { Migration } from '../migrations';

/**
 * KYC and reports (ids 40..49): KYC records and their submissions (ordered field maps), the mobile app
 * users' activity events (40), and the settlement batches, their rows and the transaction to batch
 * link (41, after the send-money table of migration 20).
 */
export const kycReportsMigrations: readonly Migration[] = [
  {
    id: 40,
    name: 'kyc: records and submissions; mobile app users activity events',
    sql: `
CREATE TABLE kyc_records (
  id serial PRIMARY KEY,
  app_user_id integer NOT NULL UNIQUE REFERENCES app_users(id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  uid_type text NOT NULL,
  uid text NOT NULL,
  phone_no text NOT NULL,
  email text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyc_records_status ON kyc_records (status, id);
CREATE INDEX kyc_records_uid ON kyc_records (lower(uid) text_pattern_ops);
CREATE INDEX kyc_records_email ON kyc_records (lower(email) text_pattern_ops);
CREATE INDEX kyc_records_phone ON kyc_records (phone_no text_pattern_ops);

-- One row per submission of a KYC record, numbered from 1. fields is the ordered field map as a JSON
-- array of {key, title, value, approved, reason} (jsonb objects do not keep key order). The latest
-- submission is the current one; it is decided at most once (decision set with decided_by/decided_at).
CREATE TABLE kyc_submissions (
  id serial PRIMARY KEY,
  kyc_id integer NOT NULL REFERENCES kyc_records(id),
  seq integer NOT NULL CHECK (seq >= 1),
  fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  submitted_at timestamptz NOT NULL,
  decision text CHECK (decision IN ('APPROVED', 'REJECTED')),
  decided_by text,
  decided_at timestamptz,
  CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL) = (decided_by IS NULL)),
  UNIQUE (kyc_id, seq)
);

CREATE TABLE mobile_activity_logs (
  id serial PRIMARY KEY,
  app_user_id integer NOT NULL REFERENCES app_users(id),
  device_name text NOT NULL,
  event_description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mobile_activity_logs_created_at ON mobile_activity_logs (created_at);
CREATE INDEX mobile_activity_logs_app_user ON mobile_activity_logs (app_user_id, created_at);
CREATE INDEX activity_logs_username_created ON activity_logs (lower(username), created_at);
`,
  },
  {
    id: 41,
    name: 'settlement: batches, rows and the transaction to batch link',
    sql: `
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
`,
  },
];
