/**
 * The console served from another origin than the API (src/console/apiBase.ts: `config.json` names the
 * API base). Two parts, both off unless configured:
 *
 * - CORS (`CORS_ORIGINS`, a comma-separated list of exact origins such as
 *   `https://console.bank.example`): those origins may call the API from a browser, with the bearer
 *   token (never cookies: credentials are not allowed); every other origin gets no CORS headers, so the
 *   browser keeps the reply from it. `*` is refused: a list of origins is a decision.
 * - This server's own pages: when the built console it serves has a `config.json` naming API bases on
 *   other origins, the pages' Content-Security-Policy lets them be called and their images shown.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIST_ROWS_HEADER } from '../../api/listRows';
import { StartupRefusal } from '../environment';

/** The headers a cross-origin page may read from a reply. */
const EXPOSED = ['x-correlation-id', 'server-timing', 'retry-after', 'content-disposition', LIST_ROWS_HEADER];

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', 'authorization', 'accept', LIST_ROWS_HEADER],
    exposedHeaders: EXPOSED,
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}

/**
 * The origins of the API bases the built console's `config.json` names (none when there is no file or
 * it names only this origin), for the Content-Security-Policy of the pages this server serves.
 */
export function consoleApiOrigins(staticDir: string | undefined): readonly string[] {
  if (!staticDir) return [];
  const file = join(staticDir, 'config.json');
  if (!existsSync(file)) return [];
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new StartupRefusal(`${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const origins = new Set<string>();
  for (const key of ['apiBase', 'internalApiBase']) {
    const value = config[key];
    if (typeof value !== 'string' || value.trim() === '') continue;
    try {
      origins.add(new URL(value.trim()).origin);
    } catch {
      throw new StartupRefusal(`${file}: ${key} "${value}" is not an http(s) address`);
    }
  }
  return [...origins];
}
