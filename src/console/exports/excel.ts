import type { ExportField } from '@/api/contract';
import type { ExportContext, ExportRow } from '../../formats/cells';
import { concatChunks, XlsxWriter } from '../../formats/xlsx';

/**
 * Builds the .xlsx in one go (the worker streams the same writer block by block): title, 'On … by …',
 * 'Duration: …', a blank row, then the table (bold header, frozen below it).
 */
export async function buildExcel(fields: ExportField[], rows: readonly ExportRow[], ctx: ExportContext): Promise<Uint8Array> {
  const writer = new XlsxWriter(fields, ctx);
  for (let i = 0; i < rows.length; i++) {
    writer.addRow(fields.map((f) => rows[i]?.[f.dataKey]));
    if (i % 1000 === 999) await writer.ready();
  }
  return concatChunks(await writer.finish());
}
