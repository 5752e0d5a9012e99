/** IPG Provider Currencies (spec 002 §2): the menu entry of a user with no linked provider, and the note of a route naming another provider. */
import { describe, expect, it } from 'vitest';
import { menuFor } from '../../src/definitions/access';
import { screens } from '../../screens';
import { menuSections } from '../../screens/menu';
import { demoRoles } from '../../src/server/seed/demo';
import { ownProviderNote } from '../../src/custom/ProviderCurrencies';

const permissionsOf = (name: string) => [...demoRoles.find((r) => r.name === name)!.permissions];
const labels = (permissions: string[], ownProvider?: boolean) => menuFor(screens, menuSections, permissions, { ownProvider }).flatMap((g) => g.items.map((i) => i.label));

describe('IPG Provider Currencies in the menu', () => {
  it('is hidden from a user with no linked provider (the checker), shown to an IPG bank user', () => {
    expect(labels(permissionsOf('Checker'), false)).not.toContain('IPG Provider Currencies');
    expect(labels(permissionsOf('IPG Bank Checker'), true)).toContain('IPG Provider Currencies');
    // not yet known: the entry stays
    expect(labels(permissionsOf('IPG Bank Officer'))).toContain('IPG Provider Currencies');
  });

  it('a route naming another provider says which provider is shown', () => {
    expect(ownProviderNote('Bank of Ceylon IPG', '7010', '7056')).toContain('Bank of Ceylon IPG (provider bank code 7010), not those of 7056');
  });
});
