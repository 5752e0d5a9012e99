
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
