
CREATE TABLE ceft_transactions (
  id serial PRIMARY KEY,
  trace text NOT NULL,
  uid text NOT NULL,
  app_user_id integer REFERENCES app_users(id),
  country text NOT NULL REFERENCES countries(code),
  currency_code text NOT NULL,
  amount numeric(14,2) NOT NULL,
  amount_usd numeric(14,2) NOT NULL,
  amount_lkr numeric(16,2) NOT NULL,
  account_number text NOT NULL DEFAULT '',
  initiated_time timestamptz NOT NULL,
  card_payment_time timestamptz,
  card_payment_status text,
  card_payment_description text,
  ipg_transaction_id text,
  ipg_rate numeric(6,3),
  refund_commission numeric(6,3),
  ipg_void_payment_time timestamptz,
  ipg_void_status text,
  ipg_void_tran_id text,
  ipg_void_description text,
  ipg_void_code text,
  ipg_void_message text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD')),
  action_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ipg_commission numeric(12,2),
  bank_charge numeric(12,2),
  beneficiary_received_amount_lkr numeric(16,2),
  exchange_rate_final numeric(12,4),
  tran_type text NOT NULL,
  bank_code text NOT NULL,
  ceft_payment_time timestamptz,
  ceft_payment_status text,
  ceft_payment_description text,
  ceft_transaction_id text,
  ceft_try_count integer NOT NULL DEFAULT 0,
  refund_requested boolean NOT NULL DEFAULT false,
  ipg_refund_payment_time timestamptz,
  ipg_refund_status text,
  ipg_refund_tran_id text,
  ipg_refund_description text,
  ipg_refund_code text,
  ipg_refund_message text
);
CREATE UNIQUE INDEX ceft_transactions_trace ON ceft_transactions (trace text_pattern_ops);
CREATE INDEX ceft_transactions_initiated ON ceft_transactions (initiated_time);
CREATE INDEX ceft_transactions_country_initiated ON ceft_transactions (country, initiated_time);
CREATE INDEX ceft_transactions_status_initiated ON ceft_transactions (status, initiated_time);
CREATE INDEX ceft_transactions_app_user ON ceft_transactions (app_user_id);
CREATE INDEX ceft_transactions_uid_prefix ON ceft_transactions (uid text_pattern_ops);
CREATE INDEX ceft_transactions_account_number_prefix ON ceft_transactions (account_number text_pattern_ops);

CREATE TABLE bill_transactions (
  id serial PRIMARY KEY,
  trace text NOT NULL,
  uid text NOT NULL,
  app_user_id integer REFERENCES app_users(id),
  country text NOT NULL REFERENCES countries(code),
  currency_code text NOT NULL,
  amount numeric(14,2) NOT NULL,
  amount_usd numeric(14,2) NOT NULL,
  amount_lkr numeric(16,2) NOT NULL,
  account_number text NOT NULL DEFAULT '',
  initiated_time timestamptz NOT NULL,
  card_payment_time timestamptz,
  card_payment_status text,
  card_payment_description text,
  ipg_transaction_id text,
  ipg_rate numeric(6,3),
  refund_commission numeric(6,3),
  ipg_void_payment_time timestamptz,
  ipg_void_status text,
  ipg_void_tran_id text,
  ipg_void_description text,
  ipg_void_code text,
  ipg_void_message text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD')),
  action_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ipg_commission numeric(12,2),
  bank_charge numeric(12,2),
  beneficiary_received_amount_lkr numeric(16,2),
  exchange_rate_lkr numeric(12,4),
  biller_code text NOT NULL,
  bill_payment_time timestamptz,
  bill_payment_status text,
  bill_payment_description text
);
CREATE UNIQUE INDEX bill_transactions_trace ON bill_transactions (trace text_pattern_ops);
CREATE INDEX bill_transactions_initiated ON bill_transactions (initiated_time);
CREATE INDEX bill_transactions_country_initiated ON bill_transactions (country, initiated_time);
CREATE INDEX bill_transactions_status_initiated ON bill_transactions (status, initiated_time);
CREATE INDEX bill_transactions_app_user ON bill_transactions (app_user_id);
CREATE INDEX bill_transactions_uid_prefix ON bill_transactions (uid text_pattern_ops);
CREATE INDEX bill_transactions_account_number_prefix ON bill_transactions (account_number text_pattern_ops);

