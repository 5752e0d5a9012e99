/**
 * Find by trace, ID or UID: one call that looks a value up across the five transaction
 * services and all dates. The rows come in the shape of each service's operational list row (the
 * send-money row also carries the bank code of the auditor's row), so a console can show any of them
 * with that service's column definitions and row actions.
 */
import { z } from 'zod';
import { defineCall, anyOf, MAX_ID } from './contract';
import { billRow, ceftRow, eChannellingRow, insuranceRow, thyagaRow } from './transactions';
import { anyFindPermission, findServices } from '../domain/transactionFinder';

/** The longest value looked up (traces are 15 characters, UIDs a NIC or passport number). */
export const FIND_VALUE_MAX = 40;
/** Rows returned per service at most (a UID can have many transactions): the newest first. */
export const FIND_ROWS_PER_SERVICE = 20;

export const findBody = z
  .strictObject({
    value: z
      .string({ error: 'Enter a trace, ID or UID' })
      .trim()
      .min(1, 'Enter a trace, ID or UID')
      .max(FIND_VALUE_MAX, `A trace, ID or UID has at most ${FIND_VALUE_MAX} characters`)
      .regex(/^[A-Za-z0-9_-]+$/, 'A trace, ID or UID has only letters, digits, - and _'),
    /** Look in this service only (e.g. the drawer reloading the row it shows). */
    service: z.enum(findServices, { error: `Choose one of ${findServices.join(', ')}` }).optional(),
    /** Only by ID: the value is a row id, not a trace or UID (the drawer reloading the row it shows). */
    by: z.enum(['any', 'id'], { error: 'Choose any or id' }).default('any'),
  })
  // by id, the value is a row id, a whole number from 1 to 2147483647 (the document states up to 9 digits)
  .meta({ if: { properties: { by: { const: 'id' } }, required: ['by'] }, then: { properties: { value: { pattern: '^[1-9][0-9]{0,8}$' } } } });
export type FindBody = z.input<typeof findBody>;

/** The send-money row with both the bank name (operational screen) and the bank code (auditor screen). */
export const ceftFindRow = ceftRow.extend({ bank_code: z.string() });

const matchedBy = z.enum(['id', 'trace', 'uid']);
/** How the value matched, and the row's overall status (SUCCESS, PENDING, FAILED, REFUNDED or HOLD), which every service keeps. */
const base = { matchedBy, status: z.string() };

export const findMatch = z.discriminatedUnion('service', [
  z.object({ service: z.literal('ceft'), ...base, row: ceftFindRow }),
  z.object({ service: z.literal('bill'), ...base, row: billRow }),
  z.object({ service: z.literal('echannelling'), ...base, row: eChannellingRow }),
  z.object({ service: z.literal('thyaga'), ...base, row: thyagaRow }),
  z.object({ service: z.literal('insurance'), ...base, row: insuranceRow }),
]);
export type FindMatch = z.infer<typeof findMatch>;

export const findData = z.object({
  /** Newest first (initiated time), at most FIND_ROWS_PER_SERVICE per service. */
  matches: z.array(findMatch),
  /** The services that were looked in: those the caller may view (and `service`, when given). */
  searched: z.array(z.enum(findServices)),
  /** A service had more matching rows than it returned. */
  truncated: z.boolean(),
});
export type FindData = z.infer<typeof findData>;

export const findTransactions = defineCall({
  path: 'Transaction/find',
  answers: [403],
  access: anyOf(...anyFindPermission),
  summary:
    `Looks a trace, transaction ID or customer UID up (exact, case-insensitive) across send money, bill payments, E-Channelling, Thyaga and insurance, over all dates, ` +
    `returning each matching row with its service, newest first, at most ${FIND_ROWS_PER_SERVICE} per service. ` +
    'Permission rule: only the services the caller may view are searched (send money: send-money-report-view or auditor-report-view; bill payments: bill-payment-report-view or auditor-report-view; ' +
    'E-Channelling: echannelling-report-view or auditor-report-view; Thyaga: thyaga-report-view or auditor-report-view; insurance: insurance-report-view); ' +
    "an IPG bank user finds only their own provider's rows. A `service` the caller may not view is a 403. Served by the trace, UID and id indexes of each service (no date range).",
  request: findBody,
  data: findData,
});

export const finderCalls = [findTransactions] as const;

/** The largest id a value can name (larger digit strings are looked up as a trace or UID only). */
export const FIND_MAX_ID = MAX_ID;
