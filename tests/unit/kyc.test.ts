/** The KYC review rules (src/domain/kyc.ts): switches, groups, reasons, approve enablement, server checks. */
import { describe, expect, it } from 'vitest';
import {
  canApprove,
  decisionCall,
  decisionProblems,
  decisionStatus,
  groupReason,
  isSwitchApproved,
  kycFieldOrder,
  kycFieldTitles,
  kycSections,
  missingReasons,
  setApproved,
  setReason,
  showsEarlierSubmission,
  type KycData,
} from '../../src/domain/kyc';
import { kycData as kycDataSchema } from '../../src/api/kyc';

/** A submission with every field rejected and no reasons (or with the given approvals). */
function submission(approved: boolean | ((key: string) => boolean) = false): KycData {
  return Object.fromEntries(
    kycFieldOrder.map((k) => [
      k,
      { title: kycFieldTitles[k], value: k.endsWith('Image') ? `images/kyc/u1/${k}.png` : `value of ${k}`, approved: typeof approved === 'function' ? approved(k) : approved, reason: '' },
    ]),
  );
}
const approvedKeys = (d: KycData) => Object.keys(d).filter((k) => d[k].approved);
const withReasons = (d: KycData) =>
  Object.fromEntries(
    Object.entries(d)
      .filter(([, f]) => f.reason !== '')
      .map(([k, f]) => [k, f.reason]),
  );

