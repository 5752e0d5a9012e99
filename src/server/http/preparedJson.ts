/**
 * A reply's `data` as JSON text made by the handler (the transaction lists build theirs in the
 * database, see src/server/areas/transactionsQuery.ts): sent as it is, without the reply schema's
 * parse and a JSON.stringify of every row, which for 100,000 rows cost more than the query. A handler
 * that returns one answers for its shape itself; the API tests parse such replies with the contract.
 */
import type { FastifyReply } from 'fastify';

export class PreparedJson {
  constructor(readonly text: string) {}
}

/** `{ ...top, statusCode, data }` as sendReply writes it, with `data` pasted in. */
export function sendPreparedReply(reply: FastifyReply, statusCode: number, data: PreparedJson, top: Record<string, unknown> = {}): FastifyReply {
  let head = '{';
  for (const [k, v] of Object.entries(top)) head += `${JSON.stringify(k)}:${JSON.stringify(v)},`;
  return reply
    .code(statusCode)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(`${head}"statusCode":${statusCode},"data":${data.text}}`);
}
