/**
 * KYC review rules (spec 002 §2 "KYC User Information", §4, §5), shared by the review modal and the
 * server: which fields switch together, where a group's reject reason is copied, when Approve is
 * allowed, and what a decision must look like. Pure: no React, no database.
 *
 * A KYC data object is an ordered map of fields, each `{ title, value, approved, reason }`. The known
 * keys are the contact, UID and address groups and the three document images; every other key is a
 * personal detail, in the order the map gives.
 */

export interface KycField {
  readonly title: string;
  /** Text, or an image path served from the API host; null when the user gave nothing. */
  readonly value: string | null;
  readonly approved: boolean;
  readonly reason: string;
}

/** An ordered map of field key → field. */
export type KycData = Readonly<Record<string, KycField>>;

export type KycStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export const KYC_REASON_MAX = 100;

export const kycMessages = {
  reasonRequired: 'Reject reason is required for fields marked as rejected.',
  reasonTooLong: `Reject reason can have at most ${KYC_REASON_MAX} characters`,
  approveTitle: 'Approve the KYC Information!',
  approveText: 'Do you want to Approve the KYC information?',
  rejectTitle: 'Reject the KYC Information!',
  rejectText: 'Do you want Reject the KYC information?',
  created: 'KYC request created',
  createFailed: 'KYC request create failed!',
  updated: 'KYC updated successfully',
  updateFailed: 'KYC update failed!',
  empty: 'No KYC records found.',
} as const;

/** The personal details every submission carries, in this order (titles as the modal shows them). */
export const personalDetailFields = [
  { key: 'firstName', title: 'First Name' },
  { key: 'lastName', title: 'Last Name' },
  { key: 'dateOfBirth', title: 'Date of Birth' },
  { key: 'gender', title: 'Gender' },
  { key: 'nationality', title: 'Nationality' },
  { key: 'occupation', title: 'Occupation' },
  { key: 'email', title: 'Email' },
] as const;

export type KycGroupId = 'contact' | 'uid' | 'address';

export interface KycGroup {
  readonly id: KycGroupId;
  readonly title: string;
  /** The fields one switch sets together. */
  readonly members: readonly string[];
  /** The fields the group's reject reason box writes to (the document images keep their own reasons). */
  readonly reasonMembers: readonly string[];
}

/**
 * The groups: Contact (dial code and phone number), UID (type and number, and both document images,
 * whose switches follow the same state) and Address (country, city, both address lines).
 */
export const kycGroups: readonly KycGroup[] = [
  { id: 'contact', title: 'Contact', members: ['dialCode', 'phoneNo'], reasonMembers: ['dialCode', 'phoneNo'] },
  { id: 'uid', title: 'UID', members: ['uidType', 'uid', 'uidFrontImage', 'uidBackImage'], reasonMembers: ['uidType', 'uid'] },
  { id: 'address', title: 'Address', members: ['country', 'city', 'addressLine1', 'addressLine2'], reasonMembers: ['country', 'city', 'addressLine1', 'addressLine2'] },
];

/** The document images, each with its own reject reason; the first two belong to the UID group. */
export const documentFields = [
  { key: 'uidFrontImage', title: 'Passport/Other Document Front Image' },
  { key: 'uidBackImage', title: 'Other Document Back Image' },
  { key: 'userImage', title: 'Selfie Image' },
] as const;

/** Every key a submission carries, in order: personal details, contact, UID, address, documents. */
export const kycFieldOrder: readonly string[] = [
  ...personalDetailFields.map((f) => f.key),
  'dialCode',
  'phoneNo',
  'uidType',
  'uid',
  'country',
  'city',
  'addressLine1',
  'addressLine2',
  'uidFrontImage',
  'uidBackImage',
  'userImage',
];

export const kycFieldTitles: Readonly<Record<string, string>> = {
  ...Object.fromEntries(personalDetailFields.map((f) => [f.key, f.title])),
  dialCode: 'Dial Code',
  phoneNo: 'Phone Number',
  uidType: 'UID Type',
  uid: 'UID',
  country: 'Country',
  city: 'City',
  addressLine1: 'Address Line 1',
  addressLine2: 'Address Line 2',
  ...Object.fromEntries(documentFields.map((f) => [f.key, f.title])),
};

