/**
 * Reads the compact form of a list reply as it arrives. A console sends `x-list-rows: arrays2` with a
 * list call (`callApi(..., { compactRows: true })`); a server that knows the header answers with the
 * same header and, in the reply's `data`, the row schema's keys once (`filteredListKeys`) and the
 * rows as arrays of values in that order (`filteredListRows`), one row per line (see
 * src/server/areas/transactions/handlers.ts `listData`), its times as the UTC wall clock (their places
 * in `filteredListTimes`), made here into the documented text. Half the bytes of the documented reply (no key
 * repeated in every row), which has to be compressed, sent, decompressed, decoded and parsed.
 *
 * The text is cut at line breaks, each run of whole rows parsed with JSON.parse as it is complete
 * (a run that does not parse waits for more text, so a line break inside a value costs time, never
 * correctness), and each array made into a row object of the keys in their order by copying one
 * template object (all such objects share one shape, as JSON.parse's would). The result is the
 * documented reply: `data.filteredList` holds the rows, the compact members are gone.
 *
 * A lines reply (`x-list-rows: lines3`, a list streamed from PostgreSQL) is read by `LinesListParser`:
 * its rows are kept as their lines and made into values only where read (`LineRows`).
 *
 * Pure and synchronous per chunk: `push(text)` for each decoded chunk, then `end()`.
 */

import { bodyChunks, closeDocument } from './jsonStream';
import { copyTextValue, isoOfUtcWallClock, LIST_ROWS_COUNT, LIST_ROWS_KINDS, LIST_ROWS_TIMES, type ListRowKind } from '../api/listRows';

export { unescapeCopyText } from '../api/listRows';

/** Where the rows begin: the exact text cannot occur inside a JSON string (its quotes would be escaped). */
const ROWS_MARK = '"filteredListRows":[';
const KEYS = 'filteredListKeys';
const ROWS = 'filteredListRows';

/** A column keeps one copy of each of its texts while it has at most this many different ones (a status, a bank name). */
const SHARED_TEXTS_PER_COLUMN = 256;

/** A row object of `keys`, all null: the template every row of a reply is copied from, so all share one shape. */
function templateOf(keys: readonly string[]): Record<string, unknown> {
  return JSON.parse(`{${keys.map((k) => `${JSON.stringify(k)}:null`).join(',')}}`) as Record<string, unknown>;
}

/**
 * One copy of each text per column while the column has at most SHARED_TEXTS_PER_COLUMN different
 * ones (`kept(i)` says which columns look at all); `share(i, text)` gives the kept copy. A column
 * found to have more stops looking.
 */
function textSharer(columns: number, kept: (i: number) => boolean): (i: number, text: string) => string {
  const shared: (Map<string, string> | undefined)[] = Array.from({ length: columns }, (_, i) => (kept(i) ? new Map() : undefined));
  return (i, text) => {
    const texts = shared[i];
    const known = texts?.get(text);
    if (known !== undefined) return known;
    if (texts) {
      if (texts.size < SHARED_TEXTS_PER_COLUMN) texts.set(text, text);
      else shared[i] = undefined;
    }
    return text;
  };
}

/**
 * Makes row objects of `keys` from arrays of values: each a copy of one template, so all share one
 * shape. A column with few different texts (bank names, payment descriptions) keeps one copy of each,
 * shared by its rows, instead of one string per row (JSON.parse shares only texts of up to ~10
 * characters); a column found to have more stops looking.
 */
export function rowMaker(keys: readonly string[], times: readonly number[] = []): (values: readonly unknown[]) => Record<string, unknown> {
  const template = templateOf(keys);
  const n = keys.length;
  const isTime = keys.map((_, i) => times.includes(i));
  // (a time column's texts are nearly all different: none kept)
  const share = textSharer(n, (i) => !isTime[i]);
  return (values) => {
    const row = { ...template };
    for (let i = 0; i < n; i++) {
      let v = values[i];
      if (v === undefined) v = null;
      else if (isTime[i]) {
        v = isoOfUtcWallClock(v);
        // made flat now: the text joined above is V8's pair of the parsed text and 'Z' (twice the
        // memory: 96 MB kept for 100,000 Send Money rows, 79 MB flat) until something reads its characters
        if (typeof v === 'string') v.charCodeAt(0);
      } else if (typeof v === 'string') v = share(i, v);
      row[keys[i]] = v;
    }
    return row;
  };
}

