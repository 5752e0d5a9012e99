import type { Migration } from '../migrations';

/**
 * The transaction tables (spec 001 §3), one per kind, with the common columns: trace, uid (customer
 * NIC or passport), app_user_id (the app user, when known), country (the sending corridor), currency
 * and amount, account number, the card payment through the IPG and its deductions, the IPG void,
 * and an overall `status` (SUCCESS, PENDING, FAILED, REFUNDED, HOLD) derived from the stages
 * (src/domain/transactionStatus.ts), kept so that counting and filtering by status is one index.
 *
 * amount_usd and amount_lkr are the amount converted at the time of the transaction: the totals
 * footers read USD (LKR for refunds), the daily roll-up sums both. `action_seq` counts the money
 * actions applied to a row (see transaction_actions).
 *
 * Indexes serve the list filters: the date range (initiated_time), country and status with the
 * range, and prefix search (LIKE 'x%') on trace, uid and account number (text_pattern_ops, which also
 * serves equality, so a unique trace needs no second index).
 */
const common = `
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
  updated_at timestamptz NOT NULL DEFAULT now()`;

/** The deductions of every kind but insurance (which keeps its commission and charge in LKR). */
const deductions = `
  ipg_commission numeric(12,2),
  bank_charge numeric(12,2),
  beneficiary_received_amount_lkr numeric(16,2)`;

function indexes(table: string, search: readonly string[]): string {
  return [
    `CREATE UNIQUE INDEX ${table}_trace ON ${table} (trace text_pattern_ops);`,
    `CREATE INDEX ${table}_initiated ON ${table} (initiated_time);`,
    `CREATE INDEX ${table}_country_initiated ON ${table} (country, initiated_time);`,
    `CREATE INDEX ${table}_status_initiated ON ${table} (status, initiated_time);`,
    `CREATE INDEX ${table}_app_user ON ${table} (app_user_id);`,
    ...search.map((c) => `CREATE INDEX ${table}_${c}_prefix ON ${table} (${c} text_pattern_ops);`),
  ].join('\n');
}

export const transactionMigrations: readonly Migration[] = [
  {
    id: 20,
    name: 'transactions: send money (CEFT), bill payments, E-Channelling, Thyaga, insurance and dependants',
    sql: `
CREATE TABLE ceft_transactions (${common},${deductions},
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
${indexes('ceft_transactions', ['uid', 'account_number'])}

CREATE TABLE bill_transactions (${common},${deductions},
  exchange_rate_lkr numeric(12,4),
  biller_code text NOT NULL,
  bill_payment_time timestamptz,
  bill_payment_status text,
  bill_payment_description text
);
${indexes('bill_transactions', ['uid', 'account_number'])}

CREATE TABLE echannelling_transactions (${common},${deductions},
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
${indexes('echannelling_transactions', ['uid'])}

CREATE TABLE thyaga_transactions (${common},${deductions},
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
${indexes('thyaga_transactions', ['uid'])}

CREATE TABLE insurance_transactions (${common},
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
${indexes('insurance_transactions', ['uid'])}

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
`,
  },
  {
    id: 21,
    name: 'transactions: money actions (idempotency) and the daily roll-up',
    sql: `
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
`,
  },
];
