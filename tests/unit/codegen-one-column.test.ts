/**
 * Adding a column is one line: the fixture's after.ts is its before.ts plus one column line, and the
 * table header, the Excel header, the PDF header and the generated spec all show the new column.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyListScreen } from '../../src/definitions/definitions';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { buildExcel, buildPdf, type ExportContext } from '../../src/console/exports';
import { DataTable } from '../../src/console/views/DataTable';
import { generateScreenSpecs } from '../../codegen/build';
import { settlementsScreen as before } from '../fixtures/one-column/before';
import { settlementsScreen as after } from '../fixtures/one-column/after';

const BEFORE = 'tests/fixtures/one-column/before.ts';
const AFTER = 'tests/fixtures/one-column/after.ts';
const NEW_HEADER = 'Commission';

const rows = [
  { id: 1, bank: 'Ceylon Bank', amount: 1250.5, commission: 12.5, settled_at: '2026-11-22T09:00:00', status: 'Active', locked: 0 },
  { id: 2, bank: 'Lanka Trust', amount: 80, commission: 0.8, settled_at: '2026-11-22T10:30:00', status: 'Held', locked: 0 },
];
const ctx: ExportContext = { title: 'Settlements', fileBase: 'Settlements', username: 'analyst', now: new Date(2026, 10, 22, 12, 0, 0), timeZone: 'Asia/Colombo' };

/** The lines only in `b` and only in `a` (a longest-common-subsequence diff). */
function lineDiff(a: string[], b: string[]): { added: string[]; removed: string[] } {
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) removed.push(a[i++]);
    else added.push(b[j++]);
  }
  removed.push(...a.slice(i));
  added.push(...b.slice(j));
  return { added, removed };
}

function tableHeaders(screen: AnyListScreen): string[] {
  const html = renderToString(createElement(DataTable<Record<string, unknown>>, { columns: screen.columns, rows, pageSize: screen.pageSize ?? 50, defaultSort: screen.defaultSort }));
  return [...html.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) =>
    m[1]
      .replace(/<span aria-hidden="true"[^>]*>[\s\S]*?<\/span>/g, '')
      .replace(/<[^>]+>/g, '')
      .replace(/<!-- -->/g, '')
      .trim(),
  );
}

async function excelHeaders(screen: AnyListScreen): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await buildExcel(exportFieldsOf(screen), rows, ctx)) as unknown as ExcelJS.Buffer);
  const ws = wb.worksheets[0];
  let headerRow = 0;
  ws.eachRow((row, n) => {
    if (!headerRow && row.getCell(1).value === 'ID') headerRow = n;
  });
  const values = ws.getRow(headerRow).values as unknown[];
  return values.slice(1).map(String);
}

async function pdfText(screen: AnyListScreen): Promise<string> {
  const bytes = await buildPdf(exportFieldsOf(screen), rows, ctx);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/' }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await doc.destroy();
  return parts.join('\n');
}

describe('adding a column is one line', () => {
  it('after.ts is before.ts plus one line: the column', () => {
    const diff = lineDiff(readFileSync(BEFORE, 'utf8').split('\n'), readFileSync(AFTER, 'utf8').split('\n'));
    expect(diff.removed).toEqual([]);
    expect(diff.added).toEqual([`    { key: 'commission', header: '${NEW_HEADER}', kind: 'amount' },`]);
  });

  it('the table header shows it, in place', () => {
    expect(tableHeaders(before)).toEqual(['ID', 'Bank', 'Amount', 'Settled At', 'Status']);
    expect(tableHeaders(after)).toEqual(['ID', 'Bank', 'Amount', NEW_HEADER, 'Settled At', 'Status']);
  });

  it('the Excel header shows it', async () => {
    expect(await excelHeaders(before)).toEqual(['ID', 'Bank', 'Amount', 'Settled At', 'Status']);
    expect(await excelHeaders(after)).toEqual(['ID', 'Bank', 'Amount', NEW_HEADER, 'Settled At', 'Status']);
  });

  it('the PDF header shows it', async () => {
    expect(await pdfText(before)).not.toContain(NEW_HEADER);
    const text = await pdfText(after);
    expect(text).toContain(NEW_HEADER);
    expect(text).toContain('12.50'); // the new column's amount, with 2 decimals
  });

  describe('the generated spec shows it', () => {
    let specBefore = '';
    let specAfter = '';
    beforeAll(async () => {
      specBefore = (await generateScreenSpecs({ files: [BEFORE] })).get('fixture.settlements')!;
      // after.ts imported in place of before.ts, as when an analyst edits before.ts (nothing is written)
      specAfter = (await generateScreenSpecs({ files: [BEFORE], overrides: { [BEFORE]: AFTER } })).get('fixture.settlements')!;
    });

    it('as a row of the columns table and of the export columns, and nothing else changes', () => {
      expect(specBefore).toBeTruthy();
      const diff = lineDiff(specBefore.split('\n'), specAfter.split('\n'));
      expect(diff.removed).toEqual([]);
      expect(diff.added).toEqual([
        `| ${NEW_HEADER} | \`commission\` | amount | 2 decimals with thousands separators, right-aligned; '-' when empty | yes | DOUBLE |   |`,
        `| ${NEW_HEADER} | \`commission\` | DOUBLE |`,
      ]);
    });

    it('with the rest of the definition read from source', () => {
      expect(specAfter).toMatch(/^<!-- generated by npm run codegen; do not edit -->\n# Settlements\n/);
      expect(specAfter).toContain('| Route | `/fixture/settlements` |');
      expect(specAfter).toContain('- Call: `POST /api/fixture/settlement/list` (`settlementList`) — any of `settlement-report-view`');
      expect(specAfter).toContain('| text | `bank` | Bank | at most 30 characters |');
      expect(specAfter).toContain('| Default sort | `settled_at` descending |');
      expect(specAfter).toContain('- Guard: `isUnlocked` (`src/domain/guards.ts`) — The row is open for a new change');
      expect(specAfter).toContain('- Excel: `Settlements_yyyy-MM-dd_HH-mm-ss.xlsx`');
    });
  });
});
