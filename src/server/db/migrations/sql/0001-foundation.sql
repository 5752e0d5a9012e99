
CREATE TABLE user_levels (
  id serial PRIMARY KEY,
  level integer NOT NULL UNIQUE,
  title text NOT NULL
);

CREATE TABLE roles (
  id serial PRIMARY KEY,
  role_name text NOT NULL,
  user_type text NOT NULL,
  user_level integer NOT NULL REFERENCES user_levels(id),
  permissions jsonb NOT NULL DEFAULT '[]'::jsonb,
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_role_name_lower ON roles (lower(role_name));

CREATE TABLE branches (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  disabled integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE exchange_houses (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  disabled integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE merchants (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  disabled integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ipg_providers (
  id serial PRIMARY KEY,
  provider_bank_code text NOT NULL UNIQUE,
  provider_bank_name text NOT NULL,
  provider_logo text,
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE banks (
  id serial PRIMARY KEY,
  bank_code text NOT NULL UNIQUE,
  bank_name text NOT NULL,
  logo text,
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE console_users (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  contact text NOT NULL,
  username text NOT NULL,
  user_type text NOT NULL,
  branch_code text NOT NULL,
  role_id integer NOT NULL REFERENCES roles(id),
  disabled integer NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  locked integer NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
  version integer NOT NULL DEFAULT 1,
  password_hash text NOT NULL,
  session_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX console_users_username_lower ON console_users (lower(username));

CREATE TABLE change_requests (
  id serial PRIMARY KEY,
  entity_type text NOT NULL,
  record_id integer,
  action text NOT NULL CHECK (action IN ('CREATE', 'EDIT', 'DELETE')),
  new_record jsonb NOT NULL,
  original_record jsonb,
  payload jsonb NOT NULL,
  record_version integer,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  decided_by text,
  decided_at timestamptz
);
CREATE INDEX change_requests_pending ON change_requests (entity_type, id) WHERE status = 'PENDING';

CREATE TABLE activity_logs (
  id serial PRIMARY KEY,
  level text NOT NULL,
  type text NOT NULL,
  username text NOT NULL,
  description text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_logs_created_at ON activity_logs (created_at);

CREATE FUNCTION activity_logs_are_insert_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity_logs is insert-only';
END
$$;
CREATE TRIGGER activity_logs_insert_only BEFORE UPDATE OR DELETE ON activity_logs
  FOR EACH ROW EXECUTE FUNCTION activity_logs_are_insert_only();

CREATE TABLE login_attempts (
  username_lower text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);

CREATE TABLE app_settings (
  key text PRIMARY KEY,
  value text NOT NULL
);
