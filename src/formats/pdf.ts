import type { jsPDF as JsPDFType } from 'jspdf';
import type { ExportField } from '../api/contract';
import { headerLines, toExportTable, type ExportCell, type ExportContext, type ExportRow } from './cells';

type JsPDFModule = typeof import('jspdf');

/** jspdf's Node build is CommonJS: its API may sit on `default` rather than on the namespace. */
async function loadJsPDF(): Promise<typeof JsPDFType> {
  const pdf = (await import('jspdf')) as JsPDFModule & { default?: Partial<JsPDFModule> };
  const JsPDF = pdf.jsPDF ?? pdf.default?.jsPDF;
  if (!JsPDF) throw new Error('PDF export: jspdf could not be loaded');
  return JsPDF;
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
  const { headers, body } = toExportTable(fields, rows as ExportRow[], 'pdf', ctx.timeZone);
  return pdfOfTable(fields, headers, body, ctx);
}

/** Text lines of one cell, and how tall its row must be. */
interface LaidRow {
  cells: string[][];
  height: number;
}

const LINE_HEIGHT = 1.15;
const HEAD_FILL = [229, 231, 235] as const;
const TEXT_COLOR = 20;
const LINE_COLOR = 190;
const LINE_WIDTH = 0.3;

/**
 * The PDF of a table already formatted for it (toExportTable(…, 'pdf') or formatCell(…, 'pdf')).
 * `onProgress(fraction)` follows the rows (0 to 1).
 *
 * The table is drawn with jspdf directly rather than with jspdf-autotable: one text call per cell, the
 * font set once per row band, the grid as one line per row and per column, so a 10,000-row PDF takes
 * less time than autotable alone even though ours is compressed. What it draws is what autotable drew:
 * a grey bold header row repeated on every page, right-aligned amounts, long texts wrapped at their
 * spaces, columns at least as wide as their longest word, and a table too wide for every page format
 * continued on further pages with its first column repeated.
 */
