import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall, type CallContract } from '../../src/api/contract';
import { allCalls } from '../../src/api/index';
import { allHandlers } from '../../src/server/areas/index';
import { handle } from '../../src/server/http/handle';
import { handlerTable } from '../../src/server/http/api';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('permissions', () => {
  it('has a valid sample body for every call', () => {
    for (const c of allCalls) expect(c.request.safeParse(sampleBody(c.path)).success, c.path).toBe(true);
  });

  it('lets a signed-in user reset only their own password', async () => {
    const token = await server.login('auditor');
    const reply = await server.call('user/reset-password', sampleBody('user/reset-password'), token); // username admin
    expect(reply.statusCode).toBe(403);
    expect((await server.call('auth/login', { username: 'admin', password: 'Demo@Pass1' })).statusCode).toBe(200);
  });

  it('checks the permission before the body, so a stranger learns nothing about the schema', async () => {
    const token = await server.login('auditor');
    expect((await server.call('user/create', { nonsense: true }, token)).statusCode).toBe(403);
    expect((await server.call('user/create', { nonsense: true })).statusCode).toBe(401);
  });

  it('reads permissions from the database on every call, not from the token', async () => {
    const token = await server.login('auditor');
    await server.db.query(`UPDATE roles SET disabled = 1 WHERE role_name = 'Checker'`);
    const checker = await server.login('checker');
    try {
      expect((await server.call('user/list', {}, checker)).statusCode).toBe(403);
    } finally {
      await server.db.query(`UPDATE roles SET disabled = 0 WHERE role_name = 'Checker'`);
    }
    expect((await server.call('user/list', {}, checker)).statusCode).toBe(200);
    expect((await server.call('user/list', {}, token)).statusCode).toBe(403);
  });
});

describe('the route', () => {
  it('matches paths case-insensitively', async () => {
    const token = await server.login('admin');
    expect((await server.call('User/List', { fetchCount: 1 }, token)).data.users).toHaveLength(1);
    expect((await server.call('ROLE/LIST', {}, token)).statusCode).toBe(200);
  });

  it('answers unknown paths with a 404 envelope, and other methods on a call with 405 (Allow: POST)', async () => {
    const token = await server.login('admin');
    expect(await server.call('user/nope', {}, token)).toEqual({ statusCode: 404, data: { message: 'Unknown API call: user/nope' } });
    const get = await server.raw('/api/user/list');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await get.json()).statusCode).toBe(405);
  });
});

describe('registration', () => {
  const probe = defineCall({ path: 'probe/call', access: 'authenticated', summary: 'x', request: z.strictObject({}), data: z.object({}) });
  const probeHandler = handle(probe, async () => ({ data: {} }));

  it('covers exactly the contract', () => {
    expect(() => handlerTable(allCalls, allHandlers)).not.toThrow();
    expect(() => handlerTable([...allCalls, probe], allHandlers)).toThrow(/probe\/call: no handler/);
    expect(() => handlerTable(allCalls, [...allHandlers, probeHandler])).toThrow(/not in the contract/);
  });

  it('refuses to start a call with no access rule (deny by default) or an unknown permission', () => {
    const noAccess = { ...probe, access: undefined } as unknown as CallContract;
    expect(() => handlerTable([noAccess], [{ ...probeHandler, contract: noAccess }])).toThrow(/no access rule/);
    const unknown = { ...probe, access: { anyOf: ['make-coffee'] } } as unknown as CallContract;
    expect(() => handlerTable([unknown], [{ ...probeHandler, contract: unknown }])).toThrow(/unknown permission make-coffee/);
    const empty = { ...probe, access: { anyOf: [] } } as unknown as CallContract;
    expect(() => handlerTable([empty], [{ ...probeHandler, contract: empty }])).toThrow(/anyOf is empty/);
  });
});
