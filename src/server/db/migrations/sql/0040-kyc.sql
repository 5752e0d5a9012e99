
CREATE TABLE kyc_records (
  id serial PRIMARY KEY,
  app_user_id integer NOT NULL UNIQUE REFERENCES app_users(id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  uid_type text NOT NULL,
  uid text NOT NULL,
  phone_no text NOT NULL,
  email text NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kyc_records_status ON kyc_records (status, id);
CREATE INDEX kyc_records_uid ON kyc_records (lower(uid) text_pattern_ops);
CREATE INDEX kyc_records_email ON kyc_records (lower(email) text_pattern_ops);
CREATE INDEX kyc_records_phone ON kyc_records (phone_no text_pattern_ops);

-- One row per submission of a KYC record, numbered from 1. fields is the ordered field map as a JSON
-- array of {key, title, value, approved, reason} (jsonb objects do not keep key order). The latest
-- submission is the current one; it is decided at most once (decision set with decided_by/decided_at).
CREATE TABLE kyc_submissions (
  id serial PRIMARY KEY,
  kyc_id integer NOT NULL REFERENCES kyc_records(id),
  seq integer NOT NULL CHECK (seq >= 1),
  fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'array'),
  submitted_at timestamptz NOT NULL,
  decision text CHECK (decision IN ('APPROVED', 'REJECTED')),
  decided_by text,
  decided_at timestamptz,
  CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL) = (decided_by IS NULL)),
  UNIQUE (kyc_id, seq)
);

CREATE TABLE mobile_activity_logs (
  id serial PRIMARY KEY,
  app_user_id integer NOT NULL REFERENCES app_users(id),
  device_name text NOT NULL,
  event_description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mobile_activity_logs_created_at ON mobile_activity_logs (created_at);
CREATE INDEX mobile_activity_logs_app_user ON mobile_activity_logs (app_user_id, created_at);
CREATE INDEX activity_logs_username_created ON activity_logs (lower(username), created_at);
