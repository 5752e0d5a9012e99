/**
 * Goal 5 of the benchmark: the first load stays small. Reads the built console (dist/, which `npm test`
 * builds before vitest runs): the entry chunk of index.html and every chunk it imports statically must
 * stay under 200 KB gzip, and none of them may hold exceljs, jspdf or visx (they load with the screen
 * or the export that needs them).
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { INITIAL_JS_BUDGET_BYTES, kb, readBundle } from '../../scripts/bundle-sizes';

describe('the first load of the built console', () => {
  if (!existsSync('dist/.vite/manifest.json')) throw new Error('dist/.vite/manifest.json is missing: run `npm run build` first (npm test does)');
  const bundle = readBundle('dist');

  it('is under 200 KB of JavaScript, gzip', () => {
    const list = bundle.initial.map((c) => `${c.file} ${kb(c.gzipBytes)} KB`).join(', ');
    expect(bundle.initial.length).toBeGreaterThan(0);
    expect(bundle.initialGzipBytes, `initial chunks: ${list}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it.each(['node_modules/exceljs/', 'node_modules/jspdf/', 'node_modules/jspdf-autotable/', 'node_modules/@visx/'])(
    'keeps %s out of the first load (in a lazy chunk, if the console uses it at all)',
    (needle) => {
      expect(
        bundle
          .whereIs(needle)
          .filter((w) => w.initial)
          .map((w) => w.file),
      ).toEqual([]);
    },
  );

  it('sees the libraries the console loads on demand, in chunks of their own', () => {
    // the check above would pass vacuously if the module map listed nothing: jspdf and visx are used
    for (const needle of ['node_modules/jspdf/', 'node_modules/@visx/']) expect(bundle.whereIs(needle).length, needle).toBeGreaterThan(0);
  });

  it('loads the list and form views, the dashboards and the KYC review on demand', () => {
    for (const needle of ['src/console/views/ListView.tsx', 'src/console/views/FormView.tsx', 'src/custom/Dashboard.tsx', 'src/custom/KycReview.tsx', 'node_modules/@tanstack/table-core/']) {
      const where = bundle.whereIs(needle);
      expect(where.length, `${needle} is in no chunk`).toBeGreaterThan(0);
      expect(
        where.filter((w) => w.initial).map((w) => w.file),
        needle,
      ).toEqual([]);
    }
  });
});
