import { describe, expect, it } from 'vitest';
import { userCreateBody } from '../../src/api/users';
import { roleCreate } from '../../src/api/roles';
import { generatePassword } from '../../src/domain/password';
import { isValidPassword, messages, patterns } from '../../src/domain/validation';
import { resetPasswordSchema } from '../../src/custom/ResetPassword';

const goodUser = { type: 'BACKEND', name: 'Nimal Perera', email: 'nimal@example.lk', contact: '0771234567', username: 'nimal_p', branch_code: 'HO', role: 2, password: 'Demo@Pass1', disabled: 0 };

function messagesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('password rule', () => {
  it.each([
    ['Demo@Pass1', true],
    ['AAbb1@xy', true], // 8 characters
    ['AAbb1@xyzzzzzzzz', true], // 16 characters
    ['AAbb1@xyzzzzzzzzz', false], // 17: the pattern allows 16 at most
    ['Aabb1@xyz', false], // one uppercase
    ['AAbC1@XYZ', false], // one lowercase
    ['AAbb@@xyz', false], // no digit
    ['AAbb11xyz', false], // no special character
    ['AAb1@', false], // too short
  ])('%s → %s', (pw, ok) => expect(isValidPassword(pw)).toBe(ok));

  it('generated passwords are 8 to 15 long and pass the rule, 500 times', () => {
    for (let i = 0; i < 500; i++) {
      const pw = generatePassword();
      expect(pw.length).toBeGreaterThanOrEqual(8);
      expect(pw.length).toBeLessThanOrEqual(15);
      expect(pw.replace(/[^A-Z]/g, '').length).toBeGreaterThanOrEqual(2);
      expect(pw.replace(/[^a-z]/g, '').length).toBeGreaterThanOrEqual(2);
      expect(pw).toMatch(/\d/);
      expect(isValidPassword(pw)).toBe(true);
    }
  });
});

describe('user form rules and messages (spec 000 §5)', () => {
  it('accepts a good user', () => expect(userCreateBody.safeParse(goodUser).success).toBe(true));

  it.each([
    ['name', 'ab', messages.name],
    ['name', 'two  spaces', messages.name],
    ['name', 'x'.repeat(101), messages.name],
    ['username', 'a b', messages.username],
    ['username', 'ab', messages.username],
    ['email', 'not-an-email', messages.email],
    ['contact', '077123456', messages.contact],
    ['contact', '07712345678', messages.contact],
    ['password', 'weak', messages.password],
  ])('%s = %j → %s', (field, value, message) => {
    const m = messagesOf(userCreateBody.safeParse({ ...goodUser, [field]: value }));
    expect(m[field]).toBe(message);
  });

  it('user type and role are required with their messages', () => {
    const m = messagesOf(userCreateBody.safeParse({ ...goodUser, type: '', role: '' }));
    expect(m.type).toBe('Please select a type');
    expect(m.role).toBe('Please select a role');
  });

  it.each([
    ['BACKEND', 'Please select a branch'],
    ['EXCHANGEHOUSE', 'Please select an exchange house'],
    ['DFMERCHANT', 'Please select a merchant'],
    ['DFBANK', 'Please select a bank'],
  ])('the second select of %s says %s', (type, message) => {
    const m = messagesOf(userCreateBody.safeParse({ ...goodUser, type, branch_code: '' }));
    expect(m.branch_code).toBe(message);
  });

  it('refuses properties the form does not send (no mass assignment)', () => {
    expect(userCreateBody.safeParse({ ...goodUser, locked: 0 }).success).toBe(false);
  });

  it('the password message is the specification text, word for word', () => {
    expect(messages.password).toBe(
      'Password should contain minimum 8 characters maximum 32, at least two uppercase letters, two lowercase letters, one number and one special character (@#$!%*?&()[]{}-_+=|/\\:;"<>?)',
    );
  });
});

describe('role form rules', () => {
  const good = { role_name: 'Branch Maker', user_type: 'BACKEND', user_level: 1, permissions: ['user-view'], disabled: 0 };
  it('accepts a good role', () => expect(roleCreate.request.safeParse(good).success).toBe(true));
  it('needs a valid name, a level and a permission', () => {
    const m = messagesOf(roleCreate.request.safeParse({ ...good, role_name: 'x', user_level: '', permissions: [] }) as never);
    expect(m.role_name).toBe('Role name can only have alphanumeric characters and should be at least 3 characters long');
    expect(m.user_level).toBe('Please select a user level');
    expect(m.permissions).toBe('Please select at least one permission');
  });
  it('refuses a permission outside the catalogue', () => expect(roleCreate.request.safeParse({ ...good, permissions: ['root'] }).success).toBe(false));
});

describe('reset password form', () => {
  it('requires the old password and confirmation, and matching passwords', () => {
    const m = messagesOf(resetPasswordSchema.safeParse({ old_password: '', new_password: 'Demo@Pass2', confirm_password: '' }) as never);
    expect(m.old_password).toBe('Please enter the old-password');
    expect(m.confirm_password).toBe('Please enter password confirmation');
    const mismatch = messagesOf(resetPasswordSchema.safeParse({ old_password: 'x', new_password: 'Demo@Pass2', confirm_password: 'Demo@Pass3' }) as never);
    expect(mismatch.confirm_password).toBe('Passwords does not match');
  });
  it('the new password follows the rule, message without the character list', () => {
    const m = messagesOf(resetPasswordSchema.safeParse({ old_password: 'x', new_password: 'weakweak', confirm_password: 'weakweak' }) as never);
    expect(m.new_password).toBe('Password should contain minimum 8 characters maximum 32, at least two uppercase letters, two lowercase letters, one number and one special character');
  });
});

describe('shared patterns', () => {
  it('name allows single spaces between words', () => {
    expect(patterns.name.test('Head Office')).toBe(true);
    expect(patterns.name.test(' Head')).toBe(false);
  });
});
