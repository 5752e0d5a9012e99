import { describe, expect, it } from 'vitest';
import { isCopyableKey, parseFoundRow, screenForService, serviceOfScreen } from '../../src/console/finder';
import { viewableFindServices } from '../../src/domain/transactionFinder';
import { screens } from '../../screens';

describe('the services a user may find in', () => {
  it('follows the view permissions (auditor-report-view covers all but insurance; super-permission all)', () => {
    expect(viewableFindServices(['super-permission'])).toEqual(['ceft', 'bill', 'echannelling', 'thyaga', 'insurance']);
    expect(viewableFindServices(['auditor-report-view'])).toEqual(['ceft', 'bill', 'echannelling', 'thyaga']);
    expect(viewableFindServices(['send-money-report-view', 'insurance-report-view'])).toEqual(['ceft', 'insurance']);
    expect(viewableFindServices(['user-view'])).toEqual([]);
  });
});

describe('the screen a found row is shown with', () => {
  it('is the operational screen when the user may open it, else the auditor screen, else none', () => {
    expect(screenForService(screens, 'ceft', ['send-money-report-view'])?.id).toBe('transactions.ceft');
    expect(screenForService(screens, 'ceft', ['auditor-report-view'])?.id).toBe('transactions.ceft.audit');
    expect(screenForService(screens, 'insurance', ['auditor-report-view'])).toBeUndefined();
    expect(serviceOfScreen('transactions.eChannelling.audit')).toBe('echannelling');
    expect(serviceOfScreen('users')).toBeUndefined();
  });
});

describe('the URL of a found row', () => {
  it('reads service:id and nothing else', () => {
    expect(parseFoundRow('ceft:123')).toEqual({ service: 'ceft', id: 123 });
    for (const bad of ['ceft', 'loans:1', 'ceft:0', 'ceft:-1', 'ceft:1.5', 'ceft:99999999999', 12, undefined]) expect(parseFoundRow(bad)).toBeUndefined();
  });
});

describe('identifiers', () => {
  it('copies identifiers only', () => {
    for (const k of ['id', 'trace', 'uid', 'ipg_transaction_id', 'ceft_transaction_id', 'ipg_void_tran_id']) expect(isCopyableKey(k)).toBe(true);
    for (const k of ['amount', 'country', 'status', 'patient_name']) expect(isCopyableKey(k)).toBe(false);
  });
});
