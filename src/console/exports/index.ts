/**
 * Excel and PDF exports of the console's tables.
 *
 * exceljs, jspdf and jspdf-autotable are only ever loaded with a dynamic `import()` inside the build
 * functions (see ./excel.ts and ./pdf.ts), so Vite puts them in their own lazy chunks.
 */
import type { ExportField } from '@/api/contract';
import { buildExcel } from './excel';
import { buildPdf } from './pdf';
import { exportFileName, type ExportContext, type ExportRow } from './format';

export {
  DATE_TIME_FORMAT,
  DOUBLE_NUM_FMT,
  exportFileName,
  formatCell,
  formatDateValue,
  formatDouble,
  formatValue,
  headerLines,
  isFormulaLike,
  neutralizeFormula,
  sheetName,
  toExportTable,
} from './format';
export type { ExportCell, ExportContext, ExportRow, ExportTable, ExportTarget } from './format';
export { buildExcel } from './excel';
export { buildPdf } from './pdf';

const MIME = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

/** Builds the file and makes the browser download it (Blob + `<a download>`). Browser only. */
export async function downloadExport(
  kind: 'xlsx' | 'pdf',
  fields: ExportField[],
  rows: ExportRow[],
  ctx: ExportContext,
): Promise<void> {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') {
    throw new Error('downloadExport runs in a browser only');
  }
  const bytes = kind === 'xlsx' ? await buildExcel(fields, rows, ctx) : await buildPdf(fields, rows, ctx);
  const blob = new Blob([bytes.slice()], { type: MIME[kind] });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName(ctx, kind);
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // give the browser time to start the download before the object URL goes
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
