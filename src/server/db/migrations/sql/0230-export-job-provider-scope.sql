-- The provider scope a server export job's rows were read under (src/server/providerScope.ts), so a
-- download link checks that the person asking may see them: '*' every provider's rows, a provider's
-- bank code that provider's only; NULL a job written before this was recorded (only a user who sees
-- every provider's rows may download it).
ALTER TABLE export_jobs ADD COLUMN provider_scope text;
