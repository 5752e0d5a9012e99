/** Registered mobile-app users (spec 002 §2 "App Users list", §3, §5, §7). */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, exportField, listFetchCount, listMatching, searchText, MAX_ID } from './contract';

export const appUserMessages = {
  holdComment: 'Hold/Unhold comment is required.',
  holdCommentLength: 'Hold/Unhold comment can have at most 100 characters',
} as const;

export const appUserLimits = { holdComment: 100 } as const;

export const appUserRow = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  uidType: z.string(),
  uid: z.string(),
  contact: z.string(),
  email: z.string(),
  /** The country's name. */
  country: z.string(),
  countryCode: z.string(),
  /** 'Active', 'On Hold' or 'Inactive'. */
  status: z.string(),
  disabled: z.number(),
  hold: z.number(),
  locked: z.number(),
  user_hold_reason: z.string(),
  /**
   * The identity documents, as signed URLs valid for minutes (`images/...?exp=&sig=`, served by
   * GET /<url>; the bare path is refused), or null when missing.
   */
  selfie: z.string().nullable(),
  uidFront: z.string().nullable(),
  uidBack: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AppUserRow = z.infer<typeof appUserRow>;

export const appUserList = defineCall({
  path: 'AppUser/list',
  access: anyOf('app-user-view', 'auditor-app-user-view'),
  summary:
    'App users whose UID, email or contact number starts with the text, in a country (empty: all), newest first, at most fetchCount; with the countries and, for approvers, pending change requests.',
  request: z.strictObject({
    data: searchText.default(''),
    countryCode: z.string().max(3).default(''),
    fetchCount: listFetchCount,
  }),
  data: z.object({
    appUsers: z.array(appUserRow),
    countries: z.array(z.object({ code: z.string(), name: z.string() })),
    changeRequests: z.array(changeRequest),
    fields: z.array(exportField),
  }),
  top: listMatching,
});

const sentForApproval = z.object({ message: z.string(), changeRequestId: z.number() });

export const appUserDisable = defineCall({
  path: 'AppUser/disable',
  answers: [404, 409, 422],
  access: anyOf('app-user-edit'),
  summary: 'Request to deactivate (disable true) or activate (false) an app user (an EDIT change request).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID), disable: z.boolean() }),
  data: sentForApproval,
});

export const holdComment = z.string().trim().min(1, appUserMessages.holdComment).max(appUserLimits.holdComment, appUserMessages.holdCommentLength);

export const appUserHold = defineCall({
  path: 'AppUser/hold',
  answers: [404, 409, 422],
  access: anyOf('app-user-edit'),
  summary: 'Request to hold (hold true) or release (false) an app user, with a comment (an EDIT change request).',
  request: z.strictObject({ id: z.number().int().positive().max(MAX_ID), hold: z.boolean(), description: holdComment }),
  data: sentForApproval,
});

export const appUserApprove = defineCall({
  path: 'AppUser/approve',
  answers: [403, 404, 409, 422],
  access: anyOf('app-user-approve'),
  summary: 'Approve or reject a pending app user change request.',
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

export const appUserCalls = [appUserList, appUserDisable, appUserHold, appUserApprove] as const;
