/**
 * The streaming JSON reader of the console (src/console/jsonStream.ts) gives exactly what JSON.parse
 * gives, however the text is cut into chunks, and rejects what JSON.parse rejects.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonStreamParser, readJsonStream } from '../../src/console/jsonStream';

function parseInChunks(text: string, cuts: number[], batch: number): unknown {
  const parser = new JsonStreamParser(batch);
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const p of points) {
    parser.push(text.slice(from, p));
    from = p;
  }
  parser.push(text.slice(from));
  return parser.end();
}

/** A list reply like the server's: an envelope around arrays of row objects. */
const row = fc.record({
  id: fc.integer(),
  trace: fc.string({ unit: 'binary' }),
  amount: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
  tags: fc.array(fc.oneof(fc.string(), fc.record({ k: fc.string({ unit: 'grapheme' }) }))),
  nested: fc.option(fc.array(fc.record({ a: fc.array(fc.integer()), b: fc.string() }))),
});
const reply = fc.record({
  statusCode: fc.constant(200),
  data: fc.record({ filteredList: fc.array(row, { maxLength: 40 }), countries: fc.array(fc.record({ code: fc.string(), name: fc.string() })), note: fc.jsonValue() }),
  totalAmount: fc.double({ noNaN: true, noDefaultInfinity: true }),
});

describe('JsonStreamParser', () => {
  it('parses any JSON value as JSON.parse does, whatever the chunks', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat()), fc.integer({ min: 1, max: 200 }), fc.boolean(), (value, cuts, batch, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(parseInChunks(text, cuts, batch)).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('parses list replies (arrays of rows, strings with brackets, quotes and escapes) as JSON.parse does', () => {
    fc.assert(
      fc.property(reply, fc.array(fc.nat()), fc.integer({ min: 1, max: 500 }), (value, cuts, batch) => {
        const text = JSON.stringify(value);
        expect(parseInChunks(text, cuts, batch)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the rows in order across batches and chunks', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, trace: `t{[${i}]}"\\`, list: [{ n: i }] }));
    const text = JSON.stringify({ statusCode: 200, data: { filteredList: rows, countries: [] } });
    const parsed = parseInChunks(
      text,
      Array.from({ length: 300 }, (_, i) => i * 997),
      4096,
    ) as { data: { filteredList: typeof rows } };
    expect(parsed.data.filteredList).toHaveLength(5000);
    expect(parsed).toEqual(JSON.parse(text));
  });

  it('rejects truncated or broken text', () => {
    for (const text of ['{"a":[{"b":1},{"b":2}', '[{"a":1},{"a":', '{"a":"x', '[{"a":1}}]', '{"a":[{"b":1},]}']) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(() => parseInChunks(text, [3, 7], 8), text).toThrow();
    }
  });

  it('reads a streamed Response body split anywhere, multi-byte characters included', async () => {
    const value = {
      statusCode: 200,
      data: {
        filteredList: [
          { name: 'Ōsaka – 東京 😀', id: 1 },
          { name: 'ශ්‍රී ලංකා', id: 2 },
        ],
      },
    };
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    expect(await readJsonStream(new Response(body))).toEqual(value);
  });

  it('reads a byte-stream body (a browser fetch body) into its own buffer, reused, multi-byte characters split across reads', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Ōsaka – 東京 😀 ශ්‍රී ලංකා ${'x'.repeat(i % 7)}`, amount: i * 1.5 }));
    const value = { statusCode: 200, data: { transactions: rows.slice(0, 50), filteredList: rows } };
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    expect(bytes.length).toBeGreaterThan(3 * 32 * 1024);
    let at = 0;
    let byobReads = 0;
    const body = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        const request = controller.byobRequest;
        if (!request?.view) throw new Error("expected a read into the reader's buffer");
        byobReads++;
        const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
        // an odd size per read, so that characters are split between reads
        const n = Math.min(view.length - 1, bytes.length - at);
        view.set(bytes.subarray(at, at + n));
        at += n;
        request.respond(n);
        if (at === bytes.length) controller.close();
      },
    });
    expect(await readJsonStream({ body } as unknown as Response)).toEqual(value);
    expect(byobReads).toBeGreaterThan(3);
  });
});

describe('the document so far, as each streamed array begins', () => {
  /** The snapshots `readJsonStream` hands over while reading `text` in the given chunks. */
  async function partials(text: string, cuts: number[], batch: number): Promise<{ partials: unknown[]; whole: unknown }> {
    const bytes = new TextEncoder().encode(text);
    const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const p of [...points, bytes.length]) {
      chunks.push(bytes.slice(from, p));
      from = p;
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    const seen: unknown[] = [];
    const parser = new JsonStreamParser(batch, () => seen.push(parser.snapshot()));
    const reader = body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    const whole = parser.end();
    return { partials: seen, whole };
  }

  it('shows a list reply with its first page, totals and countries, and no rows yet, when the rows begin', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 8 }),
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat()),
        fc.integer({ min: 1, max: 300 }),
        async (first, rows, cuts, batch) => {
          const text = JSON.stringify({ totalAmount: 12.5, statusCode: 200, data: { transactions: first, countries: [{ code: 'AE', name: 'United Arab Emirates' }], filteredList: rows } });
          const doc = JSON.parse(text) as { data: { transactions: unknown[]; filteredList: unknown[] } }; // -0 is 0 once written
          const { partials: seen, whole } = await partials(text, cuts, batch);
          expect(whole).toEqual(doc);
          // one snapshot as each array of objects begins: the first page (empty so far), the countries, the rows
          expect(seen).toHaveLength(3);
          expect((seen[0] as typeof doc).data.transactions).toEqual([]);
          expect(seen[1]).toEqual({ ...doc, data: { transactions: doc.data.transactions, countries: [] } });
          const atRows = seen[2] as typeof doc;
          expect(atRows).toEqual({ ...doc, data: { ...doc.data, filteredList: [] } });
          // the snapshots are copies: reading on changes none of them
          expect(atRows.data.filteredList).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('hands nothing over for a reply without arrays of objects, and readJsonStream still returns the whole reply', async () => {
    const seen: unknown[] = [];
    const res = new Response(JSON.stringify({ statusCode: 200, data: { n: [1, 2, 3], s: 'x' } }));
    expect(await readJsonStream(res, (p) => seen.push(p))).toEqual({ statusCode: 200, data: { n: [1, 2, 3], s: 'x' } });
    expect(seen).toEqual([]);
  });
});
