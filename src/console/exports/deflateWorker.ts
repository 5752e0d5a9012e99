/**
 * The export worker's compressing worker: takes the sheet's XML blocks (transferred) and deflates them
 * with the native CompressionStream, so that the export worker writes the next blocks meanwhile (on a
 * machine with two cores, writing and compressing no longer add up). Started by ./worker.ts
 * (remoteDeflater); it ends with its parent, so Cancel stops it too.
 *
 * In: { type: 'push', bytes } per block, then { type: 'end' }. Out: { type: 'taken' } once a block is
 * compressed (the sender's back-pressure), then { type: 'done', chunks, crc } (the raw DEFLATE stream
 * and the CRC-32 of every byte pushed, as nativeDeflater's end() gives them), or { type: 'failed' }.
 */
import { nativeDeflater } from '../../formats/xlsx';

export type ToDeflateWorker = { type: 'push'; bytes: Uint8Array<ArrayBuffer> } | { type: 'end' };
export type FromDeflateWorker = { type: 'taken' } | { type: 'done'; chunks: Uint8Array<ArrayBuffer>[]; crc: number } | { type: 'failed'; message: string };

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToDeflateWorker>) => void) | null;
  postMessage(message: FromDeflateWorker, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

const deflater = nativeDeflater();
let queue: Promise<void> = Promise.resolve();
let failed = false;

async function handle(message: ToDeflateWorker): Promise<void> {
  if (message.type === 'push') {
    deflater.push(message.bytes);
    await deflater.ready();
    scope.postMessage({ type: 'taken' });
    return;
  }
  const { chunks, crc } = await deflater.end();
  const buffers = [...new Set(chunks.map((c) => c.buffer))];
  scope.postMessage({ type: 'done', chunks, crc }, buffers);
}

scope.onmessage = (event) => {
  queue = queue
    .then(() => (failed ? undefined : handle(event.data)))
    .catch((e: unknown) => {
      failed = true;
      scope.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    });
};
