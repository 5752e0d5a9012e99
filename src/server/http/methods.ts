/**
 * Which methods a path answers, for the 405 of a path that exists under another method: every API call
 * is POST only, the few GET routes (the approvals' event stream, export files, images, the OpenAPI
 * document, the health check) GET and HEAD only. A path that is neither is unknown (404).
 *
 * The GET routes are learnt from Fastify's onRoute hook as they are registered, so a route added
 * later is covered without a list to keep; the two catch-alls (the API dispatcher and the console's
 * static files) are not paths of their own.
 */
import type { FastifyReply } from 'fastify';
import { allCalls } from '../../api/index';
import { sendError } from './reply';

/** The API dispatcher's route (src/server/http/api.ts): every call is POST /api/<path>. */
export const API_ROUTE = '/api/*';
/** The built console's files and history routing (@fastify/static under '/'). */
const STATIC_ROUTE = '/*';

const CALL_PATHS = new Set(allCalls.map((c) => `/api/${c.path.toLowerCase()}`));
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  /** Records a route as Fastify registers it (`url` with `:param` and `*` as Fastify spells them). */
  add(method: string | readonly string[], url: string): void {
    if (url === API_ROUTE || url === STATIC_ROUTE) return;
    const source = url
      .split(/(:[A-Za-z0-9_]+|\*)/)
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    const pattern = new RegExp(`^${source}$`);
    let route = this.routes.find((r) => r.pattern.source === pattern.source);
    if (!route) this.routes.push((route = { pattern, methods: new Set() }));
    for (const m of typeof method === 'string' ? [method] : method) route.methods.add(m.toUpperCase());
  }

  /** The methods `path` (without its query) answers, in the usual order; undefined for a path nothing answers. */
  allowed(path: string): string[] | undefined {
    if (CALL_PATHS.has(path.toLowerCase())) return ['POST'];
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    if (methods.size === 0) return undefined;
    const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
    return [...methods].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  }
}

/** 405 with `Allow`, in the API's error envelope. */
export function sendMethodNotAllowed(reply: FastifyReply, method: string, path: string, allow: readonly string[]): FastifyReply {
  reply.header('allow', allow.join(', '));
  return sendError(reply, 405, `Method ${method} is not allowed on ${path}; it answers ${allow.join(' and ')}`);
}
