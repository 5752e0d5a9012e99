import type { Migration } from '../migrations';

/**
 * Master data (ids 10..19): IPG provider currencies and the days their rates were approved,
 * advertisements and app versions (10); change requests' display maps as json, keeping field order (11). Banks, IPG providers, app users and images already exist
 * (migrations 1 and 2).
 *
 * - `ipg_provider_currencies`: a provider's currencies with the transaction and settlement rates
 *   (numeric, 4 decimals, up to 9999999999.9999). A change request on the list locks the provider row.
 * - `ipg_provider_rate_approvals`: one row per approved currency-list change, with the local day it
 *   was approved on; "today's rates are updated" means a row for today exists (`ratesUpdatedOn`).
 * - `advertisements`: countries (jsonb list of codes, 'ALL' = every country), validity days, and up
 *   to five images (jsonb list of {image: stored path, link}).
 * - `app_versions`: `app_version` is the text major.minor.patch+build (`version` is the row's change
 *   counter, as on every maker-checker table).
 */
export const masterDataMigrations: readonly Migration[] = [
  {
    id: 10,
    name: 'master data: provider currencies, rate approvals, advertisements, app versions',
    sql: `
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
`,
  },
  {
    id: 11,
    name: 'change requests keep the order of the fields they display',
    // jsonb stores object keys sorted by length, so an approval view showed its fields (and the columns
    // of a currency table) scrambled; json keeps the text as written. Nothing queries inside them.
    sql: `
ALTER TABLE change_requests ALTER COLUMN new_record TYPE json USING new_record::json;
ALTER TABLE change_requests ALTER COLUMN original_record TYPE json USING original_record::json;
`,
  },
];
