/**
 * The checker's workbench and the maker's side of maker-checker, over every area's change
 * requests: which area decides a request and how (its approve call's own function, so a decision
 * from the inbox follows exactly the rules of the area's panel), the inbox of what a user may decide,
 * the maker's own requests, withdrawal, and expiry.
 *
 * Expiry needs no timer: a pending request older than CHANGE_REQUEST_EXPIRY_DAYS is ended by the
 * sweep that runs before the API's calls (at most once a second per process, see `expirySweeper`),
 * and a decision on a request that is past its age but not yet swept is refused.
 */
import type { ChangeRequestSummary } from '../api/approvals';
import type { RecordField } from '../api/contract';
import { areasDecidableBy, changeRequestAreas, type ChangeRequestArea, type ChangeRequestStatus, type ServerSettings } from '../domain/approvals';
import { hasAnyPermission } from '../domain/permissions';
import { currencyProviderOfDecider, decideProviderCurrencies } from './areas/providerCurrencies';
import { accountText, decide, expiryCutoff, type ChangeAction, type Decision, type DisplayMap, type EntityAdapter } from './changeRequests';
import type { Db } from './db/db';
import { decideMoneyApproval, moneyOperationsDecidableBy, MONEY_ENTITY, MONEY_TABLE, moneyChangedFields, moneyOperationLabel } from './moneyApprovals';
import { advertisementEntity } from './entities/advertisement';
import { appUserEntity } from './entities/appUser';
import { appVersionEntity } from './entities/appVersion';
import { bankEntity } from './entities/bank';
import { providerCurrencyEntity, providerEntity } from './entities/provider';
import { roleEntity } from './entities/role';
import { userEntity } from './entities/user';
import type { Ctx } from './http/handle';
import { HttpError } from './http/httpError';

interface ApprovalArea {
  readonly area: ChangeRequestArea;
  /** The change requests' type (the engine adapter's). */
  readonly type: string;
  /** The table of the records its requests lock. */
  readonly table: string;
  /** The engine adapter's named operations (a decision refused to some deciders, e.g. their own password reset). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly operations?: EntityAdapter<any>['operations'];
  /** The area's approve call: the engine's decision plus what the area adds (clean-up, own-provider rule). */
  decide(ctx: Ctx, decision: Decision): Promise<{ message: string }>;
  /** The engine adapter's clean-up for a request that will not be applied, run here when it is withdrawn or expired (`decide` runs it on a rejection). */
  onRejected?(db: Db, request: { payload: unknown; record_id: number | null }): Promise<void>;
  /**
   * Narrows the area's approve permissions per request: the operations these permissions decide (a
   * money action: the action's own permission). Unset: every request of the area.
   */
  decidableOperations?(permissions: readonly string[]): string[];
  /** A named operation in words, when the area has no engine operations to read its label from. */
  operationLabel?(operation: string): string | undefined;
  /** What the inbox shows as the changed fields, when not the headers of the fields that differ. */
  changedFields?(request: { new_record: DisplayMap; original_record: DisplayMap | null }): string[];
}

let registry: Map<string, ApprovalArea> | undefined;

/** The areas by change-request type, built on first use (the area modules import this one's callers). */
function approvalAreas(): Map<string, ApprovalArea> {
  if (registry) return registry;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const engine = (adapter: EntityAdapter<any>, decideWith?: ApprovalArea['decide']) => ({
    type: adapter.type,
    table: adapter.table,
    ...(adapter.operations ? { operations: adapter.operations } : {}),
    ...(adapter.onRejected ? { onRejected: adapter.onRejected } : {}),
    decide: decideWith ?? ((ctx: Ctx, d: Decision) => decide(ctx, adapter, d)),
  });
  const parts: Record<string, Omit<ApprovalArea, 'area'>> = {
    User: engine(userEntity),
    Role: engine(roleEntity),
    Bank: engine(bankEntity),
    Advertisement: engine(advertisementEntity),
    'IPG Provider': engine(providerEntity),
    'IPG Provider Currency': engine(providerCurrencyEntity, decideProviderCurrencies),
    'App User': engine(appUserEntity),
    'App Version': engine(appVersionEntity),
    // the large money actions: the adapter is built per call (its operations run with the caller's
    // context), so the area decides through moneyApprovals.ts's own decision, rules and all
    [MONEY_ENTITY]: {
      type: MONEY_ENTITY,
      table: MONEY_TABLE,
      decide: decideMoneyApproval,
      decidableOperations: moneyOperationsDecidableBy,
      changedFields: moneyChangedFields,
      operationLabel: moneyOperationLabel,
    },
  };
  registry = new Map(
    changeRequestAreas.map((area) => {
      const part = parts[area.type];
      if (!part || part.type !== area.type) throw new Error(`No approval area for change requests of type ${area.type}`);
      return [area.type, { area, ...part }];
    }),
  );
  return registry;
}

