/**
 * Demo data: reference data, the four demo roles and users (admin, maker, checker, auditor, password
 * Demo@Pass1), a realistic staff list, each area's records and a few pending change requests by
 * `maker`. Deterministic, with dates relative to `now`.
 */
import { insertCountries } from './countries';
import { seedBeneficiaries } from './beneficiaries';
import { seedKycReports } from './kycReports';
import { seedMasterData } from './masterData';
import { seedPendingRequests } from './pendingRequests';
import { seedDemoTransactions, seedRangeStart } from './transactions';
import { allPermissions, SUPER_PERMISSION, type Permission } from '../../domain/permissions';
import { DEFAULT_SCRYPT_N, hashPassword } from '../auth/passwords';
import type { Db } from '../db/db';
import { ensureMonthPartitions } from '../db/partitions';
import { banks, branches, exchangeHouses, ipgProviders, merchants, userLevels } from './referenceData';

export const DEMO_PASSWORD = 'Demo@Pass1';

const isAuditorPermission = (p: Permission) => p.startsWith('auditor-');

export const demoRoles = [
  { name: 'Administrator', userType: 'BACKEND', level: 3, permissions: [SUPER_PERMISSION] },
  {
    name: 'Maker',
    userType: 'BACKEND',
    level: 1,
    // the operations maker settles (settlement-report-generate); the checker and the IPG Bank Officer view settlement only
    permissions: allPermissions.filter(
      (p) =>
        p !== SUPER_PERMISSION &&
        !isAuditorPermission(p) &&
        (/-(view|create|edit)$/.test(p) || ['user-password-reset', 'transaction-hold', 'transaction-retry', 'transaction-refund', 'settlement-report-generate'].includes(p)),
    ),
  },
  {
    name: 'Checker',
    userType: 'BACKEND',
    level: 2,
    permissions: allPermissions.filter((p) => p !== SUPER_PERMISSION && !isAuditorPermission(p) && /-(view|approve)$/.test(p)),
  },
  { name: 'Auditor', userType: 'BACKEND', level: 2, permissions: ['auditor-dashboard-view', 'auditor-report-view', 'auditor-app-user-view'] },
  {
    name: 'IPG Bank Officer',
    userType: 'IPGBANK',
    level: 1,
    permissions: ['ipg-currency-view', 'ipg-currency-edit', 'settlement-report-view', 'send-money-report-view'],
  },
  // approves their own provider's rate changes (IPG Provider Currencies' change-request panel), so the
  // maker-checker flow of the rates works without a super user
  {
    name: 'IPG Bank Checker',
    userType: 'IPGBANK',
    level: 2,
    permissions: ['ipg-currency-view', 'ipg-currency-approve', 'settlement-report-view', 'send-money-report-view'],
  },
] as const satisfies readonly { name: string; userType: string; level: number; permissions: readonly string[] }[];

type RoleName = (typeof demoRoles)[number]['name'];

interface DemoUser {
  username: string;
  name: string;
  role: RoleName;
  userType?: string;
  branch?: string;
  disabled?: 0 | 1;
  /** How long ago the account was created. */
  daysAgo: number;
}

export const demoUsers: readonly DemoUser[] = [
  { username: 'admin', name: 'System Administrator', role: 'Administrator', daysAgo: 400 },
  { username: 'maker', name: 'Demo Maker', role: 'Maker', daysAgo: 380 },
  { username: 'checker', name: 'Demo Checker', role: 'Checker', daysAgo: 380 },
  { username: 'auditor', name: 'Demo Auditor', role: 'Auditor', userType: 'AUDITOR', branch: 'AUDITOR', daysAgo: 360 },
  { username: 'nimal_perera', name: 'Nimal Perera', role: 'Maker', branch: 'CMBFORT', daysAgo: 320 },
  { username: 'kumari_fernando', name: 'Kumari Fernando', role: 'Checker', branch: 'CMBFORT', daysAgo: 300 },
  { username: 'sunil_jayasinghe', name: 'Sunil Jayasinghe', role: 'Maker', branch: 'KANDY', daysAgo: 280 },
  { username: 'dilani_w', name: 'Dilani Wickramasinghe', role: 'Checker', branch: 'KANDY', daysAgo: 260 },
  { username: 'ruwan_bandara', name: 'Ruwan Bandara', role: 'Maker', branch: 'GALLE', disabled: 1, daysAgo: 240 },
  { username: 'chamari_silva', name: 'Chamari Silva', role: 'Checker', branch: 'GALLE', daysAgo: 220 },
  { username: 'arjun_t', name: 'Arjun Thevarajah', role: 'Maker', branch: 'JAFFNA', daysAgo: 200 },
  { username: 'nadeesha_g', name: 'Nadeesha Gunawardena', role: 'Auditor', userType: 'AUDITOR', branch: 'CBSL', daysAgo: 180 },
  { username: 'kasun_herath', name: 'Kasun Herath', role: 'IPG Bank Officer', userType: 'IPGBANK', branch: '7010', daysAgo: 160 },
  { username: 'ishara_d', name: 'Ishara Dissanayake', role: 'IPG Bank Officer', userType: 'IPGBANK', branch: '7056', daysAgo: 140 },
  { username: 'lahiru_w', name: 'Lahiru Weerasinghe', role: 'IPG Bank Officer', userType: 'IPGBANK', branch: '7135', disabled: 1, daysAgo: 120 },
  { username: 'sanduni_k', name: 'Sanduni Karunaratne', role: 'IPG Bank Officer', userType: 'IPGBANK', branch: '7278', daysAgo: 100 },
  { username: 'mahesh_s', name: 'Mahesh Senanayake', role: 'Maker', branch: 'HO', daysAgo: 75 },
  { username: 'priyanka_e', name: 'Priyanka Ekanayake', role: 'Checker', branch: 'HO', daysAgo: 50 },
  { username: 'fathima_rizna', name: 'Fathima Rizna', role: 'Maker', branch: 'KANDY', disabled: 1, daysAgo: 30 },
  { username: 'tharindu_r', name: 'Tharindu Rajapaksa', role: 'Checker', branch: 'JAFFNA', daysAgo: 7 },
  { username: 'ruvini_a', name: 'Ruvini Abeysekara', role: 'IPG Bank Checker', userType: 'IPGBANK', branch: '7010', daysAgo: 5 },
];

