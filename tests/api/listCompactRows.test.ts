/**
 * The compact form of the transaction lists (src/api/listRows.ts): a client that sends
 * `x-list-rows: arrays2` gets the keys once and each row as an array of its values, one row per line;
 * the same rows and values as the documented reply, whose form is unchanged for every other client.
 * Both the one-statement and the streamed reply (a small LIST_STREAM_ABOVE_ROWS), every list call;
 * the compact text is read with JSON.parse and with the console's own reader (src/console/compactRows.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { startServer, type TestServer } from './harness';
import { transactionCalls } from '../../src/api/transactions';
import { CompactListParser, LinesListParser, unescapeCopyText } from '../../src/console/compactRows';
import { LIST_ROWS_ARRAYS, LIST_ROWS_HEADER, LIST_ROWS_LINES, isoOfUtcWallClock, rowsOfArrays } from '../../src/api/listRows';

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

const ALL = 99_999_999;
const day = (offset: number) => {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return format(d, 'yyyy-MM-dd');
};

type Reply = { statusCode: number; data: Record<string, unknown>; [k: string]: unknown };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ text: string; res: Response }> {
  const res = await server.raw(`/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, ...headers },
    body: JSON.stringify(body),
  });
  return { text: await res.text(), res };
}

/** The compact reply made into the documented shape by plain JSON.parse and a loop (independent of the console's reader). */
function fromCompact(text: string): Reply {
  const reply = JSON.parse(text) as Reply;
  const keys = reply.data.filteredListKeys as string[];
  const times = reply.data.filteredListTimes as number[];
  const rows = reply.data.filteredListRows as unknown[][];
  const { filteredListKeys: _k, filteredListTimes: _t, filteredListRows: _r, ...rest } = reply.data;
  return { ...reply, data: { ...rest, filteredList: rowsOfArrays(keys, times, rows) } };
}

/** The list calls with a body each accepts: 120 days, fetch count All where the call has one. */
function listCalls() {
  return transactionCalls
    .filter((c) => /List|Transaction\//.test(c.path) && !c.path.includes('/ceft/'))
    .map((contract) => {
      const b: Record<string, unknown> = { from_date: `${day(-120)}T00:00:01`, to_date: `${day(0)}T23:59:00`, country_code: '', data: '', status: '', fetchCount: ALL };
      if (!contract.request.safeParse(b).success) delete b.status;
      if (!contract.request.safeParse(b).success) delete b.fetchCount;
      return { path: contract.path, body: b };
    });
}

async function compare(streamAbove?: number) {
  if (streamAbove) process.env.LIST_STREAM_ABOVE_ROWS = String(streamAbove);
  try {
    const calls = listCalls();
    expect(calls.length).toBeGreaterThanOrEqual(9);
    for (const { path, body } of calls) {
      const documented = await post(path, body);
      expect(documented.res.status, path).toBe(200);
      expect(documented.res.headers.get(LIST_ROWS_HEADER), path).toBeNull();
      const plain = JSON.parse(documented.text) as Reply;
      const rows = plain.data.filteredList as Record<string, unknown>[];
      expect(rows.length, path).toBeGreaterThan(streamAbove ?? 0);

      const compact = await post(path, body, { [LIST_ROWS_HEADER]: LIST_ROWS_ARRAYS });
      expect(compact.res.status, path).toBe(200);
      expect(compact.res.headers.get(LIST_ROWS_HEADER), path).toBe(LIST_ROWS_ARRAYS);
      const raw = JSON.parse(compact.text) as Reply;
      expect(raw.data.filteredList, path).toBeUndefined();
      expect(raw.data.filteredListKeys, path).toEqual(Object.keys(rows[0]));
      // the times are listed and sent as the UTC wall clock, without the zone
      const keys = raw.data.filteredListKeys as string[];
      const times = raw.data.filteredListTimes as number[];
      expect(
        times.map((t) => keys[t]),
        path,
      ).toContain('initiated_time');
      const first = (raw.data.filteredListRows as unknown[][])[0]!;
      expect(first[keys.indexOf('initiated_time')], path).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?$/);
      expect(rows[0]!.initiated_time, path).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // one row per line: the lines between the opening and the closing bracket are the rows
      const lines = compact.text
        .slice(compact.text.indexOf('"filteredListRows":[') + 20, compact.text.lastIndexOf('\n]'))
        .split('\n')
        .slice(1);
      expect(lines.length, path).toBe(rows.length);
      expect(
        lines.every((l) => l.startsWith('[')),
        path,
      ).toBe(true);
      // far fewer bytes: the keys are not repeated in every row
      expect(compact.text.length, path).toBeLessThan(documented.text.length * 0.75);

      // the same reply once the arrays are rows again: every other member, every row, every value
      const rebuilt = fromCompact(compact.text);
      expect(rebuilt, path).toEqual(plain);
      // and as the console reads it, in uneven chunks
      const parser = new CompactListParser();
      for (let i = 0; i < compact.text.length; i += 7_777) parser.push(compact.text.slice(i, i + 7_777));
      const read = parser.end() as Reply;
      expect(read, path).toEqual(plain);
      expect(Object.keys((read.data.filteredList as object[])[0]), path).toEqual(Object.keys(rows[0]));
    }
  } finally {
    delete process.env.LIST_STREAM_ABOVE_ROWS;
  }
}

