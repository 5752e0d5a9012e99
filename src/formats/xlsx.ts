/**
 * A streaming .xlsx writer: the sheet's rows become XML a block at a time, deflated as they come, so a
 * 100,000-row export never holds the workbook as objects (exceljs's in-memory workbook took 27 s and
 * 2.5 GB for 100,000 x 20; its streaming writer does not run in the browser).
 *
 * What the file holds is what the exceljs export held: the title (bold, 14 pt), 'On … by …',
 * 'Duration: …', a blank row, the header row (bold, grey fill, bottom border, frozen below it), then one
 * row per record; DOUBLE cells are numbers formatted '#,##0.00' (or with their field's decimals), DATE
 * cells Excel dates formatted 'yyyy-mm-dd hh:mm:ss' (the business zone's wall clock: a sheet sorts and
 * filters them as dates), INTEGER cells numbers, everything else
 * text (inline strings), neutralised against formula injection by formatCell; multi-line texts wrap;
 * column widths follow the longest value (8 to 60 characters).
 *
 * The widths are known only after the last row, but `<cols>` comes before `<sheetData>`: the rows are
 * deflated as a stream of their own (the native CompressionStream where there is one, else fflate) and
 * the sheet's head (widths and header rows, a few kB) is put in front of it at the end as stored DEFLATE
 * blocks, which end on a byte boundary so the rows' stream may follow; the entry's CRC is the head's CRC
 * combined with the rows'. The zip is fflate's streaming Zip.
 *
 * No DOM and no Node API: runs in a Web Worker, the page and Node (tests, bench).
 */
import { Deflate, Zip, ZipDeflate, strToU8, type ZipInputFile } from 'fflate';
import type { ExportField } from '../api/contract';
import { crc32, crc32Combine } from './crc32';
import { MAX_EXPORT_DECIMALS } from '../api/contract';
import { DATE_NUM_FMT, DEFAULT_DECIMALS, DOUBLE_NUM_FMT, doubleNumFmt, formatCell, formatDouble, headerLines, safeText, sheetName, type ExportCell, type ExportContext } from './cells';

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
/** Sheet rows: 1 title, 2 'On … by …', 3 'Duration: …', 4 blank, 5 the header row, data from 6. */
const HEADER_ROW = 5;
/** How many rows go into one XML block before it is deflated (sooner if the block's buffer is full). */
const BLOCK_ROWS = 1000;
const BLOCK_BYTES = 1 << 21;
/** Most UTF-8 bytes one UTF-16 unit of a text cell may take once escaped ('"' → '&quot;'). */
const MAX_BYTES_PER_UNIT = 6;

type Bytes = Uint8Array<ArrayBuffer>;

/**
 * A raw DEFLATE stream that also gives the CRC-32 of what went in. The native one is the browser's (and
 * Node's) CompressionStream('gzip'), about three times faster than fflate: its gzip wrapper comes off
 * and its trailer holds the CRC. fflate (and a CRC-32 in JavaScript) is the fallback where it is missing.
 */
export interface Deflater {
  push(bytes: Bytes): void;
  /** Resolves when the compressor has room for more (back-pressure); at once for fflate. */
  ready(): Promise<void>;
  /** Ends the stream: the raw DEFLATE chunks in order, and the CRC-32 of every byte pushed. */
  end(): Promise<{ chunks: Bytes[]; crc: number }>;
}

function fflateDeflater(level: DeflateLevel): Deflater {
  const out: Bytes[] = [];
  let crc = 0;
  const d = new Deflate({ level }, (chunk) => {
    out.push(chunk);
  });
  return {
    push: (bytes) => {
      crc = crc32(bytes, crc);
      d.push(bytes);
    },
    ready: async () => {},
    end: async () => {
      d.push(new Uint8Array(0), true);
      return { chunks: out, crc };
    },
  };
}

/** The first `n` bytes of chunks (fewer if they hold fewer). */
function leadingBytes(chunks: readonly Bytes[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    if (at >= n) break;
    const take = Math.min(c.length, n - at);
    out.set(c.subarray(0, take), at);
    at += take;
  }
  return out.subarray(0, at);
}

