/**
 * The thread that writes a server export job's file (./threadWriter.ts starts it, one per job): it
 * takes the rows as the database sent them (each a JSON array of values, see ./sources.ts), parses
 * them, formats every cell and writes the file with the exports' own writers (./writers.ts), and hands
 * the file back in chunks. So a large export costs the server process's event loop only the reading
 * of the rows and the storing of the chunks: other calls are answered meanwhile as when it is idle,
 * and on a machine with two cores the formatting runs beside the database and the event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createFileWriter, type FileWriter, type RowValues, type WriterSpec } from './writers';
import { copyTextValue, isoOfUtcWallClock, type ListRowKind } from '../../api/listRows';

/** What the job's side sends: rows as JSON arrays' texts, or bytes of COPY text (a line per row, a line may go on in the next). */
export type ToThread = { type: 'rows'; texts: readonly string[] } | { type: 'lines'; bytes: Uint8Array } | { type: 'finish' };
/** What the thread answers: the file's chunks in order, each batch taken, the end, or why it failed. */
export type FromThread = { type: 'chunk'; bytes: Uint8Array } | { type: 'taken' } | { type: 'finished' } | { type: 'failed'; message: string };

/** The writer's spec and, per field, the place of its value in a row's array (-1: none). */
export interface ThreadSpec {
  spec: WriterSpec;
  at: readonly number[];
  /** The places in a row's array of times sent as the UTC wall clock (src/api/listRows.ts). */
  times: readonly number[];
  /** Rows sent as lines of COPY text: what each of a line's values is (src/api/listRows.ts ListRowKind). */
  kinds?: string;
}

const port = parentPort;
if (!port) throw new Error('formatThread.ts runs as a worker thread (./threadWriter.ts)');
const { spec, at, times, kinds } = workerData as ThreadSpec;
/** Per field, whether its value is a time to make into the documented text. */
const isTime = at.map((place) => place >= 0 && times.includes(place));

/**
 * The thread gives way to the server's other work: on Linux a thread has a nice value of its own
 * (its id from /proc/thread-self), so the job's formatting yields the CPU to the event loop that
 * answers the other calls. Elsewhere the thread keeps the process's priority.
 */
const JOB_NICENESS = 10;
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, JOB_NICENESS);
} catch {
  // not Linux, or not allowed: the thread runs at the process's priority
}

const send = (message: FromThread) => port.postMessage(message);
const writer: FileWriter = createFileWriter(spec, async (bytes) => send({ type: 'chunk', bytes }));

/** A row's values in the order of the fields. */
function valuesOf(text: string): RowValues {
  const values = JSON.parse(text) as unknown[];
  const out = new Array<unknown>(at.length);
  for (let c = 0; c < at.length; c++) out[c] = at[c]! < 0 ? undefined : isTime[c] ? isoOfUtcWallClock(values[at[c]!]) : values[at[c]!];
  return out;
}

/** A line of COPY text's values in the order of the fields. */
function valuesOfLine(line: string): RowValues {
  const texts = line.split('\t');
  if (texts.length !== kinds!.length) throw new Error(`A row of ${texts.length} values, not ${kinds!.length}`);
  const out = new Array<unknown>(at.length);
  for (let c = 0; c < at.length; c++) out[c] = at[c]! < 0 ? undefined : copyTextValue(kinds![at[c]!] as ListRowKind, texts[at[c]!]!);
  return out;
}

// the lines' text not yet ended by a line break
const decoder = new TextDecoder();
let pending = '';

function takeLines(bytes: Uint8Array): RowValues[] {
  pending += decoder.decode(bytes, { stream: true });
  const end = pending.lastIndexOf('\n');
  if (end < 0) return [];
  const lines = pending.slice(0, end).split('\n');
  pending = pending.slice(end + 1);
  return lines.map(valuesOfLine);
}

// one message at a time, in order
let queue = Promise.resolve();
port.on('message', (message: ToThread) => {
  queue = queue
    .then(async () => {
      if (message.type === 'rows') {
        await writer.addRows(message.texts.map(valuesOf));
        send({ type: 'taken' });
      } else if (message.type === 'lines') {
        await writer.addRows(takeLines(message.bytes));
        send({ type: 'taken' });
      } else {
        pending += decoder.decode();
        if (pending !== '') throw new Error('The rows ended inside a line');
        await writer.finish();
        send({ type: 'finished' });
      }
    })
    .catch((err: unknown) => {
      send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
    });
});
