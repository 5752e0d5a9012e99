/** The console's reader of compact list replies (src/console/compactRows.ts), on texts written here. */
import { describe, expect, it } from 'vitest';
import { CompactListParser, rowMaker } from '../../src/console/compactRows';

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