/** The size of a gzip member's header (RFC 1952, 2.3.1), read from its first bytes. */
export function gzipHeaderLength(head: Uint8Array): number {
  if (head.length < 10 || head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8) throw new Error('not a gzip stream');
  const flags = head[3];
  let at = 10;
  if (flags & 4) at += 2 + (head[at] | (head[at + 1] << 8)); // FEXTRA
  for (const bit of [8, 16]) {
    // FNAME, FCOMMENT: zero-terminated
    if (!(flags & bit)) continue;
    while (at < head.length && head[at] !== 0) at++;
    at++;
  }
  if (flags & 2) at += 2; // FHCRC
  if (at > head.length) throw new Error('gzip header longer than expected');
  return at;
}

/** `chunks` without their first `skip` and last `drop` bytes. */
function trimChunks(chunks: readonly Bytes[], skip: number, drop: number): Bytes[] {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const end = total - drop;
  const out: Bytes[] = [];
  let at = 0;
  for (const c of chunks) {
    const from = Math.max(skip, at);
    const to = Math.min(end, at + c.length);
    if (to > from) out.push(from === at && to === at + c.length ? c : c.subarray(from - at, to - at));
    at += c.length;
  }
  return out;
}

export function nativeDeflater(): Deflater {
  const stream = new CompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const out: Bytes[] = [];
  let failure: unknown;
  const read = (async () => {
    const reader = stream.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out.push(value);
    }
  })();
  const fail = (e: unknown) => {
    failure ??= e;
  };
  read.catch(fail);
  return {
    push: (bytes) => {
      writer.write(bytes).catch(fail);
    },
    ready: async () => {
      await writer.ready;
      if (failure) throw failure;
    },
    end: async () => {
      await writer.close();
      await read;
      if (failure) throw failure;
      // gzip = header, raw DEFLATE, then CRC-32 and size (little-endian)
      const total = out.reduce((n, c) => n + c.length, 0);
      const header = gzipHeaderLength(leadingBytes(out, Math.min(total, 1024)));
      const trailer = trimChunks(out, total - 8, 0);
      const t = leadingBytes(trailer, 8);
      const crc = (t[0] | (t[1] << 8) | (t[2] << 16) | (t[3] << 24)) >>> 0;
      return { chunks: trimChunks(out, header, 8), crc };
    },
  };
}

function hasNativeGzip(): boolean {
  try {
    new CompressionStream('gzip');
    return true;
  } catch {
    return false;
  }
}

type DeflateLevel = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** Style ids of xl/styles.xml's cellXfs below. */
const S_TITLE = 1;
const S_HEADER = 2;
const S_HEADER_RIGHT = 3;
const S_AMOUNT = 4;
const S_WRAP = 5;
const S_DATE = 6;
/** The style of DOUBLE cells with d decimals (0 to MAX_EXPORT_DECIMALS) is S_DECIMALS + d; 2 is S_AMOUNT's format too. */
const S_DECIMALS = 7;
/** The number formats of our own: 164 DOUBLE_NUM_FMT, 165 DATE_NUM_FMT, 166 + d the DOUBLE format with d decimals. */
const FMT_DATE = 165;
const FMT_DECIMALS = 166;

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
/** What ends a sheet's XML after its last row. */
const SHEET_TAIL = '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const NEEDS_ESCAPE = /[&<>"]/;

/** Text for XML content or a double-quoted attribute. (Characters XML cannot carry are stripped by safeText.) */
export function xmlEscape(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]) : s;
}

/** 0 → 'A', 25 → 'Z', 26 → 'AA'. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** What follows a cell's reference, up to its value (see textCell and cellXml). */
const CELL_NUMBER_OPEN = '"><v>';
const CELL_AMOUNT_OPEN = `" s="${S_AMOUNT}"><v>`;
const CELL_DATE_OPEN = `" s="${S_DATE}"><v>`;

/** What opens a number cell of a field: its style by type (and a DOUBLE's decimals). */
function numberOpenOf(field: ExportField): string {
  if (field.type === 'DATE') return CELL_DATE_OPEN;
  if (field.type !== 'DOUBLE') return CELL_NUMBER_OPEN;
  const d = field.decimals ?? DEFAULT_DECIMALS;
  return d === DEFAULT_DECIMALS ? CELL_AMOUNT_OPEN : `" s="${S_DECIMALS + d}"><v>`;
}
const CELL_TEXT_OPEN = '" t="inlineStr"><is>';
const CELL_WRAP_TEXT_OPEN = `" s="${S_WRAP}" t="inlineStr"><is>`;