function areaOf(type: string): ApprovalArea {
  const found = approvalAreas().get(type);
  if (!found) throw new HttpError(404, 'Change request not found');
  return found;
}

interface RequestRow {
  id: number;
  entity_type: string;
  record_id: number | null;
  action: ChangeAction;
  payload: unknown;
  new_record: DisplayMap;
  original_record: DisplayMap | null;
  requested_by: string;
  requested_by_id: number | null;
  requested_at: Date;
  status: ChangeRequestStatus;
  decided_by: string | null;
  decided_by_id: number | null;
  decided_at: Date | null;
  decision_comment: string | null;
  operation: string | null;
}

const REQUEST_COLUMNS =
  'id, entity_type, record_id, action, payload, new_record, original_record, requested_by, requested_by_id, requested_at, status, decided_by, decided_by_id, decided_at, decision_comment, operation';

/** The server settings as the console learns them (config): which setting-gated areas are on. */
export function serverSettingsOf(ctx: Pick<Ctx, 'moneyApprovalAboveUsd'>): ServerSettings {
  return { moneyActionApproval: ctx.moneyApprovalAboveUsd !== null };
}

// ---- expiry ------------------------------------------------------------------------------------

/**
 * Ends every pending request older than the expiry age: status EXPIRED, its record unlocked, uploads
 * that will not be used deleted, one activity log entry each (by 'system'). Safe on any number of
 * processes at once: the UPDATE takes each request once.
 */
export async function expireStaleRequests(ctx: Ctx): Promise<number> {
  const now = ctx.clock();
  const cutoff = expiryCutoff(now, ctx.changeRequestExpiryDays);
  const due = await ctx.db.one("SELECT 1 FROM change_requests WHERE status = 'PENDING' AND requested_at <= $1 LIMIT 1", [cutoff]);
  if (!due) return 0;
  return ctx.tx(async (t) => {
    const expired = await t.db.query<RequestRow>(
      `UPDATE change_requests SET status = 'EXPIRED', decided_at = $2
        WHERE status = 'PENDING' AND requested_at <= $1 RETURNING ${REQUEST_COLUMNS}`,
      [cutoff, now],
    );
    for (const r of expired) {
      const area = approvalAreas().get(r.entity_type);
      if (area) await release(t.db, area, r);
      await t.log({
        type: 'CHANGE_EXPIRED',
        username: 'system',
        description: `Expired ${describeRequest(r)}: pending more than ${t.changeRequestExpiryDays} days`,
        before: r.original_record,
        after: r.new_record,
      });
    }
    return expired.length;
  });
}

/** Unlocks the record of a request that ends without being applied, and deletes its unused uploads. */
async function release(db: Db, area: ApprovalArea, r: RequestRow): Promise<void> {
  if (r.action !== 'CREATE' && r.record_id !== null) await db.query(`UPDATE ${area.table} SET locked = 0 WHERE id = $1`, [r.record_id]);
  await area.onRejected?.(db, r);
}

function describeRequest(r: RequestRow): string {
  return `change request #${r.id} (${r.operation ?? r.action} of ${r.entity_type}${r.record_id === null ? '' : ` #${r.record_id}`} by ${accountText(r.requested_by, r.requested_by_id)})`;
}

