
ALTER TABLE change_requests ALTER COLUMN new_record TYPE json USING new_record::json;
ALTER TABLE change_requests ALTER COLUMN original_record TYPE json USING original_record::json;
