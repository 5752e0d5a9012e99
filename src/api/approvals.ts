/**
 * The checker's workbench and the maker's side of maker-checker: one inbox of every
 * pending request the caller may decide, a count per area, decisions one at a time or in bulk (each
 * routed to its area's rules), the caller's own requests with their outcome, and withdrawal.
 */
import { z } from 'zod';
import { approvePermissions, makePermissions, REASON_REQUIRED_MESSAGE } from '../domain/approvals';
import { anyOf, decisionComment, defineCall, emptyBody, MAX_ID, recordField } from './contract';

const changeRequestID = z.number().int().positive().max(MAX_ID);

export const changeRequestStatus = z.enum(['PENDING', 'APPROVED', 'REJECTED', 'WITHDRAWN', 'EXPIRED']);

/** A change request with where it stands, as the inbox and My requests show it. */
export const changeRequestSummary = z.object({
  changeRequestId: z.number(),
  /** The area: the record type ('User', 'Bank', ...). */
  type: z.string(),
  pendingAction: z.enum(['CREATE', 'EDIT', 'DELETE']),
  /** For an EDIT that is a named operation, the operation in words ('Refund', 'Void', 'Manual Fund Transfer', 'password reset', ...); else null. */
  operation: z.string().nullable(),
  /** The record's id (null for a CREATE not approved). */
  recordId: z.number().nullable(),
  /** The record it concerns, in words: its name and id. */
  record: z.string(),
  /** The maker's name when the request was made (display only). */
  requestedBy: z.string(),
  /** The maker's account id: what four eyes compares (null: a request older than the ids whose maker's name no account had any more). */
  requestedById: z.number().nullable(),
  requestedTime: z.string(),
  status: changeRequestStatus,
  /** The decider's name when they decided (display only). */
  decidedBy: z.string().nullable(),
  /** The decider's account id (null while pending, for an expired request, or a decision older than the ids by an account gone since). */
  decidedById: z.number().nullable(),
  decidedTime: z.string().nullable(),
  /** The checker's comment; for a rejection, the reason. */
  comment: z.string().nullable(),
  /** The headers of the fields the request changes (every field for a CREATE). */
  changedFields: z.array(z.string()),
  newRecord: z.record(z.string(), recordField),
  originalRecord: z.record(z.string(), recordField).nullable(),
});
export type ChangeRequestSummary = z.infer<typeof changeRequestSummary>;

const areaCount = z.object({ type: z.string(), count: z.number() });

export const myChangeRequests = defineCall({
  path: 'changeRequest/mine',
  access: anyOf(...makePermissions),
  summary:
    "The caller's own change requests (by account: a rename keeps them), newest first (at most 500; `total` says how many there are), with their outcome: pending, approved, rejected (with the reason), withdrawn or expired. Optionally only those with one status.",
  request: z.strictObject({ status: changeRequestStatus.optional() }),
  data: z.object({ requests: z.array(changeRequestSummary), total: z.number() }),
});

export const withdrawChangeRequest = defineCall({
  path: 'changeRequest/withdraw',
  answers: [403, 404, 409],
  access: anyOf(...makePermissions),
  summary: "Withdraw one of your own pending change requests, unlocking its record; 403 for another user's request, 409 when it is no longer pending.",
  request: z.strictObject({ changeRequestID }),
  data: z.object({ message: z.string() }),
});