describe('the compact list rows (x-list-rows: arrays2)', () => {
  it('carry the same rows and values as the documented reply, in one statement', async () => {
    await compare();
  });

  it('carry the same rows and values as the documented reply when the rows are streamed', async () => {
    await compare(50);
  });

  it('are not sent to a client that does not ask for them, nor for another value of the header', async () => {
    const [{ path, body }] = listCalls();
    const without = await post(path, body);
    // 'arrays' is version 1 (times in the documented text), which a console loaded before version 2 asks for:
    // it gets the documented reply, never the wall-clock times it would misread
    for (const value of ['objects', 'arrays']) {
      const other = await post(path, body, { [LIST_ROWS_HEADER]: value });
      expect(other.res.headers.get(LIST_ROWS_HEADER), value).toBeNull();
      expect(JSON.parse(other.text), value).toEqual(JSON.parse(without.text));
    }
    expect(Object.keys((JSON.parse(without.text) as Reply).data)).toContain('filteredList');
    expect(without.res.headers.get('vary') ?? '').toMatch(/x-list-rows/i);
  });

  it('an empty list is an empty array of rows', async () => {
    const [{ path, body }] = listCalls();
    const none = { ...body, from_date: `${day(-3000)}T00:00:01`, to_date: `${day(-2999)}T23:59:00` };
    const compact = await post(path, none, { [LIST_ROWS_HEADER]: LIST_ROWS_ARRAYS });
    const parser = new CompactListParser();
    parser.push(compact.text);
    const read = parser.end() as Reply;
    expect(read).toEqual(JSON.parse((await post(path, none)).text));
    expect(read.data.filteredList).toEqual([]);
  });
});

