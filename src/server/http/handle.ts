/**
 * The typed way to implement a call: `handle(contract, async (ctx, body) => ({ data }))`. `body` is
 * the contract's parsed request; the result is checked against the contract's `data` (and `top`) by
 * the compiler, and at run time the reply is parsed with the contract's schema, so it carries exactly
 * the contract's fields.
 */
import type { z } from 'zod';
import type { CallContract, DataOf, TopOf } from '../../api/contract';
import { writeActivity, type Activity } from '../activityLog';
import type { Db } from '../db/db';
import type { SessionUser } from '../auth/sessionUser';
import type { TokenSubject } from '../auth/tokens';
import type { SessionSignals } from '../auth/sessionSignals';
import type { ImageUrlSigner } from './imageUrls';
import type { ExportLinkSigner } from '../exportJobs/links';
import { DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS, DEFAULT_PENDING_REQUESTS_PER_MAKER } from '../../domain/approvals';
import { noMetrics, type MetricsRecorder } from '../observability/recorder';

/** Password and token operations, configured once per app (scrypt cost, secret, token lifetime). */
export interface AuthServices {
  hashPassword(password: string): Promise<string>;
  /**
   * `first`: the attempt comes from an address the username signed in from before; its check is queued
   * ahead of the others. `account`: the username attempted; one account's checks run one at a time
   * (HASHES_PER_ACCOUNT, src/server/app.ts), so its parallel sign-ins share one hash place.
   */
  verifyPassword(password: string, hash: string, options?: { first?: boolean; account?: string }): Promise<boolean>;
  /** Spends the time of one verification, so an unknown username answers as slowly as a known one (in `account`'s turn, as a known one's). */
  verifyNothing(password: string, options?: { account?: string }): Promise<void>;
  /**
   * Runs a password attempt's counting, check and logging in its client address's turn: a few
   * attempts of one address at once (the rest wait), so a burst from one address reaches the database
   * and the hashing a few at a time instead of all at once, ahead of everyone else's calls.
   * `account`: the username attempted; its attempts in progress (waiting ones included) tell a burst
   * of one account's sign-ins from a person's for the hashing's priority (src/server/app.ts).
   */
  inAddressTurn?<T>(job: () => Promise<T>, account?: string): Promise<T>;
  issueToken(subject: TokenSubject): Promise<string>;
  /** How long a session lasts from its sign-in (SESSION_MAX_HOURS). */
  readonly sessionMaxHours: number;
  /**
   * The same services with their hashing queued under this client's address (a bounded number of
   * hashes at once, shared fairly between addresses: src/server/auth/fairQueue.ts). A context's
   * services are its client's.
   */
  forClient?(address: string): AuthServices;
  /** Signs the identity documents' image paths the KYC and app-user lists hand out (src/server/http/imageUrls.ts). */
  imageUrls: ImageUrlSigner;
  /** Signs the download links of server export files (src/server/exportJobs/links.ts). */
  exportLinks?: ExportLinkSigner;
  /** Tells what this process holds open under a session (the live-count streams) that it ended or that the account's access changed (src/server/auth/sessionSignals.ts). */
  sessionSignals?: SessionSignals;
}

export type LogEntry = Omit<Activity, 'username'> & { username?: string };

/** The caller's side of the request: its address (Fastify's request.ip) and a header for the reply. */
export interface ClientInfo {
  readonly address: string;
  /** Sets a header on the reply, also when the handler then throws (e.g. Retry-After with a 429). */
  setHeader(name: string, value: string): void;
  /** A header of the request (lower-case name), e.g. `x-list-rows` asking for the compact list rows. */
  header?(name: string): string | undefined;
}

const noClient: ClientInfo = { address: 'unknown', setHeader: () => {} };

interface CtxOf<U> {
  readonly db: Db;
  /**
   * Where this call's reads may go: the read replica (DATABASE_REPLICA_URL) while it is well and has
   * replayed the caller's own last write, else the primary (src/server/db/readRouting.ts). Only for
   * reads (dashboards, reports, transaction lists, lookups, exports); writes and reads that decide a
   * write use `db`. Inside `tx`, the transaction itself.
   */
  readonly readDb: Db;
  readonly user: U;
  readonly clock: () => Date;
  readonly auth: AuthServices;
  readonly client: ClientInfo;
  /**
   * The business time zone (BUSINESS_TIME_ZONE, src/domain/businessTime.ts): "today", the filters'
   * from_date/to_date, the dashboards' days and the settlement batch date are read in it, never in
   * the server process's own zone.
   */
  readonly businessTimeZone: string;
  /** A pending change request older than this many days has expired (CHANGE_REQUEST_EXPIRY_DAYS). */
  readonly changeRequestExpiryDays: number;
  /**
   * A void, refund or manual fund transfer of more than this many US dollars waits for a second
   * person's approval (MONEY_ACTION_APPROVAL_ABOVE_USD, src/server/moneyApprovals.ts); null: never.
   */
  readonly moneyApprovalAboveUsd: number | null;
  /** How many pending requests one maker may have waiting (and as many large money-action requests): PENDING_REQUESTS_PER_MAKER. */
  readonly pendingRequestsPerMaker: number;
  /** What the metrics count as it happens (failed sign-ins, money actions...): src/server/observability/recorder.ts; does nothing without a metrics endpoint. */
  readonly metrics: MetricsRecorder;
  /** Writes an activity log row in this context's database (or transaction); username defaults to the caller's. */
  log(entry: LogEntry): Promise<void>;
  /** Runs `fn` in a transaction, with a context whose `db` (and `log`) use it. */
  tx<T>(fn: (ctx: CtxOf<U>) => Promise<T>): Promise<T>;
}

