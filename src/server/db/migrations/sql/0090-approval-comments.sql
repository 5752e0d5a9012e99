
ALTER TABLE change_requests DROP CONSTRAINT change_requests_status_check;
ALTER TABLE change_requests ADD CONSTRAINT change_requests_status_check
  CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN', 'EXPIRED'));
ALTER TABLE change_requests ADD COLUMN decision_comment text
  CHECK (decision_comment IS NULL OR char_length(decision_comment) BETWEEN 1 AND 200);
CREATE INDEX change_requests_maker ON change_requests (lower(requested_by), id);
CREATE INDEX change_requests_pending_age ON change_requests (requested_at) WHERE status = 'PENDING';
