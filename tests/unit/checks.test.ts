import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import { usersScreen } from '../../screens/users';
import { assertDefinitions, checkCodes, checkDefinitions, checkDescriptions, routeKey } from '../../src/definitions/checks';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { rowModals } from '../../src/custom'; // the row-modal map src/main.tsx passes to the runtime
import { runStartupChecks } from '../../src/server/startupChecks';
import { checkFixtures, validOptions, validScreens } from '../fixtures/checks';

describe('the registry', () => {
  it('passes every start-up check, modals included', () => {
    expect(checkDefinitions(screens, { hasModal: (name) => Object.hasOwn(rowModals, name), menuRoutes: ['/resetPassword'] })).toEqual([]);
  });

  it('passes the server start-up checks, also against the export columns of the users list', () => {
    expect(() => runStartupChecks()).not.toThrow();
    expect(() => runStartupChecks({ exportFields: { users: exportFieldsOf(usersScreen) } })).not.toThrow();
  });

  it('the server refuses to start with a stable code when its export columns drift', () => {
    const drifted = [...exportFieldsOf(usersScreen), { header: 'Password', dataKey: 'password', type: 'STRING' as const }];
    expect(() => runStartupChecks({ exportFields: { users: drifted } })).toThrow(/screens\.E005 \[users\] Export column 'password'/);
  });
});

describe('fixtures, one per code', () => {
  it('the base fixture passes', () => {
    expect(checkDefinitions(validScreens, validOptions)).toEqual([]);
  });

  it('every code has a description, a fixture and a line in CONTRIBUTING.md', () => {
    const codes = Object.values(checkCodes).sort();
    expect(Object.keys(checkDescriptions).sort()).toEqual(codes);
    expect(checkFixtures.map((f) => f.code).sort()).toEqual(codes);
    const guide = readFileSync('CONTRIBUTING.md', 'utf8');
    for (const code of codes) expect(guide, code).toContain(`| \`${code}\` |`);
  });

  for (const f of checkFixtures) {
    it(`${f.code}: ${f.what}`, () => {
      const problems = checkDefinitions(f.screens, f.options);
      expect(problems.length).toBeGreaterThan(0);
      expect([...new Set(problems.map((p) => p.code))]).toEqual([f.code]);
      for (const p of problems) {
        expect(p.screen).not.toBe('');
        expect(p.message).toMatch(/^[A-Z].*\.$/);
      }
      expect(() => assertDefinitions(f.screens, f.options)).toThrow(new RegExp(`${f.code.replace('.', '\\.')} \\[`));
    });
  }

  it('names what is wrong in the sentence', () => {
    const messages = (code: string) => {
      const f = checkFixtures.find((x) => x.code === code)!;
      return checkDefinitions(f.screens, f.options).map((p) => p.message);
    };
    expect(messages('screens.E001')).toEqual(["Permission 'role-delete' is not in the permission catalogue (src/domain/permissions.ts)."]);
    expect(messages('screens.E004')).toEqual(["The row action 'archive' calls 'role/archive', which has no contract in allCalls (src/api)."]);
    expect(messages('screens.E006')).toEqual(["Menu entry 'Copy role' (Administrator) leads to '/fixture/roles/copy', which no screen serves.", "Menu entry '/fixture/reports' has no screen."]);
  });
});

describe('details', () => {
  it('compares routes case-insensitively and ignores parameter names', () => {
    expect(routeKey('/Users/Edit/$id/')).toBe(routeKey('/users/edit/$userId'));
    expect(routeKey('/users')).not.toBe(routeKey('/users/$id'));
  });

  it('skips the modal check without a registry or with skipModals', () => {
    const broken = checkFixtures.find((f) => f.code === 'screens.E008')!;
    expect(checkDefinitions(broken.screens)).toEqual([]);
    expect(checkDefinitions(broken.screens, { ...broken.options, skipModals: true })).toEqual([]);
  });

  it('checks.ts imports neither Node nor React nor the views (the browser and the server both run it)', () => {
    const source = readFileSync('src/definitions/checks.ts', 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((i) => /^node:|^react|\/views\//.test(i))).toEqual([]);
  });
});
