/**
 * The schema, as one sequence of frozen migrations. Each is literal SQL in its own file under
 * ./migrations/sql/ (`<id, 4 digits>-<slug>.sql`), listed below in id order with the name recorded in
 * `schema_migrations`. The runner (migrate.ts) applies each once, in id order, and stores the sha256 of
 * its file; start-up refuses a database whose applied migrations differ from these files.
 *
 * Rules (CONTRIBUTING.md, "Migrations"):
 * - Never edit, rename the id of, reorder or remove a migration that has shipped: add the next one.
 *   A shipped file's bytes are its checksum; tests/api/migrationsFrozen.test.ts holds every shipped
 *   checksum, so an edit fails the tests before it can fail a deployed database's start-up.
 * - A new migration takes the next id above the highest one here (ids only grow: a database that has
 *   applied a higher id refuses a new lower one, so fresh and deployed databases run the same order).
 * - Literal SQL only: no SQL assembled from helpers or templates, no shared fragments between files;
 *   repeat what must be repeated. The file runs as one multi-statement exec inside the runner's
 *   transaction, on PGlite and on PostgreSQL alike.
 * - The design notes that came with the earlier migrations are in ./migrations/NOTES.md.
 *
 * Conventions: ids are `serial` (integer), times `timestamptz`, maps and lists `jsonb`,
 * `disabled` is 0 (active) or 1, `locked` is 1 while a change request on the row is pending, and
 * `version` counts applied changes (a change request remembers the version it was made against).
 */
import { readFileSync } from 'node:fs';

export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sql: string;
}

