/**
 * The streaming xlsx writer (src/formats/xlsx.ts) read back with exceljs: values, types, number
 * formats, neutralised formulas, one row and many, unicode, XML specials and control characters; the zip
 * itself checked entry by entry (CRC and size against zlib); the CRC helpers; the fast ISO date path
 * against date-fns; and the export job the worker runs (list columns, progress, both kinds).
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { crc32 as zlibCrc32, deflateRawSync, gzipSync, inflateRawSync } from 'node:zlib';
import { format, isValid, parseISO } from 'date-fns';
import type { ExportField } from '@/api/contract';
import { XlsxWriter, concatChunks, storedBlocks, columnLetters, gzipHeaderLength } from '@/formats/xlsx';
import { XlsxStreamWriter } from '@/formats/xlsx';
import { crc32, crc32Combine } from '@/formats/crc32';
import { formatDateValue } from '@/formats/cells';
import { ExportJob } from '@/console/exports/job';
import { valueChunks } from '@/console/exports/client';
import { exportRowsOf } from '@/console/listController';
import { insuranceScreen } from '@screens/transactions';
import { exportFieldsOf } from '@/definitions/exportFields';
import { itemFieldsOf } from '@/console/views/ExportProgress';

// 09:05:07 in the business time zone (Colombo, UTC+05:30), whatever the zone of the process
const ctx = {
  title: 'Payments & <Refunds>',
  fileBase: 'payments',
  username: 'alice',
  now: new Date(Date.UTC(2026, 10, 22, 3, 35, 7)),
  timeZone: 'Asia/Colombo',
  duration: '2026-11-22 00:00:01 to 2026-11-22 23:59:59',
};

const fields: ExportField[] = [
  { header: 'ID', dataKey: 'id', type: 'INTEGER' },
  { header: 'Name', dataKey: 'name', type: 'STRING' },
  { header: 'Amount', dataKey: 'amount', type: 'DOUBLE' },
  { header: 'Created', dataKey: 'created', type: 'DATE' },
  { header: 'Active', dataKey: 'active', type: 'BOOLEAN' },
];

async function build(rows: unknown[][], options?: ConstructorParameters<typeof XlsxWriter>[2], f = fields): Promise<Uint8Array> {
  const writer = new XlsxWriter(f, ctx, options);
  for (const r of rows) writer.addRow(r);
  return concatChunks(await writer.finish());
}

async function sheetOf(bytes: Uint8Array): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
  expect(wb.worksheets).toHaveLength(1);
  return wb.worksheets[0];
}

/** Every zip entry: its name, and whether its CRC and size match its inflated data. */
function zipEntries(bytes: Uint8Array): { name: string; crcOk: boolean; sizeOk: boolean; text: string }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = bytes.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  expect(eocd).toBeGreaterThanOrEqual(0);
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    expect(view.getUint32(local, true)).toBe(0x04034b50);
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(dataAt, dataAt + compressed);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    out.push({ name, crcOk: zlibCrc32(data) === crc, sizeOk: data.length === size, text: data.toString('utf8') });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

