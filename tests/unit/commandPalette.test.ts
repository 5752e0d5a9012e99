/**
 * The command palette's entries: who gets which (the sidebar's registry and checks, the create
 * screens they may open, Approve next, Find transaction), and how typed text filters and orders them.
 */
import { describe, expect, it } from 'vitest';
import { filterEntries, isFindValue, matchScore, paletteEntries, type PaletteEntry } from '../../src/console/commandPalette';
import { isPaletteShortcut } from '../../src/console/paletteShortcut';
import { canOpen, menuFor } from '../../src/definitions/access';
import { screenAtPath } from '../../src/console/shell';
import { allPermissions, SUPER_PERMISSION, type Permission } from '../../src/domain/permissions';
import { screens } from '../../screens';
import { menuSections } from '../../screens/menu';

const admin = [SUPER_PERMISSION];
// the demo roles (src/server/seed/demo.ts)
const auditor: Permission[] = ['auditor-dashboard-view', 'auditor-report-view', 'auditor-app-user-view'];
const checker = allPermissions.filter((p) => p !== SUPER_PERMISSION && !p.startsWith('auditor-') && /-(view|approve)$/.test(p));
const maker = allPermissions.filter(
  (p) =>
    p !== SUPER_PERMISSION &&
    !p.startsWith('auditor-') &&
    (/-(view|create|edit)$/.test(p) || ['user-password-reset', 'transaction-hold', 'transaction-retry', 'transaction-refund', 'settlement-report-generate'].includes(p)),
);

const labels = (entries: readonly PaletteEntry[]) => entries.map((e) => e.label);
const entriesOf = (permissions: readonly string[]) => paletteEntries(screens, menuSections, permissions);

