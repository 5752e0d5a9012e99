import type { Migration } from '../migrations';

const tables = ['ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions'];

/**
 * Find by trace, ID or UID (ids 100..104): issue 17. A customer can have thousands of transactions;
 * the lookup by UID returns the newest 20 of each service (src/server/areas/finder.ts), which this
 * index reads in order, stopping after 21 entries, instead of fetching and sorting every one of them.
 * Traces (unique index) and ids (primary key) need nothing new.
 */
export const finderMigrations: readonly Migration[] = [
  {
    id: 100,
    name: 'find by trace, ID or UID: each service\'s transactions indexed by customer UID, newest first',
    sql: tables.map((t) => `CREATE INDEX ${t}_uid_newest ON ${t} (uid, initiated_time DESC, id DESC);`).join('\n'),
  },
];
