/**
 * The permission matrix cannot lie: the role table of the committed
 * generated/permission-matrix.md ("Calls by seeded role") is checked cell by cell against the server.
 * For every role the demo seed defines, a seeded user of that role signs in and makes every call of the
 * contract:
 *
 * - with a body no contract accepts (`{ matrix_probe: 1 }`): the server checks access before it reads
 *   the body, so the answer is 403 exactly when the server refuses the role and 400 when it lets it
 *   through, and no handler runs (nothing is changed by the probe);
 * - for a refused cell, also with the call's valid sample body (tests/api/samples.ts): still 403, with
 *   the refusal message of the call's access rule.
 *
 * Cells the server lets through are not sent their sample bodies here: some would sign the user out,
 * change a password or decide someone's change request, and the probe already shows the access check
 * let them past.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED, REFUSED, ROLE_TABLE_HEADING } from '../../codegen/permissionMatrix';
import { allCalls } from '../../src/api/index';
import { refusalOf } from '../../src/domain/access';
import { demoRoles, demoUsers } from '../../src/server/seed/demo';
import { startServer, type TestServer } from './harness';
import { sampleBody } from './samples';

const brief = (data: unknown) => JSON.stringify(data).slice(0, 200);

/** The role table of the committed matrix: call path → role name → cell. */
function roleTable(): Map<string, Map<string, string>> {
  const doc = readFileSync(resolve('generated/permission-matrix.md'), 'utf8');
  const start = doc.indexOf(`${ROLE_TABLE_HEADING}\n`);
  expect(start, 'the matrix has its role table').toBeGreaterThanOrEqual(0);
  const lines = doc
    .slice(start)
    .split('\n')
    .filter((l) => l.startsWith('| '));
  const cellsOf = (line: string) =>
    line
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.trim());
  const [header, , ...rows] = lines;
  const roles = cellsOf(header).slice(1);
  const out = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const [call, ...cells] = cellsOf(row);
    const path = /^`POST \/api\/(.+)`$/.exec(call)?.[1];
    expect(path, row).toBeDefined();
    out.set(path!, new Map(roles.map((r, i) => [r, cells[i]])));
  }
  return out;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the permission matrix, cell by cell, against the server', () => {
  const table = roleTable();

  it('has a row for every call the server serves and a column for every seeded role', () => {
    expect([...table.keys()].sort()).toEqual(allCalls.map((c) => c.path).sort());
    for (const cells of table.values()) {
      expect([...cells.keys()]).toEqual(demoRoles.map((r) => r.name));
      for (const cell of cells.values()) expect([ALLOWED, REFUSED]).toContain(cell);
    }
    // a user holding only auditor permissions may not call the app dashboard
    expect(table.get('dashboard/totalTransactionValues')!.get('Auditor')).toBe(REFUSED);
  });

  for (const role of demoRoles) {
    it(`a seeded ${role.name} gets 403 exactly where the matrix says 403`, async () => {
      const user = demoUsers.find((u) => u.role === role.name && !u.disabled);
      expect(user, `a seeded user of ${role.name}`).toBeDefined();
      // the seeded role holds what the matrix was rendered from
      const held = await server.db.one<{ permissions: string[] }>('SELECT r.permissions FROM console_users u JOIN roles r ON r.id = u.role_id WHERE u.username = $1', [user!.username]);
      expect([...held!.permissions].sort()).toEqual([...role.permissions].sort());
      const token = await server.login(user!.username);

      const mismatches: string[] = [];
      for (const contract of allCalls) {
        const cell = table.get(contract.path)!.get(role.name)!;
        const probe = await server.call(contract, { matrix_probe: 1 }, token);
        const answered = probe.statusCode === 403 ? REFUSED : ALLOWED;
        if (answered !== cell || ![400, 403].includes(probe.statusCode)) mismatches.push(`${contract.path}: matrix ${cell}, server ${probe.statusCode} ${brief(probe.data)}`);
        if (cell === REFUSED) {
          const reply = await server.call(contract, sampleBody(contract.path), token);
          if (reply.statusCode !== 403 || reply.data?.message !== refusalOf(contract.access))
            mismatches.push(`${contract.path} (sample body): matrix ${cell}, server ${reply.statusCode} ${brief(reply.data)}`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
