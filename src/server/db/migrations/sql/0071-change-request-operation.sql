
ALTER TABLE change_requests ADD COLUMN operation text CHECK (operation IS NULL OR (action = 'EDIT' AND record_id IS NOT NULL));
