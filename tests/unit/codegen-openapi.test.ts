/** The published wire contract: OpenAPI 3.1 from the zod schemas of src/api, committed and served. */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { allCalls } from '../../src/api';
import { buildOpenApiDocument, openApiJson, operationIdOf, statusesOf } from '../../src/api/openapi';
import { committedOpenApiNow } from '../../codegen/build';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const doc = buildOpenApiDocument() as Json;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has every call as POST /api/<path>, the change-request event stream and the export file as GET, and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([...allCalls.map((c) => `/api/${c.path}`), '/api/changeRequest/events', '/api/export-file/{id}'].sort());
    expect(Object.keys(doc.paths['/api/changeRequest/events'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/export-file/{id}'].get.responses).sort()).toEqual(['200', '401', '403', '410', '500']);
    expect(doc.paths['/api/changeRequest/events'].get['x-permissions'].anyOf).toContain('role-approve');
    for (const c of allCalls) {
      const item = doc.paths[`/api/${c.path}`];
      expect(Object.keys(item)).toEqual(['post']);
      expect(item.post.operationId).toBe(operationIdOf(c.path));
      expect(item.post.summary).toBe(c.summary);
    }
  });

  it('states the access rule (x-permissions) and the bearer security, except for public calls', () => {
    for (const c of allCalls) {
      const op = doc.paths[`/api/${c.path}`].post;
      expect(op['x-permissions']).toEqual(typeof c.access === 'string' ? c.access : 'rule' in c.access ? { rule: c.access.rule } : { anyOf: [...c.access.anyOf] });
      expect(op.security).toEqual(c.access === 'public' ? [] : [{ bearerAuth: [] }]);
      expect(Object.keys(op.responses)).toEqual(statusesOf(c).map(String));
      for (const s of ['400', '413', '415', '500']) expect(op.responses, `${c.path} ${s}`).toHaveProperty(s);
      if (c.access !== 'public') for (const s of ['401', '403']) expect(op.responses, `${c.path} ${s}`).toHaveProperty(s);
    }
    expect(doc.paths['/api/user/list'].post['x-permissions']).toEqual({ anyOf: ['user-view'] });
    // the answers a validating proxy found undocumented: sign-in's 401 and 429, an approve call's 409
    expect(Object.keys(doc.paths['/api/auth/login'].post.responses)).toEqual(['200', '400', '401', '413', '415', '429', '500']);
    expect(Object.keys(doc.paths['/api/user/approve'].post.responses)).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', '500']);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('describes the request body from the request schema and the reply as { statusCode, data }', () => {
    const create = doc.paths['/api/user/create'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreateRequest' });
    const req = doc.components.schemas.UserCreateRequest;
    expect(req.additionalProperties).toBe(false);
    expect(req.required).toContain('password');
    expect(req.properties.contact.pattern).toBe('^\\d{10}$');
    const reply = doc.components.schemas.UserCreateReply;
    expect(reply.required).toEqual(['statusCode', 'data']);
    expect(reply.properties.data).toEqual({ $ref: '#/components/schemas/UserCreateData' });
    expect(doc.components.schemas.UserCreateData.properties.changeRequestId).toEqual({ type: 'number' });
    // defaults make request fields optional: the list call accepts {}
    expect(doc.components.schemas.UserListRequest.required ?? []).toEqual([]);
    expect(doc.paths['/api/user/list'].post.requestBody.required).toBe(false);
  });

  it('describes the error replies as { statusCode, data: { message } }', () => {
    expect(doc.components.responses.Forbidden.content['application/json'].schema).toEqual({
      allOf: [{ $ref: '#/components/schemas/ErrorReply' }, { type: 'object', properties: { statusCode: { const: 403 } } }],
    });
    const error = doc.components.schemas.ErrorReply;
    expect(error.required).toEqual(['statusCode', 'data']);
    expect(error.properties.data.required).toEqual(['message']);
  });

  it('every $ref resolves', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of new Set(refs)) {
      const path = r.slice('"$ref":"#/'.length, -1).split('/');
      let node: unknown = doc;
      for (const part of path) node = (node as Json)?.[part];
      expect(node, r).toBeDefined();
    }
  });
});

describe('publishing', () => {
  it('generated/openapi.json is the document (run `npm run codegen` when this fails)', () => {
    expect(readFileSync('generated/openapi.json', 'utf8')).toBe(openApiJson(buildOpenApiDocument(undefined, { now: committedOpenApiNow() })));
  });

  // the server serves it to signed-in users at GET /api/openapi.json: tests/api/httpMethods.test.ts
});