/** /^\s|\s$/.test(text), without a regular expression scanning the whole text. */
function edgeSpace(text: string): boolean {
  return text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)));
}

/** The characters \s matches in a JavaScript regular expression. */
function isSpace(u: number): boolean {
  if (u <= 0x20) return u === 0x20 || (u >= 0x09 && u <= 0x0d);
  if (u < 0xa0) return false;
  return u === 0xa0 || u === 0x1680 || (u >= 0x2000 && u <= 0x200a) || u === 0x2028 || u === 0x2029 || u === 0x202f || u === 0x205f || u === 0x3000 || u === 0xfeff;
}

function textCell(ref: string, text: string, style?: number): string {
  const s = style ? ` s="${style}"` : '';
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${xmlEscape(text)}</t></is></c>`;
}

/** The longest line of a text (cells with line breaks are as wide as their widest line). */
function longestLine(text: string): number {
  if (!text.includes('\n')) return text.length;
  let max = 0;
  for (const line of text.split('\n')) max = Math.max(max, line.length);
  return max;
}

export interface XlsxWriterOptions {
  /**
   * How the sheet is compressed: 'native' CompressionStream, or fflate in JavaScript; 'auto' (the
   * default) takes the native one where it exists.
   */
  deflate?: 'auto' | 'native' | 'fflate';
  /** fflate's level (1 fastest … 9 smallest); 3 by default. The native stream uses zlib's default. */
  level?: DeflateLevel;
  /**
   * Makes the sheet's compressor, in place of `deflate`'s (the export worker's hands the blocks to a
   * compressing worker of its own, so that writing and compressing run on two threads).
   */
  deflater?: () => Deflater;
}

/**
 * The rows of a sheet as UTF-8 XML, written straight into a block buffer (no string of the block is ever
 * built), with the column widths they need. Shared by XlsxWriter (one sheet, its head written last) and
 * XlsxStreamWriter (sheets of up to a million rows, each head written first).
 */
abstract class SheetEncoder {
  protected readonly fields: ExportField[];
  protected readonly ctx: ExportContext;
  protected readonly letters: string[];
  /** Longest text per column; for number columns their smallest and largest value (their width follows). */
  protected readonly textWidth: number[];
  protected readonly minNumber: number[];
  protected readonly maxNumber: number[];
  /** Per column, what opens its number cells (the style of its type and decimals). */
  protected readonly numberOpen: string[];
  protected readonly encoder = new TextEncoder();
  /** The current block of the sheet's rows, as UTF-8 (handed to the compressor every BLOCK_ROWS rows). */
  protected buf: Bytes = new Uint8Array(BLOCK_BYTES);
  protected at = 0;
  protected blockRows = 0;

  constructor(fields: ExportField[], ctx: ExportContext) {
    this.fields = fields;
    this.ctx = ctx;
    this.letters = fields.map((_, i) => columnLetters(i));
    this.textWidth = fields.map((f) => safeText(f.header).length);
    this.minNumber = fields.map(() => Infinity);
    this.maxNumber = fields.map(() => -Infinity);
    this.numberOpen = fields.map(numberOpenOf);
  }

  /** Hands the block's bytes on; the next block starts in a fresh buffer. */
  protected abstract pushBytes(): void;

  /** Writes row `r` of the sheet: a record's raw values in `fields` order (formatCell turns them into cells). */
  protected rowXml(r: number, values: readonly unknown[]): void {
    const rs = String(r);
    const { fields, letters } = this;
    this.reserve(64);
    this.ascii('<row r="');
    this.ascii(rs);
    this.ascii('">');
    for (let c = 0; c < fields.length; c++) {
      const cell = formatCell(fields[c], values[c], 'xlsx', this.ctx.timeZone);
      this.cellXml(c, letters[c], rs, cell);
    }
    this.reserve(8);
    this.ascii('</row>');
  }

  /** Widens the columns for these records without writing them (a streamed sheet's widths come before its rows). */
  measure(records: readonly (readonly unknown[])[]): void {
    for (const values of records) {
      for (let c = 0; c < this.fields.length; c++) {
        const cell = formatCell(this.fields[c], values[c], 'xlsx', this.ctx.timeZone);
        if (typeof cell === 'number') {
          if (cell < this.minNumber[c]) this.minNumber[c] = cell;
          if (cell > this.maxNumber[c]) this.maxNumber[c] = cell;
        } else {
          const wide = longestLine(cell);
          if (wide > this.textWidth[c]) this.textWidth[c] = wide;
        }
      }
    }
  }

  /** One cell's XML, written as UTF-8 straight into the block (no string of the block is ever built). */
  protected cellXml(c: number, letters: string, rs: string, cell: ExportCell): void {
    if (typeof cell === 'number') {
      if (cell < this.minNumber[c]) this.minNumber[c] = cell;
      if (cell > this.maxNumber[c]) this.maxNumber[c] = cell;
      const v = String(cell);
      this.reserve(48 + letters.length + rs.length + v.length);
      this.ascii('<c r="');
      this.ascii(letters);
      this.ascii(rs);
      this.ascii(this.numberOpen[c]);
      this.ascii(v);
      this.ascii('</v></c>');
      return;
    }
    if (cell === '') return;
    const wide = longestLine(cell);
    if (wide > this.textWidth[c]) this.textWidth[c] = wide;
    // as textCell(): <c r="…"[ s="5"] t="inlineStr"><is><t[ xml:space="preserve"]>…</t></is></c>
    this.reserve(96 + letters.length + rs.length + cell.length * MAX_BYTES_PER_UNIT);
    this.ascii('<c r="');
    this.ascii(letters);
    this.ascii(rs);
    this.ascii(cell.includes('\n') ? CELL_WRAP_TEXT_OPEN : CELL_TEXT_OPEN);
    this.ascii(edgeSpace(cell) ? '<t xml:space="preserve">' : '<t>');
    this.escaped(cell);
    this.ascii('</t></is></c>');
  }

  /** Makes room for `n` more bytes in the block (sending the block to the compressor when it is full). */
  protected reserve(n: number): void {
    if (this.at + n <= this.buf.length) return;
    this.pushBytes();
    if (n > this.buf.length) this.buf = new Uint8Array(n);
  }

  /** Writes an ASCII text (markup, numbers); room must have been reserved. */
  protected ascii(s: string): void {
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /**
   * Writes a text as XML content, UTF-8 encoded as TextEncoder does (a lone surrogate becomes U+FFFD),
   * & < > " escaped as xmlEscape does; room must have been reserved (MAX_BYTES_PER_UNIT per UTF-16 unit).
   */
  protected escaped(s: string): void {
    const buf = this.buf;
    let at = this.at;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      let u = s.charCodeAt(i);
      if (u < 0x80) {
        if (u === 0x26) {
          buf[at++] = 0x26;
          buf[at++] = 0x61;
          buf[at++] = 0x6d;
          buf[at++] = 0x70;
          buf[at++] = 0x3b; // &amp;
        } else if (u === 0x3c) {
          buf[at++] = 0x26;
          buf[at++] = 0x6c;
          buf[at++] = 0x74;
          buf[at++] = 0x3b; // &lt;
        } else if (u === 0x3e) {
          buf[at++] = 0x26;
          buf[at++] = 0x67;
          buf[at++] = 0x74;
          buf[at++] = 0x3b; // &gt;
        } else if (u === 0x22) {
          buf[at++] = 0x26;
          buf[at++] = 0x71;
          buf[at++] = 0x75;
          buf[at++] = 0x6f;
          buf[at++] = 0x74;
          buf[at++] = 0x3b; // &quot;
        } else buf[at++] = u;
      } else if (u < 0x800) {
        buf[at++] = 0xc0 | (u >> 6);
        buf[at++] = 0x80 | (u & 0x3f);
      } else {
        if (u >= 0xd800 && u <= 0xdfff) {
          const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
          if (u <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            const cp = 0x10000 + ((u - 0xd800) << 10) + (next - 0xdc00);
            buf[at++] = 0xf0 | (cp >> 18);
            buf[at++] = 0x80 | ((cp >> 12) & 0x3f);
            buf[at++] = 0x80 | ((cp >> 6) & 0x3f);
            buf[at++] = 0x80 | (cp & 0x3f);
            i++;
            continue;
          }
          u = 0xfffd;
        }
        buf[at++] = 0xe0 | (u >> 12);
        buf[at++] = 0x80 | ((u >> 6) & 0x3f);
        buf[at++] = 0x80 | (u & 0x3f);
      }
    }
    this.at = at;
  }

  protected widthOf(c: number): number {
    const field = this.fields[c];
    let width = this.textWidth[c];
    if (this.minNumber[c] <= this.maxNumber[c]) {
      const show = (n: number) => (field.type === 'DOUBLE' ? formatDouble(n, field.decimals) : field.type === 'DATE' ? DATE_NUM_FMT : String(n)).length;
      width = Math.max(width, show(this.minNumber[c]), show(this.maxNumber[c]));
    }
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width + 2));
  }

  /**
   * A sheet's XML up to and including its header row, with the widths known so far: on the first sheet
   * (`lead`) the title, 'On … by …' and 'Duration: …' lines and a blank row come before the header row
   * (row 5), on the next sheets the header row is row 1. `lastRow` gives the dimension when it is known.
   */
  protected sheetHeadXml(lead: boolean, lastRow: number | null): string {
    const { fields, letters } = this;
    const lastCol = letters[letters.length - 1] ?? 'A';
    const headerRow = lead ? HEADER_ROW : 1;
    const first = `A${headerRow + 1}`;
    let xml =
      `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
      (lastRow === null ? '' : `<dimension ref="A1:${lastCol}${lastRow}"/>`) +
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${headerRow}" topLeftCell="${first}" activePane="bottomLeft" state="frozen"/>` +
      `<selection pane="bottomLeft" activeCell="${first}" sqref="${first}"/></sheetView></sheetViews>` +
      `<sheetFormatPr defaultRowHeight="15"/>`;
    if (fields.length > 0) {
      xml += '<cols>';
      for (let c = 0; c < fields.length; c++) xml += `<col min="${c + 1}" max="${c + 1}" width="${this.widthOf(c)}" customWidth="1"/>`;
      xml += '</cols>';
    }
    xml += '<sheetData>';
    if (lead) {
      const [title, byLine, durationLine] = headerLines(this.ctx);
      xml += `<row r="1">${textCell('A1', safeText(title), S_TITLE)}</row>`;
      xml += `<row r="2">${textCell('A2', safeText(byLine))}</row>`;
      xml += `<row r="3">${textCell('A3', safeText(durationLine))}</row>`;
    }
    xml += `<row r="${headerRow}">`;
    fields.forEach((f, c) => {
      xml += textCell(`${letters[c]}${headerRow}`, safeText(f.header), f.type === 'DOUBLE' ? S_HEADER_RIGHT : S_HEADER);
    });
    return `${xml}</row>`;
  }
}

