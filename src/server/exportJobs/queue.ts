/**
 * The export job queue, in the database (table export_jobs, migration 120), so any server process
 * runs any job: a worker claims the oldest queued job (or a running one whose lease ran out: its
 * worker died) with SELECT ... FOR UPDATE SKIP LOCKED, under a claim token of its own, and renews the
 * lease as it writes. Every write of a worker names its token and requires the job still running, so a
 * worker that lost its job (cancelled, or claimed again after its lease ran out) stops at its next
 * batch and can no longer touch the file.
 */
import { randomUUID } from 'node:crypto';
import type { ExportFormat, ExportJobState, ExportJobView } from '../../api/exportJobs';
import type { Db } from '../db/db';

export interface ExportJobRow {
  id: number;
  user_id: number;
  username: string;
  call_path: string;
  request: unknown;
  /** The columns (data keys) the file has, in order; null: every column of the list's exports. */
  columns: string[] | null;
  format: ExportFormat;
  title: string;
  state: ExportJobState;
  rows_total: number | null;
  rows_written: number;
  message: string | null;
  file_name: string | null;
  file_bytes: number | null;
  mime: string | null;
  attempts: number;
  worker_id: string | null;
  lease_until: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  downloaded_at: Date | null;
  /** The provider scope its rows were read under: '*' every provider's, else a provider's bank code; null: not recorded (a job older than migration 230). */
  provider_scope: string | null;
}

/** A job claimed this many times without finishing fails instead of being tried again. */
export const MAX_ATTEMPTS = 3;

export const ACTIVE_STATES: readonly ExportJobState[] = ['queued', 'running'];

export function jobView(r: ExportJobRow): ExportJobView {
  const total = r.rows_total;
  const percent = r.state === 'done' ? 100 : total ? Math.min(99, Math.floor((100 * r.rows_written) / total)) : 0;
  return {
    id: r.id,
    username: r.username,
    call: r.call_path,
    format: r.format,
    title: r.title,
    state: r.state,
    rowsWritten: r.rows_written,
    rowsTotal: total,
    percent,
    message: r.message,
    fileName: r.file_name,
    fileBytes: r.file_bytes === null ? null : Number(r.file_bytes),
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
  };
}

export interface NewJob {
  userId: number;
  username: string;
  callPath: string;
  request: unknown;
  columns?: readonly string[];
  format: ExportFormat;
  title: string;
  rowsTotal: number;
}

/** Queues a job; undefined when the user has one queued or running already (the unique index decides). */
export async function enqueueJob(db: Db, job: NewJob, now: Date): Promise<ExportJobRow | undefined> {
  const row = await db.one<ExportJobRow>(
    `INSERT INTO export_jobs (user_id, username, call_path, request, format, title, rows_total, created_at, columns)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (user_id) WHERE state IN ('queued', 'running') DO NOTHING
     RETURNING *`,
    [job.userId, job.username, job.callPath, job.request, job.format, job.title, job.rowsTotal, now, job.columns ?? null],
  );
  if (row) await db.query(`SELECT pg_notify('export_jobs', $1)`, [String(row.id)]).catch(() => {});
  return row;
}

export async function activeJobOf(db: Db, userId: number): Promise<ExportJobRow | undefined> {
  return db.one<ExportJobRow>(`SELECT * FROM export_jobs WHERE user_id = $1 AND state IN ('queued', 'running') ORDER BY id DESC LIMIT 1`, [userId]);
}

export async function jobById(db: Db, id: number): Promise<ExportJobRow | undefined> {
  return db.one<ExportJobRow>('SELECT * FROM export_jobs WHERE id = $1', [id]);
}

/** The job a user's console follows: queued or running, else the last finished one not yet downloaded (file still kept). */
export async function currentJobOf(db: Db, userId: number, now: Date): Promise<ExportJobRow | undefined> {
  return db.one<ExportJobRow>(
    `SELECT * FROM export_jobs
      WHERE user_id = $1
        AND (state IN ('queued', 'running') OR (state = 'done' AND downloaded_at IS NULL AND expires_at > $2))
      ORDER BY id DESC LIMIT 1`,
    [userId, now],
  );
}

export interface Claim {
  job: ExportJobRow;
  /** This claim's token: every later write of the worker names it. */
  token: string;
}

