
CREATE TABLE login_address_failures (
  address text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL
);
CREATE INDEX login_address_failures_window ON login_address_failures (window_started_at);
