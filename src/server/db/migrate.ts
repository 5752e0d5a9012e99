import type { Db } from './db';
import { migrations as allMigrations, type Migration } from './migrations';

/**
 * Applies the migrations not yet applied, in one transaction, under an advisory lock so that
 * several server processes starting at once against one PostgreSQL do not race.
 * Returns the ids it applied.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = allMigrations): Promise<number[]> {
  return db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('schema_migrations:' || current_schema()))`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.id - b.id)) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      applied.push(m.id);
    }
    return applied;
  });
}
