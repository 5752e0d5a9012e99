-- Four eyes by account, not by name: every change request (money-action requests included) records the
-- account id of its maker and of its decider beside the names they had then. The names stay as they
-- were written (what the console shows); every "is this your own request?" question compares the ids.
-- No foreign key: an account removed later keeps its place in the history (ids are never reused).
ALTER TABLE change_requests ADD COLUMN requested_by_id integer, ADD COLUMN decided_by_id integer;

-- Existing requests: the account that has the name now. A name no account has any more stays without
-- an id: no account is its maker, so nobody can approve it (it can be rejected, and it expires).
UPDATE change_requests c SET requested_by_id = u.id FROM console_users u WHERE lower(u.username) = lower(c.requested_by);
UPDATE change_requests c SET decided_by_id = u.id FROM console_users u WHERE c.decided_by IS NOT NULL AND lower(u.username) = lower(c.decided_by);

-- My requests, and the pending requests a maker has (the per-maker limit)
CREATE INDEX change_requests_maker_id ON change_requests (requested_by_id, id);
CREATE INDEX change_requests_pending_maker ON change_requests (requested_by_id, entity_type) WHERE status = 'PENDING';