const DAY = 24 * 60 * 60 * 1000;

/** A 10-digit Sri Lankan mobile number, the same for the same index. */
function contactFor(index: number): string {
  const prefixes = ['077', '071', '076', '078', '070', '075', '072'];
  return prefixes[index % prefixes.length] + String(1234567 + index * 7919).slice(-7);
}

export interface SeedOptions {
  scryptN?: number;
  now?: Date;
  /**
   * Default true: a few change requests made by `maker` wait for a decision (./pendingRequests.ts), so
   * a first start has work in the Approvals inbox. Tests that count requests from none seed without.
   */
  pendingRequests?: boolean;
}

export async function hasConsoleUsers(db: Db): Promise<boolean> {
  return (await db.one('SELECT 1 FROM console_users LIMIT 1')) !== undefined;
}

/** Seeds the demo data into an empty database, in one transaction. Returns false (and changes nothing) when there are users. */
export async function seedDemo(db: Db, options: SeedOptions = {}): Promise<boolean> {
  if (await hasConsoleUsers(db)) return false;
  const now = options.now ?? new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  // one hash (and salt) for every demo account: they share a published password, so a salt apiece
  // hides nothing, and the 22 hashes at the default cost were most of a first start's seeding (about
  // 8 of its 14 s on a 2-core machine: every test run's templates paid it)
  const demoHash = await hashPassword(DEMO_PASSWORD, options.scryptN ?? DEFAULT_SCRYPT_N);

  return db.tx(async (tx) => {
    if (await hasConsoleUsers(tx)) return false;
    await insertReferenceData(tx, ago(420));
    // the month partitions of the demo's transactions and activity log (migration 140)
    await ensureMonthPartitions(tx, seedRangeStart(now), new Date(now.getTime() + 31 * DAY));

    const roleIds = new Map<string, number>();
    for (const role of demoRoles) {
      const row = await tx.one<{ id: number }>(
        `INSERT INTO roles (role_name, user_type, user_level, permissions, created_at, updated_at)
         VALUES ($1, $2, (SELECT id FROM user_levels WHERE level = $3), $4, $5, $5)
         ON CONFLICT (lower(role_name)) DO UPDATE SET role_name = EXCLUDED.role_name RETURNING id`,
        [role.name, role.userType, role.level, role.permissions, ago(410)],
      );
      roleIds.set(role.name, row!.id);
    }

    // demo_account = 1: they share a published password, so a production server refuses to start
    // while one is there (src/server/demoAccounts.ts; `npm run remove-demo-accounts` deletes them)
    for (const [i, u] of demoUsers.entries()) {
      const created = ago(u.daysAgo);
      const updated = new Date(created.getTime() + ((i * 37) % Math.max(1, u.daysAgo)) * DAY);
      await tx.query(
        `INSERT INTO console_users
           (name, email, contact, username, user_type, branch_code, role_id, disabled, password_hash, created_at, updated_at, demo_account)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1)`,
        [u.name, `${u.username.replace(/_/g, '.')}@remit.lk`, contactFor(i), u.username, u.userType ?? 'BACKEND', u.branch ?? 'HO', roleIds.get(u.role), u.disabled ?? 0, demoHash, created, updated],
      );
    }
    // in the same transaction: a first start that stops half-way leaves an empty database, which the
    // next start seeds again, rather than users without the rest of the demo data
    for (const seedArea of areaSeeders) await seedArea(tx, { now, scryptN: options.scryptN });
    if (options.pendingRequests !== false) await seedPendingRequests(tx, { now });
    return true;
  });
}

export interface AreaSeedContext {
  now: Date;
  scryptN?: number;
}

/**
 * The demo data of each area, run in this order after the console users (each area owns its seeder
 * file under src/server/seed/; countries first, app users before the transactions that reference them).
 */
export const areaSeeders: readonly ((db: Db, ctx: AreaSeedContext) => Promise<void>)[] = [(db) => insertCountries(db), seedMasterData, seedDemoTransactions, seedBeneficiaries, seedKycReports];

/** Reference data; rows that already exist (by code) are left as they are. */
export async function insertReferenceData(db: Db, at: Date): Promise<void> {
  for (const l of userLevels) {
    await db.query('INSERT INTO user_levels (level, title) VALUES ($1, $2) ON CONFLICT (level) DO NOTHING', [l.level, l.title]);
  }
  for (const [table, rows] of [
    ['branches', branches],
    ['exchange_houses', exchangeHouses],
    ['merchants', merchants],
  ] as const) {
    for (const r of rows) {
      await db.query(`INSERT INTO ${table} (code, name, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (code) DO NOTHING`, [r.code, r.name, at]);
    }
  }
  for (const p of ipgProviders) {
    await db.query(
      `INSERT INTO ipg_providers (provider_bank_code, provider_bank_name, created_at, updated_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (provider_bank_code) DO NOTHING`,
      [p.code, p.name, at],
    );
  }
  for (const b of banks) {
    await db.query('INSERT INTO banks (bank_code, bank_name, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (bank_code) DO NOTHING', [b.code, b.name, at]);
  }
}
