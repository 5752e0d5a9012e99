/**
 * GET /api/openapi.json: the published wire contract (OpenAPI 3.1), the same document `npm run codegen`
 * commits as generated/openapi.json. For signed-in users only (a bearer token, as for every call; an
 * account that must change its password first gets 403): the document is the whole permission map,
 * which call needs which permission, and an anonymous visitor has no use for it. Whoever reviews the
 * code reads generated/openapi.json in the repository.
 */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, openApiJson } from '../../api/openapi';
import { authenticate } from '../auth/authenticate';
import { assertMayAct } from '../auth/passwordChangeGate';
import type { Db } from '../db/db';

export const OPENAPI_PATH = '/api/openapi.json';

export function registerOpenApi(app: FastifyInstance, options: { db: Db; secret: Uint8Array; clock: () => Date }): void {
  const body = openApiJson(buildOpenApiDocument());
  app.get(OPENAPI_PATH, async (request, reply) => {
    const user = await authenticate(options.db, options.secret, options.clock(), request.headers.authorization);
    assertMayAct(user, 'openapi.json');
    return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  });
}
