import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCalls } from '../../src/api/index';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

const tokenFor = (path: string) => (path === 'auth/login' ? undefined : token);

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
}

describe('request bodies', () => {
  it('refuses bodies that are not objects with 400, for every call', async () => {
    for (const c of allCalls) {
      for (const body of [[], 'text', 42, null, true]) {
        const reply = await server.call(c.path, body, tokenFor(c.path));
        expect(reply.statusCode, `${c.path} ${JSON.stringify(body)}`).toBe(400);
        expect(reply.data.message).toMatch(/^body: /);
      }
    }
  });

  it('refuses extra properties such as locked and status, naming them', async () => {
    for (const c of allCalls) {
      // a call whose body has a status of its own (the Send Money status filter) gets only locked
      const ownsStatus = 'status' in shapeOf(c.request);
      const body = { ...(sampleBody(c.path) as object), locked: 0, ...(ownsStatus ? {} : { status: 'Active' }) };
      const reply = await server.call(c.path, body, tokenFor(c.path));
      expect(reply.statusCode, c.path).toBe(400);
      expect(reply.data.message, c.path).toBe(ownsStatus ? 'locked: Unrecognized key: "locked"' : 'locked, status: Unrecognized keys: "locked", "status"');
    }
  });

  it('names the field of a wrong type or a missing required field', async () => {
    for (const c of allCalls) {
      for (const [field, schema] of Object.entries(shapeOf(c.request))) {
        const wrongType = { ...(sampleBody(c.path) as object), [field]: { nested: true } };
        const reply = await server.call(c.path, wrongType, tokenFor(c.path));
        expect(reply.statusCode, `${c.path} ${field}`).toBe(400);
        expect(reply.data.message, `${c.path} ${field}`).toMatch(new RegExp(`(^|; )${field}: `));

        if (schema.safeParse(undefined).success) continue; // optional or defaulted
        const missing = sampleBody(c.path) as Record<string, unknown>;
        delete missing[field];
        const missingReply = await server.call(c.path, missing, tokenFor(c.path));
        expect(missingReply.statusCode, `${c.path} without ${field}`).toBe(400);
        expect(missingReply.data.message).toMatch(new RegExp(`(^|; )${field}: `));
      }
    }
  });

  it('gives the form messages of the specification', async () => {
    const body = { ...(sampleBody('user/create') as object), name: 'ab', contact: '123' };
    const reply = await server.call('user/create', body, token);
    expect(reply).toEqual({
      statusCode: 400,
      data: {
        message: 'name: Name can only have alphanumeric characters and should be at least 3 characters long; contact: Please enter a valid contact number',
      },
    });
  });

  it('answers random malformed bodies with 400, never 500', async () => {
    for (const c of allCalls) {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (body) => {
          if (c.request.safeParse(body).success) return; // a valid body would act (e.g. sign out)
          const reply = await server.call(c.path, body, tokenFor(c.path));
          expect(reply.statusCode, `${c.path} ${JSON.stringify(body)}`).toBe(400);
        }),
        { numRuns: 15 },
      );
    }
  });

  it('accepts only application/json, reads an empty body as {}, and refuses malformed JSON with 400', async () => {
    const post = (headers: Record<string, string>, body?: string) => server.raw('/api/role/list', { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body });
    const textPlain = await post({ 'content-type': 'text/plain' }, '{}');
    expect(textPlain.status).toBe(415);
    expect(await textPlain.json()).toEqual({ statusCode: 415, data: { message: 'Request body must be application/json' } });
    expect((await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1')).status).toBe(415);
    expect((await post({})).status).toBe(200);
    expect((await post({ 'content-type': 'application/json' }, '')).status).toBe(200);
    expect((await post({ 'content-type': 'application/json; charset=utf-8' }, '{}')).status).toBe(200);
    const malformed = await post({ 'content-type': 'application/json' }, '{"a":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ statusCode: 400, data: { message: 'Request body is not valid JSON' } });
  });
});

describe('unexpected errors', () => {
  it('answers 500 with a correlation id and no stack or SQL', async () => {
    await server.db.exec('ALTER TABLE branches RENAME TO branches_gone');
    try {
      const res = await server.raw('/api/user/list', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      const body = JSON.parse(text);
      expect(body.statusCode).toBe(500);
      expect(body.data.message).toBe('Internal server error');
      expect(body.data.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(body.data).sort()).toEqual(['correlationId', 'message']);
      expect(text).not.toMatch(/branches|does not exist|SELECT|\.ts:/);
    } finally {
      await server.db.exec('ALTER TABLE branches_gone RENAME TO branches');
    }
  });

  it('keeps the activity log insert-only', async () => {
    await expect(server.db.query("UPDATE activity_logs SET description = 'x'")).rejects.toThrow(/insert-only/);
    await expect(server.db.query('DELETE FROM activity_logs')).rejects.toThrow(/insert-only/);
  });
});