/**
 * One workbook with one sheet. `addRow` takes a record's raw values in `fields` order (formatCell turns
 * them into cells); await `ready()` now and then (the compressor's back-pressure); `finish` resolves to
 * the .xlsx as zip chunks.
 */
export class XlsxWriter extends SheetEncoder {
  private readonly deflater: Deflater;
  private rowNo = HEADER_ROW;
  private bodySize = 0;
  private finished = false;

  constructor(fields: ExportField[], ctx: ExportContext, options: XlsxWriterOptions = {}) {
    super(fields, ctx);
    const mode = options.deflate ?? 'auto';
    const native = mode === 'native' || (mode === 'auto' && hasNativeGzip());
    this.deflater = options.deflater ? options.deflater() : native ? nativeDeflater() : fflateDeflater(options.level ?? 3);
  }

  /** Resolves when the compressor has caught up enough to take more rows. */
  ready(): Promise<void> {
    return this.deflater.ready();
  }

  /** How many records were added. */
  get rows(): number {
    return this.rowNo - HEADER_ROW;
  }

  /** Adds one record: its raw values in `fields` order. */
  addRow(values: readonly unknown[]): void {
    if (this.finished) throw new Error('XlsxWriter: finished');
    this.rowXml(++this.rowNo, values);
    if (++this.blockRows >= BLOCK_ROWS) this.flushBlock(false);
  }

