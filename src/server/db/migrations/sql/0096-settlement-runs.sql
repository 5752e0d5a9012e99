
-- src/server/settlementSchedule.ts: the day's scheduled generation, its outcome and message. Keyed by
-- the day, so that however many server processes look, one run is recorded per day.
CREATE TABLE settlement_schedule_runs (
  batch_date date PRIMARY KEY,
  outcome text NOT NULL CHECK (outcome IN ('GENERATED', 'REFUSED')),
  message text NOT NULL,
  batch_id integer REFERENCES settlement_batches(id),
  ran_at timestamptz NOT NULL
);
