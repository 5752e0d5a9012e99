/**
 * The page's side of an export: starts the export worker, hands it the rows a chunk at a time (picking
 * the exported values out of the row objects, a couple of thousand rows per task, so the page stays
 * responsive), shows its progress, and downloads the file it sends back. `cancel()` terminates the
 * worker: nothing is downloaded.
 */
import type { ExportField } from '@/api/contract';
import type { ExportContext, ItemFields } from './format';
import type { ExportKind, FromExportWorker, ToExportWorker } from './job';

/** Rows per message to the worker: picking and copying them stays well under a frame's worth of work. */
const CHUNK_ROWS = 2000;

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
 * The rows as the worker takes them: chunks of `size` rows, each row the array of its values under
 * `keys` (plain values copy to a worker much faster than whole row objects, and only these are needed).
 */
export function* valueChunks(rows: readonly object[], keys: readonly string[], size = CHUNK_ROWS): Generator<unknown[][]> {
  for (let start = 0; start < rows.length; start += size) {
    const end = Math.min(rows.length, start + size);
    const chunk: unknown[][] = new Array(end - start);
    for (let i = start; i < end; i++) {
      const row = rows[i] as Record<string, unknown> | null | undefined;
      const values = new Array<unknown>(keys.length);
      for (let k = 0; k < keys.length; k++) values[k] = row?.[keys[k]];
      chunk[i - start] = values;
    }
    yield chunk;
  }
}

/** Lets the page paint and handle input between two chunks. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Makes the browser download a Blob under a file name (Blob + `<a download>`). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
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
    for (const chunk of valueChunks(rows, fields.map((f) => f.dataKey))) {
      if (settled) return;
      send({ type: 'rows', rows: chunk });
      await nextTask();
    }
    if (!settled) send({ type: 'end' });
  })().catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));

  return { result, cancel: () => settle({ status: 'cancelled' }) };
}
