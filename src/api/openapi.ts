/**
 * The published wire contract: an OpenAPI 3.1 document built from the call contracts' zod schemas.
 * Pure (no I/O): `npm run codegen` writes it to generated/openapi.json and the server serves it at
 * GET /api/openapi.json, so both give the same document.
 *
 * Every call is `POST /api/<path>` with a JSON body. The 200 reply is `{ statusCode, data, ...top }`;
 * failures are `{ statusCode, data: { message, code? } }` with the HTTP status equal to `statusCode`.
 */
import { z } from 'zod';
import { allCalls } from './index';
import { errorData, type Access, type CallContract } from './contract';
import { changeRequestEvents } from './approvals';
import { describeAccess } from '../domain/access';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly [key: string]: unknown;
}

export interface OpenApiOptions {
  readonly title?: string;
  readonly version?: string;
}

const ERROR_RESPONSES = {
  BadRequest: { status: '400', description: "The request body does not match the call's schema; `data.message` names the field." },
  Unauthorized: { status: '401', description: 'No valid session token (missing, expired, revoked or invalid).' },
  Forbidden: { status: '403', description: "The signed-in user holds none of the call's permissions." },
} as const;

/** `user/initial-create-data` → `userInitialCreateData`. */
export function operationIdOf(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/**
 * A zod schema as JSON Schema (2020-12, which OpenAPI 3.1 uses). Definitions zod hoists (`$defs`) move
 * to `components.schemas` under `prefix`, with their references rewritten.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  const defs = out.$defs as Record<string, JsonSchema> | undefined;
  delete out.$defs;
  const rename = (name: string) => `${prefix}_${name}`;
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          if (v.startsWith('#/$defs/')) o[k] = `#/components/schemas/${rename(v.slice('#/$defs/'.length))}`;
          else if (v === '#') o[k] = `#/components/schemas/${prefix}`;
          else o[k] = v;
        } else o[k] = rewrite(v);
      }
      return o;
    }
    return node;
  };
  for (const [name, def] of Object.entries(defs ?? {})) components[rename(name)] = rewrite(def) as JsonSchema;
  return rewrite(out) as JsonSchema;
}

function accessDescription(access: Access): string {
  if (access === 'public') return 'Access: public (no session token).';
  if (access === 'authenticated') return 'Access: any signed-in user.';
  if ('rule' in access) return `Access: ${describeAccess(access)}.`;
  return `Access: a signed-in user holding any of ${access.anyOf.map((p) => `\`${p}\``).join(', ')} (or \`super-permission\`).`;
}

/** The access rule as the contract states it: 'public', 'authenticated', `{ anyOf: [...] }` or `{ rule }`. */
function accessExtension(access: Access): unknown {
  return typeof access === 'string' ? access : 'rule' in access ? { rule: access.rule } : { anyOf: [...access.anyOf] };
}

export function buildOpenApiDocument(calls: readonly CallContract[] = allCalls, options: OpenApiOptions = {}): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, unknown> = {};
  const used = new Set<string>();
  const sorted = [...calls].sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : 0));

  schemas.ErrorReply = {
    type: 'object',
    description: 'A failure: the HTTP status equals `statusCode`; `data.message` says what went wrong.',
    properties: { statusCode: { type: 'integer' }, data: jsonSchemaOf(errorData, 'output', 'ErrorReply', schemas) },
    required: ['statusCode', 'data'],
  };

  for (const call of sorted) {
    let id = operationIdOf(call.path);
    for (let n = 2; used.has(id); n++) id = `${operationIdOf(call.path)}${n}`;
    used.add(id);
    const name = pascal(id);

    const request = jsonSchemaOf(call.request, 'input', `${name}Request`, schemas);
    schemas[`${name}Request`] = request;
    schemas[`${name}Data`] = jsonSchemaOf(call.data, 'output', `${name}Data`, schemas);
    const top = call.top ? jsonSchemaOf(call.top, 'output', `${name}Top`, schemas) : undefined;
    const topProps = (top?.properties ?? {}) as Record<string, unknown>;
    const topRequired = (top?.required ?? []) as string[];
    schemas[`${name}Reply`] = {
      type: 'object',
      properties: { statusCode: { type: 'integer', const: 200 }, data: { $ref: `#/components/schemas/${name}Data` }, ...topProps },
      required: ['statusCode', 'data', ...topRequired],
    };

    const isPublic = call.access === 'public';
    const errors = isPublic ? (['BadRequest'] as const) : (['BadRequest', 'Unauthorized', 'Forbidden'] as const);
    const responses: Record<string, unknown> = {
      '200': { description: 'Success.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Reply` } } } },
    };
    for (const e of errors) responses[ERROR_RESPONSES[e].status] = { $ref: `#/components/responses/${e}` };

    const bodyRequired = Array.isArray(request.required) && request.required.length > 0;
    paths[`/api/${call.path}`] = {
      post: {
        operationId: id,
        summary: call.summary,
        description: `${call.summary}\n\n${accessDescription(call.access)}`,
        tags: [call.path.split('/')[0].toLowerCase()],
        security: isPublic ? [] : [{ bearerAuth: [] }],
        'x-permissions': accessExtension(call.access),
        requestBody: { required: bodyRequired, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Request` } } } },
        responses,
      },
    };
  }

  // the one stream (GET): server-sent events for the approvals inbox
  if (calls === allCalls) {
    paths[`/api/${changeRequestEvents.path}`] = {
      get: {
        operationId: operationIdOf(changeRequestEvents.path),
        summary: changeRequestEvents.summary,
        description: `${changeRequestEvents.summary}\n\n${accessDescription(changeRequestEvents.access)}`,
        tags: [changeRequestEvents.path.split('/')[0].toLowerCase()],
        security: [{ bearerAuth: [] }],
        'x-permissions': accessExtension(changeRequestEvents.access),
        responses: {
          '200': { description: 'An event stream: `event: change` with `data: {"type": "<area>"}`, and a comment every 25 s.', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '403': { $ref: '#/components/responses/Forbidden' },
        },
      },
    };
  }

  const tags = [...new Set(sorted.map((c) => c.path.split('/')[0].toLowerCase()))].sort().map((name) => ({ name }));
  const responses: Record<string, unknown> = {};
  for (const [key, e] of Object.entries(ERROR_RESPONSES)) {
    responses[key] = { description: e.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorReply' } } } };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Remittance console API',
      version: options.version ?? '1.0.0',
      description:
        'Every call is `POST /api/<path>` with a JSON body and `Authorization: Bearer <token>` (except public calls). ' +
        'Paths are matched case-insensitively. The reply body is `{ statusCode, data, ... }` and the HTTP status equals `statusCode`. ' +
        '`x-permissions` on each operation states its access rule: `public`, `authenticated`, or `{ anyOf: [permissions] }`; `super-permission` holds every permission. ' +
        'Known business failures use the codes the specification names (406, 422 with `data.message`).',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      responses,
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    },
  };
}

/** The document as the committed file holds it: 2-space JSON with a final newline. */
export function openApiJson(doc: OpenApiDocument = buildOpenApiDocument()): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
