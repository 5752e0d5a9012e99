/**
 * CSV of an export (RFC 4180): fields separated by commas, records by CRLF, a field quoted when it
 * holds a comma, a double quote, CR or LF, its double quotes doubled. The cells are the exports' own
 * (formatCell: texts from the data are formula-neutralised, as in the Excel and PDF files), so a cell
 * such as `=HYPERLINK(...)` arrives as `'=HYPERLINK(...)`. Pure: the server's export jobs use it.
 */
import type { ExportCell } from './cells';

/** A UTF-8 byte order mark: spreadsheet programs then read the file as UTF-8 (names in Sinhala and Tamil). */
export const CSV_BOM = '\uFEFF';

const NEEDS_QUOTES = /[",\r\n]/;

/** One field as RFC 4180 writes it. */
export function csvField(cell: ExportCell): string {
  // a number's text never needs quotes
  if (typeof cell === 'number') return String(cell);
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One record, with its CRLF. */
export function csvRecord(cells: readonly ExportCell[]): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) out += (i === 0 ? '' : ',') + csvField(cells[i]!);
  return `${out}\r\n`;
}
