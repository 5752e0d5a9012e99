/**
 * A job's file written in a thread of its own (./formatThread.ts): the job hands it the rows as the
 * database sent them (JSON texts, unparsed, or bytes of COPY text, handed over without a copy) and
 * stores the chunks it hands back, in order. At most
 * one batch waits in the thread besides the one it writes, so the job's memory stays at about two
 * batches and a chunk whatever the number of rows, while the next batch is read from the database
 * the thread is already writing the last one.
 */
import { Worker } from 'node:worker_threads';
import type { FromThread, ThreadSpec, ToThread } from './formatThread';
import type { ChunkSink, WriterSpec } from './writers';
import type { RowsBatch } from './sources';

export interface ThreadWriter {
  /** Hands a batch on; resolves once the thread has taken the batch before it (and its chunks are stored). */
  addRows(batch: RowsBatch): Promise<void>;
  /** Writes the rest of the file; resolves once every chunk is stored. */
  finish(): Promise<void>;
  /** Stops the thread: nothing more is written. */
  abort(): void;
}

const ENTRY = new URL('./formatThread.mjs', import.meta.url);

export function createThreadWriter(spec: WriterSpec, rows: Pick<ThreadSpec, 'at' | 'times' | 'kinds'>, sink: ChunkSink): ThreadWriter {
  const thread = new Worker(ENTRY, { workerData: { spec, at: rows.at, times: rows.times, kinds: rows.kinds } satisfies ThreadSpec });
  let failure: Error | undefined;
  let stopped = false;
  // the chunks are stored one after the other, in the order they come
  let storing = Promise.resolve();
  // batches sent and not yet taken, and who waits for one to be taken / for the end
  let outstanding = 0;
  let onTaken: (() => void) | undefined;
  let onFinished: (() => void) | undefined;
  const fail = (err: Error) => {
    failure ??= err;
    onTaken?.();
    onFinished?.();
  };
  thread.on('message', (message: FromThread) => {
    if (message.type === 'chunk') {
      const bytes = message.bytes;
      storing = storing.then(() => (failure ? undefined : sink(bytes))).catch((err: unknown) => fail(err instanceof Error ? err : new Error(String(err))));
    } else if (message.type === 'taken') {
      outstanding--;
      onTaken?.();
    } else if (message.type === 'finished') onFinished?.();
    else fail(new Error(message.message));
  });
  thread.on('error', (err) => fail(err));
  thread.on('exit', (code) => {
    if (!stopped) fail(new Error(`The export thread stopped (exit code ${code})`));
  });
  const send = (message: ToThread) => {
    // bytes of lines are moved to the thread, not copied (a buffer of their own: Buffer.concat's, never the pool's)
    if (message.type === 'lines' && message.bytes.byteLength === message.bytes.buffer.byteLength) thread.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
    else thread.postMessage(message);
  };
  const check = () => {
    if (failure) throw failure;
  };
  const stop = () => {
    stopped = true;
    void thread.terminate();
  };
  return {
    async addRows(batch) {
      check();
      send('texts' in batch ? { type: 'rows', texts: batch.texts } : { type: 'lines', bytes: new Uint8Array(batch.lines.buffer, batch.lines.byteOffset, batch.lines.byteLength) });
      outstanding++;
      while (outstanding > 1 && !failure) await new Promise<void>((resolve) => (onTaken = resolve));
      onTaken = undefined;
      await storing;
      check();
    },
    async finish() {
      check();
      const finished = new Promise<void>((resolve) => (onFinished = resolve));
      send({ type: 'finish' });
      await finished;
      check();
      // every chunk came before 'finished': once they are stored, the file is whole
      await storing;
      check();
      stop();
    },
    abort() {
      failure ??= new Error('aborted');
      stop();
    },
  };
}
