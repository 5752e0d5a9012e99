
CREATE TABLE app_user_activity_days (
  day integer PRIMARY KEY,
  users bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE app_user_activity_days IS
  'app_user_activity per UTC day of last_time (day = floor(epoch / 86400)): the number of app users; kept by the triggers of migration 64.';
CREATE TABLE beneficiary_activity_days (
  day integer PRIMARY KEY,
  beneficiaries bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE beneficiary_activity_days IS
  'beneficiary_activity per UTC day of last_success (day = floor(epoch / 86400)): the sum of beneficiaries; kept by the triggers of migration 64.';

INSERT INTO app_user_activity_days (day, users)
SELECT floor(extract(epoch FROM last_time) / 86400)::integer, count(*) FROM app_user_activity GROUP BY 1;
INSERT INTO beneficiary_activity_days (day, beneficiaries)
SELECT floor(extract(epoch FROM last_success) / 86400)::integer, sum(beneficiaries) FROM beneficiary_activity WHERE last_success IS NOT NULL GROUP BY 1;

CREATE FUNCTION app_user_activity_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM app_user_activity_days;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_user_activity_days AS s (day, users)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_time) / 86400)::integer AS day, 1 AS n FROM new_rows) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET users = s.users + EXCLUDED.users;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO app_user_activity_days AS s (day, users)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_time) / 86400)::integer AS day, -1 AS n FROM old_rows) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET users = s.users + EXCLUDED.users;
  ELSE
    INSERT INTO app_user_activity_days AS s (day, users)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_time) / 86400)::integer AS day, 1 AS n FROM new_rows UNION ALL SELECT floor(extract(epoch FROM last_time) / 86400)::integer AS day, -1 AS n FROM old_rows) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET users = s.users + EXCLUDED.users;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION beneficiary_activity_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM beneficiary_activity_days;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO beneficiary_activity_days AS s (day, beneficiaries)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_success) / 86400)::integer AS day, beneficiaries AS n FROM new_rows WHERE last_success IS NOT NULL) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET beneficiaries = s.beneficiaries + EXCLUDED.beneficiaries;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO beneficiary_activity_days AS s (day, beneficiaries)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_success) / 86400)::integer AS day, -beneficiaries AS n FROM old_rows WHERE last_success IS NOT NULL) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET beneficiaries = s.beneficiaries + EXCLUDED.beneficiaries;
  ELSE
    INSERT INTO beneficiary_activity_days AS s (day, beneficiaries)
    SELECT day, sum(n) FROM (SELECT floor(extract(epoch FROM last_success) / 86400)::integer AS day, beneficiaries AS n FROM new_rows WHERE last_success IS NOT NULL UNION ALL SELECT floor(extract(epoch FROM last_success) / 86400)::integer AS day, -beneficiaries AS n FROM old_rows WHERE last_success IS NOT NULL) d GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET beneficiaries = s.beneficiaries + EXCLUDED.beneficiaries;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER app_user_activity_app_user_activity_days_maintain_ins AFTER INSERT ON app_user_activity REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_user_activity_days_maintain();
CREATE TRIGGER app_user_activity_app_user_activity_days_maintain_upd AFTER UPDATE ON app_user_activity REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_user_activity_days_maintain();
CREATE TRIGGER app_user_activity_app_user_activity_days_maintain_del AFTER DELETE ON app_user_activity REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION app_user_activity_days_maintain();
CREATE TRIGGER app_user_activity_app_user_activity_days_maintain_trunc AFTER TRUNCATE ON app_user_activity
  FOR EACH STATEMENT EXECUTE FUNCTION app_user_activity_days_maintain();

CREATE TRIGGER beneficiary_activity_beneficiary_activity_days_maintain_ins AFTER INSERT ON beneficiary_activity REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_activity_days_maintain();
CREATE TRIGGER beneficiary_activity_beneficiary_activity_days_maintain_upd AFTER UPDATE ON beneficiary_activity REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_activity_days_maintain();
CREATE TRIGGER beneficiary_activity_beneficiary_activity_days_maintain_del AFTER DELETE ON beneficiary_activity REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_activity_days_maintain();
CREATE TRIGGER beneficiary_activity_beneficiary_activity_days_maintain_trunc AFTER TRUNCATE ON beneficiary_activity
  FOR EACH STATEMENT EXECUTE FUNCTION beneficiary_activity_days_maintain();
