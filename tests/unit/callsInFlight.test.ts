/**
 * The count of API calls a server process is answering (src/server/http/callsInFlight.ts), which an
 * export job waits on between batches: it counts POST /api/ calls only, and every call leaves it once
 * answered, failed, or dropped by its client half-way.
 */
import Fastify from 'fastify';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackCallsInFlight } from '../../src/server/http/callsInFlight';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function serverWithGate() {
  const app = Fastify();
  apps.push(app);
  const calls = trackCallsInFlight(app);
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  app.post('/api/slow', async () => {
    await gate;
    return { ok: true };
  });
  app.post('/api/fails', async () => {
    throw new Error('boom');
  });
  app.get('/api/stream', async () => {
    await gate;
    return 'done';
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const release = () => {
    open();
    gate = new Promise<void>((resolve) => (open = resolve));
  };
  return { calls, base, release };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('calls in flight', () => {
  it('counts the API calls being answered, and none once they are answered or have failed', async () => {
    const { calls, base, release } = await serverWithGate();
    expect(calls.count()).toBe(0);
    const replies = [fetch(`${base}/api/slow`, { method: 'POST' }), fetch(`${base}/api/slow`, { method: 'POST' })];
    await until(() => calls.count() === 2);
    expect((await fetch(`${base}/api/fails`, { method: 'POST' })).status).toBe(500);
    expect(calls.count()).toBe(2);
    release();
    expect((await Promise.all(replies)).map((r) => r.status)).toEqual([200, 200]);
    await until(() => calls.count() === 0);
  });

  it('does not count a GET (an event stream, a file download) that stays open', async () => {
    const { calls, base, release } = await serverWithGate();
    const stream = fetch(`${base}/api/stream`);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.count()).toBe(0);
    release();
    expect((await stream).status).toBe(200);
  });

  it('a call its client drops half-way leaves the count', async () => {
    const { calls, base } = await serverWithGate();
    const req = httpRequest(`${base}/api/slow`, { method: 'POST' });
    req.on('error', () => {});
    req.end();
    await until(() => calls.count() === 1);
    req.destroy();
    await until(() => calls.count() === 0);
  });
});