/**
 * Claims the oldest job that is queued, or running with its lease run out (its worker died: the job
 * is written again from the start, its old chunks deleted). Undefined when there is none.
 */
export async function claimJob(db: Db, now: Date, leaseMs: number): Promise<Claim | undefined> {
  const token = randomUUID();
  const job = await db.tx(async (tx) => {
    const claimed = await tx.one<ExportJobRow>(
      `WITH next AS (
         SELECT id FROM export_jobs
          WHERE state = 'queued' OR (state = 'running' AND lease_until < $2)
          ORDER BY id
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
       UPDATE export_jobs j
          SET state = 'running', worker_id = $1, lease_until = $3, attempts = j.attempts + 1,
              started_at = $2, rows_written = 0, message = NULL
         FROM next WHERE j.id = next.id
       RETURNING j.*`,
      [token, now, new Date(now.getTime() + leaseMs)],
    );
    if (claimed) await tx.query('DELETE FROM export_job_chunks WHERE job_id = $1', [claimed.id]);
    return claimed;
  });
  return job ? { job, token } : undefined;
}

/**
 * Reports progress and renews the lease; false when the job is no longer this claim's (cancelled, or
 * claimed by another worker after this one's lease ran out): the worker must stop.
 */
export async function heartbeat(db: Db, claim: Claim, rowsWritten: number, rowsTotal: number | null, now: Date, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE export_jobs SET rows_written = $3, rows_total = coalesce($4, rows_total), lease_until = $5
      WHERE id = $1 AND worker_id = $2 AND state = 'running' RETURNING id`,
    [claim.job.id, claim.token, rowsWritten, rowsTotal, new Date(now.getTime() + leaseMs)],
  );
  return rows.length === 1;
}

/** Stores one chunk of the file; false when the job is no longer this claim's. */
export async function storeChunk(db: Db, claim: Claim, seq: number, bytes: Uint8Array): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO export_job_chunks (job_id, seq, bytes)
     SELECT $1, $3, $4 WHERE EXISTS (SELECT 1 FROM export_jobs WHERE id = $1 AND worker_id = $2 AND state = 'running')
     RETURNING seq`,
    [claim.job.id, claim.token, seq, bytes],
  );
  return rows.length === 1;
}

/** Marks the job done (in the caller's transaction); undefined when it is no longer this claim's. */
export async function markDone(db: Db, claim: Claim, file: { name: string; bytes: number; mime: string; rows: number }, now: Date, fileHours: number): Promise<ExportJobRow | undefined> {
  return db.one<ExportJobRow>(
    `UPDATE export_jobs SET state = 'done', file_name = $3, file_bytes = $4, mime = $5, rows_written = $6, rows_total = $6,
            finished_at = $7, expires_at = $8, lease_until = NULL
      WHERE id = $1 AND worker_id = $2 AND state = 'running' RETURNING *`,
    [claim.job.id, claim.token, file.name, file.bytes, file.mime, file.rows, now, new Date(now.getTime() + fileHours * 3_600_000)],
  );
}

/** Marks the job failed with a message for its owner, and drops what was written. */
export async function markFailed(db: Db, claim: Claim, message: string, now: Date): Promise<void> {
  await db.query(`UPDATE export_jobs SET state = 'failed', message = $3, finished_at = $4, lease_until = NULL WHERE id = $1 AND worker_id = $2 AND state = 'running'`, [
    claim.job.id,
    claim.token,
    message,
    now,
  ]);
  await dropChunksOf(db, claim.job.id);
}

export async function dropChunksOf(db: Db, jobId: number): Promise<void> {
  await db.query(`DELETE FROM export_job_chunks WHERE job_id = $1 AND EXISTS (SELECT 1 FROM export_jobs WHERE id = $1 AND state <> 'running')`, [jobId]);
}

/** Cancels a queued or running job; undefined when it was not (any longer) either. */
export async function cancelJob(db: Db, id: number, now: Date): Promise<ExportJobRow | undefined> {
  const row = await db.one<ExportJobRow>(`UPDATE export_jobs SET state = 'cancelled', finished_at = $2, lease_until = NULL WHERE id = $1 AND state IN ('queued', 'running') RETURNING *`, [id, now]);
  if (row) await dropChunksOf(db, id);
  return row;
}