describe('who gets which entry', () => {
  it('admin gets every create screen, as "New ..." entries, and the actions', () => {
    const got = labels(entriesOf(admin));
    for (const label of ['New user', 'New role', 'New bank', 'New advertisement', 'New app version', 'Approve next', 'Find transaction…']) expect(got).toContain(label);
    expect(entriesOf(admin).find((e) => e.label === 'New user')?.run).toEqual({ kind: 'go', to: '/users/create' });
  });

  it('an auditor gets no create screen and no Approve next, but their own screens and Find transaction', () => {
    const got = labels(entriesOf(auditor));
    expect(got.filter((l) => l.startsWith('New '))).toEqual([]);
    expect(got).not.toContain('Approve next');
    expect(got).not.toContain('Users');
    expect(got).toContain('Find transaction…');
    expect(entriesOf(auditor).find((e) => e.run.kind === 'go' && e.run.to === '/AuditerBillPayments')?.label).toBe('Bill Payments');
  });

  it('the checker may decide but not create; the maker may create but not decide', () => {
    expect(labels(entriesOf(checker)).filter((l) => l.startsWith('New '))).toEqual([]);
    expect(labels(entriesOf(checker))).toContain('Approve next');
    expect(labels(entriesOf(maker))).toContain('New user');
    expect(labels(entriesOf(maker))).not.toContain('Approve next');
  });

  it('a user who may view no transactions gets no Find transaction', () => {
    expect(labels(entriesOf(['user-view', 'user-create']))).toEqual(['Dashboard', 'My requests', 'Users', 'New user']);
  });

  it.each([
    ['admin', admin],
    ['auditor', auditor],
    ['checker', checker],
    ['maker', maker],
  ])("%s: the screens are the sidebar's entries, and every route is one the user may open", (_name, permissions) => {
    const entries = entriesOf(permissions);
    const sidebar = menuFor(screens, menuSections, permissions).flatMap((g) => g.items.map((i) => i.to));
    const goTo = entries.filter((e) => e.hint !== 'Create' && e.run.kind === 'go').map((e) => (e.run.kind === 'go' ? e.run.to : ''));
    expect(goTo).toEqual(sidebar);
    for (const entry of entries) {
      if (entry.run.kind === 'find') continue;
      const screen = screenAtPath(screens, entry.run.to);
      expect(screen, entry.label).toBeDefined();
      expect(canOpen(screen!, permissions), entry.label).toBe(true);
    }
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('the approvals inbox while MONEY_ACTION_APPROVAL_ABOVE_USD is set: a holder of a money action may approve next only then', () => {
    const refunds = ['transaction-refund', 'send-money-report-view'];
    expect(labels(paletteEntries(screens, menuSections, refunds))).not.toContain('Approve next');
    expect(labels(paletteEntries(screens, menuSections, refunds, { settings: { moneyActionApproval: true } }))).toContain('Approve next');
  });
});

describe('filtering and ordering', () => {
  const entries = entriesOf(admin);

  it('an empty text shows everything, in order', () => {
    expect(filterEntries(entries, '  ')).toEqual(entries);
  });

  it('the label first, then words that start words, then the label containing it, then scattered letters', () => {
    const entry = { label: 'Activity Logs', keywords: ['Activity Log Report', 'Reports'] };
    expect(matchScore(entry, 'activity logs')).toBe(100);
    expect(matchScore(entry, 'activ')).toBe(80);
    expect(matchScore(entry, 'logs')).toBe(60);
    expect(matchScore(entry, 'rep act')).toBe(40);
    expect(matchScore(entry, 'ivity')).toBe(30);
    expect(matchScore(entry, 'actlg')).toBe(10);
    expect(matchScore(entry, 'settlement')).toBe(0);
  });

  it('"user": the labels that start with it first, then those with a word that does; what does not match is dropped', () => {
    const got = labels(filterEntries(entries, 'user'));
    expect(got.slice(0, 4)).toEqual(['Users', 'User Activity Logs', 'App Users', 'New user']);
    expect(got).not.toContain('Banks');
  });

  it('finds a screen by its title or section too: "send money transactions", "audit send"', () => {
    expect(labels(filterEntries(entries, 'send money transactions'))[0]).toBe('Send Money');
    const audit = filterEntries(entriesOf(auditor), 'audit send');
    expect(audit[0]).toMatchObject({ label: 'Send Money', hint: 'Audit Reports', run: { kind: 'go', to: '/AllCeftTransactions' } });
  });

  it('"create" lists the create screens', () => {
    expect(labels(filterEntries(entries, 'create')).slice(0, 5)).toEqual(['New user', 'New role', 'New bank', 'New advertisement', 'New app version']);
  });

  it('a trace that matches nothing else is looked up first; one that does stays below the matches', () => {
    const trace = filterEntries(entries, '260412345678901');
    expect(trace[0]).toMatchObject({ label: 'Find transaction “260412345678901”', run: { kind: 'find', value: '260412345678901' } });
    const word = filterEntries(entries, 'banks');
    expect(word[0].label).toBe('Banks');
    expect(word.at(-1)).toMatchObject({ run: { kind: 'find', value: 'banks' } });
  });

  it('the find entry by its own words opens the search without a value; a text the search refuses is no value', () => {
    expect(filterEntries(entries, 'find')[0]).toMatchObject({ label: 'Find transaction…', run: { kind: 'find' } });
    expect(filterEntries(entries, 'find')[0].run).not.toHaveProperty('value');
    expect(isFindValue('AB-12_3')).toBe(true);
    for (const bad of ['two words', 'x'.repeat(41), 'a/b']) expect(isFindValue(bad)).toBe(false);
    expect(filterEntries(entries, 'zz zz').filter((e) => e.run.kind === 'find')).toEqual([]);
  });

  it('a user who may not find gets no find entry for a trace', () => {
    expect(filterEntries(entriesOf(['user-view']), '260412345678901')).toEqual([]);
  });
});

describe('the shortcut', () => {
  const key = (k: string, m: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...m });
  it('Ctrl+K or Cmd+K opens the palette, nothing else', () => {
    expect(isPaletteShortcut(key('k', { ctrlKey: true }))).toBe(true);
    expect(isPaletteShortcut(key('K', { metaKey: true }))).toBe(true);
    expect(isPaletteShortcut(key('k', {}))).toBe(false);
    expect(isPaletteShortcut(key('k', { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isPaletteShortcut(key('k', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isPaletteShortcut(key('j', { ctrlKey: true }))).toBe(false);
  });
});
