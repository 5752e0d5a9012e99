/**
 * Server-side export jobs (docs/exports.md): a list too large for a browser tab (more
 * matching rows than EXPORT_SERVER_ABOVE_ROWS), or any list the user chooses to, is exported by the
 * server as a job: streamed from the database in batches, written as .xlsx, .csv or .pdf, kept until it
 * expires (EXPORT_FILE_HOURS), downloaded through a short-lived signed link that only its owner (or an
 * administrator) is given, bound to the session that asked for it. One queued or running job per
 * user: a second start answers 409; each user keeps at most EXPORT_QUOTA_FILES files of
 * EXPORT_QUOTA_BYTES in all, older ones deleted to make room.
 */
import { z } from 'zod';
import { defineCall, emptyBody, MAX_ID } from './contract';
import { appUserList } from './appUsers';
import { sodReport } from './controls';
import { activityReport, instantSettlementReport, mobileActivityReport, settlementReport } from './reports';
import { userList } from './users';
import { billAuditList, billList, ceftAuditList, ceftList, ceftRefundedAuditList, eChannellingAuditList, eChannellingList, insuranceList, thyagaAuditList, thyagaList } from './transactions';

/**
 * The list calls a server export job can write: every list and report the console exports (the
 * transaction lists, which grow past what a tab holds, and the users, app users, activity logs,
 * settlement reports and segregation of duties); the server refuses to start unless its export sources
 * cover exactly these.
 */
export const serverExportCalls: readonly string[] = [
  ceftAuditList,
  ceftRefundedAuditList,
  billAuditList,
  eChannellingAuditList,
  thyagaAuditList,
  ceftList,
  billList,
  thyagaList,
  eChannellingList,
  insuranceList,
  userList,
  appUserList,
  activityReport,
  mobileActivityReport,
  settlementReport,
  instantSettlementReport,
  sodReport,
].map((c) => c.path);

/** A list call's body with its fetch count lifted: a server export writes every matching row. */
export const ALL_MATCHING_ROWS = 99_999_999;

export const exportFormats = ['xlsx', 'csv', 'pdf'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const exportJobStates = ['queued', 'running', 'done', 'failed', 'cancelled', 'expired'] as const;
export type ExportJobState = (typeof exportJobStates)[number];

/** A job as its owner sees it. */
export const exportJob = z.object({
  id: z.number(),
  /** Who started it. */
  username: z.string(),
  /** The list call whose rows it writes, e.g. 'Transaction/get-ceftTransaction'. */
  call: z.string(),
  format: z.enum(exportFormats),
  /** The export's title (the list's), e.g. 'Send Money Transactions'. */
  title: z.string(),
  state: z.enum(exportJobStates),
  rowsWritten: z.number(),
  /** How many rows it will write; null until a worker has counted them. */
  rowsTotal: z.number().nullable(),
  /** Whole percents, 0 to 100. */
  percent: z.number(),
  /** Why it failed (state 'failed'), else null. */
  message: z.string().nullable(),
  fileName: z.string().nullable(),
  fileBytes: z.number().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the file is deleted (state 'done'). */
  expiresAt: z.string().nullable(),
});
export type ExportJobView = z.infer<typeof exportJob>;

const jobIdBody = z.strictObject({ jobId: z.number().int().positive().max(MAX_ID) });

export const startExportJob = defineCall({
  path: 'export/start-job',
  access: 'authenticated',
  answers: [403, 409, 422],
  summary:
    "Starts a server export of a list: `call` names the list call, `body` is its request body (the filters), `format` the file. `columns`, if given, the list's columns (data keys) the file has, in that order (an unknown or repeated one is 400). The caller needs the list call's own permission (checked again when the job runs), and the rows are that call's rows for the caller (an IPG bank user: their provider's). One queued or running job per user: another start is 409. A PDF of more than 20,000 rows is 422.",
  request: z
    .strictObject({
      call: z.string().min(1).max(100),
      body: z.record(z.string(), z.unknown()),
      format: z.enum(exportFormats),
      /** Only these columns (the list's data keys), in this order; absent: every column of the list's exports. */
      columns: z.array(z.string().min(1).max(100)).min(1).max(200).optional(),
    })
    // a list call and its filters (the body depends on the call named)
    .meta({ examples: [{ call: 'user/list', body: {}, format: 'csv' }] }),
  data: exportJob,
});

export const myExportJob = defineCall({
  path: 'export/my-job',
  access: 'authenticated',
  summary:
    "The caller's current export job: the one queued or running, else the last one finished and not yet downloaded (while its file is kept), else null; and the settings the console needs: above how many rows a list is exported on the server, how long a file is kept.",
  request: emptyBody,
  data: z.object({ job: exportJob.nullable(), serverAboveRows: z.number(), fileHours: z.number() }),
});

export const exportJobStatus = defineCall({
  path: 'export/job-status',
  access: 'authenticated',
  answers: [404],
  summary: 'One export job, its state and progress: only its owner or an administrator (super-permission) may see it (anyone else: 404).',
  request: jobIdBody,
  data: exportJob,
});

export const cancelExportJob = defineCall({
  path: 'export/cancel-job',
  access: 'authenticated',
  answers: [404, 409],
  summary: 'Cancels a queued or running export job (its owner or an administrator): the worker stops at its next batch and nothing is kept. A finished job is 409.',
  request: jobIdBody,
  data: exportJob,
});

export const exportDownloadLink = defineCall({
  path: 'export/download-link',
  access: 'authenticated',
  answers: [403, 404, 409, 410],
  summary:
    "A link to download a finished export job's file (its owner or an administrator; anyone else: 404), signed and valid for a few minutes: `GET url`, and only while the session that asked for it lasts (after a sign-out, the session's end, the account disabled or its password changed, the link answers 401). The list's permission and the provider scope are checked as they are now, here and again when the link is followed: the list's permission withdrawn, or a file of rows of another provider than the caller's (an IPG bank user), is 403. A job not finished yet is 409; a file expired or deleted by the export quota (EXPORT_QUOTA_FILES, EXPORT_QUOTA_BYTES) is 410 with a message saying which.",
  request: jobIdBody,
  data: z.object({ url: z.string(), fileName: z.string(), linkExpiresAt: z.string() }),
});

export const exportJobCalls = [startExportJob, myExportJob, exportJobStatus, cancelExportJob, exportDownloadLink] as const;
