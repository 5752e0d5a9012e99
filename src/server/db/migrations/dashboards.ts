import type { Migration } from '../migrations';

/**
 * Dashboards (ids 30..39). The dashboards read counts and sums from the transactions area's daily
 * roll-up (transaction_daily_stats); what it does not carry is read from the transaction tables
 * through indexes. Measured at 1,000,000 transactions on PostgreSQL (scripts/bench-dashboard.ts):
 * Top Billers over a year scanned ~140,000 bill rows through the initiated_time index with a heap
 * fetch each (~110 ms); this partial covering index answers it from the index alone.
 */
export const dashboardMigrations: readonly Migration[] = [
  {
    id: 30,
    name: 'dashboards: successful bill payments by time, with biller and USD amount (Top Billers)',
    sql: `
CREATE INDEX bill_transactions_success_biller ON bill_transactions (initiated_time) INCLUDE (biller_code, amount_usd) WHERE status = 'SUCCESS';
`,
  },
];
