/**
 * Fingerprints of everything stored, to prove that a refused request changed nothing.
 *
 * - `contentFingerprint`: an md5 of every row of every table (slow on the demo data: a few hundred ms).
 * - `changeFingerprint`: per table, the row count and the newest row version (`xmin`, the id of the
 *   transaction that wrote the row). Any INSERT, UPDATE (even to the same values) or DELETE that was
 *   committed changes it; a rolled-back write does not. Cheap enough to take after every request.
 *
 * Both cover every base table of the schema, apart from those named in `except`. The activity log's
 * chain head (activity_log_chain, migration 95) is part of the log: excepting `activity_logs` excepts it too.
 */
import type { Db } from '../../src/server/db/db';

async function tableNames(db: Db, except: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND NOT (SELECT relispartition FROM pg_class WHERE oid = to_regclass(table_name::text)) ORDER BY table_name`,
  );
  const excepted = except.includes('activity_logs') ? [...except, 'activity_log_chain'] : except;
  const names = rows.map((r) => r.table_name).filter((t) => !excepted.includes(t));
  if (names.length < 10) throw new Error(`only ${names.length} tables found: is the schema right?`);
  return names;
}

export async function contentFingerprint(db: Db, except: readonly string[] = []): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const table of await tableNames(db, except)) {
    const row = await db.one<{ n: number; h: string }>(`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM "${table}" t`);
    result[table] = `${row!.n}:${row!.h}`;
  }
  return result;
}

export async function changeFingerprint(db: Db, except: readonly string[] = []): Promise<Record<string, string>> {
  const tables = await tableNames(db, except);
  const sql = tables.map((t) => `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text AS v FROM "${t}"`).join(' UNION ALL ');
  const rows = await db.query<{ t: string; v: string }>(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.v]));
}

/** The activity log rows written after the row with id `afterId`. */
export async function activityRowsAfter(db: Db, afterId: number): Promise<Record<string, unknown>[]> {
  return db.query('SELECT * FROM activity_logs WHERE id > $1 ORDER BY id', [afterId]);
}

export async function lastActivityId(db: Db): Promise<number> {
  const row = await db.one<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM activity_logs');
  return row!.id;
}
