/** The console's reader of compact list replies (src/console/compactRows.ts), on texts written here. */
import { describe, expect, it } from 'vitest';
import { CompactListParser, LineRows, LinesListParser, rowMaker, unescapeCopyText } from '../../src/console/compactRows';
import { copyTextValue, isoOfUtcWallClock, rowsOfArrays } from '../../src/api/listRows';

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

describe('the lines of a lines reply (PostgreSQL COPY text, src/api/listRows.ts LIST_ROWS_LINES)', () => {
  const lineKeys = ['id', 'name', 'amount', 'paid', 'at', 'dependants', 'note'];
  const kinds = 'nsnbtjs';
  const documentedRows = [
    { id: 1, name: 'A "quoted" name', amount: 1.5, paid: true, at: '2026-08-28T13:48:10.812Z', dependants: [{ name: 'Tab\there' }], note: 'line\nbreak\tand \\ back' },
    { id: 2, name: 'Ünïcødé ✓', amount: null, paid: false, at: '2026-08-28T13:48:10.000Z', dependants: [], note: null },
    { id: 3, name: 'a name of more than thirteen characters', amount: -2, paid: null, at: null, dependants: null, note: '\\N' },
  ];
  // each row as COPY writes it: tabs between the values, \N for null, backslash escapes, times as the UTC wall clock
  const copyLines = [
    '1\tA "quoted" name\t1.50\tt\t2026-08-28 13:48:10.812\t[{"name": "Tab\\\\there"}]\tline\\nbreak\\tand \\\\ back',
    '2\tÜnïcødé ✓\t\\N\tf\t2026-08-28 13:48:10\t[]\t\\N',
    '3\ta name of more than thirteen characters\t-2\t\\N\t\\N\t\\N\t\\\\N',
  ];
  const head = {
    matching: 3,
    statusCode: 200,
    data: { transactions: [{ id: 1 }], filteredListKeys: lineKeys, filteredListTimes: [4], filteredListKinds: kinds, filteredListRowCount: 3, filteredListRows: [] },
  };
  const text = `${JSON.stringify(head)}\n${copyLines.map((l) => `${l}\n`).join('')}`;
  const expected = { matching: 3, statusCode: 200, data: { transactions: [{ id: 1 }], filteredList: documentedRows } };

  function readLines(t: string, size: number, onRowsBegin?: (p: unknown) => void): unknown {
    const parser = new LinesListParser(onRowsBegin);
    for (let i = 0; i < t.length; i += size) parser.push(t.slice(i, i + size));
    return parser.end();
  }

  it('give the documented reply whatever the chunks: numbers, booleans, times, JSON, escapes and nulls', () => {
    for (const size of [1, 2, 5, 13, 64, 100_000]) {
      const doc = readLines(text, size) as typeof expected;
      expect(doc, `chunks of ${size}`).toEqual(expected);
      expect(Object.keys(doc.data.filteredList[0]!)).toEqual(lineKeys);
    }
  });

  it('hand over the document before the rows as the rows begin, with an empty list', () => {
    const partials: unknown[] = [];
    readLines(text, 7, (p) => partials.push(p));
    expect(partials).toEqual([{ ...expected, data: { ...expected.data, filteredList: [] } }]);
  });

  it('refuse a reply with fewer or more rows than its document announced, or a row of the wrong width', () => {
    const cut = text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1);
    expect(() => readLines(cut, 10)).toThrow('A list reply of 2 rows where 3 were announced');
    expect(() => readLines(`${text}${copyLines[0]}\n`, 10)).toThrow('A list reply of 4 rows where 3 were announced');
    expect(() => readLines(text.replace('\tt\t', '\t'), 10)).toThrow('A list row of 6 values, not 7');
    expect(() => readLines(text.slice(0, 20), 10)).toThrow(SyntaxError);
    expect(() => new LineRows(lineKeys, 'nsn')).toThrow(SyntaxError);
  });

  it('are rows a reader cannot tell from the documented objects, and cannot change', () => {
    const rows = (readLines(text, 64) as typeof expected).data.filteredList as Record<string, unknown>[];
    rows.forEach((row, r) => {
      const want = documentedRows[r]!;
      for (const k of lineKeys) expect(row[k], `row ${r} ${k}`).toEqual(want[k as keyof typeof want]);
      expect({ ...row }).toEqual(want);
      expect(JSON.parse(JSON.stringify(row))).toEqual(want);
      expect(Object.entries(row).map(([k]) => k)).toEqual(lineKeys);
      expect('amount' in row && !('other' in row)).toBe(true);
      expect(row.other).toBeUndefined();
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(String(row)).toBe('[object Object]');
    });
    // a view of its line, read-only: writing, defining or deleting a value throws (in strict mode, as here)
    expect(() => (rows[0]!.amount = 2)).toThrow(TypeError);
    expect(() => delete rows[0]!.amount).toThrow(TypeError);
    expect(() => Object.defineProperty(rows[0], 'x', { value: 1 })).toThrow(TypeError);
    expect(rows[0]!.amount).toBe(1.5);
  });

  it('keep rows of lines longer than 65,535 characters, and more rows than announced until the count is checked', () => {
    const long = 'x'.repeat(70_000);
    const store = new LineRows(['a', 'b', 'c'], 'sns', 1);
    store.add(`1\t2\t3`);
    store.add(`${long}\t${long.length}\t${long}!`);
    store.add(`\\N\t\\N\tlast`);
    expect(store.rows.map((r) => ({ ...r }))).toEqual([
      { a: '1', b: 2, c: '3' },
      { a: long, b: 70_000, c: `${long}!` },
      { a: null, b: null, c: 'last' },
    ]);
    expect(() => store.add('1\t2')).toThrow('A list row of 2 values, not 3');
    expect(() => store.add('1\t2\t3\t4')).toThrow('A list row of 4 values, not 3');
    expect(store.rows).toHaveLength(3);
  });

  it('are each made what its kind says (the server export thread reads them the same way)', () => {
    expect(copyTextValue('n', '85.1850')).toBe(85.185);
    expect(copyTextValue('n', '-2')).toBe(-2);
    expect(copyTextValue('b', 't')).toBe(true);
    expect(copyTextValue('b', 'f')).toBe(false);
    expect(copyTextValue('t', '2026-08-28 13:48:10.8')).toBe('2026-08-28T13:48:10.800Z');
    expect(copyTextValue('j', '[{"a": "x\\\\ty"}]')).toEqual([{ a: 'x\ty' }]);
    expect(copyTextValue('s', 'a\\\\b')).toBe('a\\b');
    for (const kind of ['n', 'b', 't', 'j', 's'] as const) expect(copyTextValue(kind, '\\N'), kind).toBeNull();
  });

  it('undo exactly the backslash escapes COPY writes', () => {
    expect(unescapeCopyText('a\\tb\\nc\\rd\\\\e\\bf\\fg\\vh')).toBe('a\tb\nc\rd\\e\bf\fg\vh');
    expect(unescapeCopyText('plain')).toBe('plain');
  });

  it('make COPY times into the documented text as they make JSON times', () => {
    expect(isoOfUtcWallClock('2026-08-28 13:48:10.812')).toBe('2026-08-28T13:48:10.812Z');
    expect(isoOfUtcWallClock('2026-08-28 13:48:10')).toBe('2026-08-28T13:48:10.000Z');
    expect(isoOfUtcWallClock('2026-08-28 13:48:10.812999')).toBe('2026-08-28T13:48:10.812Z');
    expect(isoOfUtcWallClock('0001-01-01 00:00:00')).toBe('0001-01-01T00:00:00.000Z');
  });
});
