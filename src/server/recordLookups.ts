/**
 * The look-ups a record's display fields name (src/definitions/records.ts `lookupNames`): the label
 * of a value that names another record, read from the database when a change request is described.
 */
import type { Lookup, LookupName } from '../definitions/records';
import type { Db } from './db/db';
import { branchNameSql } from './entities/userBranches';

type Resolver = (db: Db, value: unknown, values: Record<string, unknown>) => Promise<string | undefined>;

async function text(db: Db, sql: string, params: unknown[]): Promise<string | undefined> {
  const row = await db.one<{ label: string | null }>(sql, params);
  return row?.label ?? undefined;
}

const isId = (v: unknown) => Number.isSafeInteger(Number(v)) && String(v).trim() !== '';

const resolvers: Record<LookupName, Resolver> = {
  /** A console user's branch by user type and code (a branch, provider, exchange house, ...). */
  branch: (db, value, values) => text(db, `SELECT ${branchNameSql('$1::text', '$2::text')} AS label`, [String(values.type ?? ''), String(value)]),
  role: (db, value) => (isId(value) ? text(db, 'SELECT role_name AS label FROM roles WHERE id = $1', [Number(value)]) : Promise.resolve(undefined)),
  userLevel: (db, value) => (isId(value) ? text(db, 'SELECT title AS label FROM user_levels WHERE id = $1', [Number(value)]) : Promise.resolve(undefined)),
  /** A provider by bank code: its name with the code, e.g. 'Bank of Ceylon IPG (7010)'. */
  provider: async (db, value) => `${(await text(db, 'SELECT provider_bank_name AS label FROM ipg_providers WHERE provider_bank_code = $1', [String(value)])) ?? ''} (${String(value)})`,
};

/** The look-up of a record's display fields, against this database. */
export function recordLookup(db: Db): Lookup {
  return (name, value, values) => resolvers[name](db, value, values);
}
