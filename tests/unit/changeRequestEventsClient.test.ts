/**
 * The console's side of the live-count stream (src/console/changeRequestEvents.ts): a stream the
 * server ends with a reason is opened again only when that can help (a newer token after a refresh,
 * a check the server could not make); a lost connection is opened again after 5 s, and the first
 * announcement after it asks for a reload.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onChangeRequestEvent } from '../../src/console/changeRequestEvents';
import { TOKEN_KEY } from '../../src/console/session';

const store = new Map<string, string>();
/** What each fetch of the stream sent and answers: the scripted streams first, then one that stays open. */
let calls: { token: string }[] = [];
/** The streams the next fetches answer: these messages, `afterMs` after it opened, and then its end. */
let scripted: { messages: string[]; afterMs?: number }[] = [];
let unsubscribe: (() => void) | undefined;

function streamOf(script: { messages: string[]; afterMs?: number } | undefined, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('retry: 5000\n: connected\n\n'));
      signal.addEventListener('abort', () => controller.error(new Error('aborted')));
      if (!script) return;
      setTimeout(() => {
        for (const m of script.messages) controller.enqueue(encoder.encode(m));
        controller.close();
      }, script.afterMs ?? 0);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

beforeEach(() => {
  vi.useFakeTimers();
  store.clear();
  calls = [];
  scripted = [];
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('fetch', async (_url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => {
    calls.push({ token: init.headers.authorization!.replace('Bearer ', '') });
    return streamOf(scripted.shift(), init.signal);
  });
});
afterEach(() => {
  unsubscribe?.();
  unsubscribe = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const end = (reason: string) => `event: end\ndata: ${JSON.stringify({ reason })}\n\n`;
const change = (area: string) => `event: change\ndata: ${JSON.stringify({ type: area })}\n\n`;

/** Subscribes (unsubscribed after the test), lets 10 ms pass, runs `between`, lets `ms` more pass, and returns what the listener heard. */
async function run(ms: number, between?: () => void): Promise<string[]> {
  const heard: string[] = [];
  unsubscribe = onChangeRequestEvent((area) => heard.push(area));
  await vi.advanceTimersByTimeAsync(10);
  between?.();
  await vi.advanceTimersByTimeAsync(ms);
  return heard;
}

describe('the console reopens the stream only when that can help', () => {
  for (const reason of ['superseded', 'permission', 'session']) {
    it(`ended with "${reason}" and the same token: not opened again`, async () => {
      store.set(TOKEN_KEY, 'token-1');
      scripted = [{ messages: [change('Role'), end(reason)] }];
      expect(await run(20_000)).toEqual(['Role']);
      expect(calls).toEqual([{ token: 'token-1' }]);
    });
  }

  it('ended with "session" after a refresh: opened again with the new token, and asks for one reload', async () => {
    store.set(TOKEN_KEY, 'token-1');
    // the server ends the old token's stream after the refresh (the replaced token's 10 s of grace)
    scripted = [{ messages: [end('session')], afterMs: 1_000 }];
    const heard = await run(6_500, () => store.set(TOKEN_KEY, 'token-2'));
    expect(calls).toEqual([{ token: 'token-1' }, { token: 'token-2' }]);
    expect(heard).toEqual(['']);
  });

  it('signed out meanwhile (no token): not opened again', async () => {
    store.set(TOKEN_KEY, 'token-1');
    scripted = [{ messages: [end('session')], afterMs: 1_000 }];
    await run(20_000, () => store.delete(TOKEN_KEY));
    expect(calls).toHaveLength(1);
  });

  it('a lost connection or a check the server could not make: opened again after 5 s', async () => {
    store.set(TOKEN_KEY, 'token-1');
    scripted = [{ messages: [] }, { messages: [end('unavailable')] }];
    const heard = await run(11_000);
    expect(calls).toHaveLength(3);
    expect(heard).toEqual(['', '']);
  });
});