/** The object holding the compact members (the reply's `data`), if any. */
function compactHolder(doc: unknown): Record<string, unknown> | undefined {
  const data = (doc as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' && Array.isArray((data as Record<string, unknown>)[KEYS]) ? (data as Record<string, unknown>) : undefined;
}

/** The places of the times among the keys (none when the reply lists none). */
function timesOf(holder: Record<string, unknown>): number[] {
  const times = holder[LIST_ROWS_TIMES];
  return Array.isArray(times) ? times.filter((t): t is number => typeof t === 'number') : [];
}

/** The documented shape: `filteredList` in place of the compact members (same place in key order is not needed). */
function toDocumented(holder: Record<string, unknown>, rows: object[]) {
  delete holder[KEYS];
  delete holder[LIST_ROWS_TIMES];
  delete holder[LIST_ROWS_KINDS];
  delete holder[LIST_ROWS_COUNT];
  delete holder[ROWS];
  holder.filteredList = rows;
}

/** Where a row of a lines reply keeps its place among the rows (a symbol: no key of a row can hide it). */
const PLACE = Symbol('row');

/** A row's value starts fit 16 bits while its line is shorter than this; a longer line moves every row's to 32. */
const SHORT_LINE = 0x10000;

/** The most rows whose value starts are made room for at once, whatever the reply announces (more room is made, twice as much each time, as more rows come). */
const FIRST_ROOM = 1 << 20;

type RowPlace = { readonly [PLACE]: number };

/**
 * The rows of a lines reply (src/api/listRows.ts LIST_ROWS_LINES), kept as the lines they came as. A
 * row is the text of its line and where each of its values starts, found once as the line is added
 * (which also checks its width); a value is made what its kind says (`copyTextValue`) only when it is
 * read, and is not kept. The row objects are read-only views of their lines (a Proxy with the keys in
 * their order: reading a key, `in`, `Object.keys`, spreading and JSON.stringify all see the documented
 * row), so sorting, paging, the exports and the row drawer read them as any row object; writing to
 * one throws.
 *
 * Why: making 100,000 Send Money rows of 41 values into objects as they arrived cost the tab about a
 * second of its main thread and the garbage of four million values, while the browser, the server and
 * the database shared two cores. Kept as lines, a reply's rows cost their text (about what
 * the objects held), two bytes a value for the starts and a small object each, and only the values read
 * are made: a page's, a column's when it is ranked for sorting, an export's as it is written.
 */
export class LineRows {
  /** The row objects, in the reply's order. */
  readonly rows: Record<string, unknown>[] = [];
  private readonly lines: string[] = [];
  private readonly width: number;
  /** Per row, where its values after the first start in its line (`width - 1` of them). */
  private starts: Uint16Array | Uint32Array;
  private readonly kindOf: readonly ListRowKind[];
  private readonly handler: ProxyHandler<RowPlace>;

  constructor(keys: readonly string[], kinds: string, expected = 0) {
    const n = keys.length;
    if (kinds.length !== n || !/^[nbtsj]*$/.test(kinds)) throw new SyntaxError(`A list reply's kinds '${kinds}' do not fit its ${n} keys`);
    this.width = n;
    this.kindOf = [...kinds] as ListRowKind[];
    this.starts = new Uint16Array(Math.min(Math.max(expected, 1), FIRST_ROOM) * Math.max(n - 1, 1));
    const index = new Map(keys.map((k, i) => [k, i]));
    const at = (p: string | symbol) => (typeof p === 'string' ? index.get(p) : undefined);
    const ownKeys = [...keys];
    this.handler = {
      get: (t, p) => {
        const k = at(p);
        return k === undefined ? Reflect.get(t, p) : this.value(t[PLACE], k);
      },
      has: (t, p) => at(p) !== undefined || Reflect.has(t, p),
      ownKeys: () => ownKeys.slice(),
      getOwnPropertyDescriptor: (t, p) => {
        const k = at(p);
        return k === undefined ? undefined : { value: this.value(t[PLACE], k), writable: false, enumerable: true, configurable: true };
      },
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    };
  }

  /** Adds the row of one line of COPY text; a line of more or fewer values than the keys is refused. */
  add(line: string): void {
    const r = this.lines.length;
    const gaps = this.width - 1;
    if (line.length >= SHORT_LINE && this.starts instanceof Uint16Array) this.starts = Uint32Array.from(this.starts);
    if ((r + 1) * gaps > this.starts.length) {
      const more = new (this.starts.constructor as Uint16ArrayConstructor | Uint32ArrayConstructor)(Math.max(this.starts.length * 2, (r + 1) * gaps));
      more.set(this.starts);
      this.starts = more;
    }
    const starts = this.starts;
    const base = r * gaps;
    let from = 0;
    for (let k = 0; k < gaps; k++) {
      const tab = line.indexOf('\t', from);
      if (tab < 0) throw new SyntaxError(`A list row of ${k + 1} values, not ${this.width}`);
      from = tab + 1;
      starts[base + k] = from;
    }
    if (line.indexOf('\t', from) >= 0) throw new SyntaxError(`A list row of ${line.split('\t').length} values, not ${this.width}`);
    this.lines.push(line);
    this.rows.push(new Proxy({ [PLACE]: r }, this.handler) as unknown as Record<string, unknown>);
  }

  /** The value under key `k` of row `r`, made what its kind says (the documented value). */
  value(r: number, k: number): unknown {
    const line = this.lines[r]!;
    const gaps = this.width - 1;
    const start = k === 0 ? 0 : this.starts[r * gaps + k - 1]!;
    const end = k === gaps ? line.length : this.starts[r * gaps + k]! - 1;
    return copyTextValue(this.kindOf[k]!, line.slice(start, end));
  }
}

/**
 * Reads a lines reply (src/api/listRows.ts LIST_ROWS_LINES) as it arrives: its first line is the JSON
 * document (the compact members, `filteredListRows` empty), each line after it a row in COPY text. The
 * result is the documented reply; a reply with fewer or more rows than its document announced is refused
 * (a reply cut short is an error, never a shorter list).
 */
export class LinesListParser {
  private head = '';
  private pending = '';
  private holder: Record<string, unknown> | undefined;
  private doc: unknown;
  private expected = 0;
  private store: LineRows | undefined;

  constructor(private readonly onRowsBegin?: (partial: unknown) => void) {}

  get rowCount(): number {
    return this.store?.rows.length ?? 0;
  }

  push(chunk: string): void {
    if (!this.store) {
      this.head += chunk;
      const nl = this.head.indexOf('\n');
      if (nl < 0) return;
      const text = this.head.slice(0, nl);
      chunk = this.head.slice(nl + 1);
      this.head = '';
      this.begin(text);
    }
    // each line is cut from the chunk it came in (no copy of the chunk's text is made); only a line
    // begun in an earlier chunk is joined
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.pending += chunk;
      return;
    }
    const store = this.store!;
    store.add(this.pending + chunk.slice(0, nl));
    let from = nl + 1;
    while ((nl = chunk.indexOf('\n', from)) >= 0) {
      store.add(chunk.slice(from, nl));
      from = nl + 1;
    }
    this.pending = chunk.slice(from);
  }

  end(): unknown {
    if (!this.store) throw new SyntaxError('A list reply without its first line');
    if (this.pending !== '') this.store.add(this.pending);
    this.pending = '';
    const { rows } = this.store;
    if (rows.length !== this.expected) throw new SyntaxError(`A list reply of ${rows.length} rows where ${this.expected} were announced`);
    toDocumented(this.holder!, rows);
    return this.doc;
  }

  private begin(text: string) {
    this.doc = JSON.parse(text) as unknown;
    const holder = compactHolder(this.doc);
    const kinds = holder?.[LIST_ROWS_KINDS];
    const count = holder?.[LIST_ROWS_COUNT];
    if (!holder || typeof kinds !== 'string' || typeof count !== 'number') throw new SyntaxError(`A lines list reply without ${KEYS}, ${LIST_ROWS_KINDS} or ${LIST_ROWS_COUNT}`);
    this.holder = holder;
    this.expected = count;
    this.store = new LineRows(holder[KEYS] as string[], kinds, count);
    if (this.onRowsBegin) {
      const partial = JSON.parse(text) as unknown;
      toDocumented(compactHolder(partial)!, []);
      this.onRowsBegin(partial);
    }
  }
}

