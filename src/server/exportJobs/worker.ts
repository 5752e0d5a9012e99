/**
 * The export worker of a server process: looks for a job (at once when a job is queued, through
 * NOTIFY export_jobs; else every EXPORT_POLL_MS), claims it (./queue.ts), checks again that its owner
 * may still read the list (an account disabled or a permission withdrawn since the start fails the
 * job), reads the rows as the list call does for that user (./sources.ts), writes the file
 * (./writers.ts) into the database chunk by chunk, reporting its progress and renewing its lease every
 * HEARTBEAT_MS between batches, and writes
 * the finished export to the activity log with its row count. One job at a time per process.
 */
import type { ExportFormat } from '../../api/exportJobs';
import { PDF_MAX_ROWS } from '../../definitions/exportLimits';
import { exportFileName } from '../../formats/cells';
import { writeActivity } from '../activityLog';
import { loadSessionUser } from '../auth/sessionUser';
import type { Db } from '../db/db';
import { makeCtx, type AuthServices } from '../http/handle';
import { HttpError } from '../http/httpError';
import { providerScopeOf } from '../providerScope';
import { claimJob, dropFirstKeptFile, expireFiles, failWornOut, heartbeat, keptBytesOf, markDone, markFailed, recordScope, storeChunk, trimKeptFiles, type Claim } from './queue';
import { bytesText, type ExportSettings } from './settings';
import { assertMayList, contractOf, durationOfBody, exportableListOf, exportsOf, listBodyOf, openSource, type ListSource } from './sources';
import { EXPORT_MIME } from './writers';
import { createThreadWriter, type ThreadWriter } from './threadWriter';

export interface WorkerDeps {
  db: Db;
  /** Where the rows are read (the replica while it is well, src/server/db/readRouting.ts); default `db`. */
  readDb?: Db;
  clock: () => Date;
  businessTimeZone: string;
  settings: ExportSettings;
  /** Rows per xlsx sheet (tests). */
  sheetRows?: number;
  log?: { warn(obj: unknown, msg: string): void; info?(obj: unknown, msg: string): void };
  /**
   * The services a list call's handler may use (signing image links of the app-user list): the lists
   * other than the transaction lists are read through their handlers, run as the job's owner.
   */
  auth: AuthServices;
  /** True once the process is stopping: the job stops at its next batch (its lease runs out, another process takes it). */
  stopping?: () => boolean;
  /** The API calls this process is answering now (../http/callsInFlight.ts): a job gives way to them between batches and before storing a chunk of its file. */
  callsInFlight?: () => number;
  /** Told the size of each chunk of a file once it is stored (the metrics' remit_export_bytes_written_total). */
  onBytesWritten?: (bytes: number) => void;
}

/** The user as they are now (current role and permissions), or undefined when they may no longer act. */
async function currentUser(db: Db, userId: number) {
  const row = await db.one<{ session_version: number }>('SELECT session_version FROM console_users WHERE id = $1', [userId]);
  return row ? loadSessionUser(db, userId, row.session_version) : undefined;
}

/** How often a running job reports its progress (and renews its lease). */
const HEARTBEAT_MS = 500;

/** Why a job stopped without a file. */
class Stopped extends Error {}

/** Lets the server answer other calls between two batches. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The longest a job waits, each time it gives way, for the process's calls to be answered. */
const GIVE_WAY_MAX_MS = 40;

/**
 * Waits (up to GIVE_WAY_MAX_MS, so a steady stream of calls slows a job but never stops it) while the
 * process answers a call: the job's next batch is not asked of the database meanwhile, so the call's
 * statements do not share the cores with the job's query (the file's thread runs at a lower priority).
 */