describe('the lines of a list streamed from PostgreSQL (x-list-rows: lines3, arrays2)', () => {
  const LINES = `${LIST_ROWS_LINES}, ${LIST_ROWS_ARRAYS}`;

  it('carry the same rows and values as the documented reply, for every list call', async () => {
    process.env.LIST_STREAM_ABOVE_ROWS = '50';
    try {
      for (const { path, body } of listCalls()) {
        const plain = JSON.parse((await post(path, body)).text) as Reply;
        const rows = plain.data.filteredList as Record<string, unknown>[];
        expect(rows.length, path).toBeGreaterThan(50);
        const lines = await post(path, body, { [LIST_ROWS_HEADER]: LINES });
        expect(lines.res.status, path).toBe(200);
        if (server.backend !== 'pg') {
          // the embedded database has no COPY: the compact arrays, which the console reads as well
          expect(lines.res.headers.get(LIST_ROWS_HEADER), path).toBe(LIST_ROWS_ARRAYS);
          const parser = new CompactListParser();
          parser.push(lines.text);
          expect(parser.end(), path).toEqual(plain);
          continue;
        }
        expect(lines.res.headers.get(LIST_ROWS_HEADER), path).toBe(LIST_ROWS_LINES);
        expect(lines.res.headers.get('content-type'), path).toMatch(/^text\/plain/);
        // the document on the first line, then a line per row, each ended by a line break
        const [first, ...rest] = lines.text.split('\n');
        const doc = JSON.parse(first!) as Reply;
        expect(doc.data.filteredListRows, path).toEqual([]);
        expect(doc.data.filteredListRowCount, path).toBe(rows.length);
        const keys = doc.data.filteredListKeys as string[];
        expect(keys, path).toEqual(Object.keys(rows[0]!));
        const kinds = doc.data.filteredListKinds as string;
        expect(kinds, path).toHaveLength(keys.length);
        expect(rest.pop(), path).toBe('');
        expect(rest.length, path).toBe(rows.length);
        // read independently of the console's reader: each value by its tab, as the documented value's text
        rest.forEach((line, r) => {
          const values = line.split('\t');
          expect(values.length, `${path} row ${r}`).toBe(keys.length);
          keys.forEach((k, i) => {
            const want = rows[r]![k];
            const text = values[i]!;
            if (want === null) return expect(text, `${path} ${k}`).toBe('\\N');
            if (kinds[i] === 't') return expect(isoOfUtcWallClock(text), `${path} ${k}`).toBe(want);
            if (kinds[i] === 'n') return expect(Number(text), `${path} ${k}`).toBe(want);
            if (kinds[i] === 'b') return expect(text, `${path} ${k}`).toBe(want ? 't' : 'f');
            if (kinds[i] === 'j') return expect(JSON.parse(unescapeCopyText(text)), `${path} ${k}`).toEqual(want);
            return expect(unescapeCopyText(text), `${path} ${k}`).toBe(want);
          });
        });
        // as the console reads it, in uneven chunks: the documented reply
        const parser = new LinesListParser();
        for (let i = 0; i < lines.text.length; i += 7_777) parser.push(lines.text.slice(i, i + 7_777));
        expect(parser.end(), path).toEqual(plain);
        // a reply cut short by whole lines is refused, not read as a shorter list
        const cut = new LinesListParser();
        cut.push(lines.text.slice(0, lines.text.lastIndexOf('\n', lines.text.length - 2) + 1));
        expect(() => cut.end(), path).toThrow(/rows where/);
      }
    } finally {
      delete process.env.LIST_STREAM_ABOVE_ROWS;
    }
  });

  it('a list of one statement (not streamed) answers with the compact arrays', async () => {
    const [{ path, body }] = listCalls();
    const compact = await post(path, body, { [LIST_ROWS_HEADER]: LINES });
    expect(compact.res.headers.get(LIST_ROWS_HEADER)).toBe(LIST_ROWS_ARRAYS);
    expect(fromCompact(compact.text)).toEqual(JSON.parse((await post(path, body)).text));
  });

  it('are not sent to a client that does not also read the arrays, nor is a bad filter', async () => {
    const [{ path, body }] = listCalls();
    process.env.LIST_STREAM_ABOVE_ROWS = '50';
    try {
      const alone = await post(path, body, { [LIST_ROWS_HEADER]: LIST_ROWS_LINES });
      expect(alone.res.headers.get(LIST_ROWS_HEADER)).toBeNull();
      expect(JSON.parse(alone.text)).toEqual(JSON.parse((await post(path, body)).text));
      // a refused call is the documented error, in JSON, whatever was asked for
      const bad = await post(path, { ...body, country_code: 'XX' }, { [LIST_ROWS_HEADER]: LINES });
      expect(bad.res.status).toBe(400);
      expect(bad.res.headers.get(LIST_ROWS_HEADER)).toBeNull();
      expect((JSON.parse(bad.text) as Reply).data.message).toBe("country_code: Unknown country 'XX'");
    } finally {
      delete process.env.LIST_STREAM_ABOVE_ROWS;
    }
  });
});
