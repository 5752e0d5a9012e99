/**
 * Exchange rates keep the 4 decimals the data has (85.5057, not 85.51) in the IPG panels and in every
 * export format, and Excel date cells are real dates holding the business zone's wall clock, so that a
 * sheet sorts and filters them. The files are read back with exceljs, as a spreadsheet program would.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { ExportField } from '@/api/contract';
import { XlsxWriter, concatChunks } from '@/formats/xlsx';
import { XlsxStreamWriter } from '@/formats/xlsx';
import { toExportTable, formatCell, type ExportContext } from '@/formats/cells';
import { exportFieldsFor, exportFieldsOf } from '@/definitions/exportFields';
import { renderCell } from '@/console/views/cells';
import { ceftScreen, insuranceScreen } from '@screens/transactions';
import { settlementScreen } from '@screens/settlement';
import { screens } from '@screens/index';
import type { AnyListScreen } from '@/definitions/definitions';

const listScreens = screens.filter((s): s is AnyListScreen => s.kind === 'list');

const ctx: ExportContext = { title: 'Send Money Transactions', fileBase: 'ceftTransactions', username: 'admin', now: new Date('2026-12-06T06:00:00Z'), timeZone: 'Asia/Colombo' };

async function sheetOf(bytes: Uint8Array): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
  return wb.worksheets[0];
}

describe('exchange rates: 4 decimals on the screen and in every export', () => {
  const fields = exportFieldsOf(ceftScreen);
  const rate = fields.find((f) => f.dataKey === 'exchange_rate_final')!;

  it('the export columns of every exchange rate say 4 decimals; other amounts keep the default 2', () => {
    expect(rate).toEqual({ header: 'Exchange Rate (LKR)', dataKey: 'exchange_rate_final', type: 'DOUBLE', decimals: 4 });
    expect(exportFieldsOf(insuranceScreen).find((f) => f.dataKey === 'exchange_rate_lkr')).toMatchObject({ type: 'DOUBLE', decimals: 4 });
    expect(exportFieldsOf(settlementScreen).find((f) => f.dataKey === 'fc_rate')).toMatchObject({ type: 'DOUBLE', decimals: 4 });
    expect(fields.find((f) => f.dataKey === 'amount')).toEqual({ header: 'Amount', dataKey: 'amount', type: 'DOUBLE' });
    // every exchange rate of every list screen
    const rates = listScreens.flatMap((s) => exportFieldsOf(s)).filter((f) => /exchange_rate/.test(f.dataKey));
    expect(rates.length).toBeGreaterThan(5);
    for (const f of rates) expect(f.decimals, f.dataKey).toBe(4);
  });

  it('the IPG panel shows 85.5057', () => {
    const panel = ceftScreen.columns.find((c) => c.key === 'exchange_rate_final')!.panel!;
    expect(renderCell(panel[0].kind, 85.5057)).toBe('85.5057');
    expect(renderCell(panel[0].kind, 300)).toBe('300.0000');
  });

  it('PDF text 85.5057, CSV and Excel the number, Excel formatted #,##0.0000', async () => {
    expect(toExportTable([rate], [{ exchange_rate_final: 85.5057 }], 'pdf', 'Asia/Colombo').body[0]).toEqual(['85.5057']);
    expect(toExportTable([rate], [{ exchange_rate_final: 1285.5 }], 'pdf', 'Asia/Colombo').body[0]).toEqual(['1,285.5000']);
    expect(formatCell(rate, '85.5057', 'csv', 'Asia/Colombo')).toBe(85.5057);
    const amount: ExportField = { header: 'Amount', dataKey: 'amount', type: 'DOUBLE' };
    const writer = new XlsxWriter([rate, amount], ctx);
    writer.addRow([85.5057, 12.5]);
    const ws = await sheetOf(concatChunks(await writer.finish()));
    expect(ws.getCell('A6').value).toBe(85.5057);
    expect(ws.getCell('A6').numFmt).toBe('#,##0.0000');
    expect(ws.getCell('B6').numFmt).toBe('#,##0.00');
  });

  it("the decimals a reply's fields state are kept", () => {
    expect(exportFieldsFor(ceftScreen, { fields: [{ ...rate, decimals: 3 }] })[0].decimals).toBe(3);
  });
});

describe('Excel date cells are dates', () => {
  const fields: ExportField[] = [
    { header: 'ID', dataKey: 'id', type: 'INTEGER' },
    { header: 'Created At', dataKey: 'created_at', type: 'DATE' },
  ];

  it('hold the business zone wall clock, sort as dates, and read back as Date cells (browser and server writers)', async () => {
    // 2026-12-06T04:45:30Z is 10:15:30 in Colombo; 2026-01-31T19:00:00Z is 00:30:00 on 1 February there
    const rows: unknown[][] = [
      [1, '2026-12-06T04:45:30Z'],
      [2, '2026-01-31T19:00:00Z'],
      [3, '0001-01-01T00:00:00Z'],
    ];
    const browser = new XlsxWriter(fields, ctx);
    for (const r of rows) browser.addRow(r);
    const chunks: Uint8Array[] = [];
    const server = new XlsxStreamWriter(fields, ctx, (c) => chunks.push(c.slice()));
    await server.addRows(rows);
    await server.finish();
    for (const ws of [await sheetOf(concatChunks(await browser.finish())), await sheetOf(concatChunks(chunks))]) {
      const a = ws.getCell('B6');
      expect(a.type).toBe(ExcelJS.ValueType.Date);
      expect(a.value).toEqual(new Date('2026-12-06T10:15:30Z'));
      expect(a.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      expect(ws.getCell('B7').value).toEqual(new Date('2026-02-01T00:30:00Z'));
      // ordered as the times are: the later instant is the larger number
      expect((ws.getCell('B6').value as Date) > (ws.getCell('B7').value as Date)).toBe(true);
      // a placeholder time is no date: '-'
      expect(ws.getCell('B8').value).toBe('-');
    }
  });
});
