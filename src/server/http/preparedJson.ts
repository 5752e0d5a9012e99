/**
 * A reply's `data` as JSON text made by the handler (the transaction lists build theirs in the
 * database, see src/server/areas/transactions/query.ts): sent as it is, without the reply schema's
 * parse and a JSON.stringify of every row, which for 100,000 rows cost more than the query. A handler
 * that returns one answers for its shape itself; the API tests parse such replies with the contract.
 *
 * A large list is streamed: `PreparedJson.streamed(head, parts, tail, release)` sends `head`, then
 * each text of `parts` as the database hands it over (the elements of one JSON array, joined by
 * commas), then `tail`; `release` runs once the reply is over, sent or broken off. With `lines`, the
 * reply is the JSON document on its first line (`head` closes it) and then the bytes of `parts` as
 * they come, joined by nothing (a list's rows as PostgreSQL's COPY wrote them, src/api/listRows.ts
 * LIST_ROWS_LINES): not JSON as a whole, so sent as text/plain.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export type StreamedText =
  | {
      readonly head: string;
      /** Texts of array elements (each one or more elements joined by commas), joined by commas when sent. */
      readonly parts: AsyncIterable<string>;
      readonly tail: string;
      readonly release: () => Promise<void>;
      readonly lines?: false;
    }
  | {
      /** The rest of the document: the reply is whole once it is written. */
      readonly head: string;
      /** Bytes sent as they are after the document's line. */
      readonly parts: AsyncIterable<Buffer>;
      readonly tail: '';
      readonly release: () => Promise<void>;
      readonly lines: true;
    };

export class PreparedJson {
  private constructor(
    readonly text: string,
    readonly streamed?: StreamedText,
  ) {}

  static of(text: string): PreparedJson {
    return new PreparedJson(text);
  }

  static streamed(s: StreamedText): PreparedJson {
    return new PreparedJson('', s);
  }
}

/** `{ ...top, statusCode, data }` as sendReply writes it, with `data` pasted in. */
export function sendPreparedReply(reply: FastifyReply, statusCode: number, data: PreparedJson, top: Record<string, unknown> = {}): FastifyReply {
  let head = '{';
  for (const [k, v] of Object.entries(top)) head += `${JSON.stringify(k)}:${JSON.stringify(v)},`;
  head += `"statusCode":${statusCode},"data":`;
  const s = data.streamed;
  reply
    .code(statusCode)
    .header('cache-control', 'no-store')
    .type(s?.lines ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  if (!s) return reply.send(`${head}${data.text}}`);
  const body = Readable.from(s.lines ? linesBody(head, s) : streamedBody(head, s), { objectMode: false });
  body.once('close', () => void s.release());
  return reply.send(body);
}

async function* linesBody(head: string, s: Extract<StreamedText, { lines: true }>): AsyncGenerator<string | Buffer> {
  yield `${head}${s.head}}\n`;
  yield* s.parts;
}

async function* streamedBody(head: string, s: Extract<StreamedText, { lines?: false }>): AsyncGenerator<string> {
  yield head + s.head;
  let first = true;
  for await (const part of s.parts) {
    if (part === '') continue;
    yield first ? part : `,${part}`;
    first = false;
  }
  yield `${s.tail}}`;
}
