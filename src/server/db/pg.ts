import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { inlineParams, pgErrorCode, toParams, type Db, type ReadSnapshot } from './db';

const INT8 = 20;
const NUMERIC = 1700;

/** bigint (counts, sums of integers) and numeric come back as JS numbers, as they do from PGlite. */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

export async function openPgDb(databaseUrl: string, schema?: string, directUrl?: string): Promise<Db> {
  if (schema) {
    const setup = new pg.Client({ connectionString: databaseUrl });
    await setup.connect();
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } catch (err) {
      // two processes creating the same schema at once: the loser sees a duplicate; it exists now.
      if (pgErrorCode(err) !== '23505' && pgErrorCode(err) !== '42P06') throw err;
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    types: typeParsers,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // an idle client losing its connection must not crash the process
  pool.on('error', (err) => console.error('PostgreSQL idle connection error:', err.message));

  const run = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]) => (await client.query(sql, toParams(params))).rows as T[];

  return {
    kind: 'pg',
    query: <T>(sql: string, params?: readonly unknown[]) => run<T>(pool, sql, params),
    one: async <T>(sql: string, params?: readonly unknown[]) => (await run<T>(pool, sql, params))[0],
    exec: async (sql) => {
      await pool.query(sql);
    },
    async tx<T>(fn: (tx: Db) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(clientDb(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async readSnapshot() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      } catch (err) {
        client.release(err instanceof Error ? err : true);
        throw err;
      }
      return pgSnapshot(client);
    },
    async listen(channel, onNotify) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      // LISTEN needs a session: through PgBouncer's transaction mode it would be lost, so the direct address
      const client = new pg.Client({ connectionString: directUrl ?? databaseUrl });
      client.on('error', (err) => console.error('PostgreSQL LISTEN connection error:', err.message));
      client.on('notification', (n) => {
        if (n.channel === channel) onNotify(n.payload ?? '');
      });
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

let cursorCount = 0;

/** A REPEATABLE READ READ ONLY transaction on a client of its own; rows through a cursor, FETCH by FETCH (one FETCH ahead). */
function pgSnapshot(client: pg.PoolClient): ReadSnapshot {
  let released = false;
  let broken = false;
  return {
    async *copyText(sql: string, params: readonly unknown[]) {
      // the times' text as ISO (2026-08-28 13:48:10.812), whatever the server's or the role's DateStyle
      await client.query(`SET LOCAL datestyle TO 'ISO, YMD'`);
      const stream = client.query(copyTo(`COPY (${inlineParams(sql, params, (v) => client.escapeLiteral(v))}) TO STDOUT`));
      let finished = false;
      try {
        for await (const chunk of stream) yield chunk as Buffer;
        finished = true;
      } finally {
        // stopped part-way (the reply was broken off): the connection is still in its COPY and cannot
        // take the ROLLBACK, so it is closed instead (the server ends the transaction) and not reused
        if (!finished) broken = true;
      }
    },
    one: async (sql, params) => (await client.query(sql, toParams(params))).rows[0],
    async *batches<T>(sql: string, params: readonly unknown[], batchRows: number) {
      const cursor = `rows_${++cursorCount}`;
      const size = Math.max(1, Math.floor(batchRows));
      await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, toParams(params));
      // one FETCH ahead: the database reads the next batch while the caller works on this one
      const fetch = () => {
        const next = client.query(`FETCH ${size} FROM ${cursor}`);
        // a caller that stops early never awaits the last one: its failure is not unhandled
        next.catch(() => {});
        return next;
      };
      let next = fetch();
      for (;;) {
        const rows = (await next).rows as T[];
        const more = rows.length === size;
        if (more) next = fetch();
        if (rows.length > 0) yield rows;
        if (!more) return;
      }
    },
    async release() {
      if (released) return;
      released = true;
      if (broken) {
        client.release(true);
        return;
      }
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      } finally {
        // a connection whose ROLLBACK failed is not reused
        client.release(broken ? true : undefined);
      }
    },
  };
}

function clientDb(client: pg.PoolClient): Db {
  const db: Db = {
    kind: 'pg',
    query: async (sql, params) => (await client.query(sql, toParams(params))).rows,
    one: async (sql, params) => (await client.query(sql, toParams(params))).rows[0],
    exec: async (sql) => {
      await client.query(sql);
    },
    tx: (fn) => fn(db),
    close: async () => {
      throw new Error('close() inside a transaction');
    },
  };
  return db;
}
