/**
 * The files of server export jobs, written as the rows arrive and handed on in chunks (`sink`), so a
 * job holds one batch of rows and about one chunk of file at a time, whatever the number of rows:
 * - .xlsx: exceljs's streaming WorkbookWriter; the browser exports' sheet (title, 'On … by …',
 *   'Duration: …', a blank row, the bold header row frozen below it, amounts as #,##0.00), and a new
 *   sheet every 1,048,576 rows (Excel's limit), its header row repeated;
 * - .csv: RFC 4180 (src/domain/exportCsv.ts), the header row then one record per row;
 * - .pdf: the browser exports' own PDF (src/domain/exportPdf.ts), for up to PDF_MAX_ROWS rows.
 * Every cell is the exports' formatCell (texts formula-neutralised, times in the business time zone).
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ExportField } from '../../api/contract';
import type { ExportFormat } from '../../api/exportJobs';
import { CSV_BOM, csvRecord } from '../../domain/exportCsv';
import { DOUBLE_NUM_FMT, formatCell, headerLines, listItemsText, safeText, sheetName, type ExportCell, type ExportContext, type ItemFields } from '../../domain/exportFormat';

export const EXPORT_MIME: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/** Excel's rows per sheet. */
export const XLSX_SHEET_ROWS = 1_048_576;

/** Where the file goes: called with each chunk in order; the next chunk waits until it resolves. */
export type ChunkSink = (bytes: Uint8Array) => Promise<void>;

export interface FileWriter {
  addRows(rows: readonly Record<string, unknown>[]): Promise<void>;
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

/** Rows written between two turns of the event loop (other calls are answered in between). */
const YIELD_ROWS = 25;
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

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
function cellsOf(spec: WriterSpec, row: Record<string, unknown>, target: 'xlsx' | 'pdf'): ExportCell[] {
  const { fields, itemFields, ctx } = spec;
  const out = new Array<ExportCell>(fields.length);
  for (let c = 0; c < fields.length; c++) {
    const f = fields[c]!;
    let v = row[f.dataKey];
    const items = itemFields[c];
    if (items && items.length > 0 && Array.isArray(v)) v = listItemsText(v, items);
    out[c] = formatCell(f, v, target, ctx.timeZone);
  }
  return out;
}

export function createFileWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  if (spec.format === 'csv') return csvWriter(spec, sink);
  if (spec.format === 'pdf') return pdfWriter(spec, sink);
  return xlsxWriter(spec, sink);
}

function csvWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  const chunker = new Chunker(sink);
  const encoder = new TextEncoder();
  let started = false;
  let aborted = false;
  const head = () => CSV_BOM + csvRecord(spec.fields.map((f) => safeText(f.header)));
  return {
    async addRows(rows) {
      if (aborted) return;
      let text = started ? '' : head();
      started = true;
      for (let i = 0; i < rows.length; i++) {
        text += csvRecord(cellsOf(spec, rows[i]!, 'xlsx'));
        if (i % (YIELD_ROWS * 4) === YIELD_ROWS * 4 - 1) await breathe();
      }
      await chunker.write(encoder.encode(text));
    },
    async finish() {
      if (aborted) return;
      if (!started) await chunker.write(encoder.encode(head()));
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
      const { pdfOfTable } = await import('../../domain/exportPdf');
      const bytes = await pdfOfTable(spec.fields, spec.fields.map((f) => safeText(f.header)), body, spec.ctx);
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

/** Rows before the header row on the first sheet: title, 'On … by …', 'Duration: …', blank. */
const LEAD_ROWS = 4;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

function xlsxWriter(spec: WriterSpec, sink: ChunkSink): FileWriter {
  const chunker = new Chunker(sink);
  let failed: Error | undefined;
  // the zip stream of the workbook into the chunker, with back-pressure: the next write waits for the sink
  const stream = new Writable({
    highWaterMark: CHUNK_BYTES,
    write(chunk: Buffer, _encoding, done) {
      chunker.write(chunk).then(() => done(), (err: Error) => {
        failed = err;
        done(err);
      });
    },
  });
  stream.on('error', (err) => {
    failed = err;
  });
  // deflate at level 1: most of the time of a large sheet is its compression, and level 1 costs a
  // fraction of the default's for a file a few tenths larger
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false, zip: { zlib: { level: 1 } } });
  workbook.creator = 'Console export';
  const sheetRows = spec.sheetRows ?? XLSX_SHEET_ROWS;
  const { fields, ctx } = spec;
  const headers = fields.map((f) => safeText(f.header));
  // widths from the header and the first rows (a streamed sheet's columns are written before its rows)
  const widths = headers.map((h) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, h.length + 2)));
  let sheet: ExcelJS.Worksheet | undefined;
  let sheetNumber = 0;
  let rowsOnSheet = 0;
  let measured = false;

  const newSheet = (first: readonly ExportCell[][]) => {
    if (!measured) {
      for (const row of first.slice(0, 200)) {
        row.forEach((cell, c) => {
          const n = typeof cell === 'number' ? cell.toFixed(2).length + 4 : Math.max(...String(cell).split('\n').map((l) => l.length));
          widths[c] = Math.min(MAX_WIDTH, Math.max(widths[c]!, n + 2));
        });
      }
      measured = true;
    }
    sheet?.commit();
    sheetNumber++;
    const lead = sheetNumber === 1 ? LEAD_ROWS : 0;
    const name = sheetNumber === 1 ? sheetName(ctx.title) : sheetName(`${ctx.title.slice(0, 24)} (${sheetNumber})`);
    sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: lead + 1 }] });
    sheet.columns = fields.map((f, c) => ({ key: f.dataKey, width: widths[c], style: f.type === 'DOUBLE' ? { numFmt: DOUBLE_NUM_FMT } : {} }));
    if (lead) {
      const [title, byLine, durationLine] = headerLines(ctx);
      const t = sheet.addRow([title]);
      t.font = { bold: true, size: 14 };
      t.commit();
      sheet.addRow([byLine]).commit();
      sheet.addRow([durationLine]).commit();
      sheet.addRow([]).commit();
    }
    const head = sheet.addRow(headers);
    head.eachCell((cell) => {
      cell.font = { bold: true };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE5E7EB' } };
      cell.border = { bottom: { style: 'thin', color: { argb: 'FF9CA3AF' } } };
      cell.numFmt = '@';
    });
    head.commit();
    rowsOnSheet = lead + 1;
  };

  return {
    async addRows(rows) {
      if (failed) throw failed;
      const cells = rows.map((row) => cellsOf(spec, row, 'xlsx'));
      if (!sheet) newSheet(cells);
      for (let i = 0; i < cells.length; i++) {
        if (rowsOnSheet >= sheetRows) newSheet(cells);
        sheet!.addRow(cells[i]!).commit();
        rowsOnSheet++;
        // other calls are served every YIELD_ROWS rows (a batch written in one go held them ~0.4 s)
        if (i % YIELD_ROWS === YIELD_ROWS - 1) await breathe();
      }
      // let the zip stream drain into the sink before the next batch
      await breathe();
      if (failed) throw failed;
    },
    async finish() {
      if (failed) throw failed;
      if (!sheet) newSheet([]);
      sheet!.commit();
      await workbook.commit();
      await new Promise<void>((resolve, reject) => {
        if (stream.writableFinished) resolve();
        else {
          stream.once('finish', resolve);
          stream.once('error', reject);
        }
      });
      await chunker.flush();
      if (failed) throw failed;
    },
    abort() {
      failed = new Error('aborted');
      stream.destroy();
    },
  };
}
