/**
 * The generated files: committed, and equal to a fresh generation (so a pull request that changes a
 * definition shows its spec diff), read generically from source.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAll, generateScreenSpecs, GENERATED_DIR } from '../../codegen/build';
import { GENERATED_MARK } from '../../codegen/markdown';
import { screens } from '../../screens';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

describe('generated/', () => {
  let fresh = new Map<string, string>();
  beforeAll(async () => {
    fresh = await generateAll();
  });

  it('is up to date: every file equals a fresh generation (run `npm run codegen` when this fails)', () => {
    const stale = [...fresh].filter(([path, content]) => !existsSync(path) || readFileSync(path, 'utf8') !== content).map(([path]) => path);
    const extra = filesUnder(GENERATED_DIR).filter((f) => !fresh.has(f.split('\\').join('/')));
    expect({ stale, extra }, 'generated/ is out of date: run npm run codegen').toEqual({ stale: [], extra: [] });
  });

  it('has one spec per registered screen, a permission matrix, the OpenAPI document and a README', () => {
    for (const s of screens) expect(fresh.has(`generated/screens/${s.id}.md`), s.id).toBe(true);
    for (const f of ['generated/permission-matrix.md', 'generated/openapi.json', 'generated/README.md']) expect(fresh.has(f), f).toBe(true);
  });

  it('marks every Markdown file generated, with no timestamp', () => {
    for (const [path, content] of fresh) {
      if (path.endsWith('.md')) expect(content.split('\n')[0], path).toBe(GENERATED_MARK);
      expect(content, path).not.toMatch(/\b20\d\d-\d\d-\d\d[ T]\d\d:\d\d/);
      expect(content.endsWith('\n') && !content.endsWith('\n\n'), path).toBe(true);
    }
  });

  it('is the same on a second run (stable order)', async () => {
    expect([...(await generateAll())]).toEqual([...fresh]);
  });

  it('the users spec shows guard names with their doc comments and the form rules with exact messages', () => {
    const users = fresh.get('generated/screens/users.md')!;
    expect(users).toContain('| Access | any of `user-view` (or `super-permission`) |');
    expect(users).toContain('| Menu | Administrator › Users (order 10; links to `/users`) |');
    expect(users).toContain('| Contact Number | `contact_number` | text (default) |');
    expect(users).toContain('### Change Password (`changePassword`)');
    expect(users).toContain(
      '- Guard: `canEditUserOnRow` (`src/domain/privilege.ts`) — Edit on a users-list row: the row is open for a change and its role holds no permission the caller lacks (userEditRefusal).',
    );
    expect(users).toContain(
      "- Guard: `canChangePasswordOnRow` (`src/domain/privilege.ts`) — Change Password on a users-list row: the row is open for a change and the caller may reset its password (no more permissions than the caller's, not a super user, not oneself).",
    );
    const create = fresh.get('generated/screens/users.create.md')!;
    expect(create).toContain('| `contact` | `regex(/^\\d{10}$/)` | `Please enter a valid contact number` |');
    expect(create).toContain('| `password` | Password | password | yes | generate: true |');
    expect(fresh.get('generated/screens/users.edit.md')).not.toContain('| `password` | Password |');
  });

  it('the permission matrix names screens, actions and calls per permission', () => {
    const matrix = fresh.get('generated/permission-matrix.md')!;
    // the My requests screen opens for every maker permission (its list is computed, so only the imported definition shows it)
    expect(matrix).toContain(
      '| `user-password-reset` | User | `myRequests` (`/my-requests`) | Row action “Change Password” on `users`, guard `canChangePasswordOnRow` | `POST /api/changeRequest/history`<br>`POST /api/changeRequest/mine`<br>`POST /api/changeRequest/withdraw`<br>`POST /api/user/change-password` |',
    );
    // the cells are the server's decision: the app dashboard refuses a user holding only auditor permissions
    expect(matrix).toContain('| Call | Administrator | Maker | Checker | Auditor | IPG Bank Officer | IPG Bank Checker |');
    expect(matrix).toContain('| `POST /api/dashboard/totalTransactionValues` | yes | yes | yes | 403 | yes | yes |');
    expect(matrix).toContain('| `POST /api/dashboard/getActiveUsers` | yes | 403 | 403 | yes | 403 | 403 |');
    expect(matrix).not.toMatch(/dashboard\/totalTransactionValues` \| `totalTransactionValues` \| any signed-in user/);
    expect(matrix).toContain('| `POST /api/auth/login` | `login` | public (no sign-in) |');
  });

  it('a screen defined but not in the registry gets a spec that says so', async () => {
    const files = await generateAll({ files: ['tests/fixtures/codegen/unregistered.ts'] });
    expect(files.get('generated/screens/help.md')).toContain('**Not in the registry** (`screens/index.ts`)');
    expect(files.get('generated/permission-matrix.md')).toBe(fresh.get('generated/permission-matrix.md'));
  });
});

describe('reading definitions generically', () => {
  let specs = new Map<string, string>();
  beforeAll(async () => {
    specs = await generateScreenSpecs({ files: ['tests/fixtures/codegen/generic.ts'] });
  });

  it('reads screens made by a factory, with the factory arguments applied', () => {
    const report = specs.get('fixture.role-report')!;
    expect(report).toContain('| Route | `/fixture/role-report` |');
    expect(report).toContain("| Level | `user_level` | integer | whole number, right-aligned; '-' when empty | no |");
    expect(report).toContain('- Runs: go to `` (row) => `${route}/${row.id}` ``');
  });

  it('shows properties it does not know as written, on screens and on columns', () => {
    const report = specs.get('fixture.role-report')!;
    expect(report).toContain('| `helpUrl` | `/help/role-report` |');
    expect(report).toContain("| Name | `role_name` | text (default) | as text; '-' when empty | yes | width: `240` |");
    const approvals = specs.get('fixture.approvals')!;
    expect(approvals).toContain('| Kind | approval |');
    expect(approvals).toContain('| `queue` | `roles` |');
  });

  it('shows a call action: the contract followed to its path and access, confirm, comment and messages', () => {
    const report = specs.get('fixture.role-report')!;
    expect(report).toContain('- Runs: `POST /api/fixture/role/hold` (`roleHold`) — any of `role-edit`');
    expect(report).toContain('- Guard: `canHoldRole` (`tests/fixtures/codegen/generic.ts`) — The role may be held: it is active and not locked.');
    expect(report).toContain('- Guard: `({ row }) => row.user_level > 1`');
    expect(report).toContain('- Asks for: Comment, at most 200 characters, required message `Please enter a comment`');
  });

  it('reads refinements of a form schema with their messages', () => {
    expect(specs.get('fixture.hold')).toContain("| `(whole form)` | `refine((v) => v.comment.trim() !== '')` |");
    expect(specs.get('fixture.hold')).toContain('| `Comment cannot be blank` |');
  });
});
