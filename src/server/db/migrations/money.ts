import type { Migration } from '../migrations';

/** Money and settlement scope (ids 75..79): issue 15. */
export const moneyMigrations: readonly Migration[] = [];
