/**
 * The page's side of an export: starts the export worker, hands it the rows a chunk at a time (picking
 * the exported values out of the row objects, chunks sized to about 8 ms of work each, so the page
 * stays responsive), reports its progress, and downloads the file it sends back. `cancel()` terminates the
 * worker: nothing is downloaded.
 */
import type { ExportField } from '@/api/contract';
import type { ExportContext, ItemFields } from '../../formats/cells';
import type { ExportKind, FromExportWorker, ToExportWorker } from './job';

/** Rows per message to the worker to start with; then as many as take about SLICE_MS to pick and post. */
const CHUNK_ROWS = 500;
/** The page's time per chunk (picking the values, structured-cloning them into the message). */
const SLICE_MS = 8;
const MIN_CHUNK_ROWS = 100;
const MAX_CHUNK_ROWS = 5000;

export interface ExportRequest {
  kind: ExportKind;
  fields: ExportField[];
  /** Per field, the item fields of a 'list' column, else null. */
  itemFields?: (ItemFields | null)[];
  ctx: ExportContext;
  rows: readonly object[];
  /** Whole percents, 0 to 100. */
  onProgress?: (percent: number) => void;
}

export type ExportOutcome = { status: 'saved'; fileName: string; rows: number } | { status: 'cancelled' };

export interface RunningExport {
  /** Resolves once the file was handed to the browser's download, or on cancel; rejects when the export failed. */
  result: Promise<ExportOutcome>;
  /** Stops the export at once; nothing is downloaded. */
  cancel(): void;
}

/**
 * Rows start…end-1 as the worker takes them: each the array of its values under `keys`. With `pool`,
 * its arrays are filled again rather than new ones made (postMessage copies them at once, so the page
 * may reuse them for the next chunk and leaves no garbage behind for a long collection).
 */
export function pickValues(rows: readonly object[], start: number, end: number, keys: readonly string[], pool?: unknown[][]): unknown[][] {
  const n = Math.max(0, end - start);
  const out: unknown[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[start + i] as Record<string, unknown> | null | undefined;
    let values = pool?.[i];
    if (!values) {
      values = new Array<unknown>(keys.length);
      if (pool) pool[i] = values;
    }
    for (let k = 0; k < keys.length; k++) values[k] = row?.[keys[k]];
    out[i] = values;
  }
  return out;
}

/**
 * The rows in chunks of `size` as the worker takes them (plain value arrays copy to a worker much
 * faster than whole row objects, and only the exported values are needed).
 */
export function* valueChunks(rows: readonly object[], keys: readonly string[], size = CHUNK_ROWS): Generator<unknown[][]> {
  for (let start = 0; start < rows.length; start += size) yield pickValues(rows, start, Math.min(rows.length, start + size), keys);
}

/** Lets the page paint and handle input between two chunks. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Makes the browser download what `url` points at under a file name (`<a download>`). */
export function saveUrl(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
  }
}

/** Makes the browser download a Blob under a file name (Blob + `<a download>`). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  try {
    saveUrl(url, fileName);
  } finally {
    // give the browser time to start the download before the object URL goes
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

export function startExport(request: ExportRequest): RunningExport {
  const { kind, fields, itemFields, ctx, rows, onProgress } = request;
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'export' });
  const send = (message: ToExportWorker) => worker.postMessage(message);
  let settled = false;
  let settle!: (outcome: ExportOutcome) => void;
  let fail!: (error: Error) => void;
  const result = new Promise<ExportOutcome>((resolve, reject) => {
    settle = (outcome) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      resolve(outcome);
    };
    fail = (error) => {
      if (settled) return;
      settled = true;
      worker.terminate();
      reject(error);
    };
  });

  worker.onmessage = (event: MessageEvent<FromExportWorker>) => {
    const message = event.data;
    if (settled) return;
    if (message.type === 'progress') onProgress?.(message.percent);
    else if (message.type === 'failed') fail(new Error(message.message));
    else {
      saveBlob(message.blob, message.fileName);
      settle({ status: 'saved', fileName: message.fileName, rows: message.rows });
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fail(new Error(event.message || 'The export worker failed'));
  };

  void (async () => {
    send({ type: 'start', spec: { kind, fields, itemFields, ctx, total: rows.length } });
    // each chunk sized so that picking and posting it takes about SLICE_MS: no long task on the page
    const keys = fields.map((f) => f.dataKey);
    const pool: unknown[][] = [];
    let size = CHUNK_ROWS;
    for (let start = 0; start < rows.length;) {
      if (settled) return;
      const t0 = performance.now();
      const end = Math.min(rows.length, start + size);
      send({ type: 'rows', rows: pickValues(rows, start, end, keys, pool) });
      start = end;
      const took = performance.now() - t0;
      size = Math.round(Math.min(MAX_CHUNK_ROWS, Math.max(MIN_CHUNK_ROWS, took > 0 ? (size * SLICE_MS) / took : size * 2)));
      await nextTask();
    }
    if (!settled) send({ type: 'end' });
  })().catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));

  return { result, cancel: () => settle({ status: 'cancelled' }) };
}
