
CREATE TABLE app_user_activity (
  app_user_id integer PRIMARY KEY,
  last_time timestamptz NOT NULL
);
CREATE INDEX app_user_activity_last ON app_user_activity (last_time);
COMMENT ON TABLE app_user_activity IS 'Latest initiated_time of any transaction of each app user; kept by the triggers of migration 62.';

CREATE TABLE beneficiary_activity (
  app_user_id integer NOT NULL,
  bank_code text NOT NULL,
  account_number text NOT NULL,
  last_success timestamptz NOT NULL,
  PRIMARY KEY (app_user_id, bank_code, account_number)
);
CREATE INDEX beneficiary_activity_last ON beneficiary_activity (last_success);
COMMENT ON TABLE beneficiary_activity IS
  'Latest initiated_time of a successful remittance to each (app user, bank, account); kept by the triggers of migration 62.';

-- the latest time of one app user over every kind, from the tables
CREATE FUNCTION app_user_last_time(u integer) RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT max(t) FROM (
    SELECT max(initiated_time) AS t FROM ceft_transactions WHERE app_user_id = u
    UNION ALL
    SELECT max(initiated_time) AS t FROM bill_transactions WHERE app_user_id = u
    UNION ALL
    SELECT max(initiated_time) AS t FROM echannelling_transactions WHERE app_user_id = u
    UNION ALL
    SELECT max(initiated_time) AS t FROM thyaga_transactions WHERE app_user_id = u
    UNION ALL
    SELECT max(initiated_time) AS t FROM insurance_transactions WHERE app_user_id = u
  ) x
$$;

