/** The workbench's pure rules: who decides which area, the comment rule, how a request is named and what it changes. */
import { describe, expect, it } from 'vitest';
import { approvePermissions, areasDecidableBy, changeRequestAreas, makePermissions } from '../../src/domain/approvals';
import { changedFields, recordLabel } from '../../src/server/approvals';
import { expiryCutoff } from '../../src/server/changeRequests';
import { commentProblem } from '../../src/console/views/ApprovalModal';
import { decisionBody } from '../../src/api/contract';

const f = (header: string, value: unknown) => ({ header, type: 'STRING' as const, value });

describe('the areas', () => {
  it('each area is decided by its approve permission; a super user decides every area', () => {
    expect(areasDecidableBy(['role-approve', 'bank-view']).map((a) => a.type)).toEqual(['Role']);
    expect(areasDecidableBy(['super-permission'])).toHaveLength(changeRequestAreas.length);
    expect(areasDecidableBy(['user-create'])).toEqual([]);
    expect(approvePermissions).toContain('ipg-currency-approve');
    expect(makePermissions).toEqual(expect.arrayContaining(['user-create', 'user-password-reset', 'app-version-create']));
  });
});

describe('the comment', () => {
  it('is optional to approve, required to reject, at most 200 characters', () => {
    expect(commentProblem('', 'approve')).toBeUndefined();
    expect(commentProblem('  ', 'reject')).toBe('Please enter a reason for the rejection');
    expect(commentProblem('x'.repeat(200), 'reject')).toBeUndefined();
    expect(commentProblem('x'.repeat(201), 'approve')).toBe('At most 200 characters');
  });

  it('the approve calls take it optionally, beside the documented fields only', () => {
    expect(decisionBody.safeParse({ changeRequestID: 1, actionTaken: 'reject' }).success).toBe(true);
    expect(decisionBody.safeParse({ changeRequestID: 1, actionTaken: 'reject', comment: 'Why' }).success).toBe(true);
    expect(decisionBody.safeParse({ changeRequestID: 1, actionTaken: 'reject', comment: 'x'.repeat(201) }).success).toBe(false);
    expect(decisionBody.safeParse({ changeRequestID: 1, actionTaken: 'reject', reason: 'Why' }).success).toBe(false);
  });
});

describe('how a request is shown', () => {
  it('names the record by its name field and id', () => {
    expect(recordLabel({ record_id: 7, new_record: { role_name: f('Role Name', 'Ops Readers'), user_type: f('User Type', 'BACKEND') }, original_record: null })).toBe('Ops Readers (#7)');
    expect(recordLabel({ record_id: null, new_record: { username: f('Username', 'new_user') }, original_record: null })).toBe('new_user (new)');
    expect(recordLabel({ record_id: 3, new_record: {}, original_record: null })).toBe('#3');
  });

  it('lists the changed fields of an edit and every field of a create, never the hidden ones', () => {
    const before = { id: f('ID', 1), role_name: f('Role Name', 'A'), permissions: f('Permissions', ['x']), updated_at: f('Updated', 'then') };
    const after = { ...before, permissions: f('Permissions', ['x', 'y']), updated_at: f('Updated', 'now') };
    expect(changedFields({ action: 'EDIT', new_record: after, original_record: before })).toEqual(['Permissions']);
    expect(changedFields({ action: 'CREATE', new_record: after, original_record: null })).toEqual(['Role Name', 'Permissions']);
  });

  it('a request expires CHANGE_REQUEST_EXPIRY_DAYS after it was made', () => {
    expect(expiryCutoff(new Date('2026-01-08T12:00:00Z'), 7).toISOString()).toBe('2026-01-01T12:00:00.000Z');
  });
});