  /** Hands the block's bytes to the compressor (which may keep or transfer them); the next block starts in a fresh buffer. */
  protected pushBytes(): void {
    if (this.at === 0) return;
    const bytes = this.buf.subarray(0, this.at);
    this.buf = new Uint8Array(this.buf.length);
    this.at = 0;
    this.bodySize += bytes.length;
    this.deflater.push(bytes);
  }

  private flushBlock(final: boolean): void {
    if (final) {
      this.reserve(SHEET_TAIL.length);
      this.ascii(SHEET_TAIL);
    }
    this.blockRows = 0;
    this.pushBytes();
  }

  /** The sheet's XML up to and including the header row: it needs the widths, so it is written last. */
  private sheetHead(): string {
    return this.sheetHeadXml(true, Math.max(this.rowNo, HEADER_ROW));
  }

  /** Ends the sheet; resolves to the .xlsx file as chunks (concatenate them, or make a Blob of them). */
  async finish(): Promise<Uint8Array[]> {
    if (this.finished) throw new Error('XlsxWriter: finished');
    this.flushBlock(true);
    this.finished = true;
    const body = await this.deflater.end();

    // the head (a few kB) goes in front of the rows' stream as stored, non-final DEFLATE blocks
    const headBytes = this.encoder.encode(this.sheetHead());
    const headChunks = storedBlocks(headBytes);

    const out: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      out.push(chunk);
    });
    const mtime = this.ctx.now;
    const small = (name: string, text: string) => {
      const f = new ZipDeflate(name, { level: 6 });
      f.mtime = mtime;
      zip.add(f);
      f.push(strToU8(text), true);
    };
    small('[Content_Types].xml', contentTypes(1));
    small('_rels/.rels', rootRels());
    small('docProps/core.xml', coreXml(this.ctx));
    small('docProps/app.xml', appXml());
    small('xl/workbook.xml', workbookXml([sheetName(this.ctx.title)]));
    small('xl/_rels/workbook.xml.rels', workbookRels(1));
    small('xl/styles.xml', STYLES);

    const sheet: ZipInputFile = {
      filename: 'xl/worksheets/sheet1.xml',
      compression: 8,
      size: headBytes.length + this.bodySize,
      crc: crc32Combine(crc32(headBytes), body.crc, this.bodySize),
      mtime,
    };
    zip.add(sheet);
    for (const chunk of headChunks) sheet.ondata!(null, chunk, false);
    for (const chunk of body.chunks) sheet.ondata!(null, chunk, false);
    body.chunks.length = 0;
    sheet.ondata!(null, new Uint8Array(0), true);
    zip.end();
    return out;
  }
}