describe('XlsxStreamWriter (the server export jobs)', () => {
  it('streams sheets of sheetRows rows each (header row repeated), the same cells as XlsxWriter, every zip entry sound', async () => {
    const rows = Array.from({ length: 23 }, (_, i) => [i + 1, i === 4 ? '=HYPERLINK("x")' : `name ${i} & <b>`, 1234.5 + i, '2026-11-22T03:35:07Z', i % 2 === 0]);
    const out: Uint8Array[] = [];
    const writer = new XlsxStreamWriter(fields, ctx, (chunk) => out.push(chunk.slice()), { sheetRows: 10 });
    writer.measure(rows.slice(0, 5));
    // arrives as it is written: the first sheet's bytes before the last row is added
    await writer.addRows(rows.slice(0, 12));
    expect(out.length).toBeGreaterThan(0);
    await writer.addRows(rows.slice(12));
    expect(writer.rows).toBe(23);
    await writer.finish();
    const bytes = concatChunks(out);
    const entries = zipEntries(bytes);
    expect(entries.every((e) => e.crcOk && e.sizeOk)).toBe(true);
    expect(
      entries
        .map((e) => e.name)
        .filter((n) => n.startsWith('xl/worksheets/'))
        .sort(),
    ).toEqual(['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet3.xml']);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Payments & <Refunds>', 'Payments & <Refunds> (2)', 'Payments & <Refunds> (3)']);
    const [first, second, last] = wb.worksheets;
    expect(String(first!.getRow(1).getCell(1).value)).toBe('Payments & <Refunds>');
    expect(String(first!.getRow(2).getCell(1).value)).toMatch(/^On .* by alice/);
    expect(String(first!.getRow(3).getCell(1).value)).toBe('Duration: 2026-11-22 00:00:01 to 2026-11-22 23:59:59');
    expect((first!.getRow(5).values as unknown[]).slice(1)).toEqual(fields.map((f) => f.header));
    // sheet 1: the 4 lead rows, the header, 5 records; then 9 records under a header row each
    expect(first!.getRow(10).getCell(1).value).toBe(5);
    expect((second!.getRow(1).values as unknown[]).slice(1)).toEqual(fields.map((f) => f.header));
    expect(second!.getRow(2).getCell(1).value).toBe(6);
    expect(last!.getRow(10).getCell(1).value).toBe(23);
    expect(last!.actualRowCount).toBe(10);
    // the cells are XlsxWriter's: formula neutralised, amounts numbers, times in the business zone
    const one = await sheetOf(await build(rows.slice(0, 6)));
    for (let c = 1; c <= fields.length; c++) {
      expect(first!.getRow(10).getCell(c).value).toEqual(one.getRow(10).getCell(c).value);
      expect(first!.getRow(9).getCell(c).value).toEqual(one.getRow(9).getCell(c).value);
    }
    expect(String(first!.getRow(10).getCell(2).value)).toMatch(/^[^=].*=HYPERLINK\("x"\)$/);
    expect(first!.getRow(10).getCell(3).value).toBe(1238.5);
    expect(first!.getRow(10).getCell(3).numFmt).toBe(one.getRow(10).getCell(3).numFmt);
  });
});

