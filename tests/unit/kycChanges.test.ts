/** What a KYC re-submission changed (src/domain/kycChanges.ts): the fields the review marks and "Changed only" keeps. */
import { describe, expect, it } from 'vitest';
import { changedKycFields, isKycItemChanged, kycItemKeys, normalisedKycValue, sameKycValue } from '../../src/domain/kycChanges';
import { kycFieldOrder, kycFieldTitles, kycSections, type KycData } from '../../src/domain/kyc';

/** A submission with the given values (the rest as in `base`), every field approved. */
function submission(values: Record<string, string | null> = {}): KycData {
  return Object.fromEntries(
    kycFieldOrder.map((k) => [k, { title: kycFieldTitles[k], value: k in values ? values[k] : k.endsWith('Image') ? `images/kyc/u1/s1-${k}.png` : `value of ${k}`, approved: true, reason: '' }]),
  );
}

describe('normalised values', () => {
  it.each([
    ['  Colombo ', 'Colombo'],
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['   ', ''],
    ['images/kyc/u1/s1-selfie.png?exp=1765000000&sig=AbC_d-123', 'images/kyc/u1/s1-selfie.png'],
    ['images/kyc/u1/s1-selfie.png?exp=1765000000&sig=AbC_d-123&t=42', 'images/kyc/u1/s1-selfie.png'],
    ['images/kyc/u1/s1-selfie.png', 'images/kyc/u1/s1-selfie.png'],
    ['data:image/png;base64,iVBORw0KGgo=', 'data:image/png;base64,iVBORw0KGgo='],
    // a query that is not a signature is part of the value
    ['https://example.com/a.png?size=2', 'https://example.com/a.png?size=2'],
  ])('%j compares as %j', (value, expected) => {
    expect(normalisedKycValue(value)).toBe(expected);
  });

  it('null, empty and blank are alike; case and inner spaces are not', () => {
    expect(sameKycValue(null, '')).toBe(true);
    expect(sameKycValue('  ', null)).toBe(true);
    expect(sameKycValue(' Flat 2 ', 'Flat 2')).toBe(true);
    expect(sameKycValue('Flat 2', 'flat 2')).toBe(false);
    expect(sameKycValue('Flat  2', 'Flat 2')).toBe(false);
    expect(sameKycValue(null, 'Flat 2')).toBe(false);
  });
});

describe('changed fields', () => {
  it('no earlier submission: nothing is changed', () => {
    expect(changedKycFields(submission({ city: 'Kandy' }), null)).toEqual([]);
    expect(changedKycFields(submission({ city: 'Kandy' }), undefined)).toEqual([]);
    expect(changedKycFields(submission({ city: 'Kandy' }), {})).toEqual([]);
  });

  it('the same values (approvals and reasons aside) change nothing', () => {
    const earlier = Object.fromEntries(Object.entries(submission()).map(([k, f]) => [k, { ...f, approved: false, reason: 'Unreadable' }]));
    expect(changedKycFields(submission(), earlier)).toEqual([]);
  });

  it('lists the fields whose value differs, in the submission order', () => {
    const earlier = submission({ phoneNo: '771234567', city: 'Colombo', addressLine2: null });
    const current = submission({ phoneNo: '779876543', city: ' Colombo ', addressLine2: 'Flat 2', dateOfBirth: '1990-01-02' });
    expect(changedKycFields(current, earlier)).toEqual(['dateOfBirth', 'phoneNo', 'addressLine2']);
  });

  it('null and empty alike: a blank second address line replacing none is no change', () => {
    expect(changedKycFields(submission({ addressLine2: '' }), submission({ addressLine2: null }))).toEqual([]);
    expect(changedKycFields(submission({ uidBackImage: null }), submission({ uidBackImage: '' }))).toEqual([]);
  });

  it('images compare by reference: a new upload is a change, two signatures of one image are not', () => {
    const earlier = submission({ userImage: 'images/kyc/u1/s1-selfie.png?exp=1765000000&sig=first', uidFrontImage: 'images/kyc/u1/s1-front.png?exp=1765000000&sig=a' });
    const current = submission({ userImage: 'images/kyc/u1/s2-selfie.png?exp=1765000001&sig=second', uidFrontImage: 'images/kyc/u1/s1-front.png?exp=1765000001&sig=b' });
    expect(changedKycFields(current, earlier)).toEqual(['userImage']);
  });

  it('an image removed or added is a change', () => {
    expect(changedKycFields(submission({ uidBackImage: null }), submission())).toEqual(['uidBackImage']);
    expect(changedKycFields(submission(), submission({ uidBackImage: null }))).toEqual(['uidBackImage']);
  });

  it('a field only one submission has counts as changed when it has a value there', () => {
    const earlier: KycData = { ...submission(), middleName: { title: 'Middle Name', value: 'Kumari', approved: true, reason: '' } };
    const current: KycData = { ...submission(), nickname: { title: 'Nickname', value: '  ', approved: true, reason: '' } };
    expect(changedKycFields(current, earlier)).toEqual(['middleName']);
  });
});

describe('items of the review layout', () => {
  const data = submission();
  const items = kycSections(data).flatMap((s) => s.items);
  const item = (id: string) => items.find((i) => (i.kind === 'field' ? i.key : i.group) === id)!;

  it('a group item shows its members, the UID group without its document images', () => {
    expect(kycItemKeys(item('contact'))).toEqual(['dialCode', 'phoneNo']);
    expect(kycItemKeys(item('uid'))).toEqual(['uidType', 'uid']);
    expect(kycItemKeys(item('userImage'))).toEqual(['userImage']);
  });

  it('an item is changed when any field it shows changed', () => {
    const changed = new Set(changedKycFields(submission({ city: 'Galle', uidFrontImage: 'images/kyc/u1/s2-front.png' }), data));
    expect(items.filter((i) => isKycItemChanged(i, changed)).map((i) => (i.kind === 'field' ? i.key : i.group))).toEqual(['address', 'uidFrontImage']);
  });
});