CREATE TABLE echannelling_transactions (
  id serial PRIMARY KEY,
  trace text NOT NULL,
  uid text NOT NULL,
  app_user_id integer REFERENCES app_users(id),
  country text NOT NULL REFERENCES countries(code),
  currency_code text NOT NULL,
  amount numeric(14,2) NOT NULL,
  amount_usd numeric(14,2) NOT NULL,
  amount_lkr numeric(16,2) NOT NULL,
  account_number text NOT NULL DEFAULT '',
  initiated_time timestamptz NOT NULL,
  card_payment_time timestamptz,
  card_payment_status text,
  card_payment_description text,
  ipg_transaction_id text,
  ipg_rate numeric(6,3),
  refund_commission numeric(6,3),
  ipg_void_payment_time timestamptz,
  ipg_void_status text,
  ipg_void_tran_id text,
  ipg_void_description text,
  ipg_void_code text,
  ipg_void_message text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD')),
  action_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ipg_commission numeric(12,2),
  bank_charge numeric(12,2),
  beneficiary_received_amount_lkr numeric(16,2),
  exchange_rate_lkr numeric(12,4),
  ec_transaction_id text,
  patient_name text NOT NULL,
  patient_mobile text NOT NULL,
  hospital_name text NOT NULL,
  doctor_name text NOT NULL,
  appointment_day text NOT NULL,
  appointment_date date NOT NULL,
  start_time text NOT NULL,
  doctor_charge_lkr numeric(12,2) NOT NULL DEFAULT 0,
  hospital_charge_lkr numeric(12,2) NOT NULL DEFAULT 0,
  itg_amount numeric(12,2) NOT NULL DEFAULT 0,
  ec_charge_lkr numeric(12,2) NOT NULL DEFAULT 0,
  total_lkr numeric(12,2) NOT NULL DEFAULT 0,
  ec_booking_time timestamptz,
  ec_booking_status text,
  ec_booking_description text
);
CREATE UNIQUE INDEX echannelling_transactions_trace ON echannelling_transactions (trace text_pattern_ops);
CREATE INDEX echannelling_transactions_initiated ON echannelling_transactions (initiated_time);
CREATE INDEX echannelling_transactions_country_initiated ON echannelling_transactions (country, initiated_time);
CREATE INDEX echannelling_transactions_status_initiated ON echannelling_transactions (status, initiated_time);
CREATE INDEX echannelling_transactions_app_user ON echannelling_transactions (app_user_id);
CREATE INDEX echannelling_transactions_uid_prefix ON echannelling_transactions (uid text_pattern_ops);

