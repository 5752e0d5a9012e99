/**
 * The console's side of GET /api/changeRequest/events (src/server/http/changeRequestEvents.ts): one
 * stream per tab, shared by every subscriber, read with fetch (an EventSource cannot send the bearer
 * token). Reconnects 5 s after it ends; closed when the last subscriber leaves. The approvals inbox
 * subscribes and reloads the list and the menu counts; the counts also poll every 30 s, so a lost
 * stream only slows them down.
 */
import { getToken } from './session';

type Listener = (area: string) => void;

const listeners = new Set<Listener>();
let controller: AbortController | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;

const RETRY_MS = 5_000;

async function connect(): Promise<void> {
  const token = getToken();
  if (!token || listeners.size === 0) return;
  const own = new AbortController();
  controller = own;
  try {
    const res = await fetch('/api/changeRequest/events', { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: own.signal });
    // 403 (no approve permission) or 503 (no LISTEN on this server): polling only, no retry
    if (res.status === 403 || res.status === 503 || res.status === 401) return;
    if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!/^event: change$/m.test(message)) continue;
        const data = /^data: (.*)$/m.exec(message)?.[1];
        let area = '';
        try {
          area = String((JSON.parse(data ?? '{}') as { type?: unknown }).type ?? '');
        } catch {
          area = '';
        }
        for (const l of listeners) l(area);
      }
    }
  } catch {
    // aborted, or the connection failed: retried below while anyone listens
  }
  if (controller === own && !own.signal.aborted && listeners.size > 0) {
    retry = setTimeout(() => void connect(), RETRY_MS);
  }
}

/** Calls `listener` with the area of each change announced; returns the unsubscribe function. */
export function onChangeRequestEvent(listener: Listener): () => void {
  listeners.add(listener);
  if (listeners.size === 1) void connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(retry);
      controller?.abort();
      controller = undefined;
    }
  };
}
