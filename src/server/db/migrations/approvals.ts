import type { Migration } from '../migrations';

/**
 * The checker's workbench (ids 90..94): issue 20, first half. A decision carries the checker's
 * comment (a reject's reason); a pending request may end as WITHDRAWN (by its maker) or EXPIRED
 * (older than CHANGE_REQUEST_EXPIRY_DAYS); the maker's own requests and the pending ones by age are
 * indexed; every change of a request's status is announced on the channel `change_requests` (NOTIFY),
 * which feeds the console's live counts on every server process.
 */
export const approvalsMigrations: readonly Migration[] = [
  {
    id: 90,
    name: 'approvals: decision comments, withdrawn and expired requests, the maker and age indexes',
    sql: `
ALTER TABLE change_requests DROP CONSTRAINT change_requests_status_check;
ALTER TABLE change_requests ADD CONSTRAINT change_requests_status_check
  CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN', 'EXPIRED'));
ALTER TABLE change_requests ADD COLUMN decision_comment text
  CHECK (decision_comment IS NULL OR char_length(decision_comment) BETWEEN 1 AND 200);
CREATE INDEX change_requests_maker ON change_requests (lower(requested_by), id);
CREATE INDEX change_requests_pending_age ON change_requests (requested_at) WHERE status = 'PENDING';
`,
  },
  {
    id: 91,
    name: 'approvals: NOTIFY change_requests on every new request and every change of status',
    sql: `
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
`,
  },
];
