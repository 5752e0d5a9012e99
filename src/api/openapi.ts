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
import { errorData, type Access, type CallContract, type WireDateKind } from './contract';
import { changeRequestEvents } from './approvals';
import { describeAccess } from '../domain/access';
import { EARLIEST_DAY } from '../domain/dates';
import { callLinks } from './links';

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly [key: string]: unknown;
}

export interface OpenApiOptions {
  readonly title?: string;
  readonly version?: string;
  /**
   * The day the document is made on: date fields accept the days from 2000 to the end of its year
   * (the server accepts up to a year after today, so these are always accepted). Default: today.
   */
  readonly now?: Date;
}

/**
 * The calendar days of the years `from`..`to` as a regular expression without anchors: any month's
 * 1st to 28th, the 29th and 30th but in February, the 31st of the long months, and 29 February of
 * the leap years.
 */
export function calendarDayPattern(from: number, to: number): string {
  const years: number[] = [];
  for (let y = from; y <= to; y++) years.push(y);
  const leap = years.filter((y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0);
  const any = `(?:${years.join('|')})`;
  const days = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
  return leap.length > 0 ? `(?:${any}-${days}|(?:${leap.join('|')})-02-29)` : `${any}-${days}`;
}

const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d';
const MINUTE = '(?:[01]\\d|2[0-3]):[0-5]\\d';

/** The JSON Schema facts of a date field (src/api/contract.ts wireDate) for the years 2000..lastYear. */
function dateFacts(kind: WireDateKind, lastYear: number): Record<string, unknown> {
  const first = Number(EARLIEST_DAY.slice(0, 4));
  const day = calendarDayPattern(first, lastYear);
  const bounds = `from ${EARLIEST_DAY} to the end of ${lastYear} (the server accepts up to a year after today, its clock)`;
  switch (kind) {
    case 'day':
      return { pattern: `^${day}$`, format: 'date', description: `A day yyyy-MM-dd, ${bounds}.` };
    case 'date-time':
      return { pattern: `^${day}T${TIME}$`, description: `A local date-time yyyy-MM-ddTHH:mm:ss of the business time zone, ${bounds}.` };
    case 'date-time-or-minute':
      return { pattern: `^${day}T${MINUTE}(?::[0-5]\\d)?$`, description: `A local date-time yyyy-MM-ddTHH:mm[:ss] of the business time zone, ${bounds}.` };
    case 'valid-from':
      return { pattern: `^${day}T00:00:01$`, description: `The first day, at T00:00:01, ${bounds}.` };
    case 'valid-to':
      return { pattern: `^${day}T23:59:59$`, description: `The last day, at T23:59:59, ${bounds}.` };
    case 'year':
      return { minimum: first, maximum: lastYear, description: `A year from ${first} to ${lastYear} (the server accepts next year too).` };
  }
}

/** Every failure status the API answers, its component name in `components.responses` and what it means. */
const ERROR_RESPONSES: Record<number, { readonly name: string; readonly description: string }> = {
  400: { name: 'BadRequest', description: "The request body is not JSON or does not match the call's schema; `data.message` names the field." },
  401: { name: 'Unauthorized', description: 'No valid session token (missing, expired, revoked or invalid); on sign-in, a wrong username or password, or a locked account.' },
  403: {
    name: 'Forbidden',
    description:
      "The signed-in user may not make this call (the call's access rule, a password change that must come first) or act on this record (the handler's own rule, e.g. one's own change request).",
  },
  404: { name: 'NotFound', description: 'The record the body names does not exist.' },
  405: {
    name: 'MethodNotAllowed',
    description:
      'The path exists but not under this method (every call is POST; the event stream, export files and this document are GET); the `Allow` header names the methods it answers. No operation answers it for its own method.',
  },
  406: { name: 'NotAcceptable', description: 'The old password is wrong.' },
  409: { name: 'Conflict', description: 'The record is in a state that forbids this now (already decided, withdrawn, expired, locked by a pending request, changed meanwhile, already generated).' },
  410: { name: 'Gone', description: 'The export file has expired and was deleted (EXPORT_FILE_HOURS after it was written): start the export again.' },
  413: { name: 'PayloadTooLarge', description: 'The request body is larger than the server accepts.' },
  415: { name: 'UnsupportedMediaType', description: 'The request body is not `application/json`, or is compressed.' },
  422: { name: 'UnprocessableContent', description: 'A business rule refuses the request; `data.message` says which (and `data.code` where the specification gives one).' },
  429: { name: 'TooManyRequests', description: 'Too many password attempts; the `Retry-After` header says when to try again.' },
  500: { name: 'InternalServerError', description: 'An unexpected error; `data.correlationId` names it in the server log.' },
  502: { name: 'BadGateway', description: 'The payment network could not be reached; nothing was changed.' },
  503: { name: 'ServiceUnavailable', description: 'Live updates are not available; poll `changeRequest/counts` instead.' },
};

/**
 * The statuses the HTTP layer itself answers for a call, whatever its handler does
 * (src/server/http/api.ts, requestBody.ts, app.ts): 400 (not JSON, or not the call's schema), 413 (too
 * large), 415 (not application/json), 500 (unexpected), and for a call that needs sign-in 401 (token)
 * and 403 (access rule, password change first).
 */
export function layerStatuses(call: Pick<CallContract, 'access'>): number[] {
  return call.access === 'public' ? [400, 413, 415, 500] : [400, 401, 403, 413, 415, 500];
}

/** Every status a call can answer: 200, the HTTP layer's and its handler's own (`answers`), ascending. */
export function statusesOf(call: Pick<CallContract, 'access' | 'answers'>): number[] {
  return [...new Set([200, ...layerStatuses(call), ...(call.answers ?? [])])].sort((a, b) => a - b);
}

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
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', prefix: string, components: Record<string, JsonSchema>, lastYear: number): JsonSchema {
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
        if (k === 'x-date' && typeof v === 'string') {
          Object.assign(o, dateFacts(v as WireDateKind, lastYear));
          continue;
        }
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
  // the years up to the document's own: every such day is within the server's bounds (to a year after today) whenever the document is read
  const lastYear = (options.now ?? new Date()).getFullYear();
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, unknown> = {};
  const used = new Set<string>();
  const sorted = [...calls].sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : 0));

  schemas.ErrorReply = {
    type: 'object',
    description: 'A failure: the HTTP status equals `statusCode`; `data.message` says what went wrong.',
    properties: { statusCode: { type: 'integer' }, data: jsonSchemaOf(errorData, 'output', 'ErrorReply', schemas, lastYear) },
    required: ['statusCode', 'data'],
  };

  const idOf = new Map<string, string>();
  for (const call of sorted) {
    let id = operationIdOf(call.path);
    for (let n = 2; used.has(id); n++) id = `${operationIdOf(call.path)}${n}`;
    used.add(id);
    idOf.set(call.path, id);
  }
  used.clear();
  for (const call of sorted) {
    const id = idOf.get(call.path)!;
    used.add(id);
    const name = pascal(id);

    const request = jsonSchemaOf(call.request, 'input', `${name}Request`, schemas, lastYear);
    schemas[`${name}Request`] = request;
    schemas[`${name}Data`] = jsonSchemaOf(call.data, 'output', `${name}Data`, schemas, lastYear);
    const top = call.top ? jsonSchemaOf(call.top, 'output', `${name}Top`, schemas, lastYear) : undefined;
    const topProps = (top?.properties ?? {}) as Record<string, unknown>;
    const topRequired = (top?.required ?? []) as string[];
    schemas[`${name}Reply`] = {
      type: 'object',
      properties: { statusCode: { type: 'integer', const: 200 }, data: { $ref: `#/components/schemas/${name}Data` }, ...topProps },
      required: ['statusCode', 'data', ...topRequired],
    };

    const isPublic = call.access === 'public';
    const responses: Record<string, unknown> = {};
    for (const status of statusesOf(call)) {
      responses[String(status)] =
        status === 200
          ? { description: 'Success.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Reply` } } }, ...linksOf(call.path) }
          : { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
    }

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
          '500': { $ref: '#/components/responses/InternalServerError' },
          '503': { $ref: '#/components/responses/ServiceUnavailable' },
        },
      },
    };
  }

  // the other GET: a finished server export's file, through the signed link export/download-link hands out
  if (calls === allCalls) {
    const errorOf = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorReply' } } } });
    paths['/api/export-file/{id}'] = {
      get: {
        operationId: 'exportFile',
        summary: 'The file of a finished server export job',
        description:
          "Only through the link `export/download-link` answers (to the job's owner or an administrator): the signature covers the job id, the expiry, minutes ahead, and the session that asked for the link, which must still last. No bearer token. The list's permission and the provider scope of the session's user are checked again.",
        tags: ['export'],
        // the signed link is the credential: no bearer token
        security: [],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d{1,10}$' } },
          { name: 'exp', in: 'query', required: true, schema: { type: 'string' }, description: "The link's expiry, in Unix seconds" },
          { name: 'sid', in: 'query', required: true, schema: { type: 'string' }, description: 'The session the link was asked for in' },
          { name: 'sv', in: 'query', required: true, schema: { type: 'string' }, description: "The account's session version when the link was asked for (a password change raises it)" },
          { name: 'sig', in: 'query', required: true, schema: { type: 'string' }, description: 'The HMAC of the job id, the expiry, sid and sv' },
        ],
        responses: {
          '200': {
            description: 'The file (.xlsx, .csv or .pdf), with Content-Disposition naming it.',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          '401': errorOf('The session that asked for the link has ended: signed out, past its end, the account disabled or its password changed (sign in and ask for a new one)'),
          '403': errorOf("The link is not valid or has expired (ask for a new one), or the session's user may no longer have the file: the list's permission withdrawn, or rows of another provider"),
          '410': errorOf('The file has expired, was deleted by the export quota, or no longer exists (start the export again)'),
          '500': { $ref: '#/components/responses/InternalServerError' },
        },
      },
    };
  }

  function linksOf(path: string): { links?: Record<string, unknown> } {
    const links: Record<string, unknown> = {};
    for (const link of callLinks) {
      const target = idOf.get(link.to);
      if (link.from !== path || !target) continue;
      links[target] = {
        operationId: target,
        description: `The ${Object.keys(link.body).join(', ')} of ${link.to} from this reply.`,
        requestBody: Object.fromEntries(
          Object.entries(link.body).map(([field, pointer]) => [field, typeof pointer === 'string' ? `$response.body#${pointer}` : pointer.map((p) => `$response.body#${p}`)]),
        ),
      };
    }
    return Object.keys(links).length > 0 ? { links } : {};
  }

  const tags = [...new Set(sorted.map((c) => c.path.split('/')[0].toLowerCase()))].sort().map((name) => ({ name }));
  const responses: Record<string, unknown> = {};
  for (const [status, e] of Object.entries(ERROR_RESPONSES)) {
    // the envelope with statusCode fixed to the HTTP status
    const schema = { allOf: [{ $ref: '#/components/schemas/ErrorReply' }, { type: 'object', properties: { statusCode: { const: Number(status) } } }] };
    responses[e.name] = { description: e.description, content: { 'application/json': { schema } } };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Remittance console API',
      version: options.version ?? '1.0.0',
      description:
        'Every call is `POST /api/<path>` with a JSON body and `Authorization: Bearer <token>` (except public calls). ' +
        'Paths are matched case-insensitively. The reply body is `{ statusCode, data, ... }` and the HTTP status equals `statusCode`. ' +
        "`x-permissions` on each operation states its access rule: `public`, `authenticated`, `{ anyOf: [permissions] }` (`super-permission` holds every permission), or `{ rule: name }`, a named rule the operation's description spells out. " +
        "Every operation lists every status it can answer: the HTTP layer's own (400, 413, 415, 500; 401 and 403 for calls that need sign-in) and its handler's (404, 406, 409, 422 with `data.message` and sometimes `data.code`, 429, 502), each with the error body `{ statusCode, data: { message, code?, correlationId? } }`. " +
        'Any other method on a path listed here answers 405 with an `Allow` header (`POST`, or `GET, HEAD` for the GET paths) and the same error body; a path not listed answers 404. ' +
        'This document is served at `GET /api/openapi.json` to signed-in users (bearer token).',
    },
    'x-date-bounds': {
      earliest: EARLIEST_DAY,
      lastYear,
      description:
        'Date fields state the calendar days from 2000 to the end of lastYear, the year the document was made in; the server accepts up to a year after today (its clock), and refuses To before From.',
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
