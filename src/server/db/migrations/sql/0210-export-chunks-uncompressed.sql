-- Server export files are stored as they are written (issue 22). A chunk of an export file is 1 MB;
-- PostgreSQL compressed each one with its own pglz as it stored it (TOAST's default), which for a
-- .csv of 1,000,000 rows (184 MB) took about 4.8 s of the database's CPU, a core for the length of the
-- job beside the query that reads the rows, and slowed the other calls meanwhile. An .xlsx chunk is
-- compressed already (pglz gives up on it). Stored out of line without compression: the CSV takes
-- twice the room it took until its file expires (EXPORT_FILE_HOURS), and storing it costs a quarter.
ALTER TABLE export_job_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
