import type { Migration } from '../migrations';

/** Privilege (ids 70..74): issue 15. */
export const privilegeMigrations: readonly Migration[] = [
  {
    id: 70,
    name: 'privilege: a password set by someone else must be changed by its owner at the next sign-in',
    sql: `
ALTER TABLE console_users ADD COLUMN must_change_password integer NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1));
`,
  },
];
