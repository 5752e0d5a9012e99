/**
 * Server export jobs in the list's export area (docs/exports.md): a list whose rows are more
 * than the tab should hold (EXPORT_SERVER_ABOVE_ROWS, which the server tells: `export/my-job`), or one
 * cut by its fetch count, or any list the user chooses, is exported on the server, every matching row.
 * While the job runs, the same progress bar and Cancel as a browser export; the job is the server's,
 * so a reload finds it again (asked on mount) and the progress continues; once done, Download.
 */
import { apiUrl } from '../apiBase';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ALL_MATCHING_ROWS, cancelExportJob, exportDownloadLink, exportJobStatus, myExportJob, serverExportCalls, startExportJob, type ExportFormat, type ExportJobView } from '../../api/exportJobs';
import { callApi, failureMessage } from '../request';
import { toast } from '../ui/toast';
import { Button } from '../ui/primitives';
import { saveUrl } from '../exports/client';
import { ProgressBar } from './ExportProgress';

/** How often a running job's progress is asked for. */
const POLL_MS = 1000;

const FORMAT_LABEL: Record<ExportFormat, string> = { xlsx: 'Excel', csv: 'CSV', pdf: 'PDF' };

export function isServerExportable(callPath: string): boolean {
  return serverExportCalls.includes(callPath);
}

/** A list request with its fetch count lifted: every matching row. */
export function allMatchingRows(request: Record<string, unknown>): Record<string, unknown> {
  return 'fetchCount' in request ? { ...request, fetchCount: ALL_MATCHING_ROWS } : request;
}

export interface ServerExportController {
  /** The user's current job (queued, running, or done and not yet downloaded), if any. */
  job: ExportJobView | null;
  /** Above this many rows the exports run on the server; null until the server has said. */
  aboveRows: number | null;
  /** Whether an export of `rows` rows goes to the server. */
  runsOnServer(rows: number): boolean;
  start(format: ExportFormat, request: Record<string, unknown>): Promise<void>;
  cancel(): Promise<void>;
  download(): Promise<void>;
  dismiss(): void;
}

const active = (job: ExportJobView | null) => !!job && (job.state === 'queued' || job.state === 'running');

