-- A server export job may write only some of its list's columns (the data keys, in the file's order);
-- NULL: every column of the list's exports.
ALTER TABLE export_jobs ADD COLUMN columns jsonb;
