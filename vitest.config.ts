import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { mkdirSync, readdirSync, readFileSync, statfsSync } from 'node:fs';
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
 * The unit and API test files, split by whether a file may share its process with the files before it.
 * Most of them only call functions or talk to servers they start and close, so they run one after
 * another in a process that is kept (`isolate: false`): the modules are imported, and the embedded
 * database's WebAssembly warmed, once a process instead of once a file (~3 s an API file: the API
 * files took 236 s alone and 158 s so, on this 2-core machine). A file that mocks a module (its mock
 * would not reach modules the process already holds), stubs, spies, fakes timers or sets the process's
 * environment, working folder or umask (which would carry over into the next file) keeps a fresh
 * process, as before. Read from the files themselves, so a new test that does any of that is isolated
 * without a list to keep.
 */
const CHANGES_ITS_PROCESS =
  /\bvi\.(mock|doMock|unmock|stubEnv|stubGlobal|useFakeTimers|spyOn|resetModules)\b|process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|Object\.assign\(process\.env|process\.(chdir|umask)\(/;
function testFiles(folder: string): { shared: string[]; isolated: string[] } {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const files = readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${folder}/${f}`)
    .sort();
  const isolated = files.filter((f) => CHANGES_ITS_PROCESS.test(readFileSync(join(root, f), 'utf8')));
  return { shared: files.filter((f) => !isolated.includes(f)), isolated };
}
const unit = testFiles('tests/unit');
const api = testFiles('tests/api');

/**
 * Six projects, run in three groups:
 * - first `unit`, `unit-shared`, `api` and `api-shared`, two files at a time (`maxWorkers`, this machine
 *   has 2 cores), in forked processes (not worker threads: the time-zone tests set process.env.TZ,
 *   which a worker thread does not apply): a fresh one for each file of `unit` and `api`, kept from
 *   file to file in the `-shared` two (see testFiles); each API file has a database of its own,
 *   copied from the run's template (tests/api/templateDb.ts, built once even when two files ask at
 *   once: tests/buildOnce.ts);
 * - then `browser` (tests/e2e), two files at a time: each starts its own server process (a free port,
 *   its own copy of a seeded data folder: tests/e2e/harness.ts) and its own Chromium, and much of a
 *   browser file's time is waiting on them, so two files share the two cores; its waits are web-first
 *   (locator waits, expect.poll), not fixed sleeps, so a busier machine makes them slower, not wrong;
 * - last `reliability` (tests/reliability): it kills servers and seeds mid-way, so it runs after
 *   everything else; its two files (the embedded database, PostgreSQL) side by side, as each is mostly
 *   one child process's work (108 s one after the other).
 * `vitest run tests/unit` runs the unit files of both unit projects, `vitest run tests/api` the API
 * files. A seventh, `replica` (tests/replica), exists only when `npm run cluster -- --test` runs it
 * against a real streaming replica (REPLICA_TEST_* URLs).
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
      { extends: true, test: { name: 'unit', include: [...unit.isolated, 'src/**/*.test.ts'], pool: 'forks', maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'unit-shared', include: unit.shared, pool: 'forks', isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'api', include: api.isolated, pool: 'forks', maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'api-shared', include: api.shared, pool: 'forks', isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } } },
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
