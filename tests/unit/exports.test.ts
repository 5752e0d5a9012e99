import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ExportField } from '@/api/contract';
import { buildExcel, buildPdf, exportFileName, formatDouble, sheetName, toExportTable, type ExportContext, type ExportRow } from '@/console/exports';

const now = new Date(Date.UTC(2026, 10, 22, 3, 35, 7)); // 2026-11-22 09:05:07 in Colombo (UTC+05:30)
const ctx: ExportContext = {
  title: 'Users',
  fileBase: 'Users',
  username: 'alice',
  now,
  timeZone: 'Asia/Colombo',
  duration: '2026-11-22 00:00:01 to 2026-11-22 23:59:59',
};

const fields: ExportField[] = [
  { header: 'Name', dataKey: 'name', type: 'STRING' },
  { header: 'Amount', dataKey: 'amount', type: 'DOUBLE' },
  { header: 'Count', dataKey: 'count', type: 'INTEGER' },
  { header: 'Created', dataKey: 'createdAt', type: 'DATE' },
  { header: 'Active', dataKey: 'active', type: 'BOOLEAN' },
  { header: 'Roles', dataKey: 'roles', type: 'STRING' },
];

const rows: ExportRow[] = [
  { name: '=1+2', amount: 1234.5, count: 3, createdAt: '2026-11-22T10:20:30', active: true, roles: ['ADMIN', 'VIEWER'] },
  { name: '+SUM(A1)', amount: -987.654, count: -4, createdAt: '0001-01-01T00:00:00', active: false, roles: [] },
  { name: '@x', amount: null, count: null, createdAt: null, active: null, roles: null },
  { name: '-5', amount: 0, count: 0, createdAt: 'not a date', active: 'true', roles: [{ code: 'A', level: 1 }, { code: 'B' }] },
  { name: 'Bob', amount: '42.1', count: '7', createdAt: '2026-01-02T03:04:05Z', active: 0, roles: { team: 'Ops', site: 'HQ' } },
  { name: '\tcmd', amount: 1, count: 1, createdAt: undefined, active: true, roles: ['\rx'] },
];

const DANGEROUS = ['=1+2', '+SUM(A1)', '@x', '-5', '\tcmd'];

describe('exportFileName', () => {
  it('stamps the base with now', () => {
    expect(exportFileName(ctx, 'xlsx')).toBe('Users_2026-11-22_09-05-07.xlsx');
    expect(exportFileName(ctx, 'pdf')).toBe('Users_2026-11-22_09-05-07.pdf');
  });
  it('replaces characters no file system accepts', () => {
    expect(exportFileName({ ...ctx, fileBase: 'a/b:c' }, 'pdf')).toBe('a_b_c_2026-11-22_09-05-07.pdf');
  });
  it('stamps it in the business time zone, not the zone of the process', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(exportFileName(ctx, 'xlsx')).toBe('Users_2026-11-22_09-05-07.xlsx');
      // 22:18 UTC: the next day in Colombo, the same day in New York
      const late = new Date(Date.UTC(2026, 10, 19, 22, 18, 0));
      expect(exportFileName({ ...ctx, now: late }, 'pdf')).toBe('Users_2026-11-20_03-48-00.pdf');
      expect(exportFileName({ ...ctx, now: late, timeZone: 'America/New_York' }, 'pdf')).toBe('Users_2026-11-19_17-18-00.pdf');
    } finally {
      process.env.TZ = saved;
    }
  });
});

