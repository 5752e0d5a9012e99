/** Reading back what the browser downloaded: an Excel sheet as lines, a PDF as text (exceljs, pdfjs-dist). */
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Download } from 'playwright-core';

const pad = (n: number) => String(n).padStart(2, '0');
/**
 * A cell as it reads in the sheet: a date cell (Excel's dates carry no zone; exceljs reads them as UTC)
 * as its wall clock 'yyyy-MM-dd HH:mm:ss', as its number format shows it.
 */
function cellText(v: unknown): string {
  if (v instanceof Date) {
    return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
  }
  return String(v ?? '');
}

/** The first sheet's rows, each its cells joined with '|' (date cells as their wall clock). */
export async function sheetLines(download: Download): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(readFileSync(await download.path()) as never);
  const lines: string[] = [];
  wb.worksheets[0].eachRow((r) => lines.push((r.values as unknown[]).slice(1).map(cellText).join('|')));
  return lines;
}

/** The PDF's text, page after page, and how many pages it has. */
export async function pdfText(download: Download): Promise<{ pages: number; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const doc = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(await download.path())), isEvalSupported: false, standardFontDataUrl: join(root, 'standard_fonts') + '/' }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str + (item.hasEOL ? '\n' : ' '));
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text: parts.join('') };
}
