import type { Migration } from '../migrations';

/** SQL true when `col` of `rec` (NEW or OLD) records a success. */
const ok = (rec: string, col: string) => `(${rec}.${col} IS NOT DISTINCT FROM 'SUCCESS')`;
const successes = (rec: string) => `(${ok(rec, 'ceft_payment_status')}::int + ${ok(rec, 'ipg_void_status')}::int + ${ok(rec, 'ipg_refund_status')}::int)`;

/** The transaction tables: every kind is paid by card through an IPG provider. */
const transactionTables = ['ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions'];

/**
 * The rule settlement used before migration 76 to guess a transaction's acquiring provider, frozen
 * here as it was: per currency, the first active provider (lowest id) with the currency enabled and a
 * settlement rate above 0; LKR by the first active provider unless a provider lists LKR itself.
 */
const GUESSED_PROVIDER_SQL = `
  SELECT currency_code, provider_bank_code FROM (
    SELECT DISTINCT ON (c.currency_code) c.currency_code, p.provider_bank_code
      FROM ipg_provider_currencies c JOIN ipg_providers p ON p.id = c.provider_id
     WHERE c.disabled = 0 AND p.disabled = 0 AND c.settlement_rate > 0
     ORDER BY c.currency_code, p.id
  ) listed
  UNION ALL
  SELECT * FROM (
    SELECT 'LKR'::text AS currency_code, p.provider_bank_code
      FROM ipg_providers p
     WHERE p.disabled = 0
       AND NOT EXISTS (SELECT 1 FROM ipg_provider_currencies c JOIN ipg_providers q ON q.id = c.provider_id
                        WHERE c.currency_code = 'LKR' AND c.disabled = 0 AND q.disabled = 0 AND c.settlement_rate > 0)
     ORDER BY p.id
     LIMIT 1
  ) lkr`;

/** Money and settlement scope (ids 75..79): issue 15. */
export const moneyMigrations: readonly Migration[] = [
  {
    id: 75,
    name: 'money moves at most once: per send-money transaction at most one successful CEFT payout, void or refund',
    sql: `
-- The guards (src/domain/transactionGuards.ts) refuse a void or refund after a successful fund
-- transfer and a transfer after a successful void or refund; these triggers hold the same rule in the
-- database, so that no handler bug (or hand-written UPDATE) can pay the beneficiary and give the
-- customer their money back as well.
--
-- A trigger rather than a CHECK: a database written before this migration may hold rows that broke
-- the rule (the old bug: a manual transfer followed by a refund). Those rows stay as they are and can
-- still be changed in every other column (a CHECK, even NOT VALID, would refuse any UPDATE of them);
-- what is refused is a write that makes a status SUCCESS that was not, on a row that then holds more
-- than one success. The WHEN clauses keep the function off every ordinary write (the bulk seed too).
CREATE FUNCTION ceft_money_moves_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NOT ((${ok('NEW', 'ceft_payment_status')} AND NOT ${ok('OLD', 'ceft_payment_status')})
           OR (${ok('NEW', 'ipg_void_status')} AND NOT ${ok('OLD', 'ipg_void_status')})
           OR (${ok('NEW', 'ipg_refund_status')} AND NOT ${ok('OLD', 'ipg_refund_status')})) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'money moves at most once: send-money transaction % would have more than one successful CEFT payout, void or refund', NEW.id
    USING ERRCODE = 'check_violation', CONSTRAINT = 'ceft_transactions_money_moves_once';
END $$;
CREATE TRIGGER ceft_transactions_money_once_ins BEFORE INSERT ON ceft_transactions
  FOR EACH ROW WHEN (${successes('NEW')} > 1) EXECUTE FUNCTION ceft_money_moves_once();
CREATE TRIGGER ceft_transactions_money_once_upd BEFORE UPDATE OF ceft_payment_status, ipg_void_status, ipg_refund_status ON ceft_transactions
  FOR EACH ROW WHEN (${successes('NEW')} > 1) EXECUTE FUNCTION ceft_money_moves_once();

-- The same on the action log: at most one successful money-moving action (manual fund transfer, void,
-- refund) per transaction. Older violating rows are left alone; a new one is refused. The advisory
-- lock makes two concurrent inserts for one transaction take turns, so neither misses the other.
CREATE FUNCTION transaction_actions_money_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('money-once:' || NEW.kind || ':' || NEW.transaction_id));
  IF EXISTS (SELECT 1 FROM transaction_actions a
              WHERE a.kind = NEW.kind AND a.transaction_id = NEW.transaction_id AND a.outcome = 'SUCCESS'
                AND a.action IN ('MANUAL_FUND_TRANSFER', 'VOID', 'REFUND')) THEN
    RAISE EXCEPTION 'money moves at most once: % transaction % already has a successful fund transfer, void or refund', NEW.kind, NEW.transaction_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'transaction_actions_money_moves_once';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER transaction_actions_money_once BEFORE INSERT ON transaction_actions
  FOR EACH ROW WHEN (NEW.outcome = 'SUCCESS' AND NEW.action IN ('MANUAL_FUND_TRANSFER', 'VOID', 'REFUND'))
  EXECUTE FUNCTION transaction_actions_money_once();
`,
  },
  {
    id: 76,
    name: 'transactions carry their acquiring IPG provider (provider_bank_code), filled by the old settlement rule; indexed for the IPG bank users\' lists',
    sql: `
-- The IPG provider whose gateway took the card payment: settlement settles a transaction at its own
-- provider's rate, and an IPG bank user sees only their provider's transactions. Rows written before
-- this migration get the provider the settlement guessed for them until now (GUESSED_PROVIDER_SQL);
-- a row in a currency no provider settles keeps NULL (settlement reports it as unsettleable, and no
-- IPG bank user sees it). One UPDATE per table, with the user triggers off: the fill changes no
-- column the roll-up, activity or money triggers read, and a million-row UPDATE would otherwise hand
-- each statement trigger a million-row transition table for nothing.
${transactionTables
  .map(
    (t) => `ALTER TABLE ${t} ADD COLUMN provider_bank_code text;
ALTER TABLE ${t} DISABLE TRIGGER USER;
UPDATE ${t} t SET provider_bank_code = g.provider_bank_code FROM (${GUESSED_PROVIDER_SQL}) g WHERE g.currency_code = t.currency_code;
ALTER TABLE ${t} ENABLE TRIGGER USER;
CREATE INDEX ${t}_provider_initiated ON ${t} (provider_bank_code, initiated_time);`,
  )
  .join('\n')}

-- a batch has one row per currency, account and (now that two providers may settle one currency) provider
ALTER TABLE settlement_rows DROP CONSTRAINT settlement_rows_batch_id_currency_code_account_number_key;
ALTER TABLE settlement_rows ADD CONSTRAINT settlement_rows_batch_currency_account_provider UNIQUE (batch_id, currency_code, account_number, provider_bank_code);
`,
  },
  {
    id: 77,
    name: 'settlement-report-generate: granted to the back-office roles that could generate until now',
    sql: `
-- Generating a settlement batch needs its own permission from now on. Back-office (BACKEND) roles
-- that hold settlement-report-view could generate until now and keep doing so; IPG bank roles, which
-- see their own provider's rows only, do not get it: a batch settles every provider.
UPDATE roles SET permissions = permissions || '["settlement-report-generate"]'::jsonb, updated_at = now()
 WHERE user_type <> 'IPGBANK' AND permissions ? 'settlement-report-view' AND NOT permissions ? 'settlement-report-generate';
`,
  },
];