describe('toExportTable', () => {
  it('formats cells by type, in fields order', () => {
    const t = toExportTable(fields, rows, 'csv', 'Asia/Colombo');
    expect(t.headers).toEqual(['Name', 'Amount', 'Count', 'Created', 'Active', 'Roles']);
    expect(t.body[0]).toEqual(["'=1+2", 1234.5, 3, '2026-11-22 10:20:30', 'Yes', 'ADMIN, VIEWER']);
    // for Excel a date is a date number (days since 1899-12-30) of the same wall clock; '-' stays text
    const x = toExportTable(fields, rows, 'xlsx', 'Asia/Colombo');
    expect(x.body[0][3]).toBeCloseTo(46348 + (10 * 3600 + 20 * 60 + 30) / 86400, 9);
    expect(x.body[1][3]).toBe('-');
    // negative numbers stay numbers; year < 1000 → '-'; empty array → ''
    expect(t.body[1]).toEqual(["'+SUM(A1)", -987.654, -4, '-', 'No', '']);
    expect(t.body[2]).toEqual(["'@x", '', '', '', '', '']);
    // unparseable date → '-'; arrays of objects → one line per object
    expect(t.body[3]).toEqual(["'-5", 0, 0, '-', 'Yes', 'code: A, level: 1\ncode: B']);
    // numeric strings in number columns become numbers; UTC ISO rendered in the business zone; objects as key: value
    expect(t.body[4]).toEqual(['Bob', 42.1, 7, '2026-01-02 08:34:05', 'No', 'team: Ops, site: HQ']);
    expect(toExportTable(fields, rows, 'csv', 'America/New_York').body[4][3]).toBe('2026-01-01 22:04:05');
    expect(t.body[5]).toEqual(["'\tcmd", 1, 1, '', 'Yes', "'\rx"]);
  });

  it('gives DOUBLE as a 2-decimal string with thousands separators for the PDF', () => {
    const t = toExportTable(fields, rows, 'pdf', 'Asia/Colombo');
    expect(t.body.map((r) => r[1])).toEqual(['1,234.50', '-987.65', '', '0.00', '42.10', '1.00']);
    expect(t.body[1][2]).toBe(-4);
    expect(formatDouble(-0.001)).toBe('0.00');
    expect(formatDouble(1234567.891)).toBe('1,234,567.89');
  });

  it('neutralises non-numeric text in number columns but not negative numbers', () => {
    const t = toExportTable([{ header: 'Amount', dataKey: 'a', type: 'DOUBLE' }], [{ a: '=HYPERLINK("x")' }, { a: '-12.5' }, { a: -12.5 }], 'xlsx', 'Asia/Colombo');
    expect(t.body).toEqual([[`'=HYPERLINK("x")`], [-12.5], [-12.5]]);
  });

  it('makes Excel-safe sheet names', () => {
    expect(sheetName('Users')).toBe('Users');
    expect(sheetName('a[b]:c*d?e/f\\g')).toBe('a b c d e f g');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('[]')).toBe('Sheet1');
  });
});