export class CompactListParser {
  private head = '';
  private inRows = false;
  private inTail = false;
  private pending = '';
  private tail = '';
  private readonly rows: object[] = [];
  private make: ((values: readonly unknown[]) => Record<string, unknown>) | undefined;
  /** The document before the rows (parsed once the rows begin): the envelope, the first page, the keys. */
  private skeleton: unknown;

  /** `onRowsBegin`: handed the reply so far (the documented shape, no rows yet) as the rows begin. */
  constructor(private readonly onRowsBegin?: (partial: unknown) => void) {}

  push(chunk: string): void {
    if (this.inTail) {
      this.tail += chunk;
      return;
    }
    if (this.inRows) {
      this.pushRows(chunk);
      return;
    }
    this.head += chunk;
    const at = this.head.indexOf(ROWS_MARK);
    if (at < 0) return;
    const cut = at + ROWS_MARK.length;
    const rest = this.head.slice(cut);
    this.head = this.head.slice(0, cut);
    this.skeleton = JSON.parse(closeDocument(this.head)) as unknown;
    const holder = compactHolder(this.skeleton);
    if (!holder) throw new SyntaxError(`A compact list reply without ${KEYS}`);
    this.make = rowMaker(holder[KEYS] as string[], timesOf(holder));
    this.inRows = true;
    if (this.onRowsBegin) {
      const partial = JSON.parse(closeDocument(this.head)) as unknown;
      toDocumented(compactHolder(partial)!, []);
      this.onRowsBegin(partial);
    }
    this.pushRows(rest);
  }

