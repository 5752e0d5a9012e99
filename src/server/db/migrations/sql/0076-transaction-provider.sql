
-- The IPG provider whose gateway took the card payment: settlement settles a transaction at its own
-- provider's rate, and an IPG bank user sees only their provider's transactions. Rows written before
-- this migration get the provider the settlement guessed for them until now (GUESSED_PROVIDER_SQL);
-- a row in a currency no provider settles keeps NULL (settlement reports it as unsettleable, and no
-- IPG bank user sees it). One UPDATE per table, with the user triggers off: the fill changes no
-- column the roll-up, activity or money triggers read, and a million-row UPDATE would otherwise hand
-- each statement trigger a million-row transition table for nothing.
ALTER TABLE ceft_transactions ADD COLUMN provider_bank_code text;
ALTER TABLE ceft_transactions DISABLE TRIGGER USER;
UPDATE ceft_transactions t SET provider_bank_code = g.provider_bank_code FROM (
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
  ) lkr) g WHERE g.currency_code = t.currency_code;
ALTER TABLE ceft_transactions ENABLE TRIGGER USER;
CREATE INDEX ceft_transactions_provider_initiated ON ceft_transactions (provider_bank_code, initiated_time);
ALTER TABLE bill_transactions ADD COLUMN provider_bank_code text;
ALTER TABLE bill_transactions DISABLE TRIGGER USER;
UPDATE bill_transactions t SET provider_bank_code = g.provider_bank_code FROM (
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
  ) lkr) g WHERE g.currency_code = t.currency_code;
ALTER TABLE bill_transactions ENABLE TRIGGER USER;
CREATE INDEX bill_transactions_provider_initiated ON bill_transactions (provider_bank_code, initiated_time);
ALTER TABLE echannelling_transactions ADD COLUMN provider_bank_code text;
ALTER TABLE echannelling_transactions DISABLE TRIGGER USER;
UPDATE echannelling_transactions t SET provider_bank_code = g.provider_bank_code FROM (
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
  ) lkr) g WHERE g.currency_code = t.currency_code;
ALTER TABLE echannelling_transactions ENABLE TRIGGER USER;
CREATE INDEX echannelling_transactions_provider_initiated ON echannelling_transactions (provider_bank_code, initiated_time);
ALTER TABLE thyaga_transactions ADD COLUMN provider_bank_code text;
ALTER TABLE thyaga_transactions DISABLE TRIGGER USER;
UPDATE thyaga_transactions t SET provider_bank_code = g.provider_bank_code FROM (
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
  ) lkr) g WHERE g.currency_code = t.currency_code;
ALTER TABLE thyaga_transactions ENABLE TRIGGER USER;
CREATE INDEX thyaga_transactions_provider_initiated ON thyaga_transactions (provider_bank_code, initiated_time);
ALTER TABLE insurance_transactions ADD COLUMN provider_bank_code text;
ALTER TABLE insurance_transactions DISABLE TRIGGER USER;
UPDATE insurance_transactions t SET provider_bank_code = g.provider_bank_code FROM (
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
  ) lkr) g WHERE g.currency_code = t.currency_code;
ALTER TABLE insurance_transactions ENABLE TRIGGER USER;
CREATE INDEX insurance_transactions_provider_initiated ON insurance_transactions (provider_bank_code, initiated_time);

-- a batch has one row per currency, account and (now that two providers may settle one currency) provider
ALTER TABLE settlement_rows DROP CONSTRAINT settlement_rows_batch_id_currency_code_account_number_key;
ALTER TABLE settlement_rows ADD CONSTRAINT settlement_rows_batch_currency_account_provider UNIQUE (batch_id, currency_code, account_number, provider_bank_code);
