import type { Migration } from '../migrations';

/**
 * Read replica (ids 130..134): issue 21. Each console user's last write position on the primary
 * (pg_current_wal_insert_lsn() after the call that wrote), so that any server process can tell
 * whether the replica has replayed that user's own writes before it sends the user's reads there
 * (read-your-writes; src/server/db/readRouting.ts). One row per user, updated in place.
 */
export const readReplicaMigrations: readonly Migration[] = [
  {
    id: 130,
    name: 'read replica: each user\'s last write position on the primary, for read-your-writes',
    sql: `CREATE TABLE user_write_positions (
  username text PRIMARY KEY,
  lsn pg_lsn NOT NULL,
  written_at timestamptz NOT NULL
);`,
  },
];
