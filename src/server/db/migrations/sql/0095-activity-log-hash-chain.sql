
-- The chain: entry n (chain_seq n) carries prev_hash = hash of entry n-1 and hash = H(prev_hash, its
-- content). The chain order is chain_seq, handed out by the single-row chain head below, not the id
-- (two transactions may take ids in one order and commit in the other).
ALTER TABLE activity_logs ADD COLUMN chain_seq bigint, ADD COLUMN prev_hash text, ADD COLUMN hash text;

CREATE FUNCTION activity_log_entry_hash(prev_hash text, chain_seq bigint, id integer, level text, type text, username text,
                                        description text, before jsonb, after jsonb, created_at timestamptz)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    prev_hash, chain_seq, id, level, type, username, description, before, after,
    (extract(epoch FROM created_at) * 1000000)::bigint
  )::text, 'UTF8')), 'hex')
$$;

-- The chain head: the last entry's position and hash. Every insert locks this one row (UPDATE) in its
-- own transaction, so inserts into the log take turns until they commit and the chain never forks,
-- whatever the number of server processes. A transaction that rolls back gives its position back.
CREATE TABLE activity_log_chain (
  id integer PRIMARY KEY CHECK (id = 1),
  last_seq bigint NOT NULL,
  last_hash text NOT NULL
);

-- The existing entries, in id order, hashed once here (the insert-only trigger is lifted for this
-- migration's transaction only).
ALTER TABLE activity_logs DISABLE TRIGGER activity_logs_insert_only;
DO $$
DECLARE
  r record;
  seq bigint := 0;
  prev text := '';
  h text;
BEGIN
  FOR r IN SELECT * FROM activity_logs ORDER BY id LOOP
    seq := seq + 1;
    h := activity_log_entry_hash(prev, seq, r.id, r.level, r.type, r.username, r.description, r.before, r.after, r.created_at);
    UPDATE activity_logs SET chain_seq = seq, prev_hash = prev, hash = h WHERE id = r.id;
    prev := h;
  END LOOP;
  INSERT INTO activity_log_chain (id, last_seq, last_hash) VALUES (1, seq, prev);
END $$;
ALTER TABLE activity_logs ENABLE TRIGGER activity_logs_insert_only;

ALTER TABLE activity_logs ALTER COLUMN chain_seq SET NOT NULL, ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL;
CREATE UNIQUE INDEX activity_logs_chain_seq ON activity_logs (chain_seq);

-- Every new entry: its position and hash are computed here, in the inserting transaction, whatever
-- the client sent for them.
CREATE FUNCTION activity_logs_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head activity_log_chain%ROWTYPE;
BEGIN
  SELECT * INTO head FROM activity_log_chain WHERE id = 1 FOR UPDATE;
  NEW.chain_seq := head.last_seq + 1;
  NEW.prev_hash := head.last_hash;
  NEW.hash := activity_log_entry_hash(NEW.prev_hash, NEW.chain_seq, NEW.id, NEW.level, NEW.type, NEW.username,
                                      NEW.description, NEW.before, NEW.after, NEW.created_at);
  UPDATE activity_log_chain SET last_seq = NEW.chain_seq, last_hash = NEW.hash WHERE id = 1;
  RETURN NEW;
END $$;
CREATE TRIGGER activity_logs_chain BEFORE INSERT ON activity_logs FOR EACH ROW EXECUTE FUNCTION activity_logs_chain();

-- The head is written by the trigger only: no DELETE or TRUNCATE of it.
CREATE FUNCTION activity_log_chain_is_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity_log_chain cannot be deleted';
END $$;
CREATE TRIGGER activity_log_chain_kept BEFORE DELETE ON activity_log_chain FOR EACH ROW EXECUTE FUNCTION activity_log_chain_is_kept();
CREATE TRIGGER activity_log_chain_no_truncate BEFORE TRUNCATE ON activity_log_chain FOR EACH STATEMENT EXECUTE FUNCTION activity_log_chain_is_kept();
