/**
 * `npm run review -- --base <revision>` on real commits: a temporary clone of this repository gets a
 * commit that adds a column to the Banks list and loosens bank/list's access, and then one that only
 * narrows it back and adds another column. The review of each against its parent must name what
 * changed, the widening first, and `--fail-on-widening` must fail on the first and pass on the second.
 * The first also adds a migration and the second edits it: the contract section names the access
 * change, the migrations section the new file, then the edited one, loudly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve('.');
let dir = '';
let clone = '';

const git = (...args: string[]) => execFileSync('git', args, { cwd: clone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function edit(file: string, from: string, to: string): void {
  const path = join(clone, file);
  const text = readFileSync(path, 'utf8');
  expect(text.includes(from), `${file} contains ${from}`).toBe(true);
  writeFileSync(path, text.replace(from, to));
}

function commit(message: string): void {
  git('add', '-A');
  // (--allow-empty: on a clean checkout, as in CI, "the working tree as it is" changes nothing)
  git('-c', 'user.name=Review Test', '-c', 'user.email=review@example.test', 'commit', '-q', '--allow-empty', '-m', message);
}

function review(...args: string[]): { out: string; err: string; status: number | null } {
  const r = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(clone, 'scripts', 'review.ts'), '--base', 'HEAD~1', ...args], { cwd: clone, encoding: 'utf8', timeout: 170_000 });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

/** The text under a `## heading (n)` of the review, up to the next heading. */
function section(out: string, heading: string): string {
  const start = out.indexOf(`## ${heading} (`);
  if (start < 0) return '';
  const end = out.indexOf('\n## ', start + 1);
  return out.slice(start, end < 0 ? undefined : end);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'review-test-'));
  clone = join(dir, 'repo');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  // `node_modules/` in .gitignore matches a folder, not this link
  writeFileSync(join(clone, '.git', 'info', 'exclude'), 'node_modules\n');
  // the clone as this working tree is, committed or not (the review script under test included)
  const list = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  const changed = [...list('diff', '--name-only', 'HEAD'), ...list('ls-files', '--others', '--exclude-standard')];
  for (const f of changed) {
    if (!existsSync(join(root, f))) rmSync(join(clone, f), { force: true });
    else {
      mkdirSync(dirname(join(clone, f)), { recursive: true });
      copyFileSync(join(root, f), join(clone, f));
    }
  }
  commit('the working tree as it is');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run review', () => {
  it('lists a loosened call rule as a widening ahead of an added column, and --fail-on-widening fails', () => {
    edit('src/api/banks.ts', "access: anyOf('bank-view'),", "access: anyOf('bank-view', 'kyc-view'),");
    edit('screens/banks.ts', 'columns: [', "columns: [\n    { key: 'locked', header: 'Pending Change' },");
    writeFileSync(join(clone, 'src/server/db/migrations/sql/0990-bank-notes.sql'), '\n-- Bank notes kept beside each bank.\nCREATE TABLE bank_notes (id serial PRIMARY KEY);\n');
    commit('Banks: a Pending Change column; bank/list also for kyc-view; a bank notes table');

    const r = review('--fail-on-widening');
    expect(r.status, r.err).toBe(2);
    expect(r.err).toMatch(/1 permission widening/);
    const widenings = section(r.out, 'Permission widenings');
    expect(widenings).toContain('`POST /api/bank/list`');
    expect(widenings).toContain('`any of bank-view (or super-permission)` → `any of bank-view, kyc-view (or super-permission)`');
    expect(widenings).toContain('holders of `kyc-view` alone');
    expect(widenings.split('\n- ')).toHaveLength(2);
    const screens = section(r.out, 'Columns, filters, fields and actions');
    expect(screens).toContain('Screen `banks` column `locked` added: header `Pending Change`');
    expect(section(r.out, 'User-visible messages')).toContain('screen banks › columns[locked] › header: new `Pending Change`');
    expect(r.out.indexOf('## Permission widenings')).toBeLessThan(r.out.indexOf('column `locked` added'));
    expect(r.out).toMatch(/changed: generated\/screens\/banks\.md/);
    expect(r.out).toMatch(/changed: generated\/permission-matrix\.md/);
    expect(section(r.out, 'Contract: generated/openapi.json')).toContain('~ POST /api/bank/list\n  access: permission bank-view → permission bank-view or kyc-view\n');
    expect(section(r.out, 'Migrations')).toContain('+ 0990-bank-notes.sql: Bank notes kept beside each bank.');
    expect(r.out).not.toContain('FROZEN MIGRATION');
  }, 180_000);

  it('passes --fail-on-widening on a commit with only a narrowing and a column, and lists both', () => {
    edit('src/api/banks.ts', "access: anyOf('bank-view', 'kyc-view'),", "access: anyOf('bank-view'),");
    edit('screens/banks.ts', 'columns: [', "columns: [\n    { key: 'disabled', header: 'Disabled', kind: 'integer' },");
    edit('src/server/db/migrations/sql/0990-bank-notes.sql', 'id serial PRIMARY KEY', 'id serial PRIMARY KEY, note text');
    commit('Banks: a Disabled column; bank/list for bank-view only again; the bank notes table edited');

    const r = review('--fail-on-widening');
    expect(r.status, r.err).toBe(0);
    expect(r.out).not.toContain('## Permission widenings');
    expect(r.out).toContain('**0 permission widening(s)**');
    const narrowings = section(r.out, 'Permission narrowings');
    expect(narrowings).toContain('`POST /api/bank/list`');
    expect(narrowings).toContain('no longer allowed: holders of `kyc-view` alone');
    expect(section(r.out, 'Columns, filters, fields and actions')).toContain('Screen `banks` column `disabled` added: header `Disabled`, kind `integer`');
    expect(section(r.out, 'Contract: generated/openapi.json')).toContain('  access: permission bank-view or kyc-view → permission bank-view\n');
    const frozen = '!! 0990-bank-notes.sql: FROZEN MIGRATION EDITED.';
    expect(r.out.indexOf(frozen)).toBeLessThan(r.out.indexOf('## Permission narrowings'));
    expect(section(r.out, 'Migrations')).toContain(frozen);
    expect(r.err).toContain('0990-bank-notes.sql: FROZEN MIGRATION EDITED.');
  }, 180_000);

  it('refuses a revision that does not exist', () => {
    const r = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(clone, 'scripts', 'review.ts'), '--base', 'no-such-revision'], { cwd: clone, encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('no-such-revision is not a revision of this repository');
  });
});
