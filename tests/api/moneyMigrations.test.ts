/**
 * Migrations 75..77 on a database written before them (a deployed one): they apply even when rows
 * already broke "money moves at most once" (the old bug), leave those rows as they were, fill every
 * transaction's provider_bank_code by the rule settlement guessed with until now, and grant
 * settlement-report-generate to the back-office roles that could generate until now, not to IPG bank
 * roles. PGlite, or PostgreSQL in a fresh schema when TEST_DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { migrations } from '../../src/server/db/migrations';

let db: Db;
const schema = process.env.TEST_DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : undefined;

const ceft = (trace: string, currency: string, states: { ceft?: string; void?: string; refund?: string } = {}) =>
  db.query(
    `INSERT INTO ceft_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, tran_type, bank_code,
                                    card_payment_status, ceft_payment_status, ipg_void_status, ipg_refund_status)
     VALUES ($1, '851157480V', 'AE', $2, 10, 10, 3000, now(), 'SUCCESS', 'CEFT', '7010', 'SUCCESS', $3, $4, $5)`,
    [trace, currency, states.ceft ?? null, states.void ?? null, states.refund ?? null],
  );

beforeAll(async () => {
  db = await openDb(process.env.TEST_DATABASE_URL ? { databaseUrl: process.env.TEST_DATABASE_URL, schema } : {});
  // the database as it was before the money-scope migrations
  await migrate(
    db,
    migrations.filter((m) => m.id < 75),
  );
  await db.exec(`
    INSERT INTO countries (code, name) VALUES ('AE', 'United Arab Emirates');
    INSERT INTO ipg_providers (provider_bank_code, provider_bank_name, disabled) VALUES ('7010', 'A', 0), ('7056', 'B', 0), ('7135', 'C (disabled)', 1);
    INSERT INTO ipg_provider_currencies (provider_id, currency_code, transaction_rate, settlement_rate, disabled)
      SELECT p.id, c.code, 300, c.rate, c.disabled FROM ipg_providers p
        JOIN (VALUES ('7010', 'USD', 300, 0), ('7056', 'USD', 301, 0), ('7010', 'EUR', 0, 0), ('7056', 'EUR', 320, 0), ('7010', 'GBP', 380, 1),
                     ('7135', 'GBP', 381, 0), ('7056', 'GBP', 382, 0)) AS c(provider, code, rate, disabled) ON c.provider = p.provider_bank_code;
    INSERT INTO user_levels (level, title) VALUES (1, 'Officer');
    INSERT INTO roles (role_name, user_type, user_level, permissions) VALUES
      ('Ops', 'BACKEND', (SELECT id FROM user_levels), '["settlement-report-view", "user-view"]'),
      ('Viewers', 'BACKEND', (SELECT id FROM user_levels), '["user-view"]'),
      ('Bank', 'IPGBANK', (SELECT id FROM user_levels), '["settlement-report-view"]');`);
  await ceft('USD1', 'USD');
  await ceft('EUR1', 'EUR');
  await ceft('GBP1', 'GBP');
  await ceft('LKR1', 'LKR');
  await ceft('MVR1', 'MVR');
  // the old bug: the beneficiary paid and the card payment refunded
  await ceft('BOTH', 'USD', { ceft: 'SUCCESS', refund: 'SUCCESS' });
  await db.query(
    `INSERT INTO transaction_actions (kind, transaction_id, action, seq_before, seq_after, outcome, status_code, message, username, status_before, status_after)
     SELECT 'ceft', id, a.action, a.seq, a.seq + 1, 'SUCCESS', 200, 'ok', 'maker', 'FAILED', 'REFUNDED'
       FROM ceft_transactions, (VALUES ('MANUAL_FUND_TRANSFER', 0), ('REFUND', 1)) AS a(action, seq) WHERE trace = 'BOTH'`,
  );
  await db.query(
    `INSERT INTO bill_transactions (trace, uid, country, currency_code, amount, amount_usd, amount_lkr, initiated_time, status, biller_code)
     VALUES ('BILL1', '851157480V', 'AE', 'EUR', 10, 10, 3000, now(), 'SUCCESS', 'B1')`,
  );
  expect(await migrate(db)).toEqual(expect.arrayContaining([75, 76, 77]));
}, 120_000);
afterAll(async () => {
  if (schema) await db?.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await db?.close();
});

describe('on a database written before the money-scope migrations', () => {
  it('fills provider_bank_code by the old rule: the first active provider with the currency enabled and a rate; LKR the first active provider; else NULL', async () => {
    const rows = await db.query<{ trace: string; provider_bank_code: string | null }>('SELECT trace, provider_bank_code FROM ceft_transactions ORDER BY trace');
    expect(Object.fromEntries(rows.map((r) => [r.trace, r.provider_bank_code]))).toEqual({
      BOTH: '7010',
      EUR1: '7056', // 7010 lists EUR at rate 0
      GBP1: '7056', // 7010's GBP is disabled, 7135 is a disabled provider
      LKR1: '7010',
      MVR1: null, // nobody settles MVR
      USD1: '7010',
    });
    expect(await db.query('SELECT provider_bank_code FROM bill_transactions')).toEqual([{ provider_bank_code: '7056' }]);
  });

  it('keeps the rows that broke the rule as they were, lets their other columns change, refuses them another success', async () => {
    const both = await db.one<{ id: number; ceft_payment_status: string; ipg_refund_status: string }>("SELECT id, ceft_payment_status, ipg_refund_status FROM ceft_transactions WHERE trace = 'BOTH'");
    expect(both).toMatchObject({ ceft_payment_status: 'SUCCESS', ipg_refund_status: 'SUCCESS' });
    await db.query("UPDATE ceft_transactions SET ceft_payment_description = 'reviewed' WHERE id = $1", [both!.id]);
    await expect(db.query("UPDATE ceft_transactions SET ipg_void_status = 'SUCCESS' WHERE id = $1", [both!.id])).rejects.toMatchObject({ code: '23514' });
    await expect(
      db.query(
        `INSERT INTO transaction_actions (kind, transaction_id, action, seq_before, seq_after, outcome, status_code, message, username, status_before, status_after)
         VALUES ('ceft', $1, 'VOID', 2, 3, 'SUCCESS', 200, 'ok', 'maker', 'REFUNDED', 'REFUNDED')`,
        [both!.id],
      ),
    ).rejects.toMatchObject({ code: '23514' });
    // how operations find them
    const broken = await db.query<{ trace: string }>(
      `SELECT trace FROM ceft_transactions
        WHERE (ceft_payment_status IS NOT DISTINCT FROM 'SUCCESS')::int + (ipg_void_status IS NOT DISTINCT FROM 'SUCCESS')::int
            + (ipg_refund_status IS NOT DISTINCT FROM 'SUCCESS')::int > 1`,
    );
    expect(broken).toEqual([{ trace: 'BOTH' }]);
  });

  it('grants settlement-report-generate to the back-office roles that view settlement, not to IPG bank roles', async () => {
    const roles = await db.query<{ role_name: string; permissions: string[] }>('SELECT role_name, permissions FROM roles ORDER BY role_name');
    expect(Object.fromEntries(roles.map((r) => [r.role_name, r.permissions]))).toEqual({
      Bank: ['settlement-report-view'],
      Ops: ['settlement-report-view', 'user-view', 'settlement-report-generate'],
      Viewers: ['user-view'],
    });
  });
});
