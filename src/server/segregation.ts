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
import { accountText } from './changeRequests';

type Finding = Omit<SodFinding, 'id'>;

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

export async function segregationReport(
  db: Db,
  now: Date,
  threshold: number,
  days: number,
): Promise<{ findings: SodFinding[]; selfApprovedCount: number; renamedWhilePendingCount: number; mutualPairCount: number }> {
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
  // decided by their own maker: by account id (a rename changes nothing); a request older than the ids
  // whose maker or decider is no known account is compared by the names it was written with
  const self = await db.query<{ id: number; entity_type: string; action: string; operation: string | null; status: string; requested_by: string; requested_by_id: number | null; decided_at: Date }>(
    `SELECT id, entity_type, action, operation, status, requested_by, requested_by_id, decided_at FROM change_requests
      WHERE status IN ('APPROVED', 'REJECTED')
        AND (requested_by_id = decided_by_id OR ((requested_by_id IS NULL OR decided_by_id IS NULL) AND lower(requested_by) = lower(decided_by)))
      ORDER BY id`,
  );
  for (const r of self) {
    const verb = r.status === 'APPROVED' ? 'approved' : 'rejected';
    findings.push({
      finding: r.status === 'APPROVED' ? 'Approved own request' : 'Rejected own request',
      subject: accountText(r.requested_by, r.requested_by_id),
      area: r.entity_type,
      detail: `change request #${r.id} (${r.operation ?? r.action}) was ${verb} by its maker's own account on ${r.decided_at.toISOString()}`,
    });
  }
  // a decision where the maker's or the decider's account was renamed (an approved user edit of the
  // username) between the request and the decision: the names on the request read as two people
  const renamed = await db.query<{
    id: number;
    entity_type: string;
    status: string;
    requested_by: string;
    requested_by_id: number | null;
    decided_by: string;
    decided_by_id: number | null;
    whose: string;
    old_name: string;
    new_name: string;
    rename_id: number;
  }>(
    `SELECT c.id, c.entity_type, c.status, c.requested_by, c.requested_by_id, c.decided_by, c.decided_by_id,
            CASE WHEN r.record_id = c.requested_by_id THEN 'maker' ELSE 'decider' END AS whose,
            r.original_record->'username'->>'value' AS old_name, r.new_record->'username'->>'value' AS new_name, r.id AS rename_id
       FROM change_requests c
       JOIN change_requests r ON r.entity_type = 'User' AND r.action = 'EDIT' AND r.status = 'APPROVED' AND r.id <> c.id
            AND r.record_id IN (c.requested_by_id, c.decided_by_id)
            AND r.decided_at > c.requested_at AND r.decided_at <= c.decided_at
            AND lower(r.original_record->'username'->>'value') IS DISTINCT FROM lower(r.new_record->'username'->>'value')
      WHERE c.status IN ('APPROVED', 'REJECTED') AND c.decided_at >= $1
      ORDER BY c.id, r.id`,
    [new Date(now.getTime() - days * 86_400_000)],
  );
  for (const r of renamed) {
    findings.push({
      finding: 'Renamed while pending',
      subject: r.whose === 'maker' ? accountText(r.requested_by, r.requested_by_id) : accountText(r.decided_by, r.decided_by_id),
      area: r.entity_type,
      detail: `change request #${r.id} by ${accountText(r.requested_by, r.requested_by_id)} was ${r.status.toLowerCase()} by ${accountText(r.decided_by, r.decided_by_id)}; while it was pending the ${r.whose}'s account was renamed from "${r.old_name}" to "${r.new_name}" (change request #${r.rename_id})`,
    });
  }
  // pairs of accounts (by id) who approve each other's requests, named by their accounts' names now (an account gone since: a name it decided under)
  const pairs = await db.query<{ user_a: string; user_b: string; a_by_b: number; b_by_a: number; a_total: number; b_total: number; share: number }>(
    `WITH a AS (
       SELECT requested_by_id AS m, decided_by_id AS c, requested_by AS m_name, decided_by AS c_name FROM change_requests
        WHERE status = 'APPROVED' AND decided_at >= $1 AND requested_by_id IS NOT NULL AND decided_by_id IS NOT NULL AND requested_by_id <> decided_by_id),
     named AS (SELECT id, max(name) AS name FROM (SELECT m AS id, m_name AS name FROM a UNION ALL SELECT c, c_name FROM a) n GROUP BY id),
     made AS (SELECT m, count(*)::int AS n FROM a GROUP BY m),
     pair AS (SELECT m, c, count(*)::int AS n FROM a GROUP BY m, c)
     SELECT coalesce(ua.username, na.name) || ' (account ' || p.m || ')' AS user_a, coalesce(ub.username, nb.name) || ' (account ' || p.c || ')' AS user_b,
            p.n AS a_by_b, q.n AS b_by_a, ma.n AS a_total, mb.n AS b_total,
            (p.n + q.n)::float8 / (ma.n + mb.n) AS share
       FROM pair p JOIN pair q ON q.m = p.c AND q.c = p.m
       JOIN made ma ON ma.m = p.m JOIN made mb ON mb.m = p.c
       JOIN named na ON na.id = p.m JOIN named nb ON nb.id = p.c
       LEFT JOIN console_users ua ON ua.id = p.m LEFT JOIN console_users ub ON ub.id = p.c
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
  return { findings: findings.map((f, i) => ({ id: i + 1, ...f })), selfApprovedCount: self.length, renamedWhilePendingCount: renamed.length, mutualPairCount: pairs.length };
}