/**
 * The sweep before API calls, per server process: at most once a second (by the server's clock), so a
 * busy server pays one cheap indexed query a second for it. Expiry is exact regardless: a decision
 * or a withdrawal checks the request's age itself.
 */
export function expirySweeper(): (ctx: Ctx) => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async (ctx) => {
    const now = ctx.clock().getTime();
    if (now - last < 1000 && now >= last) return;
    last = now;
    await expireStaleRequests(ctx);
  };
}

// ---- the maker's side --------------------------------------------------------------------------

/** Withdraws the caller's own pending request: its record is unlocked, and it is logged. */
export async function withdrawRequest(ctx: Ctx, id: number): Promise<{ message: string }> {
  await expireStaleRequests(ctx);
  return ctx.tx(async (t) => {
    const r = await t.db.one<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM change_requests WHERE id = $1 FOR UPDATE`, [id]);
    if (!r) throw new HttpError(404, 'Change request not found');
    if (r.requested_by_id !== t.user.id) throw new HttpError(403, 'Only the maker of a change request can withdraw it');
    if (r.status !== 'PENDING') throw new HttpError(409, `The change request is no longer pending (${r.status.toLowerCase()})`);
    const area = areaOf(r.entity_type);
    await release(t.db, area, r);
    await t.db.query("UPDATE change_requests SET status = 'WITHDRAWN', decided_by = $2, decided_by_id = $3, decided_at = $4 WHERE id = $1", [r.id, t.user.username, t.user.id, t.clock()]);
    await t.log({ type: 'CHANGE_WITHDRAWN', description: `Withdrew ${describeRequest(r)}`, before: r.original_record, after: r.new_record });
    return { message: 'Change request withdrawn' };
  });
}

/** How many of the caller's own requests My requests shows, newest first; the reply says how many there are. */
export const MY_REQUESTS_SHOWN = 500;

/** The caller's own requests (by account id: a rename keeps them), newest first, and how many there are. */
export async function myRequests(ctx: Ctx, status: ChangeRequestStatus | undefined): Promise<{ requests: ChangeRequestSummary[]; total: number }> {
  const rows = await ctx.db.query<RequestRow & { total: number }>(
    `SELECT ${REQUEST_COLUMNS}, count(*) OVER ()::int AS total FROM change_requests
      WHERE requested_by_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id DESC LIMIT ${MY_REQUESTS_SHOWN}`,
    [ctx.user.id, status ?? null],
  );
  return { requests: rows.map(summaryOf), total: rows[0]?.total ?? 0 };
}

// ---- the checker's side ------------------------------------------------------------------------

export interface InboxFilter {
  type?: string | undefined;
  /** A maker's account id. */
  requestedById?: number | undefined;
  /** A maker's name: the account's name now, or the name a request was made under. */
  requestedBy?: string | undefined;
  minAgeHours?: number | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** The inbox's page when the call names none. */
export const INBOX_PAGE_DEFAULT = 100;

interface Decidable {
  /** A WHERE condition on change_requests (alias c) naming only its own parameters, from $1. */
  readonly where: string;
  readonly params: unknown[];
}

/**
 * The pending requests the caller may decide, as SQL: of an area whose approve permission they hold
 * (a money action: the action's own permission), not their own by account id (four eyes), not about
 * their own account where the operation forbids it (their own password reset), not expired, and for a
 * provider's currencies, of their own provider unless they are a super user. Null: no area at all.
 * The counts, the makers and each page of the inbox all use this one condition.
 */
async function decidable(ctx: Ctx): Promise<Decidable | null> {
  const areas = areasDecidableBy(ctx.user.permissions).map((a) => areaOf(a.type));
  if (areas.length === 0) return null;
  const types = areas.map((a) => a.type);
  // areas narrowed per operation: only these type:operation pairs of theirs
  const narrowed = areas.filter((a) => a.decidableOperations);
  const allowedPairs = narrowed.flatMap((a) => a.decidableOperations!(ctx.user.permissions).map((op) => `${a.type}:${op}`));
  // operations an account's owner may not decide (their own password reset): refused when the record is the caller
  const ownerRefused = areas.flatMap((a) =>
    a.table === 'console_users' ? Object.entries(a.operations ?? {}).flatMap(([name, op]) => ((op as { ownerMayNotDecide?: string }).ownerMayNotDecide ? [`${a.type}:${name}`] : [])) : [],
  );
  let provider: number | null = null;
  if (types.includes(providerCurrencyEntity.type)) {
    const own = await currencyProviderOfDecider(ctx);
    provider = own === null ? null : (own ?? -1); // a checker without a provider decides none
  }
  return {
    where: `c.status = 'PENDING' AND c.requested_at > $1
      AND c.entity_type IN (SELECT jsonb_array_elements_text($2::jsonb))
      AND c.requested_by_id IS DISTINCT FROM $3
      AND (c.entity_type NOT IN (SELECT jsonb_array_elements_text($4::jsonb)) OR c.entity_type || ':' || coalesce(c.operation, '') IN (SELECT jsonb_array_elements_text($5::jsonb)))
      AND NOT (c.record_id IS NOT DISTINCT FROM $3 AND c.entity_type || ':' || coalesce(c.operation, '') IN (SELECT jsonb_array_elements_text($6::jsonb)))
      AND (c.entity_type <> $7 OR $8::int IS NULL OR c.record_id = $8::int)`,
    params: [
      expiryCutoff(ctx.clock(), ctx.changeRequestExpiryDays),
      JSON.stringify(types),
      ctx.user.id,
      JSON.stringify(narrowed.map((a) => a.type)),
      JSON.stringify(allowedPairs),
      JSON.stringify(ownerRefused),
      providerCurrencyEntity.type,
      provider,
    ],
  };
}

/** Whether the caller may decide this pending request (the inbox's own condition). */
async function mayDecideRequest(ctx: Ctx, id: number): Promise<boolean> {
  const d = await decidable(ctx);
  if (!d) return false;
  const row = await ctx.db.one(`SELECT 1 FROM change_requests c WHERE c.id = $${d.params.length + 1} AND ${d.where}`, [...d.params, id]);
  return row !== undefined;
}

export interface AreaCount {
  type: string;
  count: number;
}

/** How many pending requests the caller may decide, per area, counted in SQL (every one of them). */
export async function decidableCounts(ctx: Ctx): Promise<AreaCount[]> {
  const d = await decidable(ctx);
  if (!d) return [];
  const rows = await ctx.db.query<{ type: string; count: number }>(`SELECT c.entity_type AS type, count(*)::int AS count FROM change_requests c WHERE ${d.where} GROUP BY c.entity_type`, d.params);
  const settings = serverSettingsOf(ctx);
  // an area that needs a setting is counted while the setting is on, or while requests made when it was on wait
  return areasDecidableBy(ctx.user.permissions)
    .map((a) => ({ area: a, type: a.type, count: rows.find((r) => r.type === a.type)?.count ?? 0 }))
    .filter((c) => !c.area.setting || settings[c.area.setting] || c.count > 0)
    .map(({ type, count }) => ({ type, count }));
}

/**
 * One page of the pending requests the caller may decide, oldest first, filtered in SQL by area, maker
 * and age; with how many match the filter (`total`), the count per area and the makers (before the
 * filter). Nothing is cut silently: a page names its place in the total.
 */
export async function inbox(
  ctx: Ctx,
  filter: InboxFilter,
): Promise<{ requests: ChangeRequestSummary[]; total: number; offset: number; counts: AreaCount[]; makers: { id: number | null; username: string; count: number }[] }> {
  const offset = filter.offset ?? 0;
  const limit = filter.limit ?? INBOX_PAGE_DEFAULT;
  const d = await decidable(ctx);
  if (!d) return { requests: [], total: 0, offset, counts: [], makers: [] };
  const params = [...d.params];
  const arg = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  let where = d.where;
  if (filter.type) where += ` AND c.entity_type = ${arg(filter.type)}`;
  if (filter.requestedById !== undefined) where += ` AND c.requested_by_id = ${arg(filter.requestedById)}`;
  if (filter.requestedBy) {
    const name = arg(filter.requestedBy);
    where += ` AND (lower(c.requested_by) = lower(${name}) OR c.requested_by_id IN (SELECT id FROM console_users WHERE lower(username) = lower(${name})))`;
  }
  if (filter.minAgeHours) where += ` AND c.requested_at <= ${arg(new Date(ctx.clock().getTime() - filter.minAgeHours * 3_600_000))}`;
  const total = await ctx.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM change_requests c WHERE ${where}`, params);
  const rows = await ctx.db.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS.split(', ')
      .map((col) => `c.${col}`)
      .join(', ')} FROM change_requests c WHERE ${where} ORDER BY c.id LIMIT ${arg(limit)} OFFSET ${arg(offset)}`,
    params,
  );
  // the makers offered by the filter: by account, under the account's name now (the name they made the request under when it is no account)
  const makers = await ctx.db.query<{ id: number | null; username: string; count: number }>(
    `SELECT c.requested_by_id AS id, coalesce(u.username, min(c.requested_by)) AS username, count(*)::int AS count
       FROM change_requests c LEFT JOIN console_users u ON u.id = c.requested_by_id
      WHERE ${d.where} GROUP BY c.requested_by_id, u.username ORDER BY 2`,
    d.params,
  );
  return { requests: rows.map(summaryOf), total: total?.n ?? 0, offset, counts: await decidableCounts(ctx), makers };
}

/**
 * Decides one request of any area through that area's own decision, with its permission. A request
 * the caller may not decide at all (another area, another provider's currencies) is not found for
 * them: a 404, as for a request that does not exist, so its area is not disclosed.
 */
export async function decideAny(ctx: Ctx, decision: Decision): Promise<{ message: string }> {
  await expireStaleRequests(ctx);
  const r = await ctx.db.one<{ entity_type: string; status: ChangeRequestStatus; requested_by_id: number | null; record_id: number | null; operation: string | null }>(
    'SELECT entity_type, status, requested_by_id, record_id, operation FROM change_requests WHERE id = $1',
    [decision.changeRequestID],
  );
  if (!r) throw new HttpError(404, 'Change request not found');
  // the maker knows their own request: four eyes is the reason, whatever their permissions
  if (r.requested_by_id === ctx.user.id) throw new HttpError(403, 'You cannot approve or reject your own change request');
  const area = areaOf(r.entity_type);
  if (!hasAnyPermission(ctx.user.permissions, area.area.approve)) throw new HttpError(404, 'Change request not found');
  // a pending request outside the caller's inbox (another provider's, an action their permission does not
  // decide) is not found either; their own request, or one about their own account, goes on to the
  // area's decision, which says why it is refused, as does one already decided
  const ownOrAboutSelf = r.requested_by_id === ctx.user.id || (area.table === 'console_users' && r.operation !== null && r.record_id === ctx.user.id);
  if (r.status === 'PENDING' && !ownOrAboutSelf && !(await mayDecideRequest(ctx, decision.changeRequestID))) throw new HttpError(404, 'Change request not found');
  return area.decide(ctx, decision);
}

/** Decides each request on its own (its own transaction and rules); one refusal does not stop the rest. */
export async function decideMany(
  ctx: Ctx,
  ids: readonly number[],
  actionTaken: 'approve' | 'reject',
  comment: string | undefined,
): Promise<{ changeRequestId: number; statusCode: number; message: string }[]> {
  const results = [];
  for (const id of ids) {
    try {
      const done = await decideAny(ctx, { changeRequestID: id, actionTaken, comment });
      results.push({ changeRequestId: id, statusCode: 200, message: done.message });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      results.push({ changeRequestId: id, statusCode: err.status, message: err.message });
    }
  }
  await ctx.log({
    type: 'CHANGE_BULK_DECISION',
    description: `Bulk ${actionTaken} of ${ids.length} change requests by ${accountText(ctx.user.username, ctx.user.id)}: ${results.map((r) => `#${r.changeRequestId} ${r.statusCode === 200 ? 'done' : `refused (${r.statusCode})`}`).join(', ')}`,
  });
  return results;
}

/** The other requests on the same record, newest first: for the area's checkers (a provider's currencies: its own) and the request's maker. */
export async function requestHistory(ctx: Ctx, id: number): Promise<ChangeRequestSummary[]> {
  const r = await ctx.db.one<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM change_requests WHERE id = $1`, [id]);
  if (!r) throw new HttpError(404, 'Change request not found');
  const area = areaOf(r.entity_type);
  const mine = r.requested_by_id === ctx.user.id;
  // another area's request is not found, as in the inbox and the decisions: its area is not disclosed
  if (!mine && !hasAnyPermission(ctx.user.permissions, area.area.approve)) throw new HttpError(404, 'Change request not found');
  // a provider's currency requests are its own checkers' (and a super user's), as in the inbox: another
  // provider's request is not found
  if (!mine && r.entity_type === providerCurrencyEntity.type) {
    const own = await currencyProviderOfDecider(ctx);
    if (own !== null && own !== r.record_id) throw new HttpError(404, 'Change request not found');
  }
  if (r.record_id === null) return [];
  const rows = await ctx.db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM change_requests WHERE entity_type = $1 AND record_id = $2 AND id <> $3 ORDER BY id DESC LIMIT 50`, [
    r.entity_type,
    r.record_id,
    r.id,
  ]);
  return rows.map(summaryOf);
}

// ---- how a request is shown --------------------------------------------------------------------

const HIDDEN_FIELDS = new Set(['id', 'created_at', 'updated_at', 'locked']);
const NAME_FIELDS = ['trace', 'username', 'role_name', 'bank_name', 'provider_bank_name', 'name', 'title', 'uid', 'version', 'provider_bank_code', 'email'];

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The record in words: a name from its fields, and its id (or 'new'). */
export function recordLabel(r: { record_id: number | null; new_record: DisplayMap; original_record: DisplayMap | null }): string {
  const fields: DisplayMap = { ...(r.new_record ?? {}), ...(r.original_record ?? {}) };
  const text = (f: RecordField | undefined) => (f && typeof f.value === 'string' && f.value.trim() !== '' ? f.value : undefined);
  const name =
    NAME_FIELDS.map((k) => text(fields[k])).find((v) => v !== undefined) ??
    Object.entries(fields)
      .filter(([k]) => !HIDDEN_FIELDS.has(k))
      .map(([, f]) => text(f))
      .find((v) => v !== undefined);
  const id = r.record_id === null ? 'new' : `#${r.record_id}`;
  return name ? `${name} (${id})` : id;
}

