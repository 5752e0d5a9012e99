import type { Migration } from '../migrations';

/**
 * Sign-in and sessions (ids 85..89): issue 15. Failures are also counted per (username, client
 * address), so a lock set from one address does not stop the owner elsewhere; the username-wide
 * counter (login_attempts) gains the back-off slot that addresses without a lock of their own share;
 * the owner is told at the next sign-in how many failures there were; every sign-in is a session
 * with an absolute lifetime whose current token alone is accepted.
 */
export const signinMigrations: readonly Migration[] = [
  {
    id: 85,
    name: 'sign-in: failures per (username, client address), the username-wide back-off slot and the failures to tell the owner about',
    sql: `
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
`,
  },
  {
    id: 86,
    name: 'sign-in: one row per session (absolute lifetime, the current token and the one it replaced, for a few seconds)',
    sql: `
CREATE TABLE console_sessions (
  id text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  token_id text NOT NULL,
  previous_token_id text,
  previous_valid_until timestamptz,
  ended_at timestamptz
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);
CREATE INDEX console_sessions_expires_at ON console_sessions (expires_at);
`,
  },
];
