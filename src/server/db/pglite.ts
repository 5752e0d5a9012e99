import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { toParams, type Db } from './db';

/**
 * The embedded database. PGlite is a single connection: its `transaction()` serializes transactions,
 * and a plain query waits until the running transaction is over, so a query must never be sent to the
 * outer Db from inside a transaction (use the `tx` handed to the callback).
 */
export interface PgliteDb extends Db {
  /** The whole data folder as a tarball, to open copies of this database with `loadDataDir`. */
  dumpDataDir(): Promise<Blob>;
}

export async function openPgliteDb(dataDir: string, schema?: string, loadDataDir?: Blob): Promise<PgliteDb> {
  const pglite = new PGlite(dataDir, {
    parsers: { [types.NUMERIC]: (v: string) => Number(v), [types.INT8]: (v: string) => Number(v) },
    loadDataDir,
  });
  await pglite.waitReady;
  if (schema) await pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema};`);
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await pglite.query<T>(sql, toParams(params))).rows;
    },
    async one<T>(sql: string, params?: readonly unknown[]) {
      return (await pglite.query<T>(sql, toParams(params))).rows[0];
    },
    async exec(sql: string) {
      await pglite.exec(sql);
    },
    tx<T>(fn: (tx: Db) => Promise<T>) {
      return pglite.transaction((t) => fn(transactionDb(t)));
    },
    async listen(channel, onNotify) {
      return pglite.listen(channel, onNotify);
    },
    close: () => pglite.close(),
    dumpDataDir: () => pglite.dumpDataDir('none'),
  };
}

function transactionDb(t: Transaction): Db {
  const db: Db = {
    kind: 'pglite',
    async query<T>(sql: string, params?: readonly unknown[]) {
      return (await t.query<T>(sql, toParams(params))).rows;
    },
    async one<T>(sql: string, params?: readonly unknown[]) {
      return (await t.query<T>(sql, toParams(params))).rows[0];
    },
    async exec(sql: string) {
      await t.exec(sql);
    },
    tx: (fn) => fn(db),
    close: async () => {
      throw new Error('close() inside a transaction');
    },
  };
  return db;
}