/** Excel's rows per sheet. */
export const XLSX_SHEET_ROWS = 1_048_576;

/**
 * A raw DEFLATE stream whose output is handed on as it comes (`onData` of its factory), so that a file of
 * any size streams through: fflate's here, zlib's (in Node's thread pool) on the server.
 */
export interface StreamDeflater {
  push(bytes: Bytes): void;
  /** Resolves when the compressor has room for more (back-pressure). */
  ready(): Promise<void>;
  /** Ends the stream once all its output was handed on; resolves to the CRC-32 of every byte pushed. */
  end(): Promise<number>;
}
export type StreamDeflaterFactory = (onData: (chunk: Bytes) => void) => StreamDeflater;

/** fflate's DEFLATE in JavaScript, on the calling thread. */
export function fflateStreamDeflater(level: DeflateLevel = 3): StreamDeflaterFactory {
  return (onData) => {
    let crc = 0;
    const d = new Deflate({ level }, (chunk) => onData(chunk));
    return {
      push: (bytes) => {
        crc = crc32(bytes, crc);
        d.push(bytes);
      },
      ready: async () => {},
      end: async () => {
        d.push(new Uint8Array(0), true);
        return crc;
      },
    };
  };
}

export interface XlsxStreamOptions {
  /** Rows per sheet, its header rows included (Excel's limit, XLSX_SHEET_ROWS, by default; tests use fewer). */
  sheetRows?: number;
  /** The sheets' compressor (fflate's at level 3 by default). */
  deflater?: StreamDeflaterFactory;
}

