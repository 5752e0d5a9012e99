CREATE TABLE user_write_positions (
  username text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  written_at timestamptz NOT NULL
);