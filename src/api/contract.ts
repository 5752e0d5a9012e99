/**
 * The wire contract. Every call is `POST /api/<path>` with a JSON body and a bearer token; the reply
 * body is `{ statusCode, data, ...top }` and the HTTP status equals `statusCode`.
 *
 * A contract names its path, who may call it, the zod schema of its request body and of the reply's
 * `data` (plus, for the few calls the specification gives top-level extras, `top`). The console's
 * request helper and the server's route registration are both typed by these schemas.
 */
import { z } from 'zod';
import { dateBoundsMessage, isWithinDateBounds } from '../domain/dates';
import type { Permission } from '../domain/permissions';
import type { CallAccess } from '../domain/access';
import { COMMENT_MAX, COMMENT_TOO_LONG_MESSAGE } from '../domain/approvals';

/** Who may make a call: see CallAccess (src/domain/access.ts), whose `mayCall` the server asks. */
export type Access = CallAccess;

/** A status a handler may answer besides 200 (see CallContract.answers). */
export type HandlerStatus = 401 | 403 | 404 | 406 | 409 | 410 | 422 | 429 | 502;

export interface CallContract<Path extends string = string, Req extends z.ZodType = z.ZodType, Data extends z.ZodType = z.ZodType, Top extends z.ZodType = z.ZodType> {
  readonly path: Path;
  readonly access: Access;
  readonly request: Req;
  readonly data: Data;
  readonly top?: Top;
  /**
   * The failures the call's own handler may answer (HttpError statuses in src/server/areas/ and the
   * modules they use), besides the HTTP layer's, which every call can answer (src/api/openapi.ts
   * `layerStatuses`): 400, 413, 415, 500, and 401, 403 for a call that needs sign-in. The OpenAPI
   * document lists both, and tests/api/openapiResponses.test.ts fails on a status it does not list.
   */
  readonly answers?: readonly HandlerStatus[];
  /** One sentence for the published contract. */
  readonly summary: string;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the shape of z.object({}), as zod itself types it
export function defineCall<Path extends string, Req extends z.ZodType, Data extends z.ZodType, Top extends z.ZodType = z.ZodObject<{}>>(
  c: CallContract<Path, Req, Data, Top>,
): CallContract<Path, Req, Data, Top> {
  return c;
}

/** Shorthand for a call open to holders of any of these permissions. */
export function anyOf(...permissions: Permission[]): Access {
  return { anyOf: permissions };
}

export type RequestOf<C> = C extends CallContract<string, infer R, z.ZodType, z.ZodType> ? z.input<R> : never;
export type DataOf<C> = C extends CallContract<string, z.ZodType, infer D, z.ZodType> ? z.output<D> : never;
export type TopOf<C> = C extends CallContract<string, z.ZodType, z.ZodType, infer T> ? z.output<T> : never;

/** The reply envelope as the console sees it. */
export type Reply<C> = { statusCode: number; data: DataOf<C> } & Partial<TopOf<C>>;

/** An empty request body: `{}` (also accepts no body at all). */
export const emptyBody = z.strictObject({});

/** The failure reply: `data.message` says what went wrong, naming the field for a bad body. */
export const errorData = z.object({
  message: z.string(),
  code: z.number().optional(),
  /** Only on a 500: the id under which the server logged the unexpected error. */
  correlationId: z.string().optional(),
});
export type ErrorData = z.infer<typeof errorData>;

// ---- shared wire shapes ----------------------------------------------------------------------

/** Most decimals a DOUBLE export column may ask for. */
export const MAX_EXPORT_DECIMALS = 6;

/**
 * Export column items: DOUBLE columns are right-aligned in the PDF, with `decimals` decimals (default
 * 2; exchange rates 4) in every export format.
 */
export const exportField = z.object({
  header: z.string(),
  dataKey: z.string(),
  type: z.enum(['STRING', 'DOUBLE', 'INTEGER', 'DATE', 'BOOLEAN']),
  decimals: z.number().int().min(0).max(MAX_EXPORT_DECIMALS).optional(),
});
export type ExportField = z.infer<typeof exportField>;

export const fieldKind = z.enum(['STRING', 'STRING_ARRAY', 'IMAGE', 'IMAGE_ARRAY']);
export type FieldKind = z.infer<typeof fieldKind>;

export const recordField = z.object({ header: z.string(), type: fieldKind, value: z.unknown() });
export type RecordField = z.infer<typeof recordField>;

/** A pending change request as every list call returns it. */
export const changeRequest = z.object({
  changeRequestId: z.number(),
  type: z.string(),
  pendingAction: z.enum(['CREATE', 'EDIT', 'DELETE']),
  requestedBy: z.string(),
  requestedTime: z.string(),
  newRecord: z.record(z.string(), recordField),
  originalRecord: z.record(z.string(), recordField).nullable(),
});
export type ChangeRequest = z.infer<typeof changeRequest>;

/**
 * The largest record id: ids are PostgreSQL `serial` (integer) columns, so a bigger number cannot name
 * a record, and sent to the database it would fail there instead of being refused here.
 */
export const MAX_ID = 2_147_483_647;

/**
 * A checker's comment on a decision (a reject's reason): optional on the specification's approve
 * calls, at most 200 characters, blank counts as none.
 */
export const decisionComment = z.string().max(COMMENT_MAX, COMMENT_TOO_LONG_MESSAGE).optional();

/**
 * The decision body of every `.../approve` call: the specification's `changeRequestID` and
 * `actionTaken`, and an optional `comment` stored with the decision and shown to the maker.
 */
export const decisionBody = z.strictObject({
  changeRequestID: z.number().int().positive().max(MAX_ID),
  actionTaken: z.enum(['approve', 'reject']),
  comment: decisionComment,
});

export const fetchCount = z.number().int().min(1).max(99999999);

/** How many rows a list call returns when its body names no fetchCount (the Fetch Count filter's first value). */
export const DEFAULT_FETCH_COUNT = 10;

/** A list call's fetchCount: optional, DEFAULT_FETCH_COUNT when left out. */
export const listFetchCount = fetchCount.default(DEFAULT_FETCH_COUNT);

/** The fetch count of a list's filter values as its call takes it: the value chosen, else the call's default. */
export function fetchCountOf(value: string | number | undefined): number {
  return value === undefined ? DEFAULT_FETCH_COUNT : Number(value);
}

/**
 * The top-level `matching` of every list call that takes a fetchCount (an addition to the
 * specification's replies, sent beside `statusCode` and `data`; a client that does not read it sees
 * the documented reply): how many rows match the filters without the fetchCount cap, so that a list
 * cut by it can say "10 of 165 matching". Equals the rows returned when they are fewer than fetchCount.
 */
export const listMatching = z.object({
  matching: z.number().int().min(0).describe('How many rows match the filters without the fetchCount cap (equals the rows returned when fewer than fetchCount).'),
});
export const searchText = z.string().max(30, 'Search text can have at most 30 characters');

export const listItem = z.object({ id: z.number(), code: z.string(), name: z.string() });

/**
 * Every date a call takes (a date, a date-time or a year) is refined with these:
 * `.refine(inDateBounds, dateBoundsError)`, a 400 naming the field when it is before 2000 or more
 * than a year ahead (the rule: src/domain/dates.ts; tests/api/inputLimits.test.ts sends edge dates
 * to every date field of every call).
 */
export const inDateBounds = (value: string | number): boolean => isWithinDateBounds(value);
export const dateBoundsError = { error: () => dateBoundsMessage() };

/**
 * What the published document states of a date field that its zod refinements check (a real
 * calendar day, from 2000 to a year ahead): `.meta(wireDate('day'))`. src/api/openapi.ts writes it as
 * a pattern of the calendar days of those years, built for the year the document is made in.
 * - day: 'yyyy-MM-dd'; date-time: 'yyyy-MM-ddTHH:mm:ss'; date-time-or-minute: the seconds optional;
 * - valid-from / valid-to: a day at T00:00:01 / T23:59:59; year: the number.
 */
export type WireDateKind = 'day' | 'date-time' | 'date-time-or-minute' | 'valid-from' | 'valid-to' | 'year';
export function wireDate(kind: WireDateKind): { readonly 'x-date': WireDateKind } {
  return { 'x-date': kind };
}