export const imageFieldKeys: readonly string[] = documentFields.map((f) => f.key);

export function isImageField(key: string): boolean {
  return imageFieldKeys.includes(key);
}

/** The group a field switches with, if any. */
export function groupOf(key: string): KycGroup | undefined {
  return kycGroups.find((g) => g.members.includes(key));
}

export function groupById(id: KycGroupId): KycGroup {
  return kycGroups.find((g) => g.id === id)!;
}

/** The fields one switch of `key` sets: its group's members present in the data, or the field alone. */
export function switchMembers(data: KycData, key: string): string[] {
  const g = groupOf(key);
  return (g ? g.members : [key]).filter((k) => k in data);
}

/** A switch's state: a group is approved when all its members are. */
export function isSwitchApproved(data: KycData, key: string): boolean {
  const members = switchMembers(data, key);
  return members.length > 0 && members.every((k) => data[k].approved);
}

/**
 * Turns a switch: every member of the field's group follows; a field turned to approved loses its
 * reject reason.
 */
export function setApproved(data: KycData, key: string, approved: boolean): KycData {
  const members = new Set(switchMembers(data, key));
  const out: Record<string, KycField> = {};
  for (const [k, f] of Object.entries(data)) {
    out[k] = members.has(k) ? { ...f, approved, reason: approved ? '' : f.reason } : f;
  }
  return out;
}

/**
 * Writes a reject reason (cut at 100 characters). A group id writes its reason to the group's reason
 * members (contact → dialCode, phoneNo; UID → uidType, uid; address → all four); a field key writes
 * to that field alone.
 */
export function setReason(data: KycData, target: string, reason: string): KycData {
  const group = kycGroups.find((g) => g.id === target);
  const keys = new Set((group ? group.reasonMembers : [target]).filter((k) => k in data));
  const text = reason.slice(0, KYC_REASON_MAX);
  const out: Record<string, KycField> = {};
  for (const [k, f] of Object.entries(data)) out[k] = keys.has(k) ? { ...f, reason: text } : f;
  return out;
}

/** The reason a group's reason box shows: its first reason member's. */
export function groupReason(data: KycData, id: KycGroupId): string {
  const first = groupById(id).reasonMembers.find((k) => k in data);
  return first ? data[first].reason : '';
}

/** Approve is offered only when every field is approved. */
export function canApprove(data: KycData): boolean {
  const fields = Object.values(data);
  return fields.length > 0 && fields.every((f) => f.approved);
}

/** The fields marked rejected that have no reason (so the reject dialog must not open). */
export function missingReasons(data: KycData): string[] {
  return Object.entries(data)
    .filter(([, f]) => !f.approved && f.reason.trim() === '')
    .map(([k]) => k);
}

/** The status a decision gives: APPROVED when every field is approved, REJECTED otherwise. */
export function decisionStatus(data: KycData): 'APPROVED' | 'REJECTED' {
  return canApprove(data) ? 'APPROVED' : 'REJECTED';
}

/** A problem with a decision, naming the field as `kycData.<key>` (or `kycData` for the map). */
export interface DecisionProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * What the server refuses in a decision on `stored` (the submission under review): a different set
 * of fields, a changed value, a group whose members disagree, a rejected field without a reason, a
 * group whose reason members carry different reasons, an approved field that still carries a reason,
 * or a reason over 100 characters.
 */
