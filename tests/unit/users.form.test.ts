/** The user create/edit form (spec 000 §2, §3, §5): the user types and dependent lists shown, and the Branch rule. */
import { describe, expect, it } from 'vitest';
import { branchLabelFor, branchOptionsFor, permissionGroupsFor, roleOptionsFor, userTypeOptionsFor, type UserFormValues } from '../../screens/users';
import { userCreateBody, userEditFormSchema, type userInitialData } from '../../src/api/users';
import type { DataOf } from '../../src/api/contract';
import type { FieldContext } from '../../src/definitions/definitions';
import { permissionsList } from '../../src/server/permissionOptions';

const options: DataOf<typeof userInitialData> = {
  branchList: [{ id: 1, code: 'HO', name: 'Head Office' }],
  bankList: [{ id: 1, bankCode: '7010', bankName: 'Bank of Ceylon' }],
  roleList: [
    { roleId: 1, roleName: 'Administrator', userType: 'BACKEND', permissions: ['user-view'] },
    { roleId: 4, roleName: 'Auditor', userType: 'BACKEND', permissions: ['auditor-dashboard-view', 'auditor-report-view'] },
    { roleId: 5, roleName: 'IPG Bank Officer', userType: 'IPGBANK', permissions: ['settlement-report-view'] },
  ],
  exchangeHouseList: [{ id: 1, code: 'LULU', name: 'Lulu Exchange' }],
  providerList: [{ id: 1, code: '7010', name: 'Bank of Ceylon IPG' }],
  merchantList: [],
  permissionsList: permissionsList(),
};

const auditor: UserFormValues = {
  type: 'AUDITOR',
  name: 'Demo Auditor',
  username: 'auditor',
  email: 'auditor@example.com',
  contact: '0771234567',
  branch_code: 'AUDITOR',
  role: 4,
  password: '',
  disabled: 0,
};
const edit = (record: UserFormValues, values: UserFormValues = record): FieldContext<UserFormValues, typeof options> => ({ values, options, mode: 'edit', initial: record });

describe('Edit User of a user whose type is not offered for new users', () => {
  it("shows the record's own type, its dependent list, its role and the role's permission groups", () => {
    const ctx = edit(auditor);
    expect(userTypeOptionsFor(ctx).map((o) => o.value)).toEqual(['BACKEND', 'IPGBANK', 'AUDITOR']);
    expect(branchLabelFor(ctx)).toBe('Auditor');
    expect(branchOptionsFor(ctx).map((o) => o.value)).toContain('AUDITOR');
    expect(roleOptionsFor(ctx)).toContainEqual({ value: 4, label: 'Auditor' });
    expect(permissionGroupsFor(ctx).flatMap((g) => g.items)).toEqual(expect.arrayContaining(['auditor-dashboard-view', 'auditor-report-view']));
  });

  it('an exchange house user: type, Exchange House list and BACKEND roles', () => {
    const ctx = edit({ ...auditor, type: 'EXCHANGEHOUSE', branch_code: 'LULU', role: 1 });
    expect(userTypeOptionsFor(ctx).map((o) => o.value)).toContain('EXCHANGEHOUSE');
    expect(branchOptionsFor(ctx)).toEqual([{ value: 'LULU', label: 'Lulu Exchange' }]);
    expect(roleOptionsFor(ctx).map((o) => o.value)).toContain(1);
  });

  it("keeps offering the record's type after the type select was changed, so it can be chosen back", () => {
    expect(userTypeOptionsFor(edit(auditor, { ...auditor, type: 'BACKEND', branch_code: '', role: '' })).map((o) => o.value)).toContain('AUDITOR');
  });

  it('a new user may be an exchange house user (when there are exchange houses) or an auditor', () => {
    const ctx: FieldContext<UserFormValues, typeof options> = { values: { ...auditor, type: '' }, options, mode: 'create' };
    expect(userTypeOptionsFor(ctx).map((o) => o.value)).toEqual(['BACKEND', 'IPGBANK', 'EXCHANGEHOUSE', 'AUDITOR']);
    expect(userTypeOptionsFor({ ...ctx, options: { ...options, exchangeHouseList: [] } }).map((o) => o.value)).toEqual(['BACKEND', 'IPGBANK', 'AUDITOR']);
  });
});

describe('Branch required (spec 000 §5)', () => {
  const blank = { type: 'EXCHANGEHOUSE', name: '', email: '', contact: '', username: '', branch_code: '', role: '', disabled: 0 };
  const branchError = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => r.error?.issues.find((i) => i.path.join('.') === 'branch_code')?.message;

  it('is reported with the other errors, not only once every other field is valid', () => {
    expect(branchError(userEditFormSchema.safeParse(blank))).toBe('Please select an exchange house');
    expect(branchError(userCreateBody.safeParse({ ...blank, type: 'BACKEND', password: '' }))).toBe('Please select a branch');
    expect(branchError(userEditFormSchema.safeParse({ ...blank, type: 'IPGBANK', branch_code: '7010' }))).toBeUndefined();
  });
});