async function giveWay(callsInFlight: (() => number) | undefined): Promise<void> {
  if (!callsInFlight) return;
  const until = performance.now() + GIVE_WAY_MAX_MS;
  while (callsInFlight() > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Why a file the quota deleted is gone (its job's message; its download link answers 410 with it). */
export function replacedMessage(jobId: number, settings: ExportSettings): string {
  return `This file was deleted to make room for your newer export (job ${jobId}): each user keeps at most ${settings.quotaFiles} export file${settings.quotaFiles === 1 ? '' : 's'} (EXPORT_QUOTA_FILES) and ${bytesText(settings.quotaBytes)} of them (EXPORT_QUOTA_BYTES), those already downloaded and then the oldest deleted first`;
}

/** Why a job whose own file passed the byte quota failed. */
export function overQuotaMessage(settings: ExportSettings): string {
  return `The file passed the export quota of ${bytesText(settings.quotaBytes)} per user (EXPORT_QUOTA_BYTES) before it was finished: export fewer rows or columns, or as Excel (.xlsx is compressed)`;
}

/** Runs one claimed job to its end: done, failed, or stopped (cancelled / claimed by another worker). */
export async function runClaim(deps: WorkerDeps, claim: Claim): Promise<'done' | 'failed' | 'stopped'> {
  const { db, clock, settings } = deps;
  const { job } = claim;
  if (await failWornOut(db, claim, clock())) return 'failed';
  let writer: ThreadWriter | undefined;
  let source: ListSource | undefined;
  try {
    const list = exportableListOf(job.call_path);
    const user = await currentUser(db, job.user_id);
    if (!user) throw new HttpError(403, 'Your account can no longer export: it is disabled or was removed');
    assertMayList(list, user);
    const body = listBodyOf(list, job.request);
    // the list call's context for the owner as they are now (reads on the replica while it is well)
    source = await openSource(list, body, makeCtx(db, user, clock, deps.auth, deps.businessTimeZone, undefined, undefined, deps.readDb ?? db), job.columns);
    if (job.format === 'pdf' && source.total > PDF_MAX_ROWS) throw new HttpError(422, `A PDF of ${source.total} rows is too long to read (at most ${PDF_MAX_ROWS}): export it as Excel or CSV`);
    // the scope the rows are read under: a download link is given only to who may see rows of it
    if (!(await recordScope(db, claim, await providerScopeOf(db, user)))) throw new Stopped();
    if (!(await heartbeat(db, claim, 0, source.total, clock(), settings.leaseMs))) throw new Stopped();

    const { title, fileBase } = exportsOf(list);
    const fileCtx = { title, fileBase, username: job.username, now: job.created_at, duration: durationOfBody(list, body), timeZone: deps.businessTimeZone };
    let seq = 0;
    let bytes = 0;
    const replaced = replacedMessage(job.id, settings);
    // the owner's other kept files count towards the byte quota with this one
    let kept = await keptBytesOf(db, job.user_id, job.id);
    writer = createThreadWriter({ format: job.format as ExportFormat, fields: source.fields, itemFields: source.itemFields, ctx: fileCtx, sheetRows: deps.sheetRows }, source, async (chunk) => {
      // a chunk (1 MB) is stored between the process's calls too
      await giveWay(deps.callsInFlight);
      // within the byte quota: the owner's older files make room, else the job stops here
      while (kept + bytes + chunk.byteLength > settings.quotaBytes) {
        if (!(await dropFirstKeptFile(db, job.user_id, job.id, replaced))) throw new HttpError(422, overQuotaMessage(settings));
        kept = await keptBytesOf(db, job.user_id, job.id);
      }
      if (!(await storeChunk(db, claim, seq++, chunk))) throw new Stopped();
      bytes += chunk.byteLength;
      deps.onBytesWritten?.(chunk.byteLength);
    });
    let written = 0;
    let reported = performance.now();
    for await (const batch of source.batches(settings.batchRows)) {
      await writer.addRows(batch);
      written += batch.rows;
      if (deps.stopping?.()) throw new Stopped();
      // the progress and the lease, at most every HEARTBEAT_MS (a cancelled or lost job stops there)
      if (performance.now() - reported >= HEARTBEAT_MS) {
        if (!(await heartbeat(db, claim, written, null, clock(), settings.leaseMs))) throw new Stopped();
        reported = performance.now();
      }
      await breathe();
      await giveWay(deps.callsInFlight);
    }
    await source.close();
    await writer.finish();
    const fileName = exportFileName(fileCtx, job.format);
    const done = await db.tx(async (tx) => {
      const row = await markDone(tx, claim, { name: fileName, bytes, mime: EXPORT_MIME[job.format], rows: written }, clock(), settings.fileHours);
      if (!row) return undefined;
      // within the file quota: the owner keeps this file and at most quotaFiles - 1 others
      await trimKeptFiles(tx, job.user_id, job.id, settings.quotaFiles - 1, replaced);
      await writeActivity(
        tx,
        {
          type: 'EXPORT',
          username: job.username,
          description: `Exported ${written} row${written === 1 ? '' : 's'} of ${title} as ${fileName} (server export job ${job.id})`,
          after: { call: contractOf(list).path, fileName, rows: written, format: job.format, jobId: job.id },
        },
        clock(),
      );
      return row;
    });
    return done ? 'done' : 'stopped';
  } catch (err) {
    writer?.abort();
    await source?.close().catch(() => {});
    if (err instanceof Stopped || (err instanceof Error && err.message === 'aborted')) return 'stopped';
    const message = err instanceof HttpError ? err.message : 'The export failed on the server';
    if (!(err instanceof HttpError)) deps.log?.warn({ err, jobId: job.id }, 'export job failed');
    await markFailed(db, claim, message, clock()).catch(() => {});
    return 'failed';
  }
}

/** Claims and runs jobs until none is left; returns how many it ran. */
export async function drainQueue(deps: WorkerDeps): Promise<number> {
  let ran = 0;
  for (;;) {
    const claim = await claimJob(deps.db, deps.clock(), deps.settings.leaseMs);
    if (!claim) return ran;
    if (deps.stopping?.()) return ran;
    await runClaim(deps, claim);
    ran++;
  }
}

/** How often expired files are looked for. */
const EXPIRY_SWEEP_MS = 60_000;

/** Starts this process's worker; the returned function stops it (awaiting the job it runs, if any). */
export function startExportWorker(deps: WorkerDeps): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let lastSweep = 0;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    const withStop = { ...deps, stopping: () => stopped };
    running = (async () => {
      do {
        again = false;
        const now = deps.clock().getTime();
        if (now - lastSweep >= EXPIRY_SWEEP_MS) {
          lastSweep = now;
          await expireFiles(deps.db, deps.clock());
        }
        await drainQueue(withStop);
      } while (again && !stopped);
    })()
      .catch((err: unknown) => deps.log?.warn({ err }, 'export worker: a look for jobs failed'))
      .finally(() => {
        running = undefined;
      });
  };

  timer = setInterval(tick, deps.settings.pollMs);
  timer.unref();
  void deps.db
    .listen?.('export_jobs', () => tick())
    .then((stop) => {
      if (stopped) void stop();
      else unlisten = stop;
    })
    .catch(() => {});
  tick();

  return async () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = undefined;
    await unlisten?.().catch(() => {});
    await running;
  };
}