/** The headers of the fields a request changes: every shown field of a CREATE. */
export function changedFields(r: { action: ChangeAction; new_record: DisplayMap; original_record: DisplayMap | null }): string[] {
  const next = r.new_record ?? {};
  const prev = r.original_record ?? {};
  return Object.keys({ ...prev, ...next })
    .filter((k) => !HIDDEN_FIELDS.has(k) && (r.action === 'CREATE' || !same(prev[k]?.value, next[k]?.value)))
    .map((k) => next[k]?.header ?? prev[k]?.header ?? k);
}

/** A named operation in words: the area's label for it (the engine operation's), else its stored name. */
function operationText(r: RequestRow): string | null {
  if (r.operation === null) return null;
  const area = approvalAreas().get(r.entity_type);
  const op = area?.operations?.[r.operation] as { label?: string } | undefined;
  return op?.label ?? area?.operationLabel?.(r.operation) ?? r.operation;
}

function summaryOf(r: RequestRow): ChangeRequestSummary {
  return {
    changeRequestId: r.id,
    type: r.entity_type,
    pendingAction: r.action,
    operation: operationText(r),
    recordId: r.record_id,
    record: recordLabel(r),
    requestedBy: r.requested_by,
    requestedById: r.requested_by_id,
    requestedTime: r.requested_at.toISOString(),
    status: r.status,
    decidedBy: r.decided_by,
    decidedById: r.decided_by_id,
    decidedTime: r.decided_at ? r.decided_at.toISOString() : null,
    comment: r.decision_comment,
    changedFields: approvalAreas().get(r.entity_type)?.changedFields?.(r) ?? changedFields(r),
    newRecord: r.new_record,
    originalRecord: r.original_record,
  };
}
