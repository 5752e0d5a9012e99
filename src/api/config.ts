import { z } from 'zod';
import { defineCall, emptyBody } from './contract';

/**
 * The settings the console must share with the server. `businessTimeZone` (BUSINESS_TIME_ZONE, an IANA
 * name such as Asia/Colombo): the console reads the default ranges, "today" of the Void/Refund
 * button and every displayed time in it, as the server reads from_date/to_date, "today", the
 * dashboards' days and the settlement batch date, whatever the zones of the browser and the server.
 * `moneyActionApprovalAboveUsd` (MONEY_ACTION_APPROVAL_ABOVE_USD; null when unset): the amount above
 * which a void, refund or manual fund transfer waits for a second person; the console offers the
 * money approvals (Approvals and My requests for the action permissions, Money Action Approvals) only
 * while it is set.
 */
export const consoleConfig = defineCall({
  path: 'config',
  access: 'authenticated',
  summary:
    'For any signed-in user: the business time zone (an IANA name) the server reads every date in, and the console shows every time in; and moneyActionApprovalAboveUsd, the amount in USD above which a void, refund or manual fund transfer waits for a second person (MONEY_ACTION_APPROVAL_ABOVE_USD; null when off).',
  request: emptyBody,
  data: z.object({ businessTimeZone: z.string(), moneyActionApprovalAboveUsd: z.number().nullable() }),
});

export const configCalls = [consoleConfig] as const;