CREATE TABLE thyaga_transactions (
  id serial PRIMARY KEY,
  trace text NOT NULL,
  uid text NOT NULL,
  app_user_id integer REFERENCES app_users(id),
  country text NOT NULL REFERENCES countries(code),
  currency_code text NOT NULL,
  amount numeric(14,2) NOT NULL,
  amount_usd numeric(14,2) NOT NULL,
  amount_lkr numeric(16,2) NOT NULL,
  account_number text NOT NULL DEFAULT '',
  initiated_time timestamptz NOT NULL,
  card_payment_time timestamptz,
  card_payment_status text,
  card_payment_description text,
  ipg_transaction_id text,
  ipg_rate numeric(6,3),
  refund_commission numeric(6,3),
  ipg_void_payment_time timestamptz,
  ipg_void_status text,
  ipg_void_tran_id text,
  ipg_void_description text,
  ipg_void_code text,
  ipg_void_message text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD')),
  action_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  ipg_commission numeric(12,2),
  bank_charge numeric(12,2),
  beneficiary_received_amount_lkr numeric(16,2),
  exchange_rate_lkr numeric(12,4),
  mobile_number text NOT NULL,
  receiver_name text NOT NULL,
  sender_name text NOT NULL,
  send_later boolean NOT NULL DEFAULT false,
  send_at timestamptz,
  via_email boolean NOT NULL DEFAULT false,
  via_sms boolean NOT NULL DEFAULT true,
  thyaga_payment_time timestamptz,
  thyaga_payment_status text,
  thyaga_payment_description text
);
CREATE UNIQUE INDEX thyaga_transactions_trace ON thyaga_transactions (trace text_pattern_ops);
CREATE INDEX thyaga_transactions_initiated ON thyaga_transactions (initiated_time);
CREATE INDEX thyaga_transactions_country_initiated ON thyaga_transactions (country, initiated_time);
CREATE INDEX thyaga_transactions_status_initiated ON thyaga_transactions (status, initiated_time);
CREATE INDEX thyaga_transactions_app_user ON thyaga_transactions (app_user_id);
CREATE INDEX thyaga_transactions_uid_prefix ON thyaga_transactions (uid text_pattern_ops);

CREATE TABLE insurance_transactions (
  id serial PRIMARY KEY,
  trace text NOT NULL,
  uid text NOT NULL,
  app_user_id integer REFERENCES app_users(id),
  country text NOT NULL REFERENCES countries(code),
  currency_code text NOT NULL,
  amount numeric(14,2) NOT NULL,
  amount_usd numeric(14,2) NOT NULL,
  amount_lkr numeric(16,2) NOT NULL,
  account_number text NOT NULL DEFAULT '',
  initiated_time timestamptz NOT NULL,
  card_payment_time timestamptz,
  card_payment_status text,
  card_payment_description text,
  ipg_transaction_id text,
  ipg_rate numeric(6,3),
  refund_commission numeric(6,3),
  ipg_void_payment_time timestamptz,
  ipg_void_status text,
  ipg_void_tran_id text,
  ipg_void_description text,
  ipg_void_code text,
  ipg_void_message text,
  status text NOT NULL CHECK (status IN ('SUCCESS', 'PENDING', 'FAILED', 'REFUNDED', 'HOLD')),
  action_seq integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  exchange_rate_lkr numeric(12,4),
  nic text NOT NULL,
  email text NOT NULL,
  cover_package text NOT NULL,
  plan_no text NOT NULL,
  insurance_package_price numeric(12,2) NOT NULL,
  ipg_commission_lkr numeric(14,2),
  bank_charge_lkr numeric(14,2),
  insurer_reserved_amount_lkr numeric(16,2),
  insurance_payment_time timestamptz,
  insurance_payment_status text,
  insurance_payment_description text,
  insurance_transaction_id text
);
CREATE UNIQUE INDEX insurance_transactions_trace ON insurance_transactions (trace text_pattern_ops);
CREATE INDEX insurance_transactions_initiated ON insurance_transactions (initiated_time);
CREATE INDEX insurance_transactions_country_initiated ON insurance_transactions (country, initiated_time);
CREATE INDEX insurance_transactions_status_initiated ON insurance_transactions (status, initiated_time);
CREATE INDEX insurance_transactions_app_user ON insurance_transactions (app_user_id);
CREATE INDEX insurance_transactions_uid_prefix ON insurance_transactions (uid text_pattern_ops);

CREATE TABLE insurance_dependants (
  id serial PRIMARY KEY,
  insurance_transaction_id integer NOT NULL REFERENCES insurance_transactions(id) ON DELETE CASCADE,
  title text NOT NULL,
  name text NOT NULL,
  nic_number text NOT NULL,
  relation_type text NOT NULL,
  mobile_number text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT ''
);
CREATE INDEX insurance_dependants_transaction ON insurance_dependants (insurance_transaction_id);
