/**
 * The database interface the server uses. Two implementations: embedded PGlite (no DATABASE_URL) and
 * a `pg` pool (DATABASE_URL). Both speak the same PostgreSQL, run the same migrations and return
 * ids and counts as JS numbers and `timestamptz` as `Date`.
 *
 * Parameters: plain objects and arrays are sent as JSON text (for `jsonb` columns), never as
 * PostgreSQL arrays; Dates, strings, numbers, booleans and null go as they are.
 */
export type Row = Record<string, unknown>;

export interface Db {
  /** Which backend: 'pglite' (embedded) or 'pg' (a PostgreSQL server). */
  readonly kind: 'pglite' | 'pg';
  /** One statement with `$1..$n` parameters; the rows it returns. */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  one<T = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction; a nested call reuses the outer transaction. */
  tx<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * A read-only view of one moment of the database whose rows can be read in batches while they are
   * sent (a PostgreSQL connection of its own in a REPEATABLE READ transaction, rows through a cursor).
   * Absent: `openReadSnapshot` reads through the Db itself, each statement whole.
   */
  readSnapshot?(): Promise<ReadSnapshot>;
  /**
   * LISTEN on a channel: `onNotify` gets each NOTIFY's payload (on a connection of its own for a
   * PostgreSQL server). Returns the function that stops listening. Absent inside a transaction.
   */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** A PostgreSQL server's connection pool now: its connections, the idle ones, the queries waiting for one (the metrics). Absent for the embedded database. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** See `Db.readSnapshot`. Every statement sees the same moment; `release()` must be called once done. */
export interface ReadSnapshot {
  one<T = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** The rows of one statement in batches of at most `batchRows` rows, read as they are asked for. */
  batches<T = Row>(sql: string, params: readonly unknown[], batchRows: number): AsyncGenerator<T[], void, undefined>;
  /**
   * The rows of one SELECT in PostgreSQL's COPY text format (a line per row, values separated by tabs,
   * times in the ISO date style), as the database sends them: chunks of bytes that need not end at a
   * line's end. COPY takes no parameters: they are written into the statement as literals
   * (`inlineParams`). Absent for the embedded database.
   */
  copyText?(sql: string, params: readonly unknown[]): AsyncIterable<Buffer>;
  /** Ends the snapshot and gives its connection back; later calls do nothing. */
  release(): Promise<void>;
}

/**
 * A statement with its `$1..$n` written in as literals, for COPY (which takes no parameters): a
 * string quoted by `quote` (the driver's escapeLiteral), a Date as a timestamptz, a finite number or
 * a boolean as itself; anything else is refused.
 */
export function inlineParams(sql: string, params: readonly unknown[], quote: (s: string) => string): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`inlineParams: no value for $${n}`);
    const v = params[i];
    if (typeof v === 'string') return quote(v);
    if (v instanceof Date && !Number.isNaN(v.getTime())) return `${quote(v.toISOString())}::timestamptz`;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    throw new Error(`inlineParams: $${n} is not a string, date, finite number or boolean`);
  });
}

/** The Db's own snapshot, or one that reads each statement whole through the Db (embedded, inside a transaction). */
export function openReadSnapshot(db: Db): Promise<ReadSnapshot> {
  if (db.readSnapshot) return db.readSnapshot();
  return Promise.resolve({
    one: (sql, params) => db.one(sql, params),
    async *batches<T>(sql: string, params: readonly unknown[], batchRows: number) {
      const rows = await db.query<T>(sql, params);
      for (let i = 0; i < rows.length; i += batchRows) yield rows.slice(i, i + batchRows);
    },
    release: async () => {},
  });
}

export interface OpenDbOptions {
  /** postgres://... to use a PostgreSQL server; otherwise the embedded database. */
  databaseUrl?: string;
  /**
   * The same PostgreSQL reached without a transaction pooler (PgBouncer in transaction mode keeps no
   * session), for what needs a session of its own: LISTEN. Unset: databaseUrl.
   */
  directUrl?: string;
  /** The embedded database's folder, or 'memory://' (the default) for a throw-away one. */
  dataDir?: string;
  /** A schema to create and use (tests use a fresh one each). */
  schema?: string;
  /** The embedded database only: start from this data folder tarball (a copy of a migrated, seeded database). */
  loadDataDir?: Blob;
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  if (options.databaseUrl) {
    const { openPgDb } = await import('./pg');
    return openPgDb(options.databaseUrl, options.schema, options.directUrl);
  }
  const { openPgliteDb } = await import('./pglite');
  return openPgliteDb(options.dataDir ?? 'memory://', options.schema, options.loadDataDir);
}

export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
}

/** Objects and arrays become JSON text (for jsonb); everything else is passed through. */
export function toParams(params: readonly unknown[] | undefined): unknown[] {
  if (!params) return [];
  return params.map((p) => {
    if (p === undefined) return null;
    if (p === null || p instanceof Date || typeof p !== 'object' || ArrayBuffer.isView(p)) return p;
    return JSON.stringify(p);
  });
}

/** The PostgreSQL error code of a database error (e.g. '23505' unique violation), if any. */
export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
