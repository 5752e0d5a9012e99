/**
 * The first load of the built console, read from dist/ (`npm run build`): the entry chunk of
 * index.html and every chunk it imports statically, with their gzip sizes, from Vite's manifest
 * (dist/.vite/manifest.json) and the module map vite.config.ts writes (dist/.vite/chunk-modules.json).
 * Shared by tests/unit/bundleBudget.test.ts and `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first-load budget of goal 5: initial JavaScript, gzip. */
export const INITIAL_JS_BUDGET_BYTES = 200 * 1024;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface ChunkSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly modules: readonly string[];
}

export interface BundleReport {
  /** The entry chunk and its static imports, transitively: what the browser loads before anything renders. */
  readonly initial: readonly ChunkSize[];
  readonly initialGzipBytes: number;
  /** Every other JS chunk (loaded on demand). */
  readonly lazy: readonly ChunkSize[];
  /** The chunk that holds a module whose path contains `needle`, and whether that chunk is initial. */
  whereIs(needle: string): { file: string; initial: boolean }[];
}

export function readBundle(dist = 'dist'): BundleReport {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const modules = JSON.parse(readFileSync(join(dist, '.vite/chunk-modules.json'), 'utf8')) as Record<string, string[]>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k === 'index.html') ?? Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('no entry chunk in dist/.vite/manifest.json');

  const initialKeys = new Set<string>();
  const walk = (key: string) => {
    if (initialKeys.has(key)) return;
    initialKeys.add(key);
    for (const k of manifest[key]?.imports ?? []) walk(k);
  };
  walk(entryKey);

  const size = (file: string): ChunkSize => {
    const bytes = readFileSync(join(dist, file));
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, modules: modules[file] ?? [] };
  };
  const initialFiles = new Set([...initialKeys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')));
  const initial = [...initialFiles].map(size);
  const lazy = Object.keys(modules)
    .filter((f) => f.endsWith('.js') && !initialFiles.has(f))
    .map(size);
  return {
    initial,
    initialGzipBytes: initial.reduce((s, c) => s + c.gzipBytes, 0),
    lazy,
    whereIs(needle) {
      return [...initial, ...lazy].filter((c) => c.modules.some((m) => m.includes(needle))).map((c) => ({ file: c.file, initial: initialFiles.has(c.file) }));
    },
  };
}

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
