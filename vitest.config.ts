import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The run's temporary folders in memory when the machine has a roomy /dev/shm (tmpfs): the browser
 * tests' seeded data folders (copied per file, ~190 MB), the embedded databases' files, Chromium's
 * profiles. On this machine's ext4 a copy of the seeded folder costs 2.6 s of system time, on tmpfs
 * 0.3 s; four browser files took 68 s instead of 75 s. Set in this process before anything starts,
 * so the global set-up, the test processes and the servers they start all inherit it (os.tmpdir()).
 * A TMPDIR the caller set wins.
 */
function memoryTmpdir(): string | undefined {
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.bavail * fs.bsize < 4 * 2 ** 30) return undefined;
    const dir = join('/dev/shm', `remit-tests-${process.getuid?.() ?? 0}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}
if (!process.env.TMPDIR) {
  const dir = memoryTmpdir();
  if (dir) process.env.TMPDIR = dir;
}

/**
 * Four projects, run in three groups:
 * - first `unit` and `api` together, two files at a time (`maxWorkers`, this machine has 2 cores),
 *   each file in a forked process (not worker threads: the time-zone tests set process.env.TZ, which
 *   a worker thread does not apply); each API file has a database of its own, copied from the run's
 *   template (tests/api/templateDb.ts, built once even when two files ask at once: tests/buildOnce.ts);
 * - then `browser` (tests/e2e), two files at a time: each starts its own server process (a free port,
 *   its own copy of a seeded data folder: tests/e2e/harness.ts) and its own Chromium, and much of a
 *   browser file's time is waiting on them, so two files share the two cores; its waits are web-first
 *   (locator waits, expect.poll), not fixed sleeps, so a busier machine makes them slower, not wrong;
 * - last `reliability` (tests/reliability): it kills servers and seeds mid-way, so it runs after
 *   everything else; its two files (the embedded database, PostgreSQL) side by side, as each is mostly
 *   one child process's work (108 s one after the other).
 * `vitest run --project api` runs one project. A fifth, `replica` (tests/replica), exists only when
 * `npm run cluster -- --test` runs it against a real streaming replica (REPLICA_TEST_* URLs).
 */
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@screens': fileURLToPath(new URL('./screens', import.meta.url)),
    },
  },
  test: {
    globalSetup: ['tests/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // the demo seeder and the servers the tests start read days in the test machine's own zone (the
    // older tests write their days in it); tests/api/businessTime.test.ts runs the server in another
    env: { BUSINESS_TIME_ZONE: process.env.BUSINESS_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts'], pool: 'forks', maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'api', include: ['tests/api/**/*.test.ts'], pool: 'forks', maxWorkers: 2, sequence: { groupOrder: 0 } } },
      // only when `npm run cluster -- --test` (scripts/cluster.ts) gives it a real streaming replica behind PgBouncer
      ...(process.env.REPLICA_TEST_REPLICA_URL
        ? [{ extends: true as const, test: { name: 'replica', include: ['tests/replica/**/*.test.ts'], pool: 'forks' as const, maxWorkers: 1, hookTimeout: 300_000 } }]
        : []),
      {
        extends: true,
        // hooks: the run's first browser file may seed the data-folder template (tests/e2e/harness.ts)
        // expect.poll waits up to 15 s, not vitest's 1 s: a screen refetching after a decision took over 1 s
        // on a loaded CI machine (tests/e2e/approvals.test.ts failed there with the row still shown)
        test: {
          name: 'browser',
          include: ['tests/e2e/**/*.test.ts'],
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          hookTimeout: 480_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        extends: true,
        // after everything else: it kills servers and seeds mid-way
        test: { name: 'reliability', include: ['tests/reliability/**/*.test.ts'], pool: 'forks', maxWorkers: 2, sequence: { groupOrder: 2 }, hookTimeout: 480_000 },
      },
    ],
  },
});
