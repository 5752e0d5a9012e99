/** Banks (spec 002 §2 "Banks list", "Create Bank / Edit Bank", §5, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody, MAX_ID } from './contract';
import { imageField, logoRule } from './imageUpload';

export const bankMessages = {
  name: 'Name can only have alphanumeric characters with &. and should be at least 3 characters long',
  code: "Bank Code can only have alphanumeric characters with '_' and should be at least 3 characters long",
  logoRequired: 'Please upload an image',
  logoInvalid: 'Uploaded image is invalid',
} as const;

export const bankLimits = { name: 100, code: 100 } as const;

export const bankPatterns = {
  /** Letters, digits, spaces, '&' and '.', at least 3 characters, not blank. */
  name: /^(?=.*[A-Za-z0-9])[A-Za-z0-9&. ]{3,}$/,
  /** Word characters, at least 3. */
  code: /^\w{3,}$/,
} as const;

export const bankRow = z.object({
  id: z.number(),
  bank_code: z.string(),
  bank_name: z.string(),
  /** The stored logo's path (served by GET /<path>), or null. */
  logo: z.string().nullable(),
  disabled: z.number(),
  status: z.string(),
  locked: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BankRow = z.infer<typeof bankRow>;

/** The bank form's fields and rules, the same on the console and the server. */
export const bankFields = {
  bank_code: z.string().max(bankLimits.code, bankMessages.code).regex(bankPatterns.code, bankMessages.code),
  bank_name: z.string().max(bankLimits.name, bankMessages.name).regex(bankPatterns.name, bankMessages.name),
  /** A new logo as base64 (PNG or JPEG under 100 KB, no prefix), or the stored path when unchanged. */
  logo: imageField(logoRule, { required: bankMessages.logoRequired, invalid: bankMessages.logoInvalid }),
  disabled: z.union([z.literal(0), z.literal(1)]),
};
export const bankFormSchema = z.strictObject(bankFields);
/** A bank's fields as the form holds them and the create call takes them (the logo as base64 or the stored path). */
export type BankValues = z.output<typeof bankFormSchema>;

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const bankList = defineCall({
  path: 'bank/list',
  access: anyOf('bank-view'),
  summary: 'Every bank, with pending change requests.',
  request: emptyBody,
  data: z.object({ banks: z.array(bankRow), changeRequests: z.array(changeRequest) }),
});

export const bankGetForEdit = defineCall({
  path: 'bank/get-for-edit',
  answers: [404],
  access: anyOf('bank-edit'),
  summary: 'One bank, shaped for the edit form (the logo as its stored path).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID) }),
  data: z.object({ bank: bankRow }),
});

export const bankCreate = defineCall({
  path: 'bank/create',
  answers: [422],
  access: anyOf('bank-create'),
  summary: 'Request a new bank (a CREATE change request); the logo is stored at once and used if approved.',
  request: bankFormSchema,
  data: sentForApproval,
});

export const bankEdit = defineCall({
  path: 'bank/edit',
  answers: [404, 409, 422],
  access: anyOf('bank-edit'),
  summary: 'Request a change to a bank (an EDIT change request); the code cannot change, an unchanged logo is sent as its path.',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID), ...bankFields }),
  data: sentForApproval,
});

export const bankApprove = defineCall({
  path: 'bank/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('bank-approve'),
  summary: 'Approve or reject a pending bank change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const bankCalls = [bankList, bankGetForEdit, bankCreate, bankEdit, bankApprove] as const;
