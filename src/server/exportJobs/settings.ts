/**
 * The settings of server export jobs (docs/exports.md), read from the environment:
 * - EXPORT_SERVER_ABOVE_ROWS (default 100000): a list with more matching rows than this is exported
 *   on the server (the console's own exports build at most this many rows in the tab);
 * - EXPORT_FILE_HOURS (default 24): how long a finished file is kept for download;
 * - EXPORT_LEASE_SECONDS (default 60): a worker that has not reported for this long is taken for dead,
 *   and its job is claimed again by another (and written from the start);
 * - EXPORT_POLL_MS (default 2000): how often an idle worker looks for a job (a new job also wakes the
 *   workers through NOTIFY at once);
 * - EXPORT_BATCH_ROWS (default 500): rows read from the database per batch (a FETCH of the job's
 *   cursor); between two batches the job stops if it was cancelled, and every 500 ms it reports its
 *   progress and renews its lease;
 * - EXPORT_QUOTA_FILES (default 5): how many finished files one user keeps; a job that finishes
 *   beyond it deletes that user's older files (those already downloaded first, then the oldest);
 * - EXPORT_QUOTA_BYTES (default 2147483648, 2 GiB): how many bytes of files one user keeps, the file
 *   being written included; a job that would pass it deletes that user's older files in the same
 *   order, and fails with a message naming the limit when its own file alone would pass it.
 * A value that is not a positive whole number (EXPORT_QUOTA_BYTES: from 1024) stops the start.
 */
import { StartupRefusal } from '../environment';

export interface ExportSettings {
  serverAboveRows: number;
  fileHours: number;
  leaseMs: number;
  pollMs: number;
  /** Rows per batch read from the database. */
  batchRows: number;
  /** How long a download link works. */
  linkTtlSeconds: number;
  /** How many finished files one user keeps (EXPORT_QUOTA_FILES). */
  quotaFiles: number;
  /** How many bytes of files one user keeps, the one being written included (EXPORT_QUOTA_BYTES). */
  quotaBytes: number;
}

export const DEFAULT_EXPORT_SETTINGS: Readonly<ExportSettings> = {
  serverAboveRows: 100_000,
  fileHours: 24,
  leaseMs: 60_000,
  pollMs: 2_000,
  batchRows: 500,
  linkTtlSeconds: 5 * 60,
  quotaFiles: 5,
  quotaBytes: 2 * 1024 ** 3,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number, min = 1): number {
  const text = (env[name] ?? '').trim();
  if (text === '') return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new StartupRefusal(`${name}: "${text}" is not a whole number from ${min} to ${max}`);
  return n;
}

export function readExportSettings(env: NodeJS.ProcessEnv = process.env): ExportSettings {
  return {
    ...DEFAULT_EXPORT_SETTINGS,
    serverAboveRows: positive(env, 'EXPORT_SERVER_ABOVE_ROWS', DEFAULT_EXPORT_SETTINGS.serverAboveRows, 99_999_999),
    fileHours: positive(env, 'EXPORT_FILE_HOURS', DEFAULT_EXPORT_SETTINGS.fileHours, 24 * 365),
    leaseMs: positive(env, 'EXPORT_LEASE_SECONDS', DEFAULT_EXPORT_SETTINGS.leaseMs / 1000, 3600) * 1000,
    pollMs: positive(env, 'EXPORT_POLL_MS', DEFAULT_EXPORT_SETTINGS.pollMs, 600_000),
    batchRows: positive(env, 'EXPORT_BATCH_ROWS', DEFAULT_EXPORT_SETTINGS.batchRows, 100_000),
    quotaFiles: positive(env, 'EXPORT_QUOTA_FILES', DEFAULT_EXPORT_SETTINGS.quotaFiles, 1000),
    quotaBytes: positive(env, 'EXPORT_QUOTA_BYTES', DEFAULT_EXPORT_SETTINGS.quotaBytes, 2 ** 50, 1024),
  };
}

/** A byte count as an operator reads it: whole GiB or MiB when it is one, else bytes (e.g. "2 GiB", "20,000 bytes"). */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
