/**
 * Server export jobs (src/api/exportJobs.ts; the queue and the worker: src/server/exportJobs/). The
 * start checks what the list call would (its permission, its request body, the country), counts the
 * rows and queues the job; a worker of any server process writes it. A job is its owner's: anyone but
 * the owner or an administrator (super-permission) is answered 404, as if it did not exist.
 */
import { cancelExportJob, exportDownloadLink, exportJobStatus, myExportJob, startExportJob } from '../../api/exportJobs';
import { isSuperUser } from '../../domain/permissions';
import { PDF_MAX_ROWS } from '../../definitions/exportLimits';
import { handle, type Ctx, type Handler } from '../http/handle';
import { HttpError } from '../http/httpError';
import { activeJobOf, cancelJob, currentJobOf, enqueueJob, expireFiles, jobById, jobView, type ExportJobRow } from '../exportJobs/queue';
import { readExportSettings } from '../exportJobs/settings';
import { assertMayHaveFile } from '../exportJobs/access';
import { assertMayList, exportableListOf, exportsOf, listBodyOf, openSource } from '../exportJobs/sources';

/** The job, if the caller may see it (its owner, or an administrator); else 404. */
async function visibleJob(ctx: Ctx, id: number): Promise<ExportJobRow> {
  const job = await jobById(ctx.db, id);
  if (!job || (job.user_id !== ctx.user.id && !isSuperUser(ctx.user.permissions))) throw new HttpError(404, `jobId: No export job ${id} of yours`);
  return job;
}

function busyMessage(job: ExportJobRow): string {
  const progress = job.rows_total ? ` (${Math.floor((100 * job.rows_written) / Math.max(1, job.rows_total))}%)` : '';
  return `You already have an export ${job.state === 'queued' ? 'waiting to start' : 'running'}: ${job.title}${progress}. Wait for it to finish or cancel it, then start another.`;
}

export const exportJobHandlers: readonly Handler[] = [
  handle(startExportJob, async (ctx, { call, body, format, columns }) => {
    const list = exportableListOf(call);
    assertMayList(list, ctx.user);
    const filters = listBodyOf(list, body);
    const active = await activeJobOf(ctx.db, ctx.user.id);
    if (active) throw new HttpError(409, busyMessage(active));
    // the count also checks the filters as the list call does (an unknown country is a 400)
    const source = await openSource(list, filters, ctx, columns);
    await source.close();
    const { title } = exportsOf(list);
    const path = list.list.contract.path;
    if (format === 'pdf' && source.total > PDF_MAX_ROWS) {
      throw new HttpError(422, `A PDF of ${source.total.toLocaleString('en-US')} rows would be too long to read (at most ${PDF_MAX_ROWS.toLocaleString('en-US')}): export it as Excel or CSV`);
    }
    const job = await enqueueJob(ctx.db, { userId: ctx.user.id, username: ctx.user.username, callPath: path, request: filters, columns, format, title, rowsTotal: source.total }, ctx.clock());
    if (!job) {
      const other = await activeJobOf(ctx.db, ctx.user.id);
      throw new HttpError(409, other ? busyMessage(other) : 'You already have an export running: wait for it to finish or cancel it.');
    }
    await ctx.log({
      type: 'EXPORT_REQUESTED',
      description: `Requested a server export of ${title} (${source.total} row${source.total === 1 ? '' : 's'}, ${format}): job ${job.id}`,
      after: { jobId: job.id, call: path, request: filters, columns: columns ?? null, format, rows: source.total },
    });
    return { data: jobView(job) };
  }),

  handle(myExportJob, async (ctx) => {
    const settings = readExportSettings();
    const job = await currentJobOf(ctx.db, ctx.user.id, ctx.clock());
    return { data: { job: job ? jobView(job) : null, serverAboveRows: settings.serverAboveRows, fileHours: settings.fileHours } };
  }),

  handle(exportJobStatus, async (ctx, { jobId }) => ({ data: jobView(await visibleJob(ctx, jobId)) })),

  handle(cancelExportJob, async (ctx, { jobId }) => {
    const job = await visibleJob(ctx, jobId);
    const cancelled = await cancelJob(ctx.db, job.id, ctx.clock());
    if (!cancelled) throw new HttpError(409, `Export job ${jobId} has already ${job.state === 'done' ? 'finished' : `ended (${job.state})`}: nothing to cancel`);
    await ctx.log({ type: 'EXPORT_CANCELLED', description: `Cancelled server export job ${jobId} (${job.title})`, after: { jobId } });
    return { data: jobView(cancelled) };
  }),

  handle(exportDownloadLink, async (ctx, { jobId }) => {
    const settings = readExportSettings();
    await expireFiles(ctx.db, ctx.clock());
    const job = await visibleJob(ctx, jobId);
    if (job.state === 'expired' || (job.state === 'done' && job.expires_at && job.expires_at <= ctx.clock())) {
      // a file the quota deleted says so (its message); else it outlived EXPORT_FILE_HOURS
      throw new HttpError(410, job.message ?? `The file of export job ${jobId} has expired (files are kept ${settings.fileHours} hours): start the export again`);
    }
    if (job.state !== 'done') throw new HttpError(409, `Export job ${jobId} has no file: it is ${job.state}`);
    // the list's permission and the provider scope as they are now, not as they were when the job ran
    await assertMayHaveFile(ctx.db, job, ctx.user);
    const signer = ctx.auth.exportLinks;
    if (!signer) throw new Error('No export link signer configured');
    if (!ctx.user.sessionId) throw new HttpError(401, 'Unauthorized: a download link is given only to a signed-in session');
    // bound to this session: it stops working when the session ends
    const link = signer.sign(job.id, settings.linkTtlSeconds, { sessionId: ctx.user.sessionId, sessionVersion: ctx.user.sessionVersion });
    await ctx.db.query('UPDATE export_jobs SET downloaded_at = coalesce(downloaded_at, $2) WHERE id = $1', [job.id, ctx.clock()]);
    await ctx.log({
      type: 'EXPORT_DOWNLOAD',
      description: `Downloaded ${job.file_name} (${job.rows_written} rows of ${job.title}, server export job ${job.id}${job.user_id === ctx.user.id ? '' : ` of ${job.username}`})`,
      after: { jobId: job.id, fileName: job.file_name, rows: job.rows_written, owner: job.username },
    });
    return { data: { url: link.url, fileName: job.file_name!, linkExpiresAt: link.expiresAt.toISOString() } };
  }),
];
