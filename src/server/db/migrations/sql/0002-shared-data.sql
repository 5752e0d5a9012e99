
CREATE TABLE countries (
  code text PRIMARY KEY,
  name text NOT NULL,
  dial_code text NOT NULL DEFAULT '',
  currency_code text NOT NULL DEFAULT ''
);

CREATE TABLE app_users (
  id serial PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  uid_type text NOT NULL,
  uid text NOT NULL,
  contact text NOT NULL,
  email text NOT NULL,
  country text NOT NULL REFERENCES countries(code),
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  hold integer NOT NULL DEFAULT 0 CHECK (hold IN (0, 1)),
  user_hold_reason text,
  selfie text,
  uid_front text,
  uid_back text,
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_users_country ON app_users (country);
CREATE INDEX app_users_created_at ON app_users (created_at);
CREATE INDEX app_users_uid ON app_users (uid text_pattern_ops);
CREATE INDEX app_users_email ON app_users (lower(email) text_pattern_ops);
CREATE INDEX app_users_contact ON app_users (contact text_pattern_ops);

CREATE TABLE beneficiaries (
  id serial PRIMARY KEY,
  app_user_id integer NOT NULL REFERENCES app_users(id),
  name text NOT NULL,
  bank_code text NOT NULL,
  account_number text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX beneficiaries_app_user ON beneficiaries (app_user_id);
CREATE INDEX beneficiaries_created_at ON beneficiaries (created_at);

CREATE TABLE images (
  path text PRIMARY KEY,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/svg+xml')),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