-- recomputes the given app users' rows from the tables
CREATE FUNCTION app_user_activity_recompute(users integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH m AS (SELECT u, app_user_last_time(u) AS t FROM unnest(users) u),
  gone AS (DELETE FROM app_user_activity a USING m WHERE a.app_user_id = m.u AND m.t IS NULL)
  INSERT INTO app_user_activity AS a (app_user_id, last_time)
  SELECT u, t FROM m WHERE t IS NOT NULL ORDER BY u
  ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time;
END
$$;

CREATE FUNCTION beneficiary_activity_recompute(keys json) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH k AS (SELECT DISTINCT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(keys) e),
  m AS (SELECT u, b, a, (SELECT max(initiated_time) FROM ceft_transactions t
                          WHERE t.app_user_id = k.u AND t.bank_code = k.b AND t.account_number = k.a AND t.status = 'SUCCESS') AS t FROM k),
  gone AS (DELETE FROM beneficiary_activity x USING m WHERE x.app_user_id = m.u AND x.bank_code = m.b AND x.account_number = m.a AND m.t IS NULL)
  INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
  SELECT u, b, a, t FROM m WHERE t IS NOT NULL ORDER BY u, b, a
  ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success;
END
$$;

CREATE FUNCTION transaction_activity_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM app_user_activity;
  DELETE FROM beneficiary_activity;
  INSERT INTO app_user_activity (app_user_id, last_time)
  SELECT app_user_id, max(t) FROM (
    SELECT app_user_id, max(initiated_time) AS t FROM ceft_transactions WHERE app_user_id IS NOT NULL GROUP BY 1
    UNION ALL
    SELECT app_user_id, max(initiated_time) AS t FROM bill_transactions WHERE app_user_id IS NOT NULL GROUP BY 1
    UNION ALL
    SELECT app_user_id, max(initiated_time) AS t FROM echannelling_transactions WHERE app_user_id IS NOT NULL GROUP BY 1
    UNION ALL
    SELECT app_user_id, max(initiated_time) AS t FROM thyaga_transactions WHERE app_user_id IS NOT NULL GROUP BY 1
    UNION ALL
    SELECT app_user_id, max(initiated_time) AS t FROM insurance_transactions WHERE app_user_id IS NOT NULL GROUP BY 1
  ) x GROUP BY 1;
  INSERT INTO beneficiary_activity (app_user_id, bank_code, account_number, last_success)
  SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM ceft_transactions
   WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3;
END
$$;

CREATE FUNCTION transaction_activity_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ceft boolean := TG_ARGV[0] = 'ceft';
  users integer[];
  keys json;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM transaction_activity_rebuild();
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_user_activity AS a (app_user_id, last_time)
    SELECT app_user_id, max(initiated_time) FROM new_rows WHERE app_user_id IS NOT NULL GROUP BY 1 ORDER BY 1
    ON CONFLICT (app_user_id) DO UPDATE SET last_time = greatest(a.last_time, EXCLUDED.last_time);
    IF ceft THEN
      INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
      SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM new_rows
       WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = greatest(x.last_success, EXCLUDED.last_success);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT app_user_id) INTO users FROM old_rows WHERE app_user_id IS NOT NULL;
  ELSE
    SELECT array_agg(DISTINCT u) INTO users FROM (
      SELECT o.app_user_id AS u FROM old_rows o JOIN new_rows n USING (id)
       WHERE (o.app_user_id, o.initiated_time) IS DISTINCT FROM (n.app_user_id, n.initiated_time)
      UNION ALL
      SELECT n.app_user_id FROM old_rows o JOIN new_rows n USING (id)
       WHERE (o.app_user_id, o.initiated_time) IS DISTINCT FROM (n.app_user_id, n.initiated_time)
    ) c WHERE u IS NOT NULL;
  END IF;
  IF users IS NOT NULL THEN
    PERFORM app_user_activity_recompute(users);
  END IF;
  IF ceft THEN
    IF TG_OP = 'DELETE' THEN
      SELECT json_agg(json_build_object('u', app_user_id, 'b', bank_code, 'a', account_number)) INTO keys
        FROM old_rows WHERE app_user_id IS NOT NULL AND status = 'SUCCESS';
    ELSE
      SELECT json_agg(json_build_object('u', u, 'b', b, 'a', a)) INTO keys FROM (
        SELECT o.app_user_id AS u, o.bank_code AS b, o.account_number AS a FROM old_rows o JOIN new_rows n USING (id)
         WHERE (o.app_user_id, o.initiated_time, o.status, o.bank_code, o.account_number) IS DISTINCT FROM (n.app_user_id, n.initiated_time, n.status, n.bank_code, n.account_number)
        UNION ALL
        SELECT n.app_user_id, n.bank_code, n.account_number FROM old_rows o JOIN new_rows n USING (id)
         WHERE (o.app_user_id, o.initiated_time, o.status, o.bank_code, o.account_number) IS DISTINCT FROM (n.app_user_id, n.initiated_time, n.status, n.bank_code, n.account_number)
      ) c WHERE u IS NOT NULL;
    END IF;
    IF keys IS NOT NULL THEN
      PERFORM beneficiary_activity_recompute(keys);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ceft_transactions_transaction_activity_maintain_ins AFTER INSERT ON ceft_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_upd AFTER UPDATE ON ceft_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_del AFTER DELETE ON ceft_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON ceft_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('ceft');

CREATE TRIGGER bill_transactions_transaction_activity_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON bill_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('bill');

CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_ins AFTER INSERT ON echannelling_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_upd AFTER UPDATE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_del AFTER DELETE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON echannelling_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('echannelling');

CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_ins AFTER INSERT ON thyaga_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_upd AFTER UPDATE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_del AFTER DELETE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON thyaga_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('thyaga');

CREATE TRIGGER insurance_transactions_transaction_activity_maintain_ins AFTER INSERT ON insurance_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_upd AFTER UPDATE ON insurance_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_del AFTER DELETE ON insurance_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_activity_maintain_trunc AFTER TRUNCATE ON insurance_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_activity_maintain('insurance');

SELECT transaction_activity_rebuild();
