import type { Migration } from '../migrations';

/**
 * Hardening (ids 50..59): the activity log cannot be truncated either (UPDATE and DELETE were refused
 * from the start), failed sign-ins are counted per client address, and a user's tokens die with their
 * password or their activation, whichever code path changes it.
 */
export const hardeningMigrations: readonly Migration[] = [
  {
    id: 50,
    name: 'hardening: the activity log refuses TRUNCATE as it refuses UPDATE and DELETE',
    sql: `
CREATE TRIGGER activity_logs_no_truncate BEFORE TRUNCATE ON activity_logs
  FOR EACH STATEMENT EXECUTE FUNCTION activity_logs_are_insert_only();
`,
  },
  {
    id: 51,
    name: 'hardening: failed sign-ins per client address (the sign-in limiter), shared by every server process',
    sql: `
CREATE TABLE login_address_failures (
  address text PRIMARY KEY,
  failures integer NOT NULL,
  window_started_at timestamptz NOT NULL
);
CREATE INDEX login_address_failures_window ON login_address_failures (window_started_at);
`,
  },
  {
    id: 52,
    name: "hardening: a new password or a deactivation revokes the user's tokens (session_version bumped)",
    sql: `
CREATE FUNCTION console_users_revoke_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.session_version = OLD.session_version
     AND (NEW.password_hash IS DISTINCT FROM OLD.password_hash OR (NEW.disabled <> 0 AND OLD.disabled = 0)) THEN
    NEW.session_version := OLD.session_version + 1;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER console_users_revoke_sessions BEFORE UPDATE ON console_users
  FOR EACH ROW EXECUTE FUNCTION console_users_revoke_sessions();
`,
  },
];