describe('buildExcel', () => {
  it('writes the header lines, a bold header row and no formulas', async () => {
    const bytes = await buildExcel(fields, rows, ctx);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes[0]).toBe(0x50); // 'PK' zip
    expect(bytes[1]).toBe(0x4b);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets).toHaveLength(1);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Users');

    expect(ws.getCell('A1').value).toBe('Users');
    expect(ws.getCell('A2').value).toBe('On 2026-11-22 09:05:07 by alice. Times in Asia/Colombo (UTC+05:30)');
    expect(ws.getCell('A3').value).toBe('Duration: 2026-11-22 00:00:01 to 2026-11-22 23:59:59');

    // find the header row
    let headerRowNo = 0;
    ws.eachRow((row, n) => {
      if (!headerRowNo && row.getCell(1).value === 'Name') headerRowNo = n;
    });
    expect(headerRowNo).toBeGreaterThan(3);
    const headerRow = ws.getRow(headerRowNo);
    expect(fields.map((_, i) => headerRow.getCell(i + 1).value)).toEqual(fields.map((f) => f.header));
    for (let i = 1; i <= fields.length; i++) expect(headerRow.getCell(i).font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: headerRowNo });

    // no formula anywhere
    let cells = 0;
    ws.eachRow({ includeEmpty: false }, (row) =>
      row.eachCell({ includeEmpty: false }, (cell) => {
        cells++;
        expect(cell.formula).toBeUndefined();
        expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      }),
    );
    expect(cells).toBeGreaterThan(30);

    // dangerous strings: text with a leading quote
    const names = rows.map((_, r) => ws.getCell(headerRowNo + 1 + r, 1));
    for (const [i, cell] of names.entries()) {
      const raw = rows[i].name as string;
      if (DANGEROUS.includes(raw)) {
        expect(cell.type).toBe(ExcelJS.ValueType.String);
        expect(cell.value).toBe(`'${raw}`);
      }
    }
    expect(ws.getCell(headerRowNo + 5, 1).value).toBe('Bob');
    // (XML parsing turns the CR into LF; what matters is the leading quote on a text cell)
    const cr = ws.getCell(headerRowNo + 6, 6);
    expect(cr.type).toBe(ExcelJS.ValueType.String);
    expect(String(cr.value)).toMatch(/^'[\r\n]x$/);

    // DOUBLE: numbers with '#,##0.00', the negative one included
    const amount = ws.getCell(headerRowNo + 1, 2);
    expect(amount.type).toBe(ExcelJS.ValueType.Number);
    expect(amount.value).toBe(1234.5);
    expect(amount.numFmt).toBe('#,##0.00');
    const negative = ws.getCell(headerRowNo + 2, 2);
    expect(negative.type).toBe(ExcelJS.ValueType.Number);
    expect(negative.value).toBe(-987.654);
    expect(negative.numFmt).toBe('#,##0.00');
    // INTEGER negative stays a number
    expect(ws.getCell(headerRowNo + 2, 3).value).toBe(-4);
    // null → empty cell, array joined, date formatted
    expect(ws.getCell(headerRowNo + 3, 2).value ?? '').toBe('');
    expect(ws.getCell(headerRowNo + 1, 6).value).toBe('ADMIN, VIEWER');
    // a real Excel date holding the business zone's wall clock (exceljs reads it as that time in UTC)
    expect(ws.getCell(headerRowNo + 1, 4).type).toBe(ExcelJS.ValueType.Date);
    expect(ws.getCell(headerRowNo + 1, 4).value).toEqual(new Date('2026-11-22T10:20:30Z'));
    expect(ws.getCell(headerRowNo + 1, 4).numFmt).toBe('yyyy-mm-dd hh:mm:ss');

    // widths from content, capped
    for (let i = 1; i <= fields.length; i++) {
      const w = ws.getColumn(i).width ?? 0;
      expect(w).toBeGreaterThanOrEqual(8);
      expect(w).toBeLessThanOrEqual(60);
    }
  });

  it("reads 'Duration: -' without a duration and sanitises the sheet name", async () => {
    const bytes = await buildExcel(fields, [], { ...ctx, title: 'Remit: [all]/today?', duration: undefined });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Remit all today');
    expect(ws.getCell('A1').value).toBe('Remit: [all]/today?');
    expect(ws.getCell('A3').value).toBe('Duration: -');
  });
});

async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const doc = await pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
  }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const content = await page.getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str + (item.hasEOL ? '\n' : ' '));
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text: parts.join('') };
}

describe('buildPdf', () => {
  it('writes the header lines, the table and page numbers', async () => {
    const bytes = await buildPdf(fields, rows, ctx);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Users');
    expect(text).toContain('On 2026-11-22 09:05:07 by alice. Times in Asia/Colombo (UTC+05:30)');
    expect(text).toContain('Duration: 2026-11-22 00:00:01 to 2026-11-22 23:59:59');
    for (const f of fields) expect(text).toContain(f.header);
    expect(text).toContain('1,234.50');
    expect(text).toContain('-987.65');
    expect(text).toContain("'=1+2");
    expect(text).toContain("'+SUM(A1)");
    expect(text).toContain('2026-11-22 10:20:30');
    expect(text).toContain('ADMIN, VIEWER');
    expect(text).toContain('Page 1 of 1');
  });

  it('numbers every page of a long table', async () => {
    const many: ExportRow[] = Array.from({ length: 200 }, (_, i) => ({ name: `User ${i}`, amount: i * 1000.25, count: i }));
    const { pages, text } = await pdfText(await buildPdf(fields, many, { ...ctx, duration: undefined }));
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Duration: -');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('199,049.75');
  });
});