export function decisionProblems(stored: KycData, decided: KycData): DecisionProblem[] {
  const problems: DecisionProblem[] = [];
  const storedKeys = Object.keys(stored);
  const decidedKeys = Object.keys(decided);
  const missing = storedKeys.filter((k) => !(k in decided));
  const extra = decidedKeys.filter((k) => !(k in stored));
  if (missing.length) problems.push({ field: 'kycData', message: `Missing fields: ${missing.join(', ')}` });
  if (extra.length) problems.push({ field: 'kycData', message: `Unknown fields: ${extra.join(', ')}` });
  if (problems.length) return problems;

  for (const k of storedKeys) {
    const f = decided[k];
    if ((f.value ?? null) !== (stored[k].value ?? null)) problems.push({ field: `kycData.${k}`, message: 'The value differs from the submission under review; reload it' });
  }
  for (const g of kycGroups) {
    const present = g.members.filter((k) => k in decided);
    if (new Set(present.map((k) => decided[k].approved)).size > 1) {
      problems.push({ field: `kycData.${present[0]}`, message: `The ${g.title} fields (${present.join(', ')}) must be approved or rejected together` });
    }
    const reasons = g.reasonMembers.filter((k) => k in decided && !decided[k].approved);
    if (new Set(reasons.map((k) => decided[k].reason.trim())).size > 1) {
      problems.push({ field: `kycData.${reasons[0]}`, message: `The ${g.title} fields (${reasons.join(', ')}) share one reject reason` });
    }
  }
  for (const k of storedKeys) {
    const f = decided[k];
    if (f.reason.length > KYC_REASON_MAX) problems.push({ field: `kycData.${k}.reason`, message: kycMessages.reasonTooLong });
    else if (!f.approved && f.reason.trim() === '') problems.push({ field: `kycData.${k}.reason`, message: kycMessages.reasonRequired });
    else if (f.approved && f.reason.trim() !== '') problems.push({ field: `kycData.${k}.reason`, message: 'An approved field has no reject reason' });
  }
  return problems;
}

/** One row of the review layout: a field, or a group shown with one switch and one reason box. */
export type KycItem =
  | { readonly kind: 'field'; readonly key: string; readonly title: string; readonly image: boolean }
  | { readonly kind: 'group'; readonly group: KycGroupId; readonly title: string; readonly keys: readonly string[] };

export interface KycSection {
  readonly title: string;
  readonly items: readonly KycItem[];
}

/**
 * The review modal's sections: Personal Details (every key that is in no group and not a document,
 * in the map's order), Contact, UID, Address (each one item with one switch) and Personal Documents
 * (each image its own item with its own reason box).
 */
export function kycSections(data: KycData): KycSection[] {
  const grouped = new Set(kycGroups.flatMap((g) => g.members));
  const personal = Object.keys(data).filter((k) => !grouped.has(k) && !isImageField(k));
  const groupItem = (id: KycGroupId): KycItem[] => {
    const g = groupById(id);
    const keys = g.reasonMembers.filter((k) => k in data);
    return keys.length ? [{ kind: 'group', group: id, title: g.title, keys }] : [];
  };
  const sections: KycSection[] = [
    { title: 'Personal Details', items: personal.map((k) => ({ kind: 'field', key: k, title: data[k].title, image: false })) },
    { title: 'Contact', items: groupItem('contact') },
    { title: 'UID', items: groupItem('uid') },
    { title: 'Address', items: groupItem('address') },
    {
      title: 'Personal Documents',
      items: imageFieldKeys.filter((k) => k in data).map((k) => ({ kind: 'field', key: k, title: data[k].title, image: true })),
    },
  ];
  return sections.filter((s) => s.items.length > 0);
}

/** 'yyyy-MM-dd HH:mm' of a time, in the reader's time zone. */
function minuteOf(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * The earlier submission is shown beside the current one when it exists and the record's created and
 * updated times differ at minute precision.
 */
export function showsEarlierSubmission(row: { created_at: string; updated_at: string; submittedData: KycData | null }): boolean {
  return !!row.submittedData && Object.keys(row.submittedData).length > 0 && minuteOf(row.created_at) !== minuteOf(row.updated_at);
}

/** Which call confirms a decision: create-request without an earlier submission, update-status with one. */
export function decisionCall(row: { submittedData: KycData | null }): 'create-request' | 'update-status' {
  return row.submittedData && Object.keys(row.submittedData).length > 0 ? 'update-status' : 'create-request';
}
