/** The app users, providers and banks definitions: exports, row actions by permission and lock, images (spec 002 §2). */
import { describe, expect, it } from 'vitest';
import { appUsersScreen } from '../../screens/appUsers';
import { providersScreen } from '../../screens/providers';
import { banksScreen } from '../../screens/banks';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { LIST_DEFAULTS } from '../../src/definitions/definitions';
import { actionsOnLockedRow, visibleActions } from '../../src/console/views/RowActions';
import { imagesToShow } from '../../src/console/views/RowImagesModal';
import { PLACEHOLDER_IMAGE } from '../../src/console/views/cells';
import type { AppUserRow } from '../../src/api/appUsers';

const user = (permissions: string[]) => ({ username: 'x', permissions });
const row = (v: Partial<AppUserRow> = {}) =>
  ({
    id: 1,
    firstName: 'Nimal',
    lastName: 'Perera',
    uidType: 'NIC',
    uid: '199012345678',
    disabled: 0,
    hold: 0,
    locked: 0,
    selfie: 'images/app-users/s.png',
    uidFront: null,
    uidBack: null,
    ...v,
  }) as AppUserRow;
const labels = (actions: ReturnType<typeof visibleActions<AppUserRow>>, r: AppUserRow) => actions.map((a) => (typeof a.label === 'function' ? a.label(r) : a.label));

describe('app users', () => {
  it('exports the columns but not the images or actions', () => {
    expect(exportFieldsOf(appUsersScreen).map((f) => f.header)).toEqual([
      'ID',
      'First Name',
      'Last Name',
      'UID Type',
      'UID',
      'Contact Number',
      'Email',
      'Country',
      'Status',
      'Last Login',
      'Registered',
      'Hold Reason',
    ]);
  });

  it('Images for viewers and auditors; Deactivate/Activate and Hold/Unhold for app-user-edit on unlocked rows', () => {
    expect(labels(visibleActions(appUsersScreen.rowActions!, row(), user(['auditor-app-user-view'])), row())).toEqual(['Images']);
    expect(labels(visibleActions(appUsersScreen.rowActions!, row(), user(['app-user-view', 'app-user-edit'])), row())).toEqual(['Images', 'Deactivate', 'Hold']);
    const held = row({ disabled: 1, hold: 1 });
    expect(labels(visibleActions(appUsersScreen.rowActions!, held, user(['app-user-edit', 'app-user-view'])), held)).toEqual(['Images', 'Activate', 'Unhold']);
    const locked = row({ locked: 1 });
    expect(labels(actionsOnLockedRow(appUsersScreen.rowActions!, locked, user(['super-permission'])), locked)).toEqual(['Images']);
  });

  it('User Images: selfie and UID front always (placeholder when missing), UID back only when present', () => {
    const images = appUsersScreen.rowActions!.find((a) => a.id === 'images')!.run;
    if (images.kind !== 'images') throw new Error('not an images action');
    expect(images.title).toBe('User Images');
    const shown = imagesToShow(images.images, row() as never);
    expect(shown.map((i) => i.label)).toEqual(['Selfie', 'UID Front']);
    expect(shown[1]).toMatchObject({ src: PLACEHOLDER_IMAGE, missing: true });
    expect(imagesToShow(images.images, row({ uidBack: 'images/app-users/b.png' }) as never).map((i) => i.label)).toEqual(['Selfie', 'UID Front', 'UID Back']);
  });

  it('hold asks for the comment with the specification’s message', () => {
    const hold = appUsersScreen.rowActions!.find((a) => a.id === 'hold')!.run;
    expect(hold.kind === 'call' && hold.input).toEqual({ label: 'Comment', maxLength: 100, requiredMessage: 'Hold/Unhold comment is required.' });
    expect(hold.kind === 'call' && hold.body(row({ hold: 1 }), { comment: 'ok' })).toEqual({ id: 1, hold: false, description: 'ok' });
  });
});

describe('providers and banks', () => {
  it('page sizes of the specification', () => {
    expect(providersScreen.pageSize).toBe(5);
    expect(banksScreen.pageSize).toBe(15);
    // App users states no page size: the runtime's 50
    expect(appUsersScreen.pageSize).toBeUndefined();
    expect(LIST_DEFAULTS.pageSize).toBe(50);
  });
  it('Currencies stays on a locked provider; Activate/Deactivate only on unlocked ones', () => {
    const p = { id: 1, provider_bank_code: '7010', provider_bank_name: 'BOC', provider_logo: null, disabled: 0, status: 'Active', locked: 1, created_at: '', updated_at: '' };
    expect(actionsOnLockedRow(providersScreen.rowActions!, p, user(['super-permission'])).map((a) => a.id)).toEqual(['currencies']);
    expect(visibleActions(providersScreen.rowActions!, { ...p, locked: 0 }, user(['ipg-provider-edit'])).map((a) => a.id)).toEqual(['activate']);
    const currencies = providersScreen.rowActions![0].run;
    expect(currencies.kind === 'navigate' && currencies.to(p)).toBe('/ipgProviderCurrencies/7010');
  });
});
