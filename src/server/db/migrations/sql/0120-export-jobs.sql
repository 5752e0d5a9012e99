
CREATE TABLE export_jobs (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES console_users(id) ON DELETE CASCADE,
  username text NOT NULL,
  call_path text NOT NULL,
  request jsonb NOT NULL,
  format text NOT NULL CHECK (format IN ('xlsx', 'csv', 'pdf')),
  title text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled', 'expired')),
  rows_total integer,
  rows_written integer NOT NULL DEFAULT 0,
  message text,
  file_name text,
  file_bytes bigint,
  mime text,
  attempts integer NOT NULL DEFAULT 0,
  worker_id text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz,
  downloaded_at timestamptz
);
-- at most one queued or running job per user, whatever two requests at once do
CREATE UNIQUE INDEX export_jobs_one_active_per_user ON export_jobs (user_id) WHERE state IN ('queued', 'running');
-- the workers' claim: the queued jobs in order, and the running ones whose lease may have run out
CREATE INDEX export_jobs_claimable ON export_jobs (id) WHERE state IN ('queued', 'running');
CREATE INDEX export_jobs_user_latest ON export_jobs (user_id, id DESC);

CREATE TABLE export_job_chunks (
  job_id integer NOT NULL REFERENCES export_jobs(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (job_id, seq)
);
