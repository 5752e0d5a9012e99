/**
 * Once per test run: a folder for the run's database templates (tests/api/templateDb.ts). The first
 * API test file that needs a database migrates and seeds one and leaves a copy there; every later file
 * starts from a copy of it instead of migrating and seeding its own (~15 s each). At the end of the run
 * the folder goes, and so do the PostgreSQL template databases it names.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplateDir: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'remit-test-run-'));
  project.provide('testTemplateDir', dir);
  return async () => {
    const pgTemplates = readdirSync(dir)
      .filter((f) => f.endsWith('.pgdb'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { adminUrl: string; name: string });
    if (pgTemplates.length > 0) {
      const { default: pg } = await import('pg');
      for (const t of pgTemplates) {
        const client = new pg.Client({ connectionString: t.adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${t.name} WITH (FORCE)`).catch(() => {});
        await client.end();
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
