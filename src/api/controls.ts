/**
 * The controls beyond maker-checker itself: the activity log's hash chain check, the
 * large money actions' approvals, and the segregation-of-duties report.
 */
import { z } from 'zod';
import { anyOf, changeRequest, decisionBody, defineCall, emptyBody } from './contract';

// ---- the activity log's hash chain -----------------------------------------------------------------

export const chainBreak = z.object({
  problem: z.enum(['EDITED', 'RELINKED', 'MISSING', 'HEAD_MISMATCH']),
  chainSeq: z.number(),
  id: z.number().nullable(),
  message: z.string(),
});

export const verifyActivityLogCall = defineCall({
  path: 'report/verify-activity-log',
  access: anyOf('activity-log-verify'),
  summary:
    'Holders of activity-log-verify (in the demo roles, the administrator only): walks the activity log hash chain (each entry hashes its content and the previous entry hash) and reports the first entry that does not match (edited, relinked, missing), with the chain head to keep elsewhere.',
  request: emptyBody,
  data: z.object({
    ok: z.boolean(),
    checked: z.number(),
    headSeq: z.number(),
    headHash: z.string(),
    firstBreak: chainBreak.nullable(),
  }),
});

// ---- large money actions waiting for a second person ----------------------------------------------

export const moneyApprovalRow = z.object({
  changeRequestId: z.number(),
  transactionId: z.number(),
  trace: z.string(),
  action: z.enum(['Void', 'Refund', 'Manual Fund Transfer']),
  currency: z.string(),
  amount: z.number(),
  amountUsd: z.number(),
  requestedBy: z.string(),
  requestedTime: z.string(),
});
export type MoneyApprovalRow = z.infer<typeof moneyApprovalRow>;

export const moneyApprovalList = defineCall({
  path: 'transaction/money-approval/list',
  access: anyOf('transaction-refund', 'transaction-retry'),
  summary:
    'The voids, refunds and manual fund transfers above MONEY_ACTION_APPROVAL_ABOVE_USD waiting for a second person, those the caller may decide (transaction-refund: voids and refunds; transaction-retry: manual fund transfers; never their own), oldest first, with their change requests. The same requests are in changeRequest/inbox (area Transaction).',
  request: emptyBody,
  data: z.object({ requests: z.array(moneyApprovalRow), changeRequests: z.array(changeRequest) }),
});

export const moneyApprovalApprove = defineCall({
  path: 'transaction/money-approval/approve',
  answers: [403, 404, 409, 422, 502],
  access: anyOf('transaction-refund', 'transaction-retry'),
  summary: "Approve (the action runs then, once, its guards checked again) or reject a waiting money action; the decider needs the action's own permission and may not be its maker.",
  request: decisionBody,
  data: z.object({ message: z.string() }),
});

// ---- segregation of duties -------------------------------------------------------------------------

export const sodFinding = z.object({
  id: z.number(),
  finding: z.enum(['Role can make and approve', 'User can make and approve', 'Approved own request', 'Rejected own request', 'Renamed while pending', 'Mutual approvals']),
  subject: z.string(),
  area: z.string(),
  detail: z.string(),
});
export type SodFinding = z.infer<typeof sodFinding>;

export const sodReport = defineCall({
  path: 'report/segregation-of-duties',
  access: anyOf('sod-report-view'),
  summary:
    "Segregation of duties: the active roles and users that can both make and approve in the same area (src/domain/segregation.ts), every change request approved or rejected by its own maker, compared by account id (there must be none), every decision where the maker's or the decider's account was renamed while the request was pending, and the pairs of users who approve each other more than `threshold` (a share 0..1, default 0.5) of their approved requests in the last `days` days (default 90).",
  request: z.strictObject({
    threshold: z.number({ error: 'threshold: enter a share from 0 to 1' }).min(0, 'threshold: enter a share from 0 to 1').max(1, 'threshold: enter a share from 0 to 1').default(0.5),
    days: z
      .number({ error: 'days: enter a whole number of days from 1 to 3650' })
      .int('days: enter a whole number of days from 1 to 3650')
      .min(1, 'days: enter a whole number of days from 1 to 3650')
      .max(3650, 'days: enter a whole number of days from 1 to 3650')
      .default(90),
  }),
  data: z.object({
    findings: z.array(sodFinding),
    /** Change requests decided (approved or rejected) by their own maker's account. */
    selfApprovedCount: z.number(),
    /** Decisions where the maker's or the decider's account was renamed while the request was pending. */
    renamedWhilePendingCount: z.number(),
    mutualPairCount: z.number(),
  }),
});

export const controlCalls = [verifyActivityLogCall, moneyApprovalList, moneyApprovalApprove, sodReport] as const;
