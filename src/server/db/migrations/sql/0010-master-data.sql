
CREATE TABLE ipg_provider_currencies (
  id serial PRIMARY KEY,
  provider_id integer NOT NULL REFERENCES ipg_providers(id),
  currency_code text NOT NULL CHECK (currency_code ~ '^[A-Z]{3}$'),
  transaction_rate numeric(14, 4) NOT NULL CHECK (transaction_rate >= 0.0001 AND transaction_rate <= 9999999999),
  settlement_rate numeric(14, 4) NOT NULL CHECK (settlement_rate >= 0 AND settlement_rate <= 9999999999),
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider_id, currency_code)
);

CREATE TABLE ipg_provider_rate_approvals (
  id serial PRIMARY KEY,
  provider_id integer NOT NULL REFERENCES ipg_providers(id),
  rate_date date NOT NULL,
  change_request_id integer,
  approved_by text NOT NULL,
  approved_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ipg_provider_rate_approvals_day ON ipg_provider_rate_approvals (provider_id, rate_date);

CREATE TABLE advertisements (
  id serial PRIMARY KEY,
  title text NOT NULL,
  countries jsonb NOT NULL DEFAULT '[]'::jsonb,
  valid_from date NOT NULL,
  valid_to date NOT NULL,
  images jsonb NOT NULL DEFAULT '[]'::jsonb,
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (valid_to >= valid_from)
);

CREATE TABLE app_versions (
  id serial PRIMARY KEY,
  app_version text NOT NULL UNIQUE,
  platforms jsonb NOT NULL DEFAULT '[]'::jsonb,
  force_update integer NOT NULL DEFAULT 0 CHECK (force_update IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
