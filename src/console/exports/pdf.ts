import type { jsPDF as JsPDFType } from 'jspdf';
import type { Styles } from 'jspdf-autotable';
import type { ExportField } from '@/api/contract';
import { headerLines, toExportTable, type ExportCell, type ExportContext, type ExportRow } from './format';

type JsPDFModule = typeof import('jspdf');
type AutoTableModule = typeof import('jspdf-autotable');

/** jspdf's Node build is CommonJS: its API may sit on `default` rather than on the namespace. */
async function loadLibs(): Promise<{ JsPDF: typeof JsPDFType; autoTable: AutoTableModule['autoTable'] }> {
  const [pdfMod, tableMod] = await Promise.all([import('jspdf'), import('jspdf-autotable')]);
  const pdf = pdfMod as JsPDFModule & { default?: Partial<JsPDFModule> };
  const JsPDF = pdf.jsPDF ?? pdf.default?.jsPDF;
  const table = tableMod as AutoTableModule & { default?: Partial<AutoTableModule> };
  const autoTable = table.autoTable ?? table.default?.autoTable;
  if (!JsPDF || !autoTable) throw new Error('PDF export: jspdf / jspdf-autotable could not be loaded');
  return { JsPDF, autoTable };
}

const MARGIN = 28; // pt (~10 mm)
const FONT_SIZE = 7.5;
const SMALL_FONT_SIZE = 6.5;
const CELL_PADDING = 2.5;
/** A value wider than this wraps at its spaces instead of widening its column. */
const MAX_NATURAL_WIDTH = 160;
/** How many rows are measured for the column widths. */
const MEASURED_ROWS = 300;
/** Landscape widths of the page formats a wide table may use, smallest first (pt). */
const FORMATS = [
  ['a4', 842],
  ['a3', 1191],
  ['a2', 1684],
] as const;

export interface PdfLayout {
  format: (typeof FORMATS)[number][0];
  fontSize: number;
  /** The width each column needs so that no word is broken, at `fontSize` (pt). */
  widths: number[];
  /** Too wide for every format: the columns continue on further pages, the first column repeated. */
  split: boolean;
}

/**
 * The page a table needs: the smallest landscape format (A4, A3, A2) on which every column gets the
 * width of its longest header word and its values (up to MAX_NATURAL_WIDTH), at 7.5 pt, else 6.5 pt;
 * a table wider than that goes on A3 with its columns split over pages.
 */
export function pdfLayout(doc: JsPDFType, headers: string[], body: readonly (readonly ExportCell[])[]): PdfLayout {
  const measure = (text: string, size: number, bold: boolean) => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    return doc.getStringUnitWidth(text) * size;
  };
  let widths: number[] = [];
  for (const fontSize of [FONT_SIZE, SMALL_FONT_SIZE]) {
    widths = headers.map((h, i) => {
      let w = Math.max(0, ...h.split(/\s+/).map((word) => measure(word, fontSize, true)));
      for (const row of body.slice(0, MEASURED_ROWS)) {
        for (const line of String(row[i] ?? '').split('\n')) {
          const longestWord = Math.max(0, ...line.split(/\s+/).map((word) => measure(word, fontSize, false)));
          w = Math.max(w, Math.min(MAX_NATURAL_WIDTH, Math.max(longestWord, measure(line, fontSize, false))));
        }
      }
      return Math.ceil(w + 2 * CELL_PADDING + 1);
    });
    const total = widths.reduce((a, b) => a + b, 0);
    const format = FORMATS.find(([, width]) => width - 2 * MARGIN >= total);
    if (format) return { format: format[0], fontSize, widths, split: false };
  }
  return { format: 'a3', fontSize: SMALL_FONT_SIZE, widths, split: true };
}

/**
 * Builds the .pdf: landscape (A4, or larger for a wide table: see pdfLayout), title, 'On … by …',
 * 'Duration: …', then the table; 'Page i of n' in the footer.
 */
export async function buildPdf(fields: ExportField[], rows: readonly ExportRow[], ctx: ExportContext): Promise<Uint8Array> {
  const { headers, body } = toExportTable(fields, rows as ExportRow[], 'pdf');
  return pdfOfTable(fields, headers, body, ctx);
}

/**
 * The PDF of a table already formatted for it (toExportTable(…, 'pdf') or formatCell(…, 'pdf')).
 * `onProgress(fraction)` follows the pages as they are drawn (0 to 1; autotable first measures every
 * cell, which reports nothing).
 */
export async function pdfOfTable(
  fields: ExportField[],
  headers: string[],
  body: ExportCell[][],
  ctx: ExportContext,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  const { JsPDF, autoTable } = await loadLibs();
  const [title, byLine, durationLine] = headerLines(ctx);

  const layout = pdfLayout(new JsPDF({ orientation: 'landscape', unit: 'pt', format: 'a4' }), headers, body);
  const doc = new JsPDF({ orientation: 'landscape', unit: 'pt', format: layout.format, compress: true });
  doc.setProperties({ title: ctx.title, author: ctx.username, creator: 'Console export' });
  doc.setCreationDate(ctx.now);

  let y = MARGIN + 8;
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(14);
  doc.text(title, MARGIN, y);
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(9);
  y += 16;
  doc.text(byLine, MARGIN, y);
  y += 12;
  doc.text(durationLine, MARGIN, y);
  y += 10;

  const columnStyles: Record<string, Partial<Styles>> = {};
  fields.forEach((f, i) => {
    columnStyles[String(i)] = { minCellWidth: layout.widths[i], ...(f.type === 'DOUBLE' ? { halign: 'right' } : {}) };
  });
  // the header cells of right-aligned columns align with their numbers (styled here rather than in a
  // didParseCell hook, which autotable would call for every cell of the body too)
  const head = [headers.map((h, i) => ({ content: h, styles: { halign: fields[i]?.type === 'DOUBLE' ? ('right' as const) : ('left' as const) } }))];

  const pageHeight = doc.internal.pageSize.getHeight();
  let expectedPages = 1;
  autoTable(doc, {
    head,
    body,
    startY: y,
    theme: 'grid',
    margin: { top: MARGIN, right: MARGIN, bottom: MARGIN + 8, left: MARGIN },
    styles: { font: 'helvetica', fontSize: layout.fontSize, cellPadding: CELL_PADDING, overflow: 'linebreak', valign: 'top', lineWidth: 0.3 },
    ...(layout.split ? { horizontalPageBreak: true, horizontalPageBreakRepeat: 0 } : {}),
    headStyles: { fontStyle: 'bold', fillColor: [229, 231, 235], textColor: 20 },
    columnStyles,
    ...(onProgress
      ? {
          // by the first page every row's height is known: the number of pages follows from them
          willDrawPage: (data) => {
            if (data.pageNumber !== 1) return;
            const usable = pageHeight - 2 * MARGIN - 8 - data.table.getHeadHeight(data.table.columns);
            const rowsHeight = data.table.body.reduce((sum, row) => sum + row.height, 0);
            expectedPages = Math.max(1, Math.ceil(rowsHeight / Math.max(1, usable)));
          },
          didDrawPage: (data) => onProgress(Math.min(1, data.pageNumber / expectedPages)),
        }
      : {}),
  });

  const pages = doc.getNumberOfPages();
  const { width, height } = doc.internal.pageSize;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(7);
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.text(`Page ${p} of ${pages}`, width - MARGIN, height - MARGIN / 2, { align: 'right' });
  }

  return new Uint8Array(doc.output('arraybuffer'));
}