describe('XlsxWriter', () => {
  it('writes the header lines, a styled frozen header row and typed cells', async () => {
    const ws = await sheetOf(
      await build([
        [1, 'Alice', 1234.5, '2026-11-22T10:20:30', true],
        [-2, '=1+2', -987.654, 'not a date', 'no'],
        [3, null, null, null, null],
      ]),
    );
    expect(ws.name).toBe('Payments & <Refunds>'); // escaped in workbook.xml
    expect(ws.getCell('A1').value).toBe('Payments & <Refunds>');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A1').font?.size).toBe(14);
    expect(ws.getCell('A2').value).toBe('On 2026-11-22 09:05:07 by alice. Times in Asia/Colombo (UTC+05:30)');
    expect(ws.getCell('A3').value).toBe('Duration: 2026-11-22 00:00:01 to 2026-11-22 23:59:59');
    expect(ws.getRow(4).cellCount).toBe(0);
    expect((ws.getRow(5).values as unknown[]).slice(1)).toEqual(['ID', 'Name', 'Amount', 'Created', 'Active']);
    for (let c = 1; c <= 5; c++) {
      const cell = ws.getCell(5, c);
      expect(cell.font?.bold).toBe(true);
      expect(cell.fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE5E7EB' } });
      expect(cell.border?.bottom?.style).toBe('thin');
      expect(cell.alignment?.horizontal).toBe(c === 3 ? 'right' : 'left');
    }
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 5, topLeftCell: 'A6' });

    // numbers stay numbers; amounts carry '#,##0.00'
    expect(ws.getCell('A6').type).toBe(ExcelJS.ValueType.Number);
    expect(ws.getCell('A7').value).toBe(-2);
    expect(ws.getCell('C6').value).toBe(1234.5);
    expect(ws.getCell('C6').numFmt).toBe('#,##0.00');
    expect(ws.getCell('C7').value).toBe(-987.654);
    expect(ws.getCell('C7').numFmt).toBe('#,##0.00');
    // dates: real Excel dates of the wall clock the console shows, formatted as it shows them
    // (a sheet sorts and filters them); unreadable ones '-'; booleans Yes/No
    expect(ws.getCell('D6').type).toBe(ExcelJS.ValueType.Date);
    expect(ws.getCell('D6').value).toEqual(new Date('2026-11-22T10:20:30Z'));
    expect(ws.getCell('D6').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(ws.getCell('D7').value).toBe('-');
    expect(ws.getCell('E6').value).toBe('Yes');
    expect(ws.getCell('E7').value).toBe('No');
    // a formula-like text is text with a leading quote, never a formula
    expect(ws.getCell('B7').type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('B7').value).toBe("'=1+2");
    // empty values leave the cell empty
    for (const ref of ['B8', 'C8', 'D8', 'E8']) expect(ws.getCell(ref).value).toBeNull();
    ws.eachRow((row) => row.eachCell((cell) => expect(cell.formula).toBeUndefined()));
    // widths from the content, 8 to 60
    expect(ws.getColumn(1).width).toBe(8);
    expect(ws.getColumn(3).width).toBe('1,234.50'.length + 2);
    expect(ws.getColumn(4).width).toBe('2026-11-22 10:20:30'.length + 2);
  });

  it('neutralises every formula trigger and strips characters XML cannot carry', async () => {
    const texts = ['=SUM(A1:A2)', '+1', '-x', '@cmd', '\tTAB', '\rCR', 'a\u0000b\u0007c\u001Fd\uFFFEe', '<b>&amp;</b> "quoted" \'single\'', 'plain > less < & more'];
    const ws = await sheetOf(await build(texts.map((t, i) => [i, t, 0, '', ''])));
    const got = texts.map((_, i) => ws.getCell(6 + i, 2));
    for (const cell of got) expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(got.slice(0, 4).map((c) => c.value)).toEqual(["'=SUM(A1:A2)", "'+1", "'-x", "'@cmd"]);
    expect(got[4].value).toBe("'\tTAB");
    expect(String(got[5].value)).toMatch(/^'[\r\n]CR$/);
    expect(got[6].value).toBe('abcde');
    expect(got[7].value).toBe('<b>&amp;</b> "quoted" \'single\'');
    expect(got[8].value).toBe('plain > less < & more');
  });

  it('keeps unicode, surrounding spaces and line breaks (wrapped)', async () => {
    const texts = ['ශ්‍රී ලංකා', '日本語のテキスト', 'émoji 😀 ok', '  padded  ', 'line one\nline two'];
    const ws = await sheetOf(await build(texts.map((t, i) => [i, t, 1, '', ''])));
    expect(texts.map((_, i) => ws.getCell(6 + i, 2).value)).toEqual(texts);
    expect(ws.getCell(10, 2).alignment).toMatchObject({ wrapText: true, vertical: 'top' });
    // as wide as the longest line (in UTF-16 units, as Excel counts them)
    expect(ws.getColumn(2).width).toBe(Math.max(...texts.flatMap((t) => t.split('\n')).map((line) => line.length)) + 2);
  });

  it('writes one row, and many rows over several blocks, in order', async () => {
    const one = await sheetOf(await build([[7, 'only', 1.25, '2026-01-02T03:04:05', true]]));
    expect(one.rowCount).toBe(6);
    expect((one.getRow(6).values as unknown[]).slice(1)).toEqual([7, 'only', 1.25, new Date('2026-01-02T03:04:05Z'), 'Yes']);

    const n = 2_345;
    const rows = Array.from({ length: n }, (_, i) => [i, `name ${i}`, i * 1.5, null, i % 2 === 0]);
    const ws = await sheetOf(await build(rows));
    expect(ws.rowCount).toBe(5 + n);
    for (const i of [0, 999, 1000, 1001, 2344]) {
      const row = ws.getRow(6 + i);
      expect([1, 2, 3, 4, 5].map((c) => row.getCell(c).value)).toEqual([i, `name ${i}`, i * 1.5, null, i % 2 === 0 ? 'Yes' : 'No']);
    }
    // the widest amount decides the width: '3,515.00'
    expect(ws.getColumn(3).width).toBe('3,515.00'.length + 2);
  });

  it('writes an empty table and a sheet name Excel accepts', async () => {
    const ws = await sheetOf(await build([], undefined, fields));
    expect(ws.rowCount).toBe(5);
    const wide = await build([], undefined, [{ header: 'X', dataKey: 'x', type: 'STRING' }]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(wide) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets[0].getCell('A5').value).toBe('X');
  });

  it.each(['native', 'fflate'] as const)('writes a zip whose every entry checks out (%s deflate)', async (deflate) => {
    const rows = Array.from({ length: 3_000 }, (_, i) => [i, `row ${i} ${'x'.repeat(i % 50)}`, i / 7, '2026-11-22T10:20:30Z', i % 3 === 0]);
    const bytes = await build(rows, { deflate });
    const entries = zipEntries(bytes);
    expect(entries.map((e) => e.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'docProps/core.xml',
      'docProps/app.xml',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    for (const e of entries) {
      expect(e.crcOk, e.name).toBe(true);
      expect(e.sizeOk, e.name).toBe(true);
    }
    const sheet = entries.at(-1)!.text;
    expect(sheet.startsWith('<?xml')).toBe(true);
    expect(sheet.endsWith('</worksheet>')).toBe(true);
    expect(sheet).toContain('<dimension ref="A1:E3005"/>');
    expect(entries.find((e) => e.name === 'docProps/core.xml')!.text).toContain('<dc:title>Payments &amp; &lt;Refunds&gt;</dc:title>');
    const ws = await sheetOf(bytes);
    expect(ws.getCell('B3005').value).toBe(`row 2999 ${'x'.repeat(2999 % 50)}`);
  });

  it('names columns past Z', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});

describe('stored blocks and CRC-32', () => {
  it('puts stored blocks in front of a DEFLATE stream, past 64 kB', () => {
    const head = new Uint8Array(150_000).map((_, i) => (i * 31) % 251);
    const tail = Buffer.from('the rows '.repeat(5000));
    const joined = Buffer.concat([...storedBlocks(head), deflateRawSync(tail)]);
    expect(inflateRawSync(joined).equals(Buffer.concat([head, tail]))).toBe(true);
    expect(storedBlocks(new Uint8Array(0))).toEqual([]);
  });

  it('reads the length of gzip headers (the native compressor is gzip with its wrapper taken off)', () => {
    expect(gzipHeaderLength(gzipSync(Buffer.from('x')))).toBe(10);
    const named = Uint8Array.of(0x1f, 0x8b, 8, 8 | 16 | 2, 0, 0, 0, 0, 0, 3, ...Buffer.from('name\0'), ...Buffer.from('comment\0'), 0xaa, 0xbb);
    expect(gzipHeaderLength(named)).toBe(10 + 5 + 8 + 2);
    const extra = Uint8Array.of(0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 3, 3, 0, 1, 2, 3);
    expect(gzipHeaderLength(extra)).toBe(15);
    expect(() => gzipHeaderLength(Uint8Array.of(0x50, 0x4b, 3, 4, 0, 0, 0, 0, 0, 0))).toThrow('not a gzip stream');
  });

  it('matches zlib, and combines the CRCs of two parts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        expect(crc32(a)).toBe(zlibCrc32(a));
        const whole = zlibCrc32(Buffer.concat([a, b]));
        expect(crc32(b, crc32(a))).toBe(whole);
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe('formatDateValue', () => {
  /**
   * date-fns in a process whose own zone IS the business zone: an instant (Z, an offset) shown in it,
   * a text without an offset read as its wall clock. formatDateValue must give the same text whatever
   * the zone of the process (the browser) that builds the file.
   */
  const reference = (s: string, zone: string) => {
    const saved = process.env.TZ;
    process.env.TZ = zone;
    try {
      const d = parseISO(s.trim());
      return !isValid(d) || d.getFullYear() < 1000 ? '-' : format(d, 'yyyy-MM-dd HH:mm:ss');
    } finally {
      process.env.TZ = saved;
    }
  };
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const isoText = fc
    .tuple(
      fc.integer({ min: 900, max: 2100 }).map(String),
      two(13),
      two(32),
      fc.constantFrom('T', ' '),
      two(25),
      two(60),
      fc.option(two(60)),
      fc.option(fc.integer({ min: 0, max: 999_999 }).map(String)),
      fc.option(fc.constantFrom('Z', '+05:30', '-0800', '+05', '+14:00', '-12:45', '+24:00', '+05:61')),
    )
    .map(([y, mo, d, sep, h, mi, s, f, z]) => `${y}-${mo}-${d}${sep}${h}:${mi}${s !== null ? `:${s}${f !== null ? `.${f}` : ''}` : ''}${z ?? ''}`);

  // business zone, and the process's (the browser's) zone: east of it, west of it
  it.each([
    ['Asia/Colombo', 'America/Los_Angeles'],
    ['America/New_York', 'Asia/Colombo'],
    ['UTC', 'Asia/Tokyo'],
  ])('reads ISO texts in the business zone %s, in a process in %s', (zone, processZone) => {
    const saved = process.env.TZ;
    try {
      fc.assert(
        fc.property(isoText, (s) => {
          const want = reference(s, zone);
          process.env.TZ = processZone;
          expect(formatDateValue(s, zone)).toBe(want);
        }),
        { numRuns: 3000 },
      );
      // a local time in a daylight-saving gap and an impossible day, a date alone
      // and the database's own shape (read without a regular expression) on the days that do and do not exist
      const databaseShape = [
        '2024-02-29T10:00:00.000Z',
        '2026-02-29T10:00:00.000Z',
        '2026-11-31T10:00:00.000Z',
        '2100-02-29T00:00:00.000Z',
        '2000-02-29T23:59:59.999Z',
        '2026-13-01T00:00:00.000Z',
        '2026-11-19T24:00:00.000Z',
        '2026-11-1xT00:00:00.000Z',
      ];
      for (const s of ['2026-03-08T02:30:00', '2026-11-01T01:30:00', '2026-02-29T10:00:00', '2024-02-29 10:00', '2026-11-19T00:02:55.000Z', '2026-11-19', ...databaseShape]) {
        const want = reference(s, zone);
        process.env.TZ = processZone;
        expect(formatDateValue(s, zone)).toBe(want);
      }
    } finally {
      process.env.TZ = saved;
    }
  });

  it("shows an instant in the business zone, not the process's", () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      // 22:18 UTC is 03:48 the next day in Colombo (the issue's row)
      expect(formatDateValue('2026-11-19T22:18:00Z', 'Asia/Colombo')).toBe('2026-11-20 03:48:00');
      expect(formatDateValue(Date.UTC(2026, 10, 19, 22, 18), 'Asia/Colombo')).toBe('2026-11-20 03:48:00');
      expect(formatDateValue(new Date(Date.UTC(2026, 10, 19, 22, 18)), 'America/New_York')).toBe('2026-11-19 17:18:00');
      // a text without an offset is the business zone's wall clock, shown as it is
      expect(formatDateValue('2026-11-19T22:18:00', 'Asia/Colombo')).toBe('2026-11-19 22:18:00');
      expect(formatDateValue('0999-12-31T23:59:59Z', 'UTC')).toBe('-');
      // the placeholder time of a step not taken, west of UTC (year 0 there, which Intl calls 1 BC)
      expect(formatDateValue('0001-01-01T00:00:00Z', 'America/New_York')).toBe('-');
      expect(formatDateValue('0001-01-01T00:00:00.000Z', 'Asia/Colombo')).toBe('-');
    } finally {
      process.env.TZ = saved;
    }
  });
});

describe('ExportJob (what the export worker runs)', () => {
  it('turns list columns into labelled lines, as the exports always did', async () => {
    const exportFields = exportFieldsOf(insuranceScreen);
    const dependants = exportFields.findIndex((f) => f.dataKey === 'dependants');
    expect(dependants).toBeGreaterThanOrEqual(0);
    const row = {
      id: 5,
      dependants: [
        { title: 'Mr', name: 'Nimal Perera', relationship: 'Son', nic: '200112345678', birthday: '2001-01-01' },
        { title: 'Ms', name: 'Ama' },
      ],
    };
    const expected = exportRowsOf(insuranceScreen.columns, [row])[0].dependants;
    const itemFields = itemFieldsOf(insuranceScreen.columns, exportFields);
    expect(itemFields[dependants]).not.toBeNull();

    const job = new ExportJob({ kind: 'xlsx', fields: exportFields, itemFields, ctx, total: 1 });
    for (const chunk of valueChunks(
      [row],
      exportFields.map((f) => f.dataKey),
    ))
      await job.addRows(chunk);
    const result = await job.finish();
    const ws = await sheetOf(concatChunks(result.chunks));
    expect(ws.getCell(6, dependants + 1).value).toBe(expected);
    expect(String(expected)).toContain('Nimal Perera');
    expect(result.fileName).toBe('payments_2026-11-22_09-05-07.xlsx');
  });

  it('reports its progress in whole percents up to 100, and builds a PDF too', async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `n${i}`, amount: i, created: '2026-11-22T10:00:00', active: true }));
    for (const kind of ['xlsx', 'pdf'] as const) {
      const seen: number[] = [];
      const job = new ExportJob({ kind, fields, ctx, total: rows.length }, (p) => seen.push(p));
      for (const chunk of valueChunks(
        rows,
        fields.map((f) => f.dataKey),
        1000,
      ))
        await job.addRows(structuredClone(chunk));
      const result = await job.finish();
      expect(seen[0]).toBe(0);
      expect(seen.at(-1)).toBe(100);
      expect(seen.length).toBeGreaterThan(3);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
      expect(result.rows).toBe(5_000);
      const bytes = concatChunks(result.chunks);
      if (kind === 'pdf') expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
      else expect((await sheetOf(bytes)).rowCount).toBe(5_005);
    }
  });
});
