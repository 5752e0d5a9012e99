/**
 * Excel and PDF exports of the console's tables.
 *
 * The page exports through ./client.ts: a Web Worker (./worker.ts) builds the file, off the main
 * thread, with ./job.ts. buildExcel / buildPdf build a file in one go (tests, small tables); jspdf is
 * only ever loaded with a dynamic `import()`, and the xlsx is written by src/formats/xlsx.ts (fflate), so none of
 * them is in the first load.
 */
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
  listItemsText,
  neutralizeFormula,
  sheetName,
  toExportTable,
} from '../../formats/cells';
export type { ExportCell, ExportContext, ExportRow, ExportTable, ExportTarget, ItemFields } from '../../formats/cells';
export { buildExcel } from './excel';
export { buildPdf } from '../../formats/pdf';
export { ExportJob, EXPORT_MIME, type ExportJobSpec, type ExportKind, type ExportResult } from './job';
export { PDF_MAX_ROWS } from '../../definitions/exportLimits';
