import { describe, expect, it } from 'vitest';
import { canEditUserOnRow, canResetPasswordOf, grantRefusal, isPrivileged, passwordResetRefusal, permissionsNotHeld, userEditRefusal } from '../../src/domain/privilege';

const maker = { username: 'maker', permissions: ['user-view', 'user-edit', 'user-password-reset', 'bank-view'] };

describe('the privilege rules', () => {
  it('names the permissions not held, in catalogue order; a super user holds all', () => {
    expect(permissionsNotHeld(maker.permissions, ['bank-approve', 'super-permission', 'user-approve', 'bank-view'])).toEqual(['super-permission', 'user-approve', 'bank-approve']);
    expect(permissionsNotHeld(['super-permission'], ['super-permission', 'user-approve'])).toEqual([]);
    expect(permissionsNotHeld([], [])).toEqual([]);
  });

  it('a privileged account can approve, reset passwords or is a super user', () => {
    expect(isPrivileged(['bank-view', 'kyc-approve'])).toBe(true);
    expect(isPrivileged(['user-password-reset'])).toBe(true);
    expect(isPrivileged(['super-permission'])).toBe(true);
    expect(isPrivileged(['bank-view', 'bank-edit', 'user-create'])).toBe(false);
  });

  it('resets only a lesser or equal account, never a super user or oneself (case-insensitively)', () => {
    expect(canResetPasswordOf({ actor: maker, target: { username: 'clerk', permissions: ['bank-view'] } })).toBe(true);
    expect(canResetPasswordOf({ actor: maker, target: { username: 'twin', permissions: maker.permissions } })).toBe(true);
    expect(passwordResetRefusal({ actor: maker, target: { username: 'MAKER', permissions: [] } })).toMatch(/your own password/);
    expect(passwordResetRefusal({ actor: { username: 'root', permissions: ['super-permission'] }, target: { username: 'root2', permissions: ['super-permission'] } })).toBe(
      'The password of the super user "root2" cannot be changed by another user',
    );
    expect(passwordResetRefusal({ actor: maker, target: { username: 'checker', permissions: ['bank-view', 'bank-approve'] } })).toBe(
      'You cannot change the password of "checker": they hold permissions you do not hold (bank-approve)',
    );
  });

  it('grants only what the maker holds', () => {
    expect(grantRefusal(maker, ['user-view'], 'No')).toBeNull();
    expect(grantRefusal(maker, ['user-view', 'super-permission'], 'No')).toBe('No: super-permission');
    expect(grantRefusal({ username: 'root', permissions: ['super-permission'] }, ['super-permission'], 'No')).toBeNull();
  });

  it('edits only an account whose role holds nothing the maker lacks, and only while its row is open', () => {
    const row = (username: string, permissions: string[], locked = 0) => ({ username, permissions, locked });
    expect(canEditUserOnRow({ row: row('clerk', ['bank-view']), user: maker })).toBe(true);
    expect(canEditUserOnRow({ row: row('maker', maker.permissions), user: maker })).toBe(true);
    expect(canEditUserOnRow({ row: row('clerk', ['bank-view'], 1), user: maker })).toBe(false);
    expect(canEditUserOnRow({ row: row('admin', ['super-permission']), user: maker })).toBe(false);
    expect(canEditUserOnRow({ row: row('checker', ['bank-view', 'bank-approve']), user: maker })).toBe(false);
    expect(canEditUserOnRow({ row: row('admin2', ['super-permission']), user: { username: 'root', permissions: ['super-permission'] } })).toBe(true);
    expect(userEditRefusal(maker, { username: 'checker', permissions: ['bank-view', 'bank-approve'] })).toBe(
      'You cannot edit the user "checker": their role holds permissions you do not hold: bank-approve',
    );
  });
});
