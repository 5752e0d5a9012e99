/**
 * The segregation-of-duties report (report/segregation-of-duties, permission sod-report-view): the
 * active roles and users that can both make and approve in one area (src/domain/segregation.ts), the
 * change requests approved by their own maker (the engine refuses that, so there must be none: one
 * here means the rule was bypassed), and the pairs of users who approve each other's requests: for
 * users A and B who each approved the other at least once in the window, the share is
 * (A's requests approved by B + B's requests approved by A) / (A's approved requests + B's approved
 * requests); a pair above the threshold is listed.
 */
import type { SodFinding } from '../api/controls';
import { dutyConflicts } from '../domain/segregation';
import { permissionList } from './auth/sessionUser';
import type { Db } from './db/db';

type Finding = Omit<SodFinding, 'id'>;

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

export async function segregationReport(db: Db, now: Date, threshold: number, days: number): Promise<{ findings: SodFinding[]; selfApprovedCount: number; mutualPairCount: number }> {
  const findings: Finding[] = [];
  const roles = await db.query<{ role_name: string; permissions: unknown }>('SELECT role_name, permissions FROM roles WHERE disabled = 0 ORDER BY id');
  for (const role of roles) {
    for (const c of dutyConflicts(permissionList(role.permissions))) {
      findings.push({ finding: 'Role can make and approve', subject: role.role_name, area: c.area, detail: `makes with ${c.make.join(', ')}; approves with ${c.approve.join(', ')}` });
    }
  }
  const users = await db.query<{ username: string; role_name: string; permissions: unknown }>(
    `SELECT u.username, r.role_name, r.permissions FROM console_users u JOIN roles r ON r.id = u.role_id
      WHERE u.disabled = 0 AND r.disabled = 0 ORDER BY u.id`,
  );
  for (const user of users) {
    for (const c of dutyConflicts(permissionList(user.permissions))) {
      findings.push({
        finding: 'User can make and approve',
        subject: user.username,
        area: c.area,
        detail: `role ${user.role_name}: makes with ${c.make.join(', ')}; approves with ${c.approve.join(', ')}`,
      });
    }
  }
  const self = await db.query<{ id: number; entity_type: string; action: string; operation: string | null; requested_by: string; decided_at: Date }>(
    `SELECT id, entity_type, action, operation, requested_by, decided_at FROM change_requests
      WHERE status = 'APPROVED' AND lower(requested_by) = lower(decided_by) ORDER BY id`,
  );
  for (const r of self) {
    findings.push({
      finding: 'Approved own request',
      subject: r.requested_by,
      area: r.entity_type,
      detail: `change request #${r.id} (${r.operation ?? r.action}) was approved by its maker on ${r.decided_at.toISOString()}`,
    });
  }
  const pairs = await db.query<{ user_a: string; user_b: string; a_by_b: number; b_by_a: number; a_total: number; b_total: number; share: number }>(
    `WITH a AS (
       SELECT lower(requested_by) AS m, lower(decided_by) AS c FROM change_requests
        WHERE status = 'APPROVED' AND decided_at >= $1 AND lower(requested_by) <> lower(decided_by)),
     made AS (SELECT m, count(*)::int AS n FROM a GROUP BY m),
     pair AS (SELECT m, c, count(*)::int AS n FROM a GROUP BY m, c)
     SELECT p.m AS user_a, p.c AS user_b, p.n AS a_by_b, q.n AS b_by_a, ma.n AS a_total, mb.n AS b_total,
            (p.n + q.n)::float8 / (ma.n + mb.n) AS share
       FROM pair p JOIN pair q ON q.m = p.c AND q.c = p.m
       JOIN made ma ON ma.m = p.m JOIN made mb ON mb.m = p.c
      WHERE p.m < p.c AND (p.n + q.n)::float8 / (ma.n + mb.n) > $2
      ORDER BY share DESC, p.m, p.c`,
    [new Date(now.getTime() - days * 86_400_000), threshold],
  );
  for (const p of pairs) {
    findings.push({
      finding: 'Mutual approvals',
      subject: `${p.user_a} and ${p.user_b}`,
      area: 'All areas',
      detail: `${p.user_b} approved ${p.a_by_b} of ${p.a_total} approved requests of ${p.user_a}; ${p.user_a} approved ${p.b_by_a} of ${p.b_total} of ${p.user_b}: ${pct(p.share)} of their approved requests in the last ${days} days (threshold ${pct(threshold)})`,
    });
  }
  return { findings: findings.map((f, i) => ({ id: i + 1, ...f })), selfApprovedCount: self.length, mutualPairCount: pairs.length };
}