/** The user's server export job for a list call: found again on mount, followed while it runs. */
export function useServerExport(callPath: string): ServerExportController {
  const [job, setJob] = useState<ExportJobView | null>(null);
  const [aboveRows, setAboveRows] = useState<number | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    void callApi(myExportJob, {}).then((res) => {
      if (!alive.current || !res.ok) return;
      setAboveRows(res.data.serverAboveRows);
      setJob(res.data.job);
    });
    return () => {
      alive.current = false;
    };
  }, []);

  // follow a queued or running job until it ends
  const jobId = job?.id;
  const following = active(job);
  useEffect(() => {
    if (!following || jobId === undefined) return;
    const timer = setInterval(() => {
      void callApi(exportJobStatus, { jobId }).then((res) => {
        if (!alive.current || !res.ok) return;
        setJob(res.data);
        if (res.data.state === 'failed') toast('warning', `Export failed: ${res.data.message ?? 'the server could not write the file'}`);
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [following, jobId]);

  const start = useCallback(
    async (format: ExportFormat, request: Record<string, unknown>) => {
      const res = await callApi(startExportJob, { call: callPath, body: allMatchingRows(request), format });
      if (res.ok) setJob(res.data);
      else toast('warning', failureMessage(res) ?? 'The export could not be started');
    },
    [callPath],
  );

  const cancel = useCallback(async () => {
    if (!job) return;
    const res = await callApi(cancelExportJob, { jobId: job.id });
    if (res.ok) {
      setJob(null);
      toast('info', 'Export cancelled: no file was written.');
    } else toast('warning', failureMessage(res) ?? 'The export could not be cancelled');
  }, [job]);

  const download = useCallback(async () => {
    if (!job) return;
    const res = await callApi(exportDownloadLink, { jobId: job.id });
    if (!res.ok) {
      toast('warning', failureMessage(res) ?? 'The file could not be downloaded');
      if (res.statusCode === 410 || res.statusCode === 404) setJob(null);
      return;
    }
    saveUrl(apiUrl(res.data.url), res.data.fileName);
    setJob(null);
  }, [job]);

  return {
    job,
    aboveRows,
    runsOnServer: (rows) => isServerExportable(callPath) && aboveRows !== null && rows > aboveRows,
    start,
    cancel,
    download,
    dismiss: () => setJob(null),
  };
}

/**
 * The server export controls: "Export on the server" (format, then start) with a note when the list is
 * more than the tab should hold (EXPORT_SERVER_ABOVE_ROWS) or cut by its fetch count; below that, a
 * quiet "Export on the server instead…" link that shows them on asking (the spec's "or when the user
 * asks for it"), so it does not crowd the browser's exports; while a job runs, its progress bar and
 * Cancel; once done, Download.
 */
export function ServerExportPanel({
  controller,
  request,
  enabled,
  rowCount,
  truncated,
}: {
  controller: ServerExportController;
  /** The list's applied request body: the job writes every row matching it. */
  request: Record<string, unknown>;
  enabled: boolean;
  /** The rows the list's filters match (all of them, not only those the fetch count let in). */
  rowCount: number;
  /** The fetch count cut the list: more rows match than the tab shows (the browser's "Download all" writes them). */
  truncated: boolean;
}) {
  const { job, aboveRows } = controller;
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  // below the threshold the browser's exports are the way: the server's is a quiet second choice, shown on asking
  const [asked, setAsked] = useState(false);
  const large = aboveRows !== null && rowCount > aboveRows;

  if (job && active(job)) {
    const percent = job.percent;
    const label = job.state === 'queued' ? `Server export (${FORMAT_LABEL[job.format]}) waiting to start…` : `Server export (${FORMAT_LABEL[job.format]})… ${percent}%`;
    return (
      <div className="flex flex-wrap items-center justify-end gap-2" data-testid="server-export">
        <span className="whitespace-nowrap text-xs text-ink-soft tabular-nums" aria-hidden="true">
          {label}
          {job.rowsTotal !== null ? ` ${job.rowsWritten.toLocaleString('en-US')} of ${job.rowsTotal.toLocaleString('en-US')} rows` : ''}
        </span>
        <ProgressBar percent={percent} valueText={`${FORMAT_LABEL[job.format]} server export ${percent}%`} />
        <Button onClick={() => void controller.cancel()}>Cancel</Button>
      </div>
    );
  }
  if (job && job.state === 'done') {
    return (
      <div role="status" className="flex flex-wrap items-center justify-end gap-2 text-sm" data-testid="server-export">
        <span>
          {job.title}: {job.rowsWritten.toLocaleString('en-US')} rows written on the server.
        </span>
        <Button variant="primary" onClick={() => void controller.download()}>
          Download {job.fileName}
        </Button>
        <Button onClick={controller.dismiss}>Dismiss</Button>
      </div>
    );
  }
  // a list cut by its fetch count but not above the threshold: the browser's "Download all" writes every matching row
  if (!large && !asked) {
    return (
      <div className="flex justify-end" data-testid="server-export">
        <button type="button" className="text-xs text-ink-soft underline-offset-2 hover:text-ink hover:underline disabled:opacity-50" onClick={() => setAsked(true)} disabled={!enabled}>
          Export on the server instead…
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center justify-end gap-2" data-testid="server-export">
      {(large || truncated) && (
        <span className="text-xs text-ink-soft">
          {large
            ? `${rowCount.toLocaleString('en-US')} rows are more than a browser tab should export: the exports run on the server.`
            : 'More rows match than the list shows: the server can export every one of them.'}
        </span>
      )}
      <label htmlFor="server-export-format" className="text-xs font-medium text-ink-soft">
        Server export format
      </label>
      <select id="server-export-format" className="rounded-md border border-line bg-surface px-2 py-1 text-sm" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        <option value="xlsx">Excel</option>
        <option value="csv">CSV</option>
        <option value="pdf">PDF</option>
      </select>
      <Button onClick={() => void controller.start(format, request)} disabled={!enabled}>
        Export all matching rows on the server
      </Button>
    </div>
  );
}
