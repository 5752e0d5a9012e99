import type { Migration } from '../migrations';

/** Privilege and sign-in (ids 70..74): issue 15. */
export const privilegeMigrations: readonly Migration[] = [];
