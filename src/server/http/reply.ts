import type { FastifyReply } from 'fastify';

/** Every reply: `{ statusCode, data, ...top }` with the HTTP status equal to statusCode. */
export function sendReply(reply: FastifyReply, statusCode: number, data: unknown, top: Record<string, unknown> = {}): FastifyReply {
  return reply
    .code(statusCode)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ ...top, statusCode, data });
}

export function sendError(reply: FastifyReply, statusCode: number, message: string, extra: Record<string, unknown> = {}): FastifyReply {
  return sendReply(reply, statusCode, { message, ...extra });
}
