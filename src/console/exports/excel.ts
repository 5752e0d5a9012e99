import type * as ExcelJSTypes from 'exceljs';
import type { ExportField } from '@/api/contract';
import {
  DOUBLE_NUM_FMT,
  formatDouble,
  headerLines,
  safeText,
  sheetName,
  toExportTable,
  type ExportCell,
  type ExportContext,
  type ExportRow,
} from './format';

type ExcelJSModule = typeof ExcelJSTypes;

/** exceljs is CommonJS (Node) / UMD (browser build): its API sits on `default` or on the namespace. */
async function loadExcelJS(): Promise<ExcelJSModule> {
  const mod = (await import('exceljs')) as ExcelJSModule & { default?: ExcelJSModule };
  return mod.default && typeof mod.default.Workbook === 'function' ? mod.default : mod;
}

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

function displayLength(cell: ExportCell, field: ExportField): number {
  const text = typeof cell === 'number' ? (field.type === 'DOUBLE' ? formatDouble(cell) : String(cell)) : cell;
  return text.split('\n').reduce((m, line) => Math.max(m, line.length), 0);
}

/** Builds the .xlsx: title, 'On … by …', 'Duration: …', a blank row, then the table (bold header, frozen below it). */
export async function buildExcel(fields: ExportField[], rows: ExportRow[], ctx: ExportContext): Promise<Uint8Array> {
  const ExcelJS = await loadExcelJS();
  const { headers, body } = toExportTable(fields, rows, 'xlsx');
  const [title, byLine, durationLine] = headerLines(ctx);

  const wb = new ExcelJS.Workbook();
  wb.creator = ctx.username;
  wb.created = ctx.now;
  wb.modified = ctx.now;
  wb.title = ctx.title;
  const ws = wb.addWorksheet(sheetName(ctx.title));

  // Every value below is a plain string or number: never a `{ formula }` object, so exceljs writes no formula.
  const titleCell = ws.getCell(1, 1);
  titleCell.value = safeText(title);
  titleCell.font = { bold: true, size: 14 };
  ws.getCell(2, 1).value = safeText(byLine);
  ws.getCell(3, 1).value = safeText(durationLine);

  const headerRowNo = 5;
  const headerRow = ws.getRow(headerRowNo);
  headers.forEach((h, i) => {
    const cell = headerRow.getCell(i + 1);
    cell.value = h;
    cell.font = { bold: true };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE5E7EB' } };
    cell.border = { bottom: { style: 'thin' } };
    cell.alignment = { vertical: 'middle', horizontal: fields[i].type === 'DOUBLE' ? 'right' : 'left' };
  });

  body.forEach((cells, r) => {
    const row = ws.getRow(headerRowNo + 1 + r);
    cells.forEach((value, c) => {
      const cell = row.getCell(c + 1);
      cell.value = value;
      const field = fields[c];
      if (typeof value === 'number') {
        if (field.type === 'DOUBLE') cell.numFmt = DOUBLE_NUM_FMT;
      } else if (value.includes('\n')) {
        cell.alignment = { wrapText: true, vertical: 'top' };
      }
    });
  });

  fields.forEach((field, c) => {
    let width = headers[c].length;
    for (const cells of body) width = Math.max(width, displayLength(cells[c], field));
    ws.getColumn(c + 1).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width + 2));
  });

  ws.views = [{ state: 'frozen', xSplit: 0, ySplit: headerRowNo, topLeftCell: `A${headerRowNo + 1}`, activeCell: `A${headerRowNo + 1}` }];

  // exceljs types this as its own `Buffer extends ArrayBuffer`; at run time it is a Node Buffer or a Uint8Array.
  const out = (await wb.xlsx.writeBuffer()) as unknown as Uint8Array | ArrayBuffer;
  // Node gives a Buffer, the browser build an ArrayBuffer-like: hand back a plain Uint8Array either way.
  if (out instanceof Uint8Array) return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  return new Uint8Array(out);
}
