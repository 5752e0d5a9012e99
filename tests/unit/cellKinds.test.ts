/**
 * A cell kind is declared once (src/definitions/cellKinds.ts: alignment, sort, export type,
 * spec text) and rendered by one map (cellRenderers) that names every kind.
 */
import { describe, expect, it } from 'vitest';
import { cellKinds, cellKindOf, exportFieldOf, exportTypeOf } from '../../src/definitions/cellKinds';
import { cellRenderers, isNumericKind, renderCell } from '../../src/console/views/cells';
import { sortKeyOf } from '../../src/console/format';

describe('the cell kinds', () => {
  it('each have a renderer, and the renderers no kind the registry lacks', () => {
    expect(Object.keys(cellRenderers).sort()).toEqual(Object.keys(cellKinds).sort());
  });

  it('map to the export types of the contract', () => {
    expect(Object.fromEntries(Object.keys(cellKinds).map((k) => [k, exportTypeOf(k as keyof typeof cellKinds)]))).toEqual({
      text: 'STRING',
      integer: 'INTEGER',
      amount: 'DOUBLE',
      datetime: 'DATE',
      status: 'STRING',
      approval: 'STRING',
      // an exchange rate is a number with its 4 decimals in every export
      rate: 'DOUBLE',
      paymentStatus: 'STRING',
      tags: 'STRING',
      image: 'STRING',
      yesNo: 'BOOLEAN',
      list: 'STRING',
    });
    expect(exportTypeOf(undefined)).toBe('STRING');
  });

  it('rates export with 4 decimals, amounts with the default 2 (no decimals sent)', () => {
    expect(exportFieldOf('Rate', 'fc_rate', 'rate')).toEqual({ header: 'Rate', dataKey: 'fc_rate', type: 'DOUBLE', decimals: 4 });
    expect(exportFieldOf('Amount', 'amount', 'amount')).toEqual({ header: 'Amount', dataKey: 'amount', type: 'DOUBLE' });
  });

  it('right-align and sort as numbers exactly the numeric kinds; dates sort by time; unknown kinds are text', () => {
    expect(Object.keys(cellKinds).filter((k) => isNumericKind(k as keyof typeof cellKinds))).toEqual(['integer', 'amount', 'rate']);
    expect(sortKeyOf('12', 'amount')).toBe(12);
    expect(sortKeyOf(null, 'rate')).toBe(-Infinity);
    expect(sortKeyOf('2026-01-02T00:00:00Z', 'datetime')).toBe(Date.parse('2026-01-02T00:00:00Z'));
    expect(sortKeyOf('Ann', 'status')).toBe('ann');
    expect(sortKeyOf(null, 'text')).toBe('');
    expect(cellKindOf('noSuchKind')).toBe(cellKinds.text);
    expect(renderCell(undefined, '')).toBe('-');
    expect(renderCell('yesNo', 1)).toBe('Yes');
    expect(renderCell('integer', 0)).toBe('0');
  });
});
