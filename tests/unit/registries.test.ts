/**
 * The hand-written parts are registries typed at the entry. Definitions name keys of the
 * registry types (src/definitions/registries.ts) and the maps of src/custom/ satisfy them, so a
 * mistyped name is a compile error (the `@ts-expect-error` lines below fail `tsc` if it compiles), and
 * the maps hold exactly the declared names.
 */
import { describe, expect, it } from 'vitest';
import { lazy } from 'react';
import { screens } from '../../screens';
import { customComponentNames, rowModalNames } from '../../src/definitions/registries';
import type { CustomScreen, RowAction } from '../../src/definitions/definitions';
import type { Registries } from '../../src/console/registries';
import { customComponents, rowModals } from '../../src/custom';

const Empty = () => null;

describe('the registries of hand-written parts', () => {
  it('hold exactly the declared names', () => {
    expect(Object.keys(customComponents).sort()).toEqual([...customComponentNames].sort());
    expect(Object.keys(rowModals).sort()).toEqual([...rowModalNames].sort());
  });

  it('serve every name the screen definitions use', () => {
    const components = screens.flatMap((s) => (s.kind === 'custom' ? [s.component] : []));
    const modals = screens.flatMap((s) => (s.kind === 'list' ? (s.rowActions ?? []).flatMap((a) => (a.run.kind === 'modal' ? [a.run.modal] : [])) : []));
    expect(components.length).toBeGreaterThan(0);
    expect(modals.length).toBeGreaterThan(0);
    for (const c of components) expect(Object.hasOwn(customComponents, c), c).toBe(true);
    for (const m of modals) expect(Object.hasOwn(rowModals, m), m).toBe(true);
  });

  it('make a mistyped name a compile error', () => {
    const screen: CustomScreen = {
      kind: 'custom',
      id: 'typo',
      route: '/typo',
      title: 'Typo',
      // @ts-expect-error 'Dashbord' is no custom component name
      component: 'Dashbord',
      access: { rule: () => true, permissions: [] },
    };
    // @ts-expect-error 'kycReveiw' is no row modal name
    const action: RowAction<{ id: number }> = { id: 'review', label: 'Review', permission: 'kyc-view', run: { kind: 'modal', modal: 'kycReveiw' } };
    // @ts-expect-error a map missing a declared name does not satisfy the registry
    const missing: Registries['rowModals'] = { changePassword: lazy(async () => ({ default: Empty })) };
    // @ts-expect-error nor does one with a name no definition may use
    const extra: Registries['rowModals'] = { changePassword: Empty, kycReview: Empty, roleImages: Empty };
    expect([screen.component, action.run.kind, Object.keys(missing), Object.keys(extra).length]).toEqual(['Dashbord', 'modal', ['changePassword'], 3]);
  });
});