export async function pdfOfTable(fields: ExportField[], headers: string[], body: readonly (readonly ExportCell[])[], ctx: ExportContext, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  const JsPDF = await loadJsPDF();
  const [title, byLine, durationLine] = headerLines(ctx);

  const layout = pdfLayout(new JsPDF({ orientation: 'landscape', unit: 'pt', format: 'a4' }), headers, body);
  const doc = new JsPDF({ orientation: 'landscape', unit: 'pt', format: layout.format, compress: true });
  doc.setProperties({ title: ctx.title, author: ctx.username, creator: 'Console export' });
  doc.setCreationDate(ctx.now);
  doc.setLineHeightFactor(LINE_HEIGHT);

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

  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const available = pageWidth - 2 * MARGIN;
  const bottom = pageHeight - MARGIN - 8;
  const { fontSize } = layout;
  const lineHeight = fontSize * LINE_HEIGHT;
  const right = fields.map((f) => f.type === 'DOUBLE');

  // column groups: every column on one page, or (split) the first column and as many more as fit
  const groups: number[][] = [];
  if (!layout.split) groups.push(headers.map((_, i) => i));
  else {
    let group = [0];
    let width = layout.widths[0];
    for (let c = 1; c < headers.length; c++) {
      if (group.length > 1 && width + layout.widths[c] > available) {
        groups.push(group);
        group = [0];
        width = layout.widths[0];
      }
      group.push(c);
      width += layout.widths[c];
    }
    groups.push(group);
  }
  // each column's width: its natural width, the page's spare width shared in proportion
  const widthsOf = (group: number[]) => {
    const natural = group.reduce((n, c) => n + layout.widths[c], 0);
    const grow = natural < available ? available / natural : 1;
    return group.map((c) => layout.widths[c] * grow);
  };
  const groupWidths = groups.map(widthsOf);
  // every column's narrowest width over the groups decides its lines
  const textWidth = headers.map((_, c) => Math.min(...groups.flatMap((g, gi) => g.map((cc, k) => (cc === c ? groupWidths[gi][k] : Infinity)))) - 2 * CELL_PADDING);

  /** The lines of a text in column c; measured only when it may not fit. */
  const widestChar = fontSize * 1.02; // no Helvetica glyph is wider ('@' is 1.015 em)
  const linesOf = (text: string, c: number): string[] => {
    if (text === '') return [''];
    const width = textWidth[c];
    if (!text.includes('\n') && (text.length * widestChar <= width || doc.getStringUnitWidth(text) * fontSize <= width)) return [text];
    return doc.splitTextToSize(text, width) as string[];
  };
  const maxLines = Math.max(1, Math.floor((bottom - MARGIN - 4 * lineHeight) / lineHeight));
  const lay = (cells: readonly ExportCell[], bold: boolean): LaidRow => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.setFontSize(fontSize);
    let most = 1;
    const out = headers.map((_, c) => {
      let lines = linesOf(String(cells[c] ?? ''), c);
      if (lines.length > maxLines) lines = [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1]}…`];
      most = Math.max(most, lines.length);
      return lines;
    });
    return { cells: out, height: most * lineHeight + 2 * CELL_PADDING };
  };

  const head = lay(headers, true);
  const rows: LaidRow[] = new Array(body.length);
  for (let r = 0; r < body.length; r++) {
    rows[r] = lay(body[r], false);
    if (onProgress && r % 500 === 499) onProgress((0.5 * (r + 1)) / body.length);
  }

  // the row bands: which rows go on one page (the header row on top of every page)
  const bands: [start: number, end: number][] = [];
  {
    let start = 0;
    let top = y + head.height;
    for (let r = 0; r < rows.length; r++) {
      if (top + rows[r].height > bottom && r > start) {
        bands.push([start, r]);
        start = r;
        top = MARGIN + head.height;
      }
      top += rows[r].height;
    }
    if (start < rows.length || bands.length === 0) bands.push([start, rows.length]);
  }

  const drawRow = (row: LaidRow, group: number[], widths: number[], top: number) => {
    let x = MARGIN;
    const baseline = top + CELL_PADDING + fontSize * 0.8;
    for (let k = 0; k < group.length; k++) {
      const c = group[k];
      const lines = row.cells[c];
      if (lines.length > 1 || lines[0] !== '') {
        if (right[c]) doc.text(lines, x + widths[k] - CELL_PADDING, baseline, { align: 'right' });
        else doc.text(lines, x + CELL_PADDING, baseline);
      }
      x += widths[k];
    }
  };

  let drawnRows = 0;
  const totalDraws = Math.max(1, rows.length * groups.length);
  let first = true;
  for (const [start, end] of bands) {
    for (let gi = 0; gi < groups.length; gi++) {
      const group = groups[gi];
      const widths = groupWidths[gi];
      const tableWidth = widths.reduce((a, b) => a + b, 0);
      if (!first) doc.addPage();
      const top = first ? y : MARGIN;
      first = false;

      // header row: grey, bold
      doc.setFillColor(...HEAD_FILL);
      doc.rect(MARGIN, top, tableWidth, head.height, 'F');
      doc.setTextColor(TEXT_COLOR);
      doc.setFont('helvetica', 'bold');
      doc.setFontSize(fontSize);
      drawRow(head, group, widths, top);

      // body rows, then the grid over the band
      doc.setFont('helvetica', 'normal');
      const rowTops: number[] = [top + head.height];
      let rowTop = top + head.height;
      for (let r = start; r < end; r++) {
        drawRow(rows[r], group, widths, rowTop);
        rowTop += rows[r].height;
        rowTops.push(rowTop);
      }
      doc.setDrawColor(LINE_COLOR);
      doc.setLineWidth(LINE_WIDTH);
      doc.line(MARGIN, top, MARGIN + tableWidth, top);
      for (const t of rowTops) doc.line(MARGIN, t, MARGIN + tableWidth, t);
      let x = MARGIN;
      doc.line(x, top, x, rowTop);
      for (const w of widths) {
        x += w;
        doc.line(x, top, x, rowTop);
      }
      drawnRows += end - start;
      onProgress?.(0.5 + (0.5 * drawnRows) / totalDraws);
    }
  }

  const pages = doc.getNumberOfPages();
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(7);
  doc.setTextColor(TEXT_COLOR);
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.text(`Page ${p} of ${pages}`, pageWidth - MARGIN, pageHeight - MARGIN / 2, { align: 'right' });
  }

  return new Uint8Array(doc.output('arraybuffer'));
}
