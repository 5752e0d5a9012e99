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
    const parsed = parseInChunks(text, Array.from({ length: 300 }, (_, i) => i * 997), 4096) as { data: { filteredList: typeof rows } };
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
    const value = { statusCode: 200, data: { filteredList: [{ name: 'Ōsaka – 東京 😀', id: 1 }, { name: 'ශ්‍රී ලංකා', id: 2 }] } };
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
        controller.close();
      },
    });
    expect(await readJsonStream(new Response(body))).toEqual(value);
  });
});