/** Done jobs past their expiry become 'expired' and their files are deleted. Returns how many. */
export async function expireFiles(db: Db, now: Date): Promise<number> {
  const rows = await db.query<{ id: number }>(`UPDATE export_jobs SET state = 'expired' WHERE state = 'done' AND expires_at <= $1 RETURNING id`, [now]);
  for (const r of rows) await dropChunksOf(db, r.id);
  return rows.length;
}

/** A job a claim that failed a run cannot finish, after MAX_ATTEMPTS claims: failed for good. */
export async function failWornOut(db: Db, claim: Claim, now: Date): Promise<boolean> {
  if (claim.job.attempts <= MAX_ATTEMPTS) return false;
  await markFailed(db, claim, `The export was interrupted ${MAX_ATTEMPTS} times (a server stopped while writing it): start it again.`, now);
  return true;
}

/** The provider scope stored on a job: EVERY_PROVIDER for every provider's rows, else the provider's bank code. */
export const EVERY_PROVIDER = '*';

/** Records the provider scope the job's rows are read under (the owner's as the job runs); false when the job is no longer this claim's. */
export async function recordScope(db: Db, claim: Claim, scope: string | undefined): Promise<boolean> {
  const rows = await db.query(`UPDATE export_jobs SET provider_scope = $3 WHERE id = $1 AND worker_id = $2 AND state = 'running' RETURNING id`, [claim.job.id, claim.token, scope ?? EVERY_PROVIDER]);
  return rows.length === 1;
}

/**
 * The order in which the quota deletes a user's kept files: those already downloaded (a link was
 * asked for) first, then the oldest.
 */
const QUOTA_ORDER = `(downloaded_at IS NULL), finished_at, id`;
/** QUOTA_ORDER reversed: the files the quota spares first. */
const KEEP_ORDER = `(downloaded_at IS NULL) DESC, finished_at DESC, id DESC`;

/** How many bytes of finished files the user keeps, besides job `exceptJobId`'s. */
export async function keptBytesOf(db: Db, userId: number, exceptJobId: number): Promise<number> {
  const row = await db.one<{ n: string | number | null }>(`SELECT coalesce(sum(file_bytes), 0) AS n FROM export_jobs WHERE user_id = $1 AND state = 'done' AND id <> $2`, [userId, exceptJobId]);
  return Number(row?.n ?? 0);
}

/**
 * Deletes the user's kept files (but job `exceptJobId`'s) beyond the `keep` the quota spares (in
 * QUOTA_ORDER): each becomes 'expired' with `message` (its download link then answers 410 with it) and
 * its chunks are dropped. The deleted jobs, with their sizes.
 */
export async function trimKeptFiles(db: Db, userId: number, exceptJobId: number, keep: number, message: string): Promise<{ id: number; bytes: number }[]> {
  const rows = await db.query<{ id: number; file_bytes: string | number | null }>(
    `UPDATE export_jobs SET state = 'expired', message = $4
      WHERE id IN (SELECT id FROM export_jobs WHERE user_id = $1 AND state = 'done' AND id <> $2
                    ORDER BY ${KEEP_ORDER}
                   OFFSET $3)
        AND state = 'done'
    RETURNING id, file_bytes`,
    [userId, exceptJobId, Math.max(0, keep), message],
  );
  for (const r of rows) await dropChunksOf(db, r.id);
  return rows.map((r) => ({ id: r.id, bytes: Number(r.file_bytes ?? 0) }));
}

/** Deletes the user's first kept file in QUOTA_ORDER (but job `exceptJobId`'s), as trimKeptFiles does; undefined when none is left. */
export async function dropFirstKeptFile(db: Db, userId: number, exceptJobId: number, message: string): Promise<{ id: number; bytes: number } | undefined> {
  const row = await db.one<{ id: number; file_bytes: string | number | null }>(
    `UPDATE export_jobs SET state = 'expired', message = $3
      WHERE id = (SELECT id FROM export_jobs WHERE user_id = $1 AND state = 'done' AND id <> $2 ORDER BY ${QUOTA_ORDER} LIMIT 1)
        AND state = 'done'
    RETURNING id, file_bytes`,
    [userId, exceptJobId, message],
  );
  if (!row) return undefined;
  await dropChunksOf(db, row.id);
  return { id: row.id, bytes: Number(row.file_bytes ?? 0) };
}
