/**
 * The export worker: builds the Excel or PDF file off the page's thread, so a 100,000-row export never
 * freezes the page. Started by ./client.ts with `new Worker(new URL('./worker.ts', import.meta.url))`;
 * Cancel terminates it. Messages: ToExportWorker in, FromExportWorker out (./job.ts).
 */
import type { FromDeflateWorker, ToDeflateWorker } from './deflateWorker';
import { ExportJob, type FromExportWorker, type ToExportWorker } from './job';
import { nativeDeflater as nativeDeflaterHere, type Deflater } from '../../formats/xlsx';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToExportWorker>) => void) | null;
  postMessage(message: FromExportWorker): void;
}
const scope = self as unknown as WorkerScope;
const post = (message: FromExportWorker) => scope.postMessage(message);

/** Blocks sent to the compressing worker and not yet compressed, at most (about 1.5 MB each). */
const MAX_BLOCKS_IN_FLIGHT = 4;

/**
 * The sheet's compressor in a worker of its own (./deflateWorker.ts): the blocks are transferred to it,
 * and ready() waits while more than MAX_BLOCKS_IN_FLIGHT of them are not compressed yet. Null where a
 * worker cannot start one (the writer then compresses on this thread).
 */
function remoteDeflater(): Deflater | null {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./deflateWorker.ts', import.meta.url), { type: 'module', name: 'export-deflate' });
  } catch {
    return null;
  }
  const send = (message: ToDeflateWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  let inFlight = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  let finish: ((result: { chunks: Uint8Array<ArrayBuffer>[]; crc: number }) => void) | null = null;
  let abort: ((error: Error) => void) | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    wake?.();
    abort?.(failure);
    worker.terminate();
  };
  worker.onmessage = (event: MessageEvent<FromDeflateWorker>) => {
    const message = event.data;
    if (message.type === 'taken') {
      inFlight--;
      wake?.();
    } else if (message.type === 'done') finish?.({ chunks: message.chunks, crc: message.crc });
    else fail(new Error(message.message));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fail(new Error(event.message || 'The compressing worker failed'));
  };
  return {
    push: (bytes) => {
      if (failure) return;
      inFlight++;
      // the writer never touches a block again once pushed: its buffer moves to the worker
      send({ type: 'push', bytes }, [bytes.buffer]);
    },
    ready: async () => {
      while (!failure && inFlight > MAX_BLOCKS_IN_FLIGHT) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (failure) throw failure;
    },
    end: () =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        finish = (result) => {
          worker.terminate();
          resolve(result);
        };
        abort = reject;
        send({ type: 'end' });
      }),
  };
}

let job: ExportJob | null = null;
// messages are handled one after the other: a chunk waits for the compressor to take the one before
let queue: Promise<void> = Promise.resolve();

async function handle(message: ToExportWorker): Promise<void> {
  switch (message.type) {
    case 'start':
      job = new ExportJob(message.spec, (percent) => post({ type: 'progress', percent }), message.spec.kind === 'xlsx' ? { deflater: () => remoteDeflater() ?? nativeDeflaterHere() } : {});
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
