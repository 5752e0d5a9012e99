/**
 * The files of server export jobs, written as the rows arrive and handed on in chunks (`sink`), so a
 * job holds one batch of rows and about one chunk of file at a time, whatever the number of rows:
 * - .xlsx: the browser exports' own streaming writer (src/formats/xlsx.ts, XlsxStreamWriter): the same
 *   sheet (title, 'On … by …', 'Duration: …', a blank row, the bold header row frozen below it, amounts
 *   as #,##0.00), a new sheet every 1,048,576 rows (Excel's limit) with its header row repeated, the
 *   column widths from the first batch; compressed by zlib in Node's thread pool (off the event loop);
 * - .csv: RFC 4180 (src/formats/csv.ts), the header row then one record per row;
 * - .pdf: the browser exports' own PDF (src/formats/pdf.ts), for up to PDF_MAX_ROWS rows.
 * Every cell is the exports' formatCell (texts formula-neutralised, times in the business time zone).
 * The rows are turned into the file in slices of a few milliseconds, the event loop free in between,
 * so that other calls are answered while a job runs.
 */
import { once } from 'node:events';
import { createDeflateRaw, crc32 as zlibCrc32 } from 'node:zlib';
import type { ExportField } from '../../api/contract';
import type { ExportFormat } from '../../api/exportJobs';
import { CSV_BOM, csvRecord } from '../../formats/csv';
import { formatCell, listItemsText, safeText, type ExportCell, type ExportContext, type ItemFields } from '../../formats/cells';
import { XLSX_SHEET_ROWS, XlsxStreamWriter, type StreamDeflaterFactory } from '../../formats/xlsx';

export const EXPORT_MIME: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

export { XLSX_SHEET_ROWS };

/** Where the file goes: called with each chunk in order; the next chunk waits until it resolves. */
export type ChunkSink = (bytes: Uint8Array) => Promise<void>;

/** A row as the writers take it: its values in the order of the fields. */
export type RowValues = readonly unknown[];

export interface FileWriter {
  addRows(rows: readonly RowValues[]): Promise<void>;
  /** Writes the rest of the file; resolves once the sink has taken all of it. */
  finish(): Promise<void>;
  /** Stops: nothing more is written. */
  abort(): void;
}

export interface WriterSpec {
  format: ExportFormat;
  fields: ExportField[];
  itemFields: (ItemFields | null)[];
  /** ctx.timeZone: the business time zone (header lines and DATE cells). */
  ctx: ExportContext;
  /** Rows per xlsx sheet, header lines included (default XLSX_SHEET_ROWS; tests use fewer). */
  sheetRows?: number;
}

/** How long the writer may hold the event loop before it lets other calls be answered. */
const SLICE_MS = 2;
/** Rows written between two looks at the clock. */
const SLICE_ROWS = 16;
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Hands the event loop back (one turn) once SLICE_MS have passed since it last did. */
class Slicer {
  private since = performance.now();
  async maybe(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await breathe();
    this.since = performance.now();
  }
}

/** Sink chunks of about this size. */
const CHUNK_BYTES = 1 << 20;

/** Collects bytes into chunks of CHUNK_BYTES for the sink. */
class Chunker {
  private parts: Buffer[] = [];
  private size = 0;
  constructor(private readonly sink: ChunkSink) {}
  async write(bytes: Uint8Array): Promise<void> {
    this.parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.size += bytes.byteLength;
    if (this.size >= CHUNK_BYTES) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.size === 0) return;
    const chunk = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    await this.sink(chunk);
  }
}

/** A row's cells in field order ('list' columns' items as labelled lines). */
function cellsOf(spec: WriterSpec, row: RowValues, target: 'xlsx' | 'pdf'): ExportCell[] {
  const { fields, itemFields, ctx } = spec;
  const out = new Array<ExportCell>(fields.length);
  for (let c = 0; c < fields.length; c++) {
    const f = fields[c]!;
    let v = row[c];
    const items = itemFields[c];
    if (items && items.length > 0 && Array.isArray(v)) v = listItemsText(v, items);
    out[c] = formatCell(f, v, target, ctx.timeZone);
  }
  return out;
}

/** A row's raw values in field order ('list' columns' items as labelled lines), for XlsxStreamWriter. */
function valuesOf(spec: WriterSpec, row: RowValues): unknown[] {
  const { fields, itemFields } = spec;
  const out = new Array<unknown>(fields.length);
  for (let c = 0; c < fields.length; c++) {
    const v = row[c];
    const items = itemFields[c];
    out[c] = items && items.length > 0 && Array.isArray(v) ? listItemsText(v, items) : v;
  }
  return out;
}

/**
 * zlib's raw DEFLATE, which compresses in Node's thread pool (the event loop only hands blocks on),
 * and zlib's CRC-32 of what went in.
 */
