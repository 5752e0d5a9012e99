import { createHash } from 'node:crypto';
import type { Db } from './db';
import { migrations as allMigrations, type Migration } from './migrations';

/** Why a database's schema history and the code's migrations disagree; nothing was applied. */
export class MigrationRefusal extends Error {
  override readonly name = 'MigrationRefusal';
}

/** The sha256 (hex) of a migration's SQL, as stored in `schema_migrations.checksum`. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

export interface MigrateOptions {
  /** Said once when the database has applied migrations newer than the code's (default console.warn). */
  warn?: (message: string) => void;
}

/**
 * Brings the schema up to date, in one transaction, under an advisory lock so that several server
 * processes starting at once against one PostgreSQL do not race. Returns the ids it applied.
 *
 * Before applying anything it checks the database's history against `migrations`, and throws a
 * MigrationRefusal (naming the migration) when
 * - an applied migration's stored checksum differs from the sha256 of the code's SQL (the file was
 *   edited after it shipped, or the database ran other SQL under that id);
 * - the database has applied an id the code does not know below the code's highest (a removed
 *   migration, or one from another line of the code);
 * - a migration not yet applied has an id below the highest applied one (it would run in a different
 *   order here than on a fresh database).
 * Applied ids above every id the code knows are a newer release's (a rolling upgrade: the new version
 * migrated the database while this one still runs; docs/upgrades.md): accepted, each named in one
 * warning (`options.warn`, default console.warn), as a release only expands the schema, and this code
 * reads and writes the shape it knows. "Current" (every migration this code knows is applied) holds then.
 * A database migrated before checksums were stored (the column is added here) gets each applied
 * migration's checksum recorded from the code, whose SQL is byte-identical to what it ran.
 */
export async function migrate(db: Db, migrations: readonly Migration[] = allMigrations, options: MigrateOptions = {}): Promise<number[]> {
  const newer: number[] = [];
  const applied = await db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('schema_migrations:' || current_schema()))`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      checksum text
    );
    ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`);
    const ordered = [...migrations].sort((a, b) => a.id - b.id);
    const known = new Map(ordered.map((m) => [m.id, { migration: m, checksum: migrationChecksum(m.sql) }]));
    const applied = await tx.query<{ id: number; checksum: string | null }>('SELECT id, checksum FROM schema_migrations ORDER BY id');

    const highestKnown = ordered.reduce((max, m) => Math.max(max, m.id), 0);
    for (const row of applied) {
      const code = known.get(row.id);
      if (!code && row.id > highestKnown) {
        newer.push(row.id);
        continue;
      }
      if (!code) {
        throw new MigrationRefusal(
          `Migration ${row.id} has been applied to this database but is not in this code's migrations ` +
            `(src/server/db/migrations.ts), which knows ids up to ${highestKnown}: the database was migrated by other code (a removed migration?). Refusing to start.`,
        );
      }
      if (row.checksum === null) {
        await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE id = $1', [row.id, code.checksum]);
      } else if (row.checksum !== code.checksum) {
        throw new MigrationRefusal(
          `Migration ${row.id} (${code.migration.name}) differs from the one applied to this database: ` +
            `checksum ${row.checksum} recorded, ${code.checksum} in src/server/db/migrations/sql/. ` +
            `A shipped migration must never change; add a new migration instead. Refusing to start.`,
        );
      }
    }

    const highest = applied.reduce((max, r) => Math.max(max, r.id), 0);
    const done = new Set(applied.map((r) => r.id));
    const pending = ordered.filter((m) => !done.has(m.id));
    const late = pending.find((m) => m.id < highest);
    if (late) {
      throw new MigrationRefusal(
        `Migration ${late.id} (${late.name}) is new to this database, but the database has already applied migration ${highest}: ` +
          `a new migration takes an id above every shipped one (ids only grow). Refusing to start.`,
      );
    }

    for (const m of pending) {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (id, name, checksum) VALUES ($1, $2, $3)', [m.id, m.name, migrationChecksum(m.sql)]);
    }
    return pending.map((m) => m.id);
  });
  if (newer.length > 0) {
    (options.warn ?? console.warn)(
      `The database has applied migration(s) ${newer.join(', ')}, newer than this code's: a newer release migrated it (a rolling upgrade). ` +
        'Starting on it: a release only adds to the schema (docs/upgrades.md).',
    );
  }
  return applied;
}
