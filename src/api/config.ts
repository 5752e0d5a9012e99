import { z } from 'zod';
import { defineCall, emptyBody } from './contract';

/**
 * The settings the console must share with the server. `businessTimeZone` (BUSINESS_TIME_ZONE, an IANA
 * name such as Asia/Colombo): the console reads the default ranges, "today" of the Void/Refund
 * button and every displayed time in it, as the server reads from_date/to_date, "today", the
 * dashboards' days and the settlement batch date, whatever the zones of the browser and the server.
 */
export const consoleConfig = defineCall({
  path: 'config',
  access: 'authenticated',
  summary: 'The business time zone (an IANA name) the server reads every date in, and the console shows every time in.',
  request: emptyBody,
  data: z.object({ businessTimeZone: z.string() }),
});

export const configCalls = [consoleConfig] as const;
