import type { Migration } from '../migrations';

/** Transport, deployment and input limits (ids 80..84): issue 15. */
export const transportMigrations: readonly Migration[] = [];
