/** KYC review calls (spec 002 §7): the list, and the reviewer's decision on a submission. */
import { z } from 'zod';
import { anyOf, defineCall, listFetchCount, listMatching, searchText, MAX_ID } from './contract';
import { KYC_REASON_MAX, kycFieldOrder, kycMessages } from '../domain/kyc';

/** One field of a KYC data object: title, read-only value, the reviewer's flag and reject reason. */
export const kycField = z.strictObject({
  title: z.string().max(200),
  value: z.string().max(2000).nullable(),
  approved: z.boolean(),
  reason: z.string().max(KYC_REASON_MAX, kycMessages.reasonTooLong),
});

/** A KYC data object: every known field, in the submission's order (no others). */
export const kycData = z.strictObject(Object.fromEntries(kycFieldOrder.map((k) => [k, kycField])) as Record<string, typeof kycField>);

export const kycStatusValues = ['PENDING', 'APPROVED', 'REJECTED'] as const;

export const kycRow = z.object({
  kycId: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  uid_type: z.string(),
  uid: z.string(),
  phone_no: z.string(),
  email: z.string(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The latest submission, with the reviewer's decisions once it is reviewed. Image values are signed
   * URLs valid for minutes (`images/...?exp=&sig=`); a decision may send them back as they came.
   */
  currentData: z.record(z.string(), kycField),
  /** The earlier (reviewed) submission, or null for a first submission. */
  submittedData: z.record(z.string(), kycField).nullable(),
  /** Who reviewed the current submission and when (null while it is pending). */
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type KycRow = z.infer<typeof kycRow>;

export const kycList = defineCall({
  path: 'kyc/get-all',
  access: anyOf('kyc-view'),
  summary: 'KYC records matching the search text (UID, email or contact number) and status ("" = all), latest first, up to fetchCount.',
  request: z.strictObject({
    data: searchText.default(''),
    kycStatus: z.enum(['', ...kycStatusValues]).default(''),
    fetchCount: listFetchCount,
  }),
  data: z.object({ kycList: z.array(kycRow) }),
  top: listMatching,
});

const decisionReply = z.object({ message: z.string(), status: z.enum(['APPROVED', 'REJECTED']) });

export const kycCreateRequest = defineCall({
  path: 'kyc/create-request',
  answers: [403, 404, 409],
  access: anyOf('kyc-approve'),
  summary:
    'Decide a first KYC submission (no earlier one): needs kyc-view and kyc-approve; the status becomes APPROVED when every field is approved, else REJECTED; 400 names a rejected field without a reason.',
  request: z.strictObject({ userId: z.number().int().positive().max(MAX_ID), kycData }),
  data: decisionReply,
});

export const kycUpdateStatus = defineCall({
  path: 'kyc/update-status',
  answers: [403, 404, 409],
  access: anyOf('kyc-approve'),
  summary:
    'Decide a re-submission (an earlier submission exists): needs kyc-view and kyc-approve; the status becomes APPROVED when every field is approved, else REJECTED; 400 names a rejected field without a reason.',
  request: z.strictObject({ kycId: z.number().int().positive().max(MAX_ID), kycData }),
  data: decisionReply,
});

export const kycCalls = [kycList, kycCreateRequest, kycUpdateStatus] as const;
