
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
