/**
 * The demo data's pending change requests: a fresh start (the default seed) has a few requests made by
 * `maker` in several areas, so the Approvals inbox has work at once; each one shows in the checker's
 * inbox, its record is locked, and each can be approved and then applies as a request made through
 * the API would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalInbox, decideChangeRequest } from '../../src/api/approvals';
import { seedPendingRequests } from '../../src/server/seed/pendingRequests';
import { seedDemo } from '../../src/server/seed/demo';
import { freshMigratedDatabase } from './templateDb';
import { expectOk, startServer, TEST_SCRYPT_N, type TestServer } from './harness';

let server: TestServer;
let checker: string;

beforeAll(async () => {
  // the test servers' data is seeded without them (tests count requests from none): add them as the default seed does
  server = await startServer();
  await server.db.tx((tx) => seedPendingRequests(tx, { now: new Date() }));
  checker = await server.login('checker');
}, 600_000);

afterAll(async () => {
  await server?.close();
});

describe('the demo pending change requests', () => {
  it('the default seed makes them; a seed told not to makes none', async () => {
    for (const pendingRequests of [undefined, false]) {
      const { db, drop } = await freshMigratedDatabase();
      try {
        await seedDemo(db, { scryptN: TEST_SCRYPT_N, ...(pendingRequests === false ? { pendingRequests } : {}) });
        const n = await db.one<{ n: number }>("SELECT count(*)::int AS n FROM change_requests WHERE status = 'PENDING' AND requested_by = 'maker'");
        expect(n?.n, `pendingRequests: ${String(pendingRequests)}`).toBe(pendingRequests === false ? 0 : 4);
      } finally {
        await drop();
      }
    }
  });

  it("wait in the checker's inbox: four areas, all by maker, their records locked", async () => {
    const inbox = await server.call(approvalInbox, {}, checker);
    expectOk(inbox);
    expect(inbox.data.total).toBe(4);
    expect(inbox.data.requests.map((r) => r.type).sort()).toEqual(['App Version', 'Bank', 'Role', 'User'].sort());
    expect(inbox.data.makers.map((m) => m.username)).toEqual(['maker']);
    const locked = await server.db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM change_requests c
        WHERE c.status = 'PENDING' AND c.record_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM banks b WHERE c.entity_type = 'Bank' AND b.id = c.record_id AND b.locked = 1)
          AND NOT EXISTS (SELECT 1 FROM console_users u WHERE c.entity_type = 'User' AND u.id = c.record_id AND u.locked = 1)`,
    );
    expect(locked?.n).toBe(0);
  });

  it('each can be approved, and applies', async () => {
    const inbox = await server.call(approvalInbox, {}, checker);
    expectOk(inbox);
    for (const r of inbox.data.requests) {
      const reply = await server.call(decideChangeRequest, { changeRequestID: r.changeRequestId, actionTaken: 'approve' }, checker);
      expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
    }
    expect(await server.db.one("SELECT 1 FROM app_versions WHERE app_version = '2.5.0+52'")).toBeDefined();
    expect(await server.db.one("SELECT 1 FROM roles WHERE role_name = 'Branch Reports Viewer'")).toBeDefined();
    expect(await server.db.one("SELECT 1 FROM console_users WHERE username = 'mahesh_s' AND contact = '0779876543' AND locked = 0")).toBeDefined();
    expect(await server.db.one("SELECT 1 FROM banks WHERE bank_name LIKE '% & Co.' AND locked = 0")).toBeDefined();
    const after = await server.call(approvalInbox, {}, checker);
    expectOk(after);
    expect(after.data.total).toBe(0);
  });
});