  /** The rows read so far. */
  get rowCount(): number {
    return this.rows.length;
  }

  end(): unknown {
    if (!this.inRows) {
      // not a compact reply after all (or no rows member): the whole text is the document
      return JSON.parse(this.head) as unknown;
    }
    if (!this.inTail) {
      // the rows were not one per line (a reply rewritten on its way): the whole text, if no row was taken yet
      if (this.rows.length > 0) throw new SyntaxError('Unexpected end of JSON input');
      const doc = JSON.parse(`${this.head}${this.pending}`) as unknown;
      const holder = compactHolder(doc)!;
      toDocumented(holder, ((holder[ROWS] as unknown[][] | undefined) ?? []).map(this.make!));
      return doc;
    }
    // the tail is the end of the rows' array and of the document: parsed with the head, rows left out
    const doc = JSON.parse(`${this.head}${this.tail}`) as unknown;
    toDocumented(compactHolder(doc)!, this.rows);
    return doc;
  }

  private pushRows(text: string) {
    this.pending += text;
    // the rows end at the line break before the closing bracket (a row line always starts with '[')
    const end = this.pending.indexOf('\n]');
    if (end >= 0) {
      this.parseRows(this.pending.slice(0, end), true);
      this.tail = this.pending.slice(end + 1);
      this.pending = '';
      this.inTail = true;
      return;
    }
    const nl = this.pending.lastIndexOf('\n');
    if (nl <= 0) return;
    if (this.parseRows(this.pending.slice(0, nl), false)) this.pending = this.pending.slice(nl);
  }

  /** Parses a run of whole row lines; false (nothing taken) when it does not parse and more text may complete it. */
  private parseRows(block: string, last: boolean): boolean {
    let body = block.trimEnd();
    if (body.endsWith(',')) body = body.slice(0, -1);
    if (body.trim() === '') return true;
    let arrays: unknown[][];
    try {
      arrays = JSON.parse(`[${body}]`) as unknown[][];
    } catch (err) {
      if (last) throw err;
      return false;
    }
    const make = this.make!;
    for (let i = 0; i < arrays.length; i++) this.rows.push(make(arrays[i]));
    return true;
  }
}

/** The body of a compact list reply (`lines`: a lines reply), parsed while it streams in (see the file comment); `onPartial` as in readJsonStream. */
export async function readCompactListStream(res: Response, onPartial?: (partial: unknown) => void, lines = false): Promise<unknown> {
  const parser = lines ? new LinesListParser(onPartial) : new CompactListParser(onPartial);
  if (!res.body || typeof TextDecoder === 'undefined') {
    parser.push(await res.text());
    return parser.end();
  }
  const decoder = new TextDecoder();
  // the main thread's time spent decoding and parsing, summed over the chunks (the bench reads it)
  let busy = 0;
  let t: number;
  for await (const bytes of bodyChunks(res.body)) {
    t = performance.now();
    parser.push(decoder.decode(bytes, { stream: true }));
    busy += performance.now() - t;
  }
  t = performance.now();
  parser.push(decoder.decode());
  const doc = parser.end();
  busy += performance.now() - t;
  performance.mark(PARSE_MARK, { detail: { ms: Math.round(busy), rows: parser.rowCount } });
  return doc;
}

/** The performance mark a compact reply's reading leaves (detail: the ms spent decoding and parsing, the rows). */
export const PARSE_MARK = 'list-rows-parsed';
