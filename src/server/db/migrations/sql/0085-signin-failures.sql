
CREATE TABLE login_address_attempts (
  username_lower text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_success_at timestamptz,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (username_lower, address)
);
CREATE INDEX login_address_attempts_updated_at ON login_address_attempts (updated_at);

ALTER TABLE login_attempts ADD COLUMN next_check_at timestamptz;

CREATE TABLE sign_in_failure_notices (
  username_lower text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL
);
