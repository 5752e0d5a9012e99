/**
 * What a KYC re-submission changed (spec 002 §2 "KYC User Information"): the review shows the current
 * submission beside the earlier one and marks each field whose value differs. Pure: no React, no
 * database.
 *
 * Values are compared normalised: surrounding white space does not count, and null, missing and empty
 * are the same "nothing given". An image compares by its reference: the stored path (or content
 * string) it stands for, so two short-lived signed URLs of one image (`images/...?exp=&sig=`, signed
 * a second apart) are the same image, and a new upload is a change.
 */
import type { KycData, KycItem } from './kyc';

/** A signed URL of a stored image: its path, then the signature (and a cache-busting `t`). */
const SIGNED_IMAGE_URL = /^(images\/[^?#]+)\?exp=\d+&sig=[A-Za-z0-9_-]+(?:&t=\d+)?$/;

/** A field's value as compared: trimmed, nothing given as '', an image's signed URL as its path. */
export function normalisedKycValue(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  const signed = SIGNED_IMAGE_URL.exec(text);
  return signed ? signed[1]! : text;
}

/** Whether two values of a field are the same once normalised. */
export function sameKycValue(a: string | null | undefined, b: string | null | undefined): boolean {
  return normalisedKycValue(a) === normalisedKycValue(b);
}

/**
 * The keys of the fields whose value differs from the earlier submission, in the current submission's
 * order (then any field only the earlier one has). No earlier submission: nothing changed.
 */
export function changedKycFields(current: KycData, earlier: KycData | null | undefined): string[] {
  if (!earlier || Object.keys(earlier).length === 0) return [];
  const keys = [...Object.keys(current), ...Object.keys(earlier).filter((k) => !(k in current))];
  return keys.filter((k) => !sameKycValue(current[k]?.value, earlier[k]?.value));
}

/**
 * The fields one item of the review layout shows: a field alone, or a group's shown members (the UID
 * group shows type and number; its document images are items of their own).
 */
export function kycItemKeys(item: KycItem): readonly string[] {
  return item.kind === 'field' ? [item.key] : item.keys;
}

/** Whether any field an item shows changed. */
export function isKycItemChanged(item: KycItem, changed: ReadonlySet<string>): boolean {
  return kycItemKeys(item).some((k) => changed.has(k));
}
