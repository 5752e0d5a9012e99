/**
 * The one request helper: POST {api}/api/<path> ({api} from config.json: ./apiBase.ts) with a JSON body
 * and the bearer token, given up after the configured timeout (90,000 ms). Returns the reply
 * envelope; a transport failure yields status 502; a 401 signs the user out.
 */
import type { CallContract, DataOf, RequestOf, TopOf } from '../api/contract';
import { clearToken, getToken } from './session';
import { readJsonStream } from './jsonStream';
import { LIST_ROWS_ARRAYS, LIST_ROWS_HEADER, LIST_ROWS_LINES } from '../api/listRows';
import { apiUrl, requestTimeoutMs } from './apiBase';

export type CallResult<C> = ({ ok: true; statusCode: 200; data: DataOf<C> } & Partial<TopOf<C>>) | { ok: false; statusCode: number; data: { message?: string; code?: number } | undefined };

let onUnauthorized: () => void = () => {};

/** The shell registers what a 401 does (sign out, go to /login). */
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn;
}

/**
 * `onPartial`: handed the reply read so far (its envelope and `data`, closed where it stops) each time
 * an array of objects in it begins; a list reply's first page and totals, before its rows.
 * `compactRows`: asks a list call for its rows as arrays, or as lines of text where the server streams
 * them from PostgreSQL (src/api/listRows.ts); the result is the documented reply all the same, with
 * fewer bytes to send and parse.
 */
export async function callApi<C extends CallContract>(
  contract: C,
  body: RequestOf<C> | Record<string, never>,
  init?: { signal?: AbortSignal; onPartial?: (partial: Record<string, unknown>) => void; compactRows?: boolean },
): Promise<CallResult<C>> {
  const token = getToken();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), requestTimeoutMs());
  init?.signal?.addEventListener('abort', () => controller.abort());
  try {
    const res = await fetch(apiUrl(`/api/${contract.path}`), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init?.compactRows ? { [LIST_ROWS_HEADER]: `${LIST_ROWS_LINES}, ${LIST_ROWS_ARRAYS}` } : {}),
      },
      body: JSON.stringify(body ?? {}),
      signal: controller.signal,
    });
    let payload: Record<string, unknown> | undefined;
    try {
      // parsed as it streams in: a 100,000-row list reply never holds the page in one long task
      const onPartial = init?.onPartial;
      const partial = onPartial && res.ok ? (doc: unknown) => doc && typeof doc === 'object' && onPartial(doc as Record<string, unknown>) : undefined;
      const form = init?.compactRows ? res.headers.get(LIST_ROWS_HEADER) : null;
      const compact = form === LIST_ROWS_ARRAYS || form === LIST_ROWS_LINES;
      // the compact forms' reader is loaded with the first list that asks for them (not in the first load)
      const readCompact = compact ? (await import('./compactRows')).readCompactListStream : undefined;
      payload = (await (readCompact ? readCompact(res, partial, form === LIST_ROWS_LINES) : readJsonStream(res, partial))) as Record<string, unknown>;
    } catch {
      payload = undefined;
    }
    const statusCode = typeof payload?.statusCode === 'number' ? payload.statusCode : res.status;
    if (statusCode === 401 && contract.access !== 'public') {
      clearToken();
      onUnauthorized();
    }
    if (statusCode === 200 && payload) {
      return { ...(payload as object), ok: true, statusCode: 200, data: payload.data } as CallResult<C>;
    }
    return { ok: false, statusCode, data: payload?.data as { message?: string } | undefined };
  } catch {
    return { ok: false, statusCode: 502, data: undefined };
  } finally {
    clearTimeout(timer);
  }
}

/** The server's message of a failed call, if it sent one. */
export function failureMessage(result: { data: unknown }): string | undefined {
  const d = result.data as { message?: unknown } | undefined;
  return typeof d?.message === 'string' ? d.message : undefined;
}