export function zlibDeflater(level: number): StreamDeflaterFactory {
  return (onData) => {
    const z = createDeflateRaw({ level, chunkSize: 256 * 1024 });
    let crc = 0;
    let failure: Error | undefined;
    z.on('data', (c: Buffer) => onData(new Uint8Array(c.buffer as ArrayBuffer, c.byteOffset, c.byteLength)));
    const ended = new Promise<void>((resolve, reject) => {
      z.once('end', resolve);
      z.once('error', (err: Error) => {
        failure = err;
        reject(err);
      });
    });
    ended.catch(() => {});
    return {
      push: (bytes) => {
        crc = zlibCrc32(bytes, crc);
        z.write(bytes);
      },
      ready: async () => {
        if (failure) throw failure;
        if (z.writableNeedDrain) await once(z, 'drain');
      },
      end: async () => {
        z.end();
        await ended;
        return crc;
      },
    };
  };
}

export function createFileWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  if (spec.format === 'csv') return csvWriter(spec, sink);
  if (spec.format === 'pdf') return pdfWriter(spec, sink);
  return xlsxWriter(spec, sink);
}

function csvWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  const chunker = new Chunker(sink);
  const { fields, itemFields, ctx } = spec;
  const zone = ctx.timeZone;
  const n = fields.length;
  const slicer = new Slicer();
  const cells = new Array<ExportCell>(n);
  let started = false;
  let aborted = false;
  const head = () => CSV_BOM + csvRecord(fields.map((f) => safeText(f.header)));
  return {
    async addRows(rows) {
      if (aborted) return;
      let text = started ? '' : head();
      started = true;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        for (let c = 0; c < n; c++) {
          let v = row[c];
          const items = itemFields[c];
          if (items && items.length > 0 && Array.isArray(v)) v = listItemsText(v, items);
          cells[c] = formatCell(fields[c]!, v, 'csv', zone);
        }
        text += csvRecord(cells);
        if (i % SLICE_ROWS === SLICE_ROWS - 1) {
          if (text.length >= 1 << 18) {
            await chunker.write(Buffer.from(text, 'utf8'));
            text = '';
          }
          await slicer.maybe();
        }
      }
      if (text) await chunker.write(Buffer.from(text, 'utf8'));
    },
    async finish() {
      if (aborted) return;
      if (!started) await chunker.write(Buffer.from(head(), 'utf8'));
      await chunker.flush();
    },
    abort() {
      aborted = true;
    },
  };
}

function pdfWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  const body: ExportCell[][] = [];
  let aborted = false;
  return {
    async addRows(rows) {
      for (const row of rows) body.push(cellsOf(spec, row, 'pdf'));
    },
    async finish() {
      if (aborted) return;
      const { pdfOfTable } = await import('../../formats/pdf');
      const bytes = await pdfOfTable(
        spec.fields,
        spec.fields.map((f) => safeText(f.header)),
        body,
        spec.ctx,
      );
      body.length = 0;
      const chunker = new Chunker(sink);
      for (let i = 0; i < bytes.byteLength; i += CHUNK_BYTES) await chunker.write(bytes.subarray(i, Math.min(bytes.byteLength, i + CHUNK_BYTES)));
      await chunker.flush();
    },
    abort() {
      aborted = true;
      body.length = 0;
    },
  };
}

/** Records whose widths set the columns (the first batch's, at most). */
const MEASURED_ROWS = 200;

function xlsxWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  const chunker = new Chunker(sink);
  // what the writer has handed on and the sink has not yet taken
  let pending: Uint8Array[] = [];
  const writer = new XlsxStreamWriter(spec.fields, spec.ctx, (chunk) => pending.push(chunk), {
    sheetRows: spec.sheetRows ?? XLSX_SHEET_ROWS,
    // level 1: most of the time of a large sheet is its compression; level 1 costs a fraction of the
    // default's for a file about a third larger
    deflater: zlibDeflater(1),
  });
  const slicer = new Slicer();
  let measured = false;
  let failed: Error | undefined;
  const drain = async () => {
    while (pending.length > 0) {
      const parts = pending;
      pending = [];
      for (const p of parts) await chunker.write(p);
    }
  };
  return {
    async addRows(rows) {
      if (failed) throw failed;
      const records = new Array<unknown[]>(rows.length);
      for (let i = 0; i < rows.length; i++) records[i] = valuesOf(spec, rows[i]!);
      if (!measured) {
        writer.measure(records.slice(0, MEASURED_ROWS));
        measured = true;
      }
      for (let i = 0; i < records.length; i += SLICE_ROWS) {
        await writer.addRows(records.slice(i, i + SLICE_ROWS));
        if (failed) throw failed;
        await slicer.maybe();
      }
      // the compressor's back-pressure, then the file so far into the sink
      await writer.ready();
      await drain();
    },
    async finish() {
      if (failed) throw failed;
      await writer.finish();
      await drain();
      await chunker.flush();
    },
    abort() {
      failed = new Error('aborted');
      pending = [];
    },
  };
}
