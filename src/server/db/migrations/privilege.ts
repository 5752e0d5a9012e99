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
  {
    id: 71,
    name: 'privilege: a change request may name an operation on its record (password reset, sign-in unlock)',
    sql: `
ALTER TABLE change_requests ADD COLUMN operation text CHECK (operation IS NULL OR (action = 'EDIT' AND record_id IS NOT NULL));
`,
  },
];
