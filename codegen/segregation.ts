/**
 * generated/segregation-of-duties.md: for the roles as defined (the demo seed's roles,
 * src/server/seed/demo.ts), the areas in which each can both make and approve
 * (src/domain/segregation.ts), and the areas themselves. The live report (report/segregation-of-duties)
 * reads the roles and users in the database and the decisions actually taken.
 */
import { demoRoles } from '../src/server/seed/demo';
import { dutyAreas, dutyConflicts } from '../src/domain/segregation';
import { code, document, GENERATED_MARK, table, text } from './markdown';

const list = (ps: readonly string[]) => ps.map(code).join(', ');

export function renderSegregation(): string {
  const rows = demoRoles.flatMap((r) => dutyConflicts(r.permissions).map((c) => [text(r.name), text(c.area), list(c.make), list(c.approve)]));
  const clear = demoRoles.filter((r) => dutyConflicts(r.permissions).length === 0).map((r) => text(r.name));
  return document([
    [
      GENERATED_MARK,
      '# Segregation of duties',
      '',
      `The roles as defined in ${code('src/server/seed/demo.ts')} that can both make and approve in the same area, by the areas of ${code('src/domain/segregation.ts')}. The change-request engine still refuses a maker deciding their own request; this lists where one person's role allows both sides. The live report (screen ${code('/reports/segregation-of-duties')}, call ${code('report/segregation-of-duties')}, permission ${code('sod-report-view')}) reads the roles and users in the database, the requests approved by their own maker (there must be none) and the pairs of users who approve each other.`,
    ],
    ['## Roles that can make and approve in one area', '', ...table(['Role', 'Area', 'Makes with', 'Approves with'], rows)],
    ['## Roles that cannot', '', clear.length ? clear.map((n) => `- ${n}`).join('\n') : '- none'],
    [
      '## Areas',
      '',
      ...table(
        ['Area', 'Make', 'Approve'],
        dutyAreas.map((a) => [text(a.area), list(a.make), list(a.approve)]),
      ),
    ],
  ]);
}
