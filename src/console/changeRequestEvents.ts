/**
 * The console's side of GET /api/changeRequest/events (src/server/http/changeRequestEvents.ts): one
 * stream per tab, shared by every subscriber, read with fetch (an EventSource cannot send the bearer
 * token). Reconnects 5 s after the connection is lost; closed when the last subscriber leaves. A
 * stream the server ends itself says why in its last message (event `end`): it is opened again only with a newer
 * token (the session's token was refreshed) or when the server could not check the session; signed
 * out, without the permission, or superseded by the account's newer streams, it stays closed. A
 * stream opened again announces one change (area '') first, for what happened in between. The
 * approvals inbox subscribes and reloads the list and the menu counts; the counts also poll every
 * 30 s, so a lost stream only slows them down.
 */
import { apiUrl } from './apiBase';
import { getToken } from './session';

type Listener = (area: string) => void;

const listeners = new Set<Listener>();
let controller: AbortController | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;
/** The next connection replaces one that ended while someone listened. */
let reopening = false;

const RETRY_MS = 5_000;

async function connect(): Promise<void> {
  const token = getToken();
  if (!token || listeners.size === 0) return;
  const own = new AbortController();
  controller = own;
  let endReason: string | undefined;
  try {
    const res = await fetch(apiUrl('/api/changeRequest/events'), { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: own.signal });
    // 403 (no approve permission) or 503 (no LISTEN on this server): polling only, no retry
    if (res.status === 403 || res.status === 503 || res.status === 401) return;
    if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
    // open again after a gap: whatever changed meanwhile was not announced, so reload once now
    if (reopening) for (const l of listeners) l('');
    reopening = false;
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
        const event = /^event: (.*)$/m.exec(message)?.[1];
        const data = dataOf(message);
        if (event === 'end') endReason = String(data.reason ?? '');
        if (event !== 'change') continue;
        const area = String(data.type ?? '');
        for (const l of listeners) l(area);
      }
    }
  } catch {
    // aborted, or the connection failed: retried below while anyone listens
  }
  // ended by the server: again only with a newer token, or after a check that could not be made
  const again = endReason === undefined || endReason === 'unavailable' || (endReason === 'session' && getToken() !== token);
  if (again && controller === own && !own.signal.aborted && listeners.size > 0) {
    reopening = true;
    retry = setTimeout(() => void connect(), RETRY_MS);
  }
}

/** The JSON object of a message's data line; empty when it has none or it is not an object. */
function dataOf(message: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(/^data: (.*)$/m.exec(message)?.[1] ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
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
      reopening = false;
      controller?.abort();
      controller = undefined;
    }
  };
}