export const approvalInbox = defineCall({
  path: 'changeRequest/inbox',
  access: anyOf(...approvePermissions),
  summary:
    "The pending change requests the caller may decide (an approve permission for its area, not their own request by account id, not about themselves; a large money action, area Transaction, for a holder of the action's own permission: transaction-refund for voids and refunds, transaction-retry for manual fund transfers), oldest first, a page at a time (`offset`, `limit`: default 100, at most 500; `total`: how many match), optionally of one area, by one maker (account id, or name), or at least minAgeHours old; with the count per area and the makers, before the filter.",
  request: z.strictObject({
    type: z.string().max(50).optional(),
    requestedById: z.number().int().positive().max(MAX_ID).optional(),
    requestedBy: z.string().max(100).optional(),
    minAgeHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 366)
      .optional(),
    offset: z.number().int().min(0).max(1_000_000).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  data: z.object({
    requests: z.array(changeRequestSummary),
    /** How many pending requests match the filter (the page shows `requests.length` of them from `offset`). */
    total: z.number(),
    offset: z.number(),
    counts: z.array(areaCount),
    /** The makers of the requests the caller may decide (before the filter): account id, the account's name now, how many. */
    makers: z.array(z.object({ id: z.number().nullable(), username: z.string(), count: z.number() })),
  }),
});

export const approvalCounts = defineCall({
  path: 'changeRequest/counts',
  access: anyOf(...approvePermissions),
  summary: 'How many pending change requests the caller may decide, per area (the menu badge).',
  request: emptyBody,
  data: z.object({ counts: z.array(areaCount), total: z.number() }),
});

/** A reject from the workbench needs its reason: in the published document, a comment with a character that is not a space. */
const reasonRequiredFacts = {
  if: { properties: { actionTaken: { const: 'reject' } }, required: ['actionTaken'] },
  then: { required: ['comment'], properties: { comment: { pattern: '\\S' } } },
};

/** A reject from the workbench needs its reason. */
function reasonRequired(body: { actionTaken: 'approve' | 'reject'; comment?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.actionTaken === 'reject' && !body.comment?.trim()) ctx.addIssue({ code: 'custom', path: ['comment'], message: REASON_REQUIRED_MESSAGE });
}

export const decideChangeRequest = defineCall({
  path: 'changeRequest/decide',
  answers: [403, 404, 409, 422],
  access: anyOf(...approvePermissions),
  summary: "Approve or reject one pending change request of any area, under that area's approve call's rules and permission; a reject needs a comment (the reason).",
  request: z
    .strictObject({ changeRequestID, actionTaken: z.enum(['approve', 'reject']), comment: decisionComment })
    .superRefine(reasonRequired)
    .meta(reasonRequiredFacts),
  data: z.object({ message: z.string() }),
});

export const decideManyChangeRequests = defineCall({
  path: 'changeRequest/decide-many',
  answers: [403, 404, 409, 422],
  access: anyOf(...approvePermissions),
  summary:
    "Approve or reject several pending change requests with one comment (a reject needs it: the reason); each is decided on its own under its area's rules, and the reply lists each outcome (statusCode 200, or the status and message of the refusal).",
  request: z
    .strictObject({
      changeRequestIDs: z
        .array(changeRequestID)
        .min(1)
        .max(100)
        .refine((ids) => new Set(ids).size === ids.length, 'Each change request may be named once')
        .meta({ uniqueItems: true }),
      actionTaken: z.enum(['approve', 'reject']),
      comment: decisionComment,
    })
    .superRefine(reasonRequired)
    .meta(reasonRequiredFacts),
  data: z.object({ results: z.array(z.object({ changeRequestId: z.number(), statusCode: z.number(), message: z.string() })) }),
});

export const changeRequestHistory = defineCall({
  path: 'changeRequest/history',
  answers: [403, 404],
  access: anyOf(...approvePermissions, ...makePermissions),
  summary:
    "The earlier change requests on the same record as this one (newest first, at most 50), with their outcome, decider and comment; for a holder of the area's approve permission or the request's maker.",
  request: z.strictObject({ changeRequestID }),
  data: z.object({ history: z.array(changeRequestSummary) }),
});

export const approvalCalls = [myChangeRequests, withdrawChangeRequest, approvalInbox, approvalCounts, decideChangeRequest, decideManyChangeRequests, changeRequestHistory] as const;

/**
 * Not a call but a stream: `GET /api/changeRequest/events` (bearer token) answers
 * `text/event-stream` with an event `change` (data `{"type": <area>}`) whenever a change request is
 * made, decided, withdrawn or expires, on any server process (PostgreSQL LISTEN/NOTIFY). The approvals
 * inbox reloads on it; the counts themselves come from changeRequest/counts.
 */
export const changeRequestEvents = {
  path: 'changeRequest/events',
  access: anyOf(...approvePermissions),
  summary:
    'Server-sent events: `change` with `{"type": <area>}` whenever a change request is made, decided, withdrawn or expires (on any server process); then reload changeRequest/counts or changeRequest/inbox. 503 when the database cannot LISTEN.',
} as const;
