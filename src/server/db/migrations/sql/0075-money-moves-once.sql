
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
     AND NOT (((NEW.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS') AND NOT (OLD.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS'))
           OR ((NEW.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS') AND NOT (OLD.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS'))
           OR ((NEW.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS') AND NOT (OLD.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS'))) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'money moves at most once: send-money transaction % would have more than one successful CEFT payout, void or refund', NEW.id
    USING ERRCODE = 'check_violation', CONSTRAINT = 'ceft_transactions_money_moves_once';
END $$;
CREATE TRIGGER ceft_transactions_money_once_ins BEFORE INSERT ON ceft_transactions
  FOR EACH ROW WHEN (((NEW.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS')::int) > 1) EXECUTE FUNCTION ceft_money_moves_once();
CREATE TRIGGER ceft_transactions_money_once_upd BEFORE UPDATE OF ceft_payment_status, ipg_void_status, ipg_refund_status ON ceft_transactions
  FOR EACH ROW WHEN (((NEW.ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_void_status IS NOT DISTINCT FROM 'SUCCESS')::int + (NEW.ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS')::int) > 1) EXECUTE FUNCTION ceft_money_moves_once();

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
