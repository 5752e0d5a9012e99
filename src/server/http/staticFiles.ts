import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './reply';
import { sendMethodNotAllowed, type RouteMethods } from './methods';

/**
 * Serves the built console from `root` with history routing: a GET for a path that is neither under
 * /api/ nor a file (no extension) gets index.html. Hashed assets are cached for a year; index.html
 * is always revalidated. A request no route answers: 405 with `Allow` when its path exists under
 * another method (`methods`: an API call's path is POST only, the GET routes' GET and HEAD), else 404.
 */
export async function registerStaticFiles(app: FastifyInstance, root: string | undefined, methods?: RouteMethods): Promise<void> {
  if (root) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      setHeaders(reply, filePath) {
        const immutable = /[\\/]assets[\\/]/.test(filePath);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = path.toLowerCase() === '/api' || path.toLowerCase().startsWith('/api/');
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !/\.[A-Za-z0-9]+$/.test(path);
    if (root && isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const allow = methods?.allowed(path);
    if (allow && !allow.includes(request.method)) return sendMethodNotAllowed(reply, request.method, path, allow);
    return sendError(reply, 404, isApi ? `Unknown API call: ${path}` : 'Not found');
  });
}
