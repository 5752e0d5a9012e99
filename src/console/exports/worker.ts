/**
 * The export worker: builds the Excel or PDF file off the page's thread, so a 100,000-row export never
 * freezes the page. Started by ./client.ts with `new Worker(new URL('./worker.ts', import.meta.url))`;
 * Cancel terminates it. Messages: ToExportWorker in, FromExportWorker out (./job.ts).
 */
import { ExportJob, type FromExportWorker, type ToExportWorker } from './job';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToExportWorker>) => void) | null;
  postMessage(message: FromExportWorker): void;
}
const scope = self as unknown as WorkerScope;
const post = (message: FromExportWorker) => scope.postMessage(message);

let job: ExportJob | null = null;
// messages are handled one after the other: a chunk waits for the compressor to take the one before
let queue: Promise<void> = Promise.resolve();

async function handle(message: ToExportWorker): Promise<void> {
  switch (message.type) {
    case 'start':
      job = new ExportJob(message.spec, (percent) => post({ type: 'progress', percent }));
      return;
    case 'rows':
      if (!job) throw new Error('rows before start');
      await job.addRows(message.rows);
      return;
    case 'end': {
      if (!job) throw new Error('end before start');
      const result = await job.finish();
      job = null;
      post({ type: 'done', fileName: result.fileName, rows: result.rows, blob: new Blob(result.chunks as BlobPart[], { type: result.mime }) });
      return;
    }
  }
}

scope.onmessage = (event) => {
  queue = queue
    .then(() => handle(event.data))
    .catch((e: unknown) => {
      job = null;
      post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    });
};
