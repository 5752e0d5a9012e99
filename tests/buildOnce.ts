/**
 * Builds a run's shared template (tests/api/templateDb.ts, tests/e2e/harness.ts) once, even when
 * several test files ask for it at the same time (files run in parallel workers): the first to take
 * the lock (an atomic mkdir) builds and marks it ready; the others wait for the mark. A build that
 * failed is marked so, and every file then does without the template (as if there were none).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

/** Resolves true once `name` is ready (built here or by another file), false if it cannot be had. */
export async function buildOnce(name: string, build: () => Promise<void>, waitMs = 600_000): Promise<boolean> {
  const ready = `${name}.ready`;
  const failed = `${name}.failed`;
  if (existsSync(ready)) return true;
  let mine = false;
  try {
    mkdirSync(`${name}.lock`);
    mine = true;
  } catch {
    /* another file builds it */
  }
  if (mine) {
    try {
      await build();
      writeFileSync(ready, '');
      return true;
    } catch (err) {
      writeFileSync(failed, String(err));
      return false;
    }
  }
  for (const deadline = Date.now() + waitMs; !existsSync(ready);) {
    if (existsSync(failed) || Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}