describe('a switch sets its whole group', () => {
  it.each([
    ['dialCode', ['dialCode', 'phoneNo']],
    ['phoneNo', ['dialCode', 'phoneNo']],
    ['uidType', ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['uid', ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['uidFrontImage', ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['uidBackImage', ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['country', ['country', 'city', 'addressLine1', 'addressLine2']],
    ['city', ['country', 'city', 'addressLine1', 'addressLine2']],
    ['addressLine1', ['country', 'city', 'addressLine1', 'addressLine2']],
    ['addressLine2', ['country', 'city', 'addressLine1', 'addressLine2']],
    ['userImage', ['userImage']],
    ['firstName', ['firstName']],
    ['dateOfBirth', ['dateOfBirth']],
    ['email', ['email']],
  ])('approving %s approves %j', (key, expected) => {
    const d = setApproved(submission(), key, true);
    expect(approvedKeys(d).sort()).toEqual([...expected].sort());
    for (const k of expected) expect(isSwitchApproved(d, k)).toBe(true);
  });

  it.each([
    ['dialCode', ['dialCode', 'phoneNo']],
    ['uidBackImage', ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['city', ['country', 'city', 'addressLine1', 'addressLine2']],
    ['gender', ['gender']],
  ])('rejecting %s rejects %j and nothing else', (key, expected) => {
    const d = setApproved(submission(true), key, false);
    const rejected = Object.keys(d).filter((k) => !d[k].approved);
    expect(rejected.sort()).toEqual([...expected].sort());
  });

  it('keeps the map order', () => {
    expect(Object.keys(setApproved(submission(), 'uid', true))).toEqual(kycFieldOrder);
  });
});

describe('reject reasons', () => {
  it.each([
    ['contact', { dialCode: 'Wrong number', phoneNo: 'Wrong number' }],
    ['uid', { uidType: 'Wrong number', uid: 'Wrong number' }],
    ['address', { country: 'Wrong number', city: 'Wrong number', addressLine1: 'Wrong number', addressLine2: 'Wrong number' }],
    ['uidFrontImage', { uidFrontImage: 'Wrong number' }],
    ['uidBackImage', { uidBackImage: 'Wrong number' }],
    ['userImage', { userImage: 'Wrong number' }],
    ['occupation', { occupation: 'Wrong number' }],
  ])('the %s reason box writes to %j', (target, expected) => {
    expect(withReasons(setReason(submission(), target, 'Wrong number'))).toEqual(expected);
  });

  it('shows a group reason from its first member', () => {
    expect(groupReason(setReason(submission(), 'uid', 'Expired'), 'uid')).toBe('Expired');
    expect(groupReason(submission(), 'contact')).toBe('');
  });

  it('cuts a reason at 100 characters', () => {
    expect(setReason(submission(), 'city', 'x'.repeat(150)).city.reason).toHaveLength(100);
  });

  it.each([
    ['contact', 'phoneNo', ['dialCode', 'phoneNo']],
    ['uid', 'uidFrontImage', ['uidType', 'uid']],
    ['address', 'addressLine2', ['country', 'city', 'addressLine1', 'addressLine2']],
  ])('turning the %s group to approved (via %s) clears its reasons', (group, key, members) => {
    let d = setReason(submission(), group, 'Not clear');
    d = setReason(d, 'uidFrontImage', 'Blurred');
    d = setApproved(d, key, true);
    for (const m of members) expect(d[m].reason).toBe('');
    if (group === 'uid') expect(d.uidFrontImage.reason).toBe('');
  });

  it('turning a field to rejected keeps its reason', () => {
    const d = setApproved(setReason(submission(), 'city', 'Incomplete'), 'city', false);
    expect(d.city.reason).toBe('Incomplete');
  });
});

describe('approve enablement and missing reasons', () => {
  it.each([
    ['every field approved', submission(true), true, []],
    ['every field rejected', submission(false), false, kycFieldOrder],
    ['one personal detail rejected', setApproved(submission(true), 'lastName', false), false, ['lastName']],
    ['the UID group rejected', setApproved(submission(true), 'uid', false), false, ['uidType', 'uid', 'uidFrontImage', 'uidBackImage']],
    ['the UID group rejected with the group reason only', setReason(setApproved(submission(true), 'uid', false), 'uid', 'Expired'), false, ['uidFrontImage', 'uidBackImage']],
    ['a rejected field with a blank reason', setReason(setApproved(submission(true), 'email', false), 'email', '   '), false, ['email']],
    ['a rejected field with a reason', setReason(setApproved(submission(true), 'email', false), 'email', 'Typo'), false, []],
  ])('%s', (_name, data, approvable, missing) => {
    expect(canApprove(data)).toBe(approvable);
    expect(decisionStatus(data)).toBe(approvable ? 'APPROVED' : 'REJECTED');
    expect(missingReasons(data).sort()).toEqual([...missing].sort());
  });

  it('offers no Approve for an empty map', () => expect(canApprove({})).toBe(false));
});

describe('what the server refuses in a decision', () => {
  const stored = submission();
  const rejectedCity = setReason(setApproved(submission(true), 'city', false), 'address', 'Incomplete');
  it.each<[string, KycData, string[]]>([
    ['a valid approval', submission(true), []],
    ['a valid rejection', rejectedCity, []],
    ['a rejected field without a reason', setApproved(submission(true), 'gender', false), ['kycData.gender.reason: Reject reason is required for fields marked as rejected.']],
    [
      'a group whose members disagree',
      { ...submission(true), phoneNo: { ...submission(true).phoneNo, approved: false, reason: 'x' } },
      ['kycData.dialCode: The Contact fields (dialCode, phoneNo) must be approved or rejected together'],
    ],
    [
      'a group whose members carry different reasons',
      { ...rejectedCity, country: { ...rejectedCity.country, reason: 'Other' } },
      ['kycData.country: The Address fields (country, city, addressLine1, addressLine2) share one reject reason'],
    ],
    ['an approved field with a reason', { ...submission(true), email: { ...submission(true).email, reason: 'x' } }, ['kycData.email.reason: An approved field has no reject reason']],
    ['a changed value', { ...submission(true), uid: { ...submission(true).uid, value: 'N999' } }, ['kycData.uid: The value differs from the submission under review; reload it']],
  ])('%s', (_name, decided, expected) => {
    expect(decisionProblems(stored, decided).map((p) => `${p.field}: ${p.message}`)).toEqual(expected);
  });

  it('refuses a different set of fields', () => {
    const { email: _email, ...rest } = submission(true);
    expect(decisionProblems(stored, rest)).toEqual([{ field: 'kycData', message: 'Missing fields: email' }]);
    expect(decisionProblems(rest, submission(true))).toEqual([{ field: 'kycData', message: 'Unknown fields: email' }]);
  });

  it('the wire schema takes exactly the known fields and reasons of at most 100 characters', () => {
    expect(kycDataSchema.safeParse(submission(true)).success).toBe(true);
    expect(kycDataSchema.safeParse({ ...submission(true), extra: submission(true).email }).success).toBe(false);
    const long = setApproved(submission(true), 'email', false);
    expect(kycDataSchema.safeParse({ ...long, email: { ...long.email, reason: 'x'.repeat(101) } }).success).toBe(false);
  });
});

describe('the layout and the call', () => {
  it('lays the sections out: personal details in map order, then contact, UID, address, documents', () => {
    const sections = kycSections(submission());
    expect(sections.map((s) => s.title)).toEqual(['Personal Details', 'Contact', 'UID', 'Address', 'Personal Documents']);
    expect(sections[0].items.map((i) => (i.kind === 'field' ? i.key : i.group))).toEqual(['firstName', 'lastName', 'dateOfBirth', 'gender', 'nationality', 'occupation', 'email']);
    expect(sections[1].items).toEqual([{ kind: 'group', group: 'contact', title: 'Contact', keys: ['dialCode', 'phoneNo'] }]);
    expect(sections[2].items).toEqual([{ kind: 'group', group: 'uid', title: 'UID', keys: ['uidType', 'uid'] }]);
    expect(sections[4].items.map((i) => (i.kind === 'field' ? [i.key, i.title] : []))).toEqual([
      ['uidFrontImage', 'Passport/Other Document Front Image'],
      ['uidBackImage', 'Other Document Back Image'],
      ['userImage', 'Selfie Image'],
    ]);
  });

  const local = (s: string) => new Date(s).toISOString();
  it.each([
    ['no earlier submission', null, '2024-05-01T10:00:00', '2024-05-03T11:00:00', false, 'create-request'],
    ['an earlier one, updated days later', submission(true), '2024-05-01T10:00:00', '2024-05-03T11:00:00', true, 'update-status'],
    ['an earlier one, updated the next minute', submission(true), '2024-05-01T10:00:59', '2024-05-01T10:01:00', true, 'update-status'],
    ['an earlier one, updated in the same minute', submission(true), '2024-05-01T10:00:01', '2024-05-01T10:00:59', false, 'update-status'],
  ] as const)('%s', (_name, earlier, created, updated, shows, call) => {
    const row = { created_at: local(created), updated_at: local(updated), submittedData: earlier };
    expect(showsEarlierSubmission(row)).toBe(shows);
    expect(decisionCall(row)).toBe(call);
  });
});
