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
 * Pure and synchronous per chunk: `push(text)` for each decoded chunk, then `end()`.
 */

import { bodyChunks, closeDocument } from './jsonStream';
import { COPY_NULL, copyTextValue, isoOfUtcWallClock, LIST_ROWS_COUNT, LIST_ROWS_KINDS, LIST_ROWS_TIMES, unescapeCopyText, type ListRowKind } from '../api/listRows';

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
 * ones (`kept(i)` says which columns look at all); `share(i, text)` gives the kept copy, keeping
 * `own(text)` the first time. A column found to have more stops looking.
 */
function textSharer(columns: number, kept: (i: number) => boolean, own: (text: string) => string = (t) => t): (i: number, text: string) => string {
  const shared: (Map<string, string> | undefined)[] = Array.from({ length: columns }, (_, i) => (kept(i) ? new Map() : undefined));
  return (i, text) => {
    const texts = shared[i];
    const known = texts?.get(text);
    if (known !== undefined) return known;
    const mine = own(text);
    if (texts) {
      if (texts.size < SHARED_TEXTS_PER_COLUMN) texts.set(mine, mine);
      else shared[i] = undefined;
    }
    return mine;
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

/** A flat copy of a text that owns its characters (not a slice of a longer one). */
function ownCopy(text: string): string {
  const joined = `${text} `;
  // reading a character makes the joined text flat (its own copy); the slice of that is of this text alone
  joined.charCodeAt(0);
  return joined.slice(0, -1);
}

/**
 * Makes row objects of `keys` from lines of COPY text (a lines reply, src/api/listRows.ts
 * LIST_ROWS_LINES): each value made what its kind says (`kinds`, one letter per key), the times the
 * documented text; the rows share one shape and a column's few different texts, as `rowMaker`'s do.
 */
export function lineMaker(keys: readonly string[], kinds: string): (line: string) => Record<string, unknown> {
  const template = templateOf(keys);
  const n = keys.length;
  if (kinds.length !== n || !/^[nbtsj]*$/.test(kinds)) throw new SyntaxError(`A list reply's kinds '${kinds}' do not fit its ${n} keys`);
  const kindOf = [...kinds] as ListRowKind[];
  // a text of 13 characters or more cut from the line points into it (V8's sliced string) and would
  // keep the whole chunk of text it came in: the kept copy is one of its own
  const share = textSharer(
    n,
    (i) => kindOf[i] === 's',
    (t) => (t.length >= 13 ? ownCopy(t) : t),
  );
  return (line) => {
    const values = line.split('\t');
    if (values.length !== n) throw new SyntaxError(`A list row of ${values.length} values, not ${n}`);
    const row = { ...template };
    for (let i = 0; i < n; i++) {
      const text = values[i]!;
      let v: unknown;
      if (kindOf[i] !== 's' || text === COPY_NULL) {
        v = copyTextValue(kindOf[i]!, text);
        // a time made flat now (see rowMaker)
        if (kindOf[i] === 't' && typeof v === 'string') v.charCodeAt(0);
      } else {
        v = share(i, unescapeCopyText(text));
      }
      row[keys[i]!] = v;
    }
    return row;
  };
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
  private readonly rows: object[] = [];
  private holder: Record<string, unknown> | undefined;
  private doc: unknown;
  private expected = 0;
  private make: ((line: string) => Record<string, unknown>) | undefined;

  constructor(private readonly onRowsBegin?: (partial: unknown) => void) {}

  get rowCount(): number {
    return this.rows.length;
  }

  push(chunk: string): void {
    if (!this.make) {
      this.head += chunk;
      const nl = this.head.indexOf('\n');
      if (nl < 0) return;
      const text = this.head.slice(0, nl);
      chunk = this.head.slice(nl + 1);
      this.head = '';
      this.begin(text);
    }
    this.pending += chunk;
    const nl = this.pending.lastIndexOf('\n');
    if (nl < 0) return;
    this.take(this.pending.slice(0, nl));
    this.pending = this.pending.slice(nl + 1);
  }

  end(): unknown {
    if (!this.make) throw new SyntaxError('A list reply without its first line');
    if (this.pending !== '') this.take(this.pending);
    this.pending = '';
    if (this.rows.length !== this.expected) throw new SyntaxError(`A list reply of ${this.rows.length} rows where ${this.expected} were announced`);
    toDocumented(this.holder!, this.rows);
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
    this.make = lineMaker(holder[KEYS] as string[], kinds);
    if (this.onRowsBegin) {
      const partial = JSON.parse(text) as unknown;
      toDocumented(compactHolder(partial)!, []);
      this.onRowsBegin(partial);
    }
  }

  private take(block: string) {
    const make = this.make!;
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) this.rows.push(make(lines[i]!));
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