/**
 * A workbook written as a stream, for files of any size (the server's export jobs): the .xlsx leaves
 * through `onData` as it is written, so memory stays at about a block of rows whatever their number.
 * Each sheet's head (widths, and on the first sheet the title, 'On … by …', 'Duration: …' lines) comes
 * before its rows, so the widths are those of the records `measure`d before the first row (and of every
 * row before a later sheet starts). A new sheet starts every `sheetRows` rows, its header row repeated.
 * The cells are XlsxWriter's (the same SheetEncoder): the browser's and the server's files are alike.
 */
export class XlsxStreamWriter extends SheetEncoder {
  private readonly zip: Zip;
  private readonly sheetRows: number;
  private readonly makeDeflater: StreamDeflaterFactory;
  private readonly names: string[] = [];
  private sheet: { entry: ZipInputFile; deflater: StreamDeflater; size: number } | null = null;
  private rowOnSheet = 0;
  private records = 0;
  private finished = false;

  constructor(fields: ExportField[], ctx: ExportContext, onData: (chunk: Uint8Array) => void, options: XlsxStreamOptions = {}) {
    super(fields, ctx);
    this.sheetRows = Math.max(HEADER_ROW + 1, options.sheetRows ?? XLSX_SHEET_ROWS);
    this.makeDeflater = options.deflater ?? fflateStreamDeflater(3);
    this.zip = new Zip((err, chunk) => {
      if (err) throw err;
      onData(chunk);
    });
  }

  /** How many records were added. */
  get rows(): number {
    return this.records;
  }

  /** Resolves when the compressor has caught up enough to take more rows. */
  ready(): Promise<void> {
    return this.sheet ? this.sheet.deflater.ready() : Promise.resolve();
  }

  /** Adds records (each its raw values in `fields` order), starting a new sheet when one is full. */
  async addRows(records: readonly (readonly unknown[])[]): Promise<void> {
    if (this.finished) throw new Error('XlsxStreamWriter: finished');
    for (let i = 0; i < records.length; i++) {
      if (!this.sheet) this.startSheet();
      else if (this.rowOnSheet >= this.sheetRows) {
        await this.endSheet();
        this.startSheet();
      }
      this.rowXml(++this.rowOnSheet, records[i]);
      this.records++;
      if (++this.blockRows >= BLOCK_ROWS) {
        this.blockRows = 0;
        this.pushBytes();
      }
    }
  }

  private startSheet(): void {
    const n = this.names.length + 1;
    const lead = n === 1;
    this.names.push(lead ? sheetName(this.ctx.title) : sheetName(`${this.ctx.title.slice(0, 24)} (${n})`));
    const entry: ZipInputFile = { filename: `xl/worksheets/sheet${n}.xml`, compression: 8, size: 0, crc: 0, mtime: this.ctx.now };
    this.zip.add(entry);
    const deflater = this.makeDeflater((chunk) => entry.ondata!(null, chunk as Bytes, false));
    this.sheet = { entry, deflater, size: 0 };
    const head = this.encoder.encode(this.sheetHeadXml(lead, null)) as Bytes;
    this.sheet.size += head.length;
    deflater.push(head);
    this.rowOnSheet = lead ? HEADER_ROW : 1;
  }

  private async endSheet(): Promise<void> {
    const sheet = this.sheet!;
    this.reserve(SHEET_TAIL.length);
    this.ascii(SHEET_TAIL);
    this.blockRows = 0;
    this.pushBytes();
    const crc = await sheet.deflater.end();
    sheet.entry.crc = crc;
    sheet.entry.size = sheet.size;
    sheet.entry.ondata!(null, new Uint8Array(0), true);
    this.sheet = null;
  }

  protected pushBytes(): void {
    if (this.at === 0 || !this.sheet) return;
    const bytes = this.buf.subarray(0, this.at);
    this.buf = new Uint8Array(this.buf.length);
    this.at = 0;
    this.sheet.size += bytes.length;
    this.sheet.deflater.push(bytes);
  }

  /** Ends the last sheet and the workbook; every byte of the file has gone through `onData` when it resolves. */
  async finish(): Promise<void> {
    if (this.finished) throw new Error('XlsxStreamWriter: finished');
    if (!this.sheet) this.startSheet();
    await this.endSheet();
    this.finished = true;
    const mtime = this.ctx.now;
    const small = (name: string, text: string) => {
      const f = new ZipDeflate(name, { level: 6 });
      f.mtime = mtime;
      this.zip.add(f);
      f.push(strToU8(text), true);
    };
    const n = this.names.length;
    small('[Content_Types].xml', contentTypes(n));
    small('_rels/.rels', rootRels());
    small('docProps/core.xml', coreXml(this.ctx));
    small('docProps/app.xml', appXml());
    small('xl/workbook.xml', workbookXml(this.names));
    small('xl/_rels/workbook.xml.rels', workbookRels(n));
    small('xl/styles.xml', STYLES);
    this.zip.end();
  }
}

