/**
 * The demo beneficiaries are derived from the seeded remittances, so the audit dashboard's beneficiary
 * figures are not zero on demo data and agree with a count made here from the raw remittance rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

describe('demo beneficiaries', () => {
  it('one per (app user, bank, account) a remittance went to, counted by the audit dashboard', async () => {
    const rows = await server.db.query<{ app_user_id: number | null; bank_code: string; account_number: string; initiated_time: Date; status: string }>(
      'SELECT app_user_id, bank_code, account_number, initiated_time, status FROM ceft_transactions',
    );
    const distinct = new Set(rows.filter((r) => r.app_user_id !== null && r.account_number !== '').map((r) => `${r.app_user_id}|${r.bank_code}|${r.account_number}`));
    expect(distinct.size).toBeGreaterThan(0);

    const token = await server.login('auditor');
    const counts = await server.call('dashboard/getAppUsersAndBeneficiariesCount', {}, token);
    expect(counts.statusCode).toBe(200);
    expect(counts.data.beneficiariesValues.total).toBe(distinct.size);

    const active = await server.call('dashboard/getActiveUsers', {}, token);
    expect(active.statusCode).toBe(200);
    expect(active.data.activeBeneficiariesCount).toBeGreaterThan(0);
    expect(active.data.activeBeneficiariesCount).toBeLessThanOrEqual(distinct.size);
  });
});