/** One line per migration, in id order: its id, its file under ./migrations/sql/ and its name. */
const registry: readonly { readonly id: number; readonly file: string; readonly name: string }[] = [
  { id: 1, file: '0001-foundation.sql', name: 'foundation: console users, roles, reference data, change requests, activity log, sign-in' },
  { id: 2, file: '0002-shared-data.sql', name: 'shared data: countries, app users, beneficiaries, images' },
  { id: 10, file: '0010-master-data.sql', name: 'master data: provider currencies, rate approvals, advertisements, app versions' },
  { id: 11, file: '0011-change-request-field-order.sql', name: 'change requests keep the order of the fields they display' },
  { id: 20, file: '0020-transactions.sql', name: 'transactions: send money (CEFT), bill payments, E-Channelling, Thyaga, insurance and dependants' },
  { id: 21, file: '0021-money-actions-daily-rollup.sql', name: 'transactions: money actions (idempotency) and the daily roll-up' },
  { id: 30, file: '0030-top-billers-index.sql', name: 'dashboards: successful bill payments by time, with biller and USD amount (Top Billers)' },
  { id: 40, file: '0040-kyc.sql', name: 'kyc: records and submissions; mobile app users activity events' },
  { id: 41, file: '0041-settlement-batches.sql', name: 'settlement: batches, rows and the transaction to batch link' },
  { id: 50, file: '0050-activity-log-no-truncate.sql', name: 'hardening: the activity log refuses TRUNCATE as it refuses UPDATE and DELETE' },
  { id: 51, file: '0051-login-address-failures.sql', name: 'hardening: failed sign-ins per client address (the sign-in limiter), shared by every server process' },
  { id: 52, file: '0052-password-revokes-tokens.sql', name: "hardening: a new password or a deactivation revokes the user's tokens (session_version bumped)" },
  { id: 60, file: '0060-rollup-triggers.sql', name: 'performance: monthly and biller roll-ups, all roll-ups kept by triggers on the transaction tables' },
  { id: 61, file: '0061-initiated-time-indexes-user.sql', name: 'performance: the initiated-time indexes carry app_user_id (Active Users from the index alone)' },
  { id: 62, file: '0062-latest-activity.sql', name: 'performance: latest activity per app user and per beneficiary, kept by triggers (Active Users, Active Beneficiaries)' },
  {
    id: 63,
    file: '0063-beneficiary-activity-counts.sql',
    name: 'performance: beneficiary_activity counts its beneficiaries (Active Beneficiaries without a join), the activity upserts write only what changes, rebuilds compact',
  },
  { id: 64, file: '0064-activity-per-day.sql', name: 'performance: activity per UTC day (Active Users and Active Beneficiaries from ~30 day rows, however bloated the activity tables)' },
  { id: 70, file: '0070-must-change-password.sql', name: 'privilege: a password set by someone else must be changed by its owner at the next sign-in' },
  { id: 71, file: '0071-change-request-operation.sql', name: 'privilege: a change request may name an operation on its record (password reset, sign-in unlock)' },
  { id: 75, file: '0075-money-moves-once.sql', name: 'money moves at most once: per send-money transaction at most one successful CEFT payout, void or refund' },
  {
    id: 76,
    file: '0076-transaction-provider.sql',
    name: "transactions carry their acquiring IPG provider (provider_bank_code), filled by the old settlement rule; indexed for the IPG bank users' lists",
  },
  { id: 77, file: '0077-settlement-generate-grant.sql', name: 'settlement-report-generate: granted to the back-office roles that could generate until now' },
  { id: 80, file: '0080-demo-accounts-marked.sql', name: 'transport: console accounts made by the demo seeder are marked (a production server refuses to start while one is active)' },
  { id: 85, file: '0085-signin-failures.sql', name: 'sign-in: failures per (username, client address), the username-wide back-off slot and the failures to tell the owner about' },
  { id: 86, file: '0086-sessions.sql', name: 'sign-in: one row per session (absolute lifetime, the current token and the one it replaced, for a few seconds)' },
  { id: 90, file: '0090-approval-comments.sql', name: 'approvals: decision comments, withdrawn and expired requests, the maker and age indexes' },
  { id: 91, file: '0091-change-request-notify.sql', name: 'approvals: NOTIFY change_requests on every new request and every change of status' },
  { id: 95, file: '0095-activity-log-hash-chain.sql', name: 'tamper-evident activity log: each entry carries a hash over its content and the previous entry hash' },
  { id: 96, file: '0096-settlement-runs.sql', name: 'scheduled settlement: one recorded run per business day across every server process' },
  { id: 97, file: '0097-money-action-lock.sql', name: 'four eyes on large money actions: send-money transactions carry the change-request lock and version' },
  { id: 100, file: '0100-uid-newest-indexes.sql', name: "find by trace, ID or UID: each service's transactions indexed by customer UID, newest first" },
  { id: 120, file: '0120-export-jobs.sql', name: 'export jobs: the queue (one queued or running job per user), progress, lease, expiry, and the files in chunks' },
  { id: 130, file: '0130-user-write-positions.sql', name: "read replica: each user's last write position on the primary, for read-your-writes" },
  {
    id: 140,
    file: '0140-monthly-partitions.sql',
    name: 'past one machine: the transaction tables and the activity log partitioned by month (rows moved; keys, references, indexes and triggers kept)',
  },
  { id: 150, file: '0150-export-job-columns.sql', name: "export jobs: the columns a job writes (some of its list's), NULL for all" },
  { id: 160, file: '0160-analyze-partitions.sql', name: 'past one machine: planner statistics for the tables partitioned by migration 140 (its moved rows had none)' },
  {
    id: 170,
    file: '0170-finder-directory.sql',
    name: "past one machine: transaction_traces carries each transaction's id, time, UID and provider, so the top-bar lookup plans no month partition it does not read",
  },
  {
    id: 180,
    file: '0180-settlement-pending.sql',
    name: 'past one machine: send-money transactions carry settled (kept from settled_transactions) and a partial index of the pending ones, so generating a batch does not read the history',
  },
  { id: 190, file: '0190-partition-ensure-fast-path.sql', name: 'past one machine: month_partition_ensure answers an existing partition before taking its lock' },
  {
    id: 200,
    file: '0200-awaiting-settlement.sql',
    name: 'past one machine: send-money transactions carry awaiting_settlement (generated: successful and not settled), indexed, so the pending search is planned by its own statistics',
  },
  { id: 210, file: '0210-export-chunks-uncompressed.sql', name: 'exports at any size: export file chunks are stored without compression (a large .csv no longer costs the database a core)' },
  { id: 220, file: '0220-change-request-accounts.sql', name: 'four eyes by account: change requests record the account ids of their maker and decider' },
  { id: 230, file: '0230-export-job-provider-scope.sql', name: 'export files: the provider scope a job was written under, checked again when its file is downloaded' },
];

const sqlFolder = new URL('./migrations/sql/', import.meta.url);

function load(): Migration[] {
  let previous = 0;
  return registry.map(({ id, file, name }) => {
    if (!Number.isInteger(id) || id <= previous) throw new Error(`migrations.ts: migration ${id} is not above ${previous}: ids only grow, in file order`);
    if (!file.startsWith(`${String(id).padStart(4, '0')}-`) || !file.endsWith('.sql')) {
      throw new Error(`migrations.ts: migration ${id}'s file ${file} must be named ${String(id).padStart(4, '0')}-<slug>.sql`);
    }
    previous = id;
    return { id, name, sql: readFileSync(new URL(file, sqlFolder), 'utf8') };
  });
}

export const migrations: readonly Migration[] = load();
