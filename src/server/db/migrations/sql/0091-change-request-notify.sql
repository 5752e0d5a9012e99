
CREATE FUNCTION change_requests_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('change_requests', NEW.entity_type);
  RETURN NULL;
END
$$;
CREATE TRIGGER change_requests_announce_insert AFTER INSERT ON change_requests
  FOR EACH ROW EXECUTE FUNCTION change_requests_announce();
CREATE TRIGGER change_requests_announce_status AFTER UPDATE OF status ON change_requests
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION change_requests_announce();