/** The context of an authenticated call. */
export type Ctx = CtxOf<SessionUser>;
/** The context of a public call (sign-in): nobody is signed in yet. */
export type PublicCtx = CtxOf<undefined>;

export type BodyOf<C> = C extends CallContract<string, infer R, z.ZodType, z.ZodType> ? z.output<R> : never;
export type HandlerResult<C> = { data: DataOf<C>; top?: TopOf<C> };

/**
 * What a handler checks and how it acts beyond the contract's access rule, declared beside it so the
 * generated screen specs and `npm run review` show it (src/server/callRules.ts collects them).
 */
export interface ServerRules {
  /** The named predicates (src/domain/, src/server/) the handler runs before acting; a refusal answers 4xx. */
  readonly guards?: readonly ((...args: never[]) => unknown)[];
  /**
   * The call stores a change request on `entity` (the entity's own checks first) instead of acting;
   * an edit is refused (409) while the record is locked by a pending request; `approve` decides it.
   * `onlyWhen`: the predicate that sends it for approval; otherwise the call acts at once.
   */
  readonly changeRequest?: { readonly entity: string; readonly approve: CallContract; readonly onlyWhen?: (...args: never[]) => unknown };
  /** The call approves or rejects pending change requests of these entities, never the decider's own. */
  readonly decides?: readonly string[];
  /** Above MONEY_ACTION_APPROVAL_ABOVE_USD the call becomes a change request `approve` decides (four eyes). */
  readonly fourEyes?: { readonly approve: CallContract };
}

export interface Handler {
  readonly contract: CallContract;
  readonly isPublic: boolean;
  readonly rules?: ServerRules;
  run(ctx: Ctx | PublicCtx, body: unknown): Promise<{ data: unknown; top?: unknown }>;
}

/** A call for signed-in users (access 'authenticated' or `anyOf`). */
export function handle<C extends CallContract>(contract: C, fn: (ctx: Ctx, body: BodyOf<C>) => Promise<HandlerResult<C>>, rules?: ServerRules): Handler {
  return { contract, isPublic: false, ...(rules ? { rules } : {}), run: (ctx, body) => fn(ctx as Ctx, body as BodyOf<C>) };
}

/** A call anyone may make (access 'public'). */
export function handlePublic<C extends CallContract>(contract: C, fn: (ctx: PublicCtx, body: BodyOf<C>) => Promise<HandlerResult<C>>): Handler {
  return { contract, isPublic: true, run: (ctx, body) => fn(ctx as PublicCtx, body as BodyOf<C>) };
}

/** The maker-checker settings a context carries (CHANGE_REQUEST_EXPIRY_DAYS, MONEY_ACTION_APPROVAL_ABOVE_USD, PENDING_REQUESTS_PER_MAKER). */
export interface ApprovalSettings {
  readonly changeRequestExpiryDays: number;
  readonly moneyApprovalAboveUsd: number | null;
  readonly pendingRequestsPerMaker: number;
}

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  changeRequestExpiryDays: DEFAULT_CHANGE_REQUEST_EXPIRY_DAYS,
  moneyApprovalAboveUsd: null,
  pendingRequestsPerMaker: DEFAULT_PENDING_REQUESTS_PER_MAKER,
};

export function makeCtx<U extends SessionUser | undefined>(
  db: Db,
  user: U,
  clock: () => Date,
  auth: AuthServices,
  businessTimeZone: string,
  client: ClientInfo = noClient,
  approvals: ApprovalSettings = DEFAULT_APPROVAL_SETTINGS,
  readDb: Db = db,
  metrics: MetricsRecorder = noMetrics,
): CtxOf<U> {
  return {
    db,
    readDb,
    user,
    clock,
    auth: auth.forClient ? auth.forClient(client.address) : auth,
    client,
    businessTimeZone,
    changeRequestExpiryDays: approvals.changeRequestExpiryDays,
    moneyApprovalAboveUsd: approvals.moneyApprovalAboveUsd,
    pendingRequestsPerMaker: approvals.pendingRequestsPerMaker,
    metrics,
    async log(entry) {
      await writeActivity(db, { ...entry, username: entry.username ?? user?.username ?? 'anonymous' }, clock());
    },
    tx: (fn) => db.tx((tx) => fn(makeCtx(tx, user, clock, auth, businessTimeZone, client, approvals, tx, metrics))),
  };
}
