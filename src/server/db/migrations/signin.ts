import type { Migration } from '../migrations';

/** Sign-in and sessions (ids 85..89): issue 15. */
export const signinMigrations: readonly Migration[] = [];
