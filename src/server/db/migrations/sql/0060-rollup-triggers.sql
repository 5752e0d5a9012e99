
INSERT INTO app_settings (key, value) VALUES ('transaction_day_time_zone', current_setting('TimeZone')) ON CONFLICT (key) DO NOTHING;

CREATE FUNCTION transaction_day_time_zone() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT value FROM app_settings WHERE key = 'transaction_day_time_zone'), current_setting('TimeZone'))
$$;

CREATE TABLE transaction_monthly_stats (
  month date NOT NULL,
  kind text NOT NULL,
  country text NOT NULL,
  currency_code text NOT NULL,
  status text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  amount numeric(18,2) NOT NULL DEFAULT 0,
  amount_usd numeric(18,2) NOT NULL DEFAULT 0,
  amount_lkr numeric(20,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (month, kind, country, currency_code, status)
);
COMMENT ON TABLE transaction_monthly_stats IS
  'transaction_daily_stats per calendar month (month = its first day); kept by the triggers of migration 60.';

CREATE TABLE bill_daily_billers (
  day date NOT NULL,
  biller_code text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  amount_usd numeric(18,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (day, biller_code)
);
COMMENT ON TABLE bill_daily_billers IS
  'Successful bill payments per local day of initiated_time and biller: count and USD sum; kept by the triggers of migration 60.';

CREATE FUNCTION transaction_stats_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := TG_ARGV[0];
  zone text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM transaction_daily_stats WHERE kind = k;
    DELETE FROM transaction_monthly_stats WHERE kind = k;
    RETURN NULL;
  END IF;
  zone := transaction_day_time_zone();
  IF TG_OP = 'INSERT' THEN
    WITH d AS (SELECT initiated_time, country, currency_code, status, 1 AS n, amount, amount_usd, amount_lkr FROM new_rows),
    g AS (
      SELECT (initiated_time AT TIME ZONE zone)::date AS day, country, currency_code, status,
             sum(n) AS n, sum(amount) AS amount, sum(amount_usd) AS usd, sum(amount_lkr) AS lkr
        FROM d GROUP BY 1, 2, 3, 4
      HAVING sum(n) <> 0 OR sum(amount) <> 0 OR sum(amount_usd) <> 0 OR sum(amount_lkr) <> 0
    ),
    daily AS (
      INSERT INTO transaction_daily_stats AS s (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
      SELECT day, k, country, currency_code, status, n, amount, usd, lkr FROM g ORDER BY day, country, currency_code, status
      ON CONFLICT (day, kind, country, currency_code, status) DO UPDATE SET
        count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
        amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr
      RETURNING 1
    )
    INSERT INTO transaction_monthly_stats AS s (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
    SELECT day - (extract(day FROM day)::int - 1), k, country, currency_code, status, sum(n), sum(amount), sum(usd), sum(lkr)
      FROM g GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (month, kind, country, currency_code, status) DO UPDATE SET
      count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
      amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr;
  ELSIF TG_OP = 'DELETE' THEN
    WITH d AS (SELECT initiated_time, country, currency_code, status, -1 AS n, -amount AS amount, -amount_usd AS amount_usd, -amount_lkr AS amount_lkr FROM old_rows),
    g AS (
      SELECT (initiated_time AT TIME ZONE zone)::date AS day, country, currency_code, status,
             sum(n) AS n, sum(amount) AS amount, sum(amount_usd) AS usd, sum(amount_lkr) AS lkr
        FROM d GROUP BY 1, 2, 3, 4
      HAVING sum(n) <> 0 OR sum(amount) <> 0 OR sum(amount_usd) <> 0 OR sum(amount_lkr) <> 0
    ),
    daily AS (
      INSERT INTO transaction_daily_stats AS s (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
      SELECT day, k, country, currency_code, status, n, amount, usd, lkr FROM g ORDER BY day, country, currency_code, status
      ON CONFLICT (day, kind, country, currency_code, status) DO UPDATE SET
        count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
        amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr
      RETURNING 1
    )
    INSERT INTO transaction_monthly_stats AS s (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
    SELECT day - (extract(day FROM day)::int - 1), k, country, currency_code, status, sum(n), sum(amount), sum(usd), sum(lkr)
      FROM g GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (month, kind, country, currency_code, status) DO UPDATE SET
      count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
      amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr;
  ELSE
    WITH d AS (SELECT initiated_time, country, currency_code, status, 1 AS n, amount, amount_usd, amount_lkr FROM new_rows UNION ALL SELECT initiated_time, country, currency_code, status, -1 AS n, -amount AS amount, -amount_usd AS amount_usd, -amount_lkr AS amount_lkr FROM old_rows),
    g AS (
      SELECT (initiated_time AT TIME ZONE zone)::date AS day, country, currency_code, status,
             sum(n) AS n, sum(amount) AS amount, sum(amount_usd) AS usd, sum(amount_lkr) AS lkr
        FROM d GROUP BY 1, 2, 3, 4
      HAVING sum(n) <> 0 OR sum(amount) <> 0 OR sum(amount_usd) <> 0 OR sum(amount_lkr) <> 0
    ),
    daily AS (
      INSERT INTO transaction_daily_stats AS s (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
      SELECT day, k, country, currency_code, status, n, amount, usd, lkr FROM g ORDER BY day, country, currency_code, status
      ON CONFLICT (day, kind, country, currency_code, status) DO UPDATE SET
        count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
        amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr
      RETURNING 1
    )
    INSERT INTO transaction_monthly_stats AS s (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
    SELECT day - (extract(day FROM day)::int - 1), k, country, currency_code, status, sum(n), sum(amount), sum(usd), sum(lkr)
      FROM g GROUP BY 1, 3, 4, 5 ORDER BY 1, 3, 4, 5
    ON CONFLICT (month, kind, country, currency_code, status) DO UPDATE SET
      count = s.count + EXCLUDED.count, amount = s.amount + EXCLUDED.amount,
      amount_usd = s.amount_usd + EXCLUDED.amount_usd, amount_lkr = s.amount_lkr + EXCLUDED.amount_lkr;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION bill_billers_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM bill_daily_billers;
    RETURN NULL;
  END IF;
  zone := transaction_day_time_zone();
  IF TG_OP = 'INSERT' THEN
    WITH d AS (SELECT initiated_time, biller_code, 1 AS n, amount_usd FROM new_rows WHERE status = 'SUCCESS')
    INSERT INTO bill_daily_billers AS s (day, biller_code, count, amount_usd)
    SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, sum(n), sum(amount_usd) FROM d
     GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(amount_usd) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, biller_code) DO UPDATE SET count = s.count + EXCLUDED.count, amount_usd = s.amount_usd + EXCLUDED.amount_usd;
  ELSIF TG_OP = 'DELETE' THEN
    WITH d AS (SELECT initiated_time, biller_code, -1 AS n, -amount_usd AS amount_usd FROM old_rows WHERE status = 'SUCCESS')
    INSERT INTO bill_daily_billers AS s (day, biller_code, count, amount_usd)
    SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, sum(n), sum(amount_usd) FROM d
     GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(amount_usd) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, biller_code) DO UPDATE SET count = s.count + EXCLUDED.count, amount_usd = s.amount_usd + EXCLUDED.amount_usd;
  ELSE
    WITH d AS (SELECT initiated_time, biller_code, 1 AS n, amount_usd FROM new_rows WHERE status = 'SUCCESS' UNION ALL SELECT initiated_time, biller_code, -1 AS n, -amount_usd AS amount_usd FROM old_rows WHERE status = 'SUCCESS')
    INSERT INTO bill_daily_billers AS s (day, biller_code, count, amount_usd)
    SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, sum(n), sum(amount_usd) FROM d
     GROUP BY 1, 2 HAVING sum(n) <> 0 OR sum(amount_usd) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, biller_code) DO UPDATE SET count = s.count + EXCLUDED.count, amount_usd = s.amount_usd + EXCLUDED.amount_usd;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ceft_transactions_transaction_stats_maintain_ins AFTER INSERT ON ceft_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_upd AFTER UPDATE ON ceft_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_del AFTER DELETE ON ceft_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');
CREATE TRIGGER ceft_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON ceft_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('ceft');

CREATE TRIGGER bill_transactions_transaction_stats_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');
CREATE TRIGGER bill_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON bill_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('bill');

CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_ins AFTER INSERT ON echannelling_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_upd AFTER UPDATE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_del AFTER DELETE ON echannelling_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');
CREATE TRIGGER echannelling_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON echannelling_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('echannelling');

CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_ins AFTER INSERT ON thyaga_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_upd AFTER UPDATE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_del AFTER DELETE ON thyaga_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');
CREATE TRIGGER thyaga_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON thyaga_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('thyaga');

CREATE TRIGGER insurance_transactions_transaction_stats_maintain_ins AFTER INSERT ON insurance_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_upd AFTER UPDATE ON insurance_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_del AFTER DELETE ON insurance_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');
CREATE TRIGGER insurance_transactions_transaction_stats_maintain_trunc AFTER TRUNCATE ON insurance_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_stats_maintain('insurance');

CREATE TRIGGER bill_transactions_bill_billers_maintain_ins AFTER INSERT ON bill_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_upd AFTER UPDATE ON bill_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_del AFTER DELETE ON bill_transactions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();
CREATE TRIGGER bill_transactions_bill_billers_maintain_trunc AFTER TRUNCATE ON bill_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION bill_billers_maintain();

CREATE FUNCTION transaction_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zone text := transaction_day_time_zone();
BEGIN
  LOCK TABLE ceft_transactions, bill_transactions, echannelling_transactions, thyaga_transactions, insurance_transactions IN SHARE MODE;
  DELETE FROM transaction_daily_stats;
  DELETE FROM transaction_monthly_stats;
  DELETE FROM bill_daily_billers;
  INSERT INTO transaction_daily_stats (day, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
  SELECT (initiated_time AT TIME ZONE zone)::date, 'ceft', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM ceft_transactions GROUP BY 1, 3, 4, 5
  UNION ALL
  SELECT (initiated_time AT TIME ZONE zone)::date, 'bill', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM bill_transactions GROUP BY 1, 3, 4, 5
  UNION ALL
  SELECT (initiated_time AT TIME ZONE zone)::date, 'echannelling', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM echannelling_transactions GROUP BY 1, 3, 4, 5
  UNION ALL
  SELECT (initiated_time AT TIME ZONE zone)::date, 'thyaga', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM thyaga_transactions GROUP BY 1, 3, 4, 5
  UNION ALL
  SELECT (initiated_time AT TIME ZONE zone)::date, 'insurance', country, currency_code, status, count(*), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM insurance_transactions GROUP BY 1, 3, 4, 5;
  INSERT INTO transaction_monthly_stats (month, kind, country, currency_code, status, count, amount, amount_usd, amount_lkr)
  SELECT day - (extract(day FROM day)::int - 1), kind, country, currency_code, status, sum(count), sum(amount), sum(amount_usd), sum(amount_lkr)
    FROM transaction_daily_stats GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO bill_daily_billers (day, biller_code, count, amount_usd)
  SELECT (initiated_time AT TIME ZONE zone)::date, biller_code, count(*), sum(amount_usd) FROM bill_transactions WHERE status = 'SUCCESS' GROUP BY 1, 2;
END
$$;

SELECT transaction_stats_rebuild();
