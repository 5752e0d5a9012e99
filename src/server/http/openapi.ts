/**
 * GET /api/openapi.json: the published wire contract (OpenAPI 3.1), the same document `npm run codegen`
 * commits as generated/openapi.json. Public: it describes the API, it grants nothing.
 */
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument, openApiJson } from '../../api/openapi';

export const OPENAPI_PATH = '/api/openapi.json';

export function registerOpenApi(app: FastifyInstance): void {
  const body = openApiJson(buildOpenApiDocument());
  app.get(OPENAPI_PATH, async (_request, reply) => {
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(body);
  });
}
