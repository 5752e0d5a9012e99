/** IPG providers (spec 002 §2 "IPG Providers list", §3, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody, MAX_ID } from './contract';

export const providerRow = z.object({
  id: z.number(),
  provider_bank_code: z.string(),
  provider_bank_name: z.string(),
  /** The stored logo's path (served by GET /<path>), or null. */
  provider_logo: z.string().nullable(),
  disabled: z.number(),
  status: z.string(),
  locked: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProviderRow = z.infer<typeof providerRow>;

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const providerList = defineCall({
  path: 'IPGProvider/list',
  access: anyOf('ipg-provider-view'),
  summary: 'Every IPG provider, with pending activate/deactivate requests.',
  request: emptyBody,
  data: z.object({ providers: z.array(providerRow), changeRequests: z.array(changeRequest) }),
});

export const providerDisable = defineCall({
  path: 'IPGProvider/disable',
  answers: [404, 409, 422],
  access: anyOf('ipg-provider-edit'),
  summary: 'Request to deactivate (disable true) or activate (false) a provider (an EDIT change request).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID), disable: z.boolean() }),
  data: sentForApproval,
});

export const providerApprove = defineCall({
  path: 'IPGProvider/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('ipg-provider-approve'),
  summary: 'Approve or reject a pending provider activate/deactivate request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const providerCalls = [providerList, providerDisable, providerApprove] as const;