/**
 * `data` as stored (uncompressed), non-final DEFLATE blocks: they end on a byte boundary, so another
 * DEFLATE stream may follow them directly (RFC 1951, 3.2.4).
 */
export function storedBlocks(data: Bytes): Bytes[] {
  const out: Bytes[] = [];
  for (let at = 0; at < data.length; at += 0xffff) {
    const piece = data.subarray(at, Math.min(data.length, at + 0xffff));
    const len = piece.length;
    // BFINAL 0, BTYPE 00, padded to the byte; LEN and its one's complement NLEN, little-endian
    out.push(Uint8Array.of(0, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff), piece);
  }
  return out;
}

/** Joins chunks into one array. */
export function concatChunks(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function contentTypes(sheets: number): string {
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    Array.from({ length: sheets }, (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join(
      '',
    ) +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
    '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
    '</Types>'
  );
}

function rootRels(): string {
  return (
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
    '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>' +
    '</Relationships>'
  );
}

/** The workbook's relationships: its sheets rId1 … rIdN, its styles rId(N+1). */
function workbookRels(sheets: number): string {
  return (
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
    Array.from(
      { length: sheets },
      (_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
    ).join('') +
    `<Relationship Id="rId${sheets + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
    '</Relationships>'
  );
}

function workbookXml(names: readonly string[]): string {
  return (
    `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
    '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews>' +
    `<sheets>${names.map((name, i) => `<sheet name="${xmlEscape(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets>` +
    '</workbook>'
  );
}

function w3cdtf(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

function coreXml(ctx: ExportContext): string {
  const when = w3cdtf(ctx.now);
  return (
    `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
    'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${xmlEscape(safeText(ctx.title))}</dc:title>` +
    `<dc:creator>${xmlEscape(safeText(ctx.username))}</dc:creator>` +
    `<cp:lastModifiedBy>${xmlEscape(safeText(ctx.username))}</cp:lastModifiedBy>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

function appXml(): string {
  return (
    `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>Microsoft Excel</Application></Properties>'
  );
}

/** 0 to MAX_EXPORT_DECIMALS: the decimals a DOUBLE field may ask for. */
const DECIMAL_RANGE = Array.from({ length: MAX_EXPORT_DECIMALS + 1 }, (_, d) => d);

/** Fonts: 0 normal, 1 title (bold 14), 2 bold. Fills: 2 the header's grey. Borders: 1 thin bottom. */
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
  `<numFmts count="${3 + MAX_EXPORT_DECIMALS}"><numFmt numFmtId="164" formatCode="${xmlEscape(DOUBLE_NUM_FMT)}"/>` +
  `<numFmt numFmtId="${FMT_DATE}" formatCode="${xmlEscape(DATE_NUM_FMT)}"/>` +
  DECIMAL_RANGE.map((d) => `<numFmt numFmtId="${FMT_DECIMALS + d}" formatCode="${xmlEscape(doubleNumFmt(d))}"/>`).join('') +
  '</numFmts>' +
  '<fonts count="3">' +
  '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '</fonts>' +
  '<fills count="3"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>' +
  '<fill><patternFill patternType="solid"><fgColor rgb="FFE5E7EB"/><bgColor indexed="64"/></patternFill></fill></fills>' +
  '<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>' +
  '<border><left/><right/><top/><bottom style="thin"><color auto="1"/></bottom><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="${S_DECIMALS + DECIMAL_RANGE.length}">` +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1" applyAlignment="1"><alignment horizontal="left" vertical="center"/></xf>' +
  '<xf numFmtId="0" fontId="2" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1" applyAlignment="1"><alignment horizontal="right" vertical="center"/></xf>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>' +
  `<xf numFmtId="${FMT_DATE}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  DECIMAL_RANGE.map((d) => `<xf numFmtId="${FMT_DECIMALS + d}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('') +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
