
-- a key with registered beneficiaries but no successful remittance keeps a row with last_success null
ALTER TABLE beneficiary_activity ALTER COLUMN last_success DROP NOT NULL;
ALTER TABLE beneficiary_activity ADD COLUMN beneficiaries integer NOT NULL DEFAULT 0;
COMMENT ON TABLE beneficiary_activity IS
  'Per (app user, bank, account): the latest initiated_time of a successful remittance (null: none) and the number of beneficiaries rows with that key; kept by the triggers of migrations 62 and 63.';
DROP INDEX beneficiary_activity_last;
CREATE INDEX beneficiary_activity_last ON beneficiary_activity (last_success) INCLUDE (beneficiaries);

CREATE OR REPLACE FUNCTION app_user_activity_recompute(users integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH m AS (SELECT u, app_user_last_time(u) AS t FROM unnest(users) u),
  gone AS (DELETE FROM app_user_activity a USING m WHERE a.app_user_id = m.u AND m.t IS NULL)
  INSERT INTO app_user_activity AS a (app_user_id, last_time)
  SELECT u, t FROM m WHERE t IS NOT NULL ORDER BY u
  ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time WHERE a.last_time IS DISTINCT FROM EXCLUDED.last_time;
END
$$;

CREATE OR REPLACE FUNCTION beneficiary_activity_recompute(keys json) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  gone json;
BEGIN
  WITH k AS (SELECT DISTINCT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(keys) e),
  m AS (SELECT u, b, a, (SELECT max(initiated_time) FROM ceft_transactions t
                          WHERE t.app_user_id = k.u AND t.bank_code = k.b AND t.account_number = k.a AND t.status = 'SUCCESS') AS t FROM k),
  up AS (
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
    SELECT u, b, a, t FROM m WHERE t IS NOT NULL ORDER BY u, b, a
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success
     WHERE x.last_success IS DISTINCT FROM EXCLUDED.last_success
  )
  SELECT json_agg(json_build_object('u', u, 'b', b, 'a', a)) INTO gone FROM m WHERE t IS NULL;
  IF gone IS NOT NULL THEN
    -- no successful remittance left: the row goes unless beneficiaries are registered under the key
    WITH g AS (SELECT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(gone) e)
    DELETE FROM beneficiary_activity x USING g WHERE x.app_user_id = g.u AND x.bank_code = g.b AND x.account_number = g.a AND x.beneficiaries = 0;
    WITH g AS (SELECT (e->>'u')::int AS u, e->>'b' AS b, e->>'a' AS a FROM json_array_elements(gone) e)
    UPDATE beneficiary_activity x SET last_success = NULL FROM g
     WHERE x.app_user_id = g.u AND x.bank_code = g.b AND x.account_number = g.a AND x.last_success IS NOT NULL;
  END IF;
END
$$;

-- TRUNCATE, not DELETE: a rebuild leaves fresh, compact tables (no dead rows for the readers to skip)
CREATE OR REPLACE FUNCTION transaction_activity_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE app_user_activity, beneficiary_activity;
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
  INSERT INTO beneficiary_activity (app_user_id, bank_code, account_number, last_success, beneficiaries)
  SELECT app_user_id, bank_code, account_number, max(s), sum(n) FROM (
    SELECT app_user_id, bank_code, account_number, max(initiated_time) AS s, 0 AS n FROM ceft_transactions
     WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3
    UNION ALL
    SELECT app_user_id, bank_code, account_number, NULL, count(*) FROM beneficiaries GROUP BY 1, 2, 3
  ) x GROUP BY 1, 2, 3;
END
$$;

-- as in migration 62, but an INSERT rewrites a row only when it raises the latest time (a bulk load
-- no longer leaves a dead row version per user and statement)
CREATE OR REPLACE FUNCTION transaction_activity_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
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
    ON CONFLICT (app_user_id) DO UPDATE SET last_time = EXCLUDED.last_time WHERE a.last_time < EXCLUDED.last_time;
    IF ceft THEN
      INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success)
      SELECT app_user_id, bank_code, account_number, max(initiated_time) FROM new_rows
       WHERE app_user_id IS NOT NULL AND status = 'SUCCESS' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET last_success = EXCLUDED.last_success
       WHERE x.last_success IS NULL OR x.last_success < EXCLUDED.last_success;
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

-- the beneficiaries count of each key follows the beneficiaries table. Both this trigger and the
-- transaction triggers write a key through an upsert on its beneficiary_activity row, so two
-- concurrent writers of one key wait for each other there and neither misses the other's row.
CREATE FUNCTION beneficiary_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM beneficiary_activity WHERE last_success IS NULL;
    UPDATE beneficiary_activity SET beneficiaries = 0 WHERE beneficiaries <> 0;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success, beneficiaries)
    SELECT app_user_id, bank_code, account_number, NULL, sum(n) FROM (SELECT app_user_id, bank_code, account_number, 1 AS n FROM new_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET beneficiaries = x.beneficiaries + EXCLUDED.beneficiaries;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success, beneficiaries)
    SELECT app_user_id, bank_code, account_number, NULL, sum(n) FROM (SELECT app_user_id, bank_code, account_number, -1 AS n FROM old_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET beneficiaries = x.beneficiaries + EXCLUDED.beneficiaries;
  ELSE
    INSERT INTO beneficiary_activity AS x (app_user_id, bank_code, account_number, last_success, beneficiaries)
    SELECT app_user_id, bank_code, account_number, NULL, sum(n) FROM (SELECT app_user_id, bank_code, account_number, 1 AS n FROM new_rows UNION ALL SELECT app_user_id, bank_code, account_number, -1 AS n FROM old_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (app_user_id, bank_code, account_number) DO UPDATE SET beneficiaries = x.beneficiaries + EXCLUDED.beneficiaries;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    -- keys left with neither a beneficiary nor a successful remittance
    DELETE FROM beneficiary_activity x USING (SELECT DISTINCT app_user_id, bank_code, account_number FROM old_rows) o
     WHERE x.app_user_id = o.app_user_id AND x.bank_code = o.bank_code AND x.account_number = o.account_number
       AND x.beneficiaries = 0 AND x.last_success IS NULL;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER beneficiaries_beneficiary_counts_maintain_ins AFTER INSERT ON beneficiaries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_counts_maintain();
CREATE TRIGGER beneficiaries_beneficiary_counts_maintain_upd AFTER UPDATE ON beneficiaries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_counts_maintain();
CREATE TRIGGER beneficiaries_beneficiary_counts_maintain_del AFTER DELETE ON beneficiaries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_counts_maintain();
CREATE TRIGGER beneficiaries_beneficiary_counts_maintain_trunc AFTER TRUNCATE ON beneficiaries
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_counts_maintain();

SELECT transaction_activity_rebuild();
ANALYZE app_user_activity, beneficiary_activity;
