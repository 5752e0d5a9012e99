import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

const root = fileURLToPath(new URL('.', import.meta.url));

/** Every chunk's modules, workers' chunks included (worker bundles are built before the page's). */
const modulesByChunk: Record<string, string[]> = {};

/**
 * Writes dist/.vite/chunk-modules.json: for every JS chunk (of the page and of its Web Workers), the
 * modules it holds (paths relative to the project, node_modules included). The bundle budget test
 * reads it beside the manifest to check that no chunk of the first load holds exceljs, jspdf or visx.
 */
function chunkModules(emit: boolean): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const [file, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        modulesByChunk[file] = chunk.moduleIds.map((id) => relative(root, id.replace(/^\0/, '')).replace(/\\/g, '/'));
      }
      if (emit) this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: JSON.stringify(modulesByChunk, null, 1) });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), chunkModules(true)],
  // the export worker (src/console/exports/worker.ts) is an ES module: its PDF part (jspdf) stays a
  // chunk of its own, loaded only when a PDF is made
  worker: { format: 'es', plugins: () => [chunkModules(false)] },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@screens': fileURLToPath(new URL('./screens', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    // .vite/manifest.json: the entry and the chunks it imports statically (the first load), read by
    // tests/unit/bundleBudget.test.ts and `npm run bench`.
    manifest: true,
    chunkSizeWarningLimit: 1500,
    // the first load's libraries in one chunk: left to themselves they are cut into a piece per set of
    // lazy chunks that share them (the filter bars' calendar cut React, Radix and date-fns off the rest:
    // +1.1 KB gzip); in one chunk the first load is 1.5 KB smaller than so cut
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'libs', test: /node_modules/, tags: ['$initial'] }] } } },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
