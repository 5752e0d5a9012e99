/**
 * The console side of the controls beyond maker-checker: a money action sent for approval says so in its toast (the
 * server's message), otherwise the specification's toast; the Money Action Approvals and Segregation of
 * Duties screens appear to the holders of their permissions only.
 */
import { describe, expect, it } from 'vitest';
import { screens } from '../../screens';
import { menuSections } from '../../screens/menu';
import { ceftScreen } from '../../screens/transactions';
import { moneyApprovalsScreen } from '../../screens/moneyApprovals';
import { segregationScreen } from '../../screens/segregation';
import { canOpen, menuFor } from '../../src/definitions/access';
import { SETTINGS_OFF } from '../../src/domain/approvals';
import { exportFieldsOf } from '../../src/definitions/exportFields';

const row = { id: 42, trace: '261122100000042' } as never;

describe('money actions sent for approval', () => {
  it.each([
    ['void', 'Transaction voided successfully: Id - 42'],
    ['refund', 'Transaction refunded successfully: Id - 42'],
    ['manualFundTransfer', 'Fund transfer successful: Id - 42'],
  ])('%s: the toast is the server message when the reply carries a change request, the usual one otherwise', (id, usual) => {
    const action = ceftScreen.rowActions!.find((a) => a.id === id)!;
    if (action.run.kind !== 'call') throw new Error('not a call');
    expect(action.run.success(row, { message: usual })).toBe(usual);
    expect(action.run.success(row)).toBe(usual);
    const sent = 'Void of transaction 42 (USD 5,000.00, above USD 1,000.00) sent for approval (change request #7)';
    expect(action.run.success(row, { message: sent, changeRequestId: 7 })).toBe(sent);
  });
});

describe('the controls screens', () => {
  const on = { moneyActionApproval: true };
  const items = (permissions: string[], settings = on) => menuFor(screens, menuSections, permissions, { settings }).flatMap((g) => g.items.map((i) => i.to));
  it('Money Action Approvals: while MONEY_ACTION_APPROVAL_ABOVE_USD is set, for transaction-refund or transaction-retry holders, with the approval panel for both', () => {
    expect(items(['transaction-refund'])).toContain('/transactions/money-approvals');
    expect(items(['transaction-retry'])).toContain('/transactions/money-approvals');
    expect(items(['transaction-hold', 'bank-approve'])).not.toContain('/transactions/money-approvals');
    // off (unset): no entry, for anyone, nor for a page opened by its address
    expect(items(['transaction-refund'], SETTINGS_OFF)).not.toContain('/transactions/money-approvals');
    expect(items(['super-permission'], SETTINGS_OFF)).not.toContain('/transactions/money-approvals');
    expect(canOpen(moneyApprovalsScreen, ['super-permission'])).toBe(false);
    expect(canOpen(moneyApprovalsScreen, ['super-permission'], on)).toBe(true);
    expect(moneyApprovalsScreen.changeRequests).toMatchObject({ permission: 'transaction-refund', alsoPermissions: ['transaction-retry'], entity: 'Transaction' });
  });
  it('Approvals and My requests: for the money action permissions only while the setting is on; for the other areas always', () => {
    expect(items(['transaction-refund'])).toEqual(expect.arrayContaining(['/approvals', '/my-requests']));
    expect(items(['transaction-retry'], SETTINGS_OFF)).not.toContain('/approvals');
    expect(items(['transaction-refund'], SETTINGS_OFF)).not.toContain('/my-requests');
    expect(items(['role-approve', 'role-create'], SETTINGS_OFF)).toEqual(expect.arrayContaining(['/approvals', '/my-requests']));
  });
  it('Segregation of Duties: in the Reports menu (shown by the specification rule) for sod-report-view holders, exported with its columns', () => {
    expect(items(['sod-report-view', 'send-money-report-view'])).toContain('/reports/segregation-of-duties');
    expect(items(['activity-log-report-view', 'send-money-report-view'])).not.toContain('/reports/segregation-of-duties');
    expect(exportFieldsOf(segregationScreen).map((f) => f.header)).toEqual(['No', 'Finding', 'Role / User', 'Area', 'Detail']);
  });
});
