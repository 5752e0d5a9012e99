/** The console's reader of compact list replies (src/console/compactRows.ts), on texts written here. */
import { describe, expect, it } from 'vitest';
import { CompactListParser, rowMaker } from '../../src/console/compactRows';
import { isoOfUtcWallClock, rowsOfArrays } from '../../src/api/listRows';

const keys = ['id', 'name', 'amount', 'note'];
const rows = [
  { id: 1, name: 'A "quoted" name', amount: 1.5, note: 'line\nbreak ]\n] and , commas' },
  { id: 2, name: 'Ünïcødé ✓', amount: null, note: null },
  { id: 3, name: '[x]', amount: -2, note: '\\' },
];
const documented = { matching: 3, statusCode: 200, data: { transactions: [rows[0]], fields: [{ key: 'id' }], filteredList: rows } };

/** The compact text as the server writes it: keys once, then one row array per line. */
function compactText(lines = true): string {
  const arrays = rows.map((r) => JSON.stringify(keys.map((k) => r[k as keyof typeof r])));
  const body = lines ? (arrays.length ? `\n${arrays.join(',\n')}\n` : '\n') : arrays.join(',');
  return `{"matching":3,"statusCode":200,"data":{"transactions":[${JSON.stringify(rows[0])}],"fields":[{"key":"id"}],"filteredListKeys":${JSON.stringify(keys)},"filteredListRows":[${body}]}}`;
}

function readInChunks(text: string, size: number, onRowsBegin?: (p: unknown) => void): unknown {
  const parser = new CompactListParser(onRowsBegin);
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
  return parser.end();
}

describe('CompactListParser', () => {
  it('gives the documented reply whatever the chunks', () => {
    for (const size of [1, 2, 3, 7, 50, 100_000]) {
      const doc = readInChunks(compactText(), size) as typeof documented;
      expect(doc, `chunks of ${size}`).toEqual(documented);
      expect(Object.keys(doc.data.filteredList[0])).toEqual(keys);
    }
  });

  it('hands over the reply before its rows as the rows begin, with an empty list', () => {
    const partials: unknown[] = [];
    readInChunks(compactText(), 5, (p) => partials.push(p));
    expect(partials).toEqual([{ ...documented, data: { ...documented.data, filteredList: [] } }]);
  });

  it('reads rows that are not one per line (a rewritten reply) as a whole', () => {
    expect(readInChunks(compactText(false), 9)).toEqual(documented);
  });

  it('refuses a reply cut short', () => {
    const text = compactText();
    expect(() => readInChunks(text.slice(0, text.length - 10), 4)).toThrow(SyntaxError);
  });
});

describe('rowMaker', () => {
  it('makes rows of the keys in order, a missing value null', () => {
    const make = rowMaker(['b', 'a', 'c']);
    const row = make([1, 'x']);
    expect(row).toEqual({ b: 1, a: 'x', c: null });
    expect(Object.keys(row)).toEqual(['b', 'a', 'c']);
    expect(make([2, 'y', 3])).toEqual({ b: 2, a: 'y', c: 3 });
  });
});

describe('the times of a compact reply (filteredListTimes)', () => {
  it('are made into the documented text: milliseconds and Z, microseconds cut as PostgreSQL to_char MS cuts them', () => {
    expect(isoOfUtcWallClock('2026-08-28T13:48:10.812')).toBe('2026-08-28T13:48:10.812Z');
    expect(isoOfUtcWallClock('2026-08-28T13:48:10')).toBe('2026-08-28T13:48:10.000Z');
    expect(isoOfUtcWallClock('2026-08-28T13:48:10.8')).toBe('2026-08-28T13:48:10.800Z');
    expect(isoOfUtcWallClock('2026-08-28T13:48:10.81')).toBe('2026-08-28T13:48:10.810Z');
    expect(isoOfUtcWallClock('2026-08-28T13:48:10.812999')).toBe('2026-08-28T13:48:10.812Z');
    expect(isoOfUtcWallClock('0001-01-01T00:00:00')).toBe('0001-01-01T00:00:00.000Z');
    expect(isoOfUtcWallClock(null)).toBeNull();
  });

  it('only the listed places are read as times, in the streamed reader and in rowsOfArrays alike', () => {
    const timeKeys = ['id', 'at', 'note', 'paid_at'];
    const arrays = [
      [1, '2026-08-28T13:48:10.5', '2026-08-28T13:48:10', null],
      [2, '2026-11-01T00:00:00.123456', 'x', '2026-11-01T00:00:01'],
    ];
    const expected = [
      { id: 1, at: '2026-08-28T13:48:10.500Z', note: '2026-08-28T13:48:10', paid_at: null },
      { id: 2, at: '2026-11-01T00:00:00.123Z', note: 'x', paid_at: '2026-11-01T00:00:01.000Z' },
    ];
    const text = `{"statusCode":200,"data":{"filteredListKeys":${JSON.stringify(timeKeys)},"filteredListTimes":[1,3],"filteredListRows":[\n${arrays.map((a) => JSON.stringify(a)).join(',\n')}\n]}}`;
    for (const size of [3, 40, 10_000]) expect(readInChunks(text, size), `chunks of ${size}`).toEqual({ statusCode: 200, data: { filteredList: expected } });
    expect(rowsOfArrays(timeKeys, [1, 3], arrays)).toEqual(expected);
  });
});
