/**
 * One export, fed its rows a chunk at a time: what the export worker runs (./worker.ts), and what
 * scripts/bench-export.ts runs in Node. No DOM: the Excel file streams through XlsxWriter as the rows
 * come; the PDF collects its cells and draws them with jspdf at the end (src/formats/pdf.ts).
 *
 * The rows arrive as arrays of raw values in `fields` order (the page picks them out of its row objects
 * a chunk at a time, so it never copies 100,000 objects in one go); formatting happens here.
 */
import type { ExportField } from '@/api/contract';
import { exportFileName, formatCell, listItemsText, safeText, type ExportCell, type ExportContext, type ItemFields } from '../../formats/cells';
import { XlsxWriter, type XlsxWriterOptions } from '../../formats/xlsx';

export type ExportKind = 'xlsx' | 'pdf';

export const EXPORT_MIME: Record<ExportKind, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

export interface ExportJobSpec {
  kind: ExportKind;
  fields: ExportField[];
  /** Per field, the item fields when it is a 'list' column (its items become labelled lines), else null. */
  itemFields?: (ItemFields | null)[];
  ctx: ExportContext;
  /** How many rows will come (for the progress). */
  total: number;
}

export interface ExportResult {
  fileName: string;
  mime: string;
  chunks: Uint8Array[];
  rows: number;
}

/** Progress shares of a PDF: formatting the cells, then laying out and drawing the table, then saving. */
const PDF_CELLS = 0.15;
const PDF_DRAWN = 0.95;

export class ExportJob {
  private readonly spec: ExportJobSpec;
  private readonly onProgress: (percent: number) => void;
  private readonly xlsx: XlsxWriter | null;
  private readonly pdfBody: ExportCell[][] = [];
  private received = 0;
  private lastPercent = -1;

  constructor(spec: ExportJobSpec, onProgress: (percent: number) => void = () => {}, xlsxOptions: XlsxWriterOptions = {}) {
    this.spec = spec;
    this.onProgress = onProgress;
    this.xlsx = spec.kind === 'xlsx' ? new XlsxWriter(spec.fields, spec.ctx, xlsxOptions) : null;
    this.report(0);
  }

  /** Reports whole percents, each once. */
  private report(fraction: number): void {
    const percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)));
    if (percent === this.lastPercent) return;
    this.lastPercent = percent;
    this.onProgress(percent);
  }

  /** A record's raw values with its 'list' columns turned into their text. */
  private valuesOf(values: readonly unknown[]): readonly unknown[] {
    const lists = this.spec.itemFields;
    if (!lists) return values;
    let out: unknown[] | null = null;
    for (let c = 0; c < lists.length; c++) {
      const items = values[c];
      const itemFields = lists[c];
      if (!itemFields || itemFields.length === 0 || !Array.isArray(items)) continue;
      out ??= values.slice();
      out[c] = listItemsText(items, itemFields);
    }
    return out ?? values;
  }

  async addRows(rows: readonly (readonly unknown[])[]): Promise<void> {
    const { fields, total } = this.spec;
    if (this.xlsx) {
      for (const values of rows) this.xlsx.addRow(this.valuesOf(values));
      this.received += rows.length;
      await this.xlsx.ready();
      // the last share is the zip's
      this.report((0.97 * this.received) / Math.max(1, total));
      return;
    }
    for (const values of rows) {
      const v = this.valuesOf(values);
      this.pdfBody.push(fields.map((f, c) => formatCell(f, v[c], 'pdf', this.spec.ctx.timeZone)));
    }
    this.received += rows.length;
    this.report((PDF_CELLS * this.received) / Math.max(1, total));
  }

  async finish(): Promise<ExportResult> {
    const { kind, fields, ctx } = this.spec;
    let chunks: Uint8Array[];
    if (this.xlsx) {
      chunks = await this.xlsx.finish();
    } else {
      const { pdfOfTable } = await import('../../formats/pdf');
      const headers = fields.map((f) => safeText(f.header));
      const bytes = await pdfOfTable(fields, headers, this.pdfBody, ctx, (f) => this.report(PDF_CELLS + (PDF_DRAWN - PDF_CELLS) * f));
      this.pdfBody.length = 0;
      chunks = [bytes];
    }
    this.report(1);
    return { fileName: exportFileName(ctx, kind), mime: EXPORT_MIME[kind], chunks, rows: this.received };
  }
}

/** What the page sends the export worker: the spec, then the rows in chunks, then 'end'. */
export type ToExportWorker = { type: 'start'; spec: ExportJobSpec } | { type: 'rows'; rows: unknown[][] } | { type: 'end' };

/** What the export worker answers: progress in whole percents, then the file (or what went wrong). */
export type FromExportWorker = { type: 'progress'; percent: number } | { type: 'done'; fileName: string; rows: number; blob: Blob } | { type: 'failed'; message: string };
