/**
 * The controls of issue 20 beyond maker-checker itself: the activity log's hash chain check, the
 * large money actions' approvals, and the segregation-of-duties report.
 */
import { z } from 'zod';
import { SUPER_PERMISSION } from '../domain/permissions';
import { anyOf, defineCall, emptyBody } from './contract';

// ---- the activity log's hash chain -----------------------------------------------------------------

export const chainBreak = z.object({
  problem: z.enum(['EDITED', 'RELINKED', 'MISSING', 'HEAD_MISMATCH']),
  chainSeq: z.number(),
  id: z.number().nullable(),
  message: z.string(),
});

export const verifyActivityLogCall = defineCall({
  path: 'report/verify-activity-log',
  access: anyOf(SUPER_PERMISSION),
  summary:
    'Super users only: walks the activity log hash chain (each entry hashes its content and the previous entry hash) and reports the first entry that does not match (edited, relinked, missing), with the chain head to keep elsewhere.',
  request: emptyBody,
  data: z.object({
    ok: z.boolean(),
    checked: z.number(),
    headSeq: z.number(),
    headHash: z.string(),
    firstBreak: chainBreak.nullable(),
  }),
});

export const controlCalls = [verifyActivityLogCall] as const;
