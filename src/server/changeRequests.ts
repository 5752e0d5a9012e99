/**
 * The maker-checker engine, generic over entities. A maker's create, edit or disable becomes a pending
 * change request and locks the record; a checker (never the maker) approves it, which applies the
 * change in the same transaction under row locks, or rejects it. An entity plugs in with an adapter.
 */
import type { ChangeRequest, RecordField } from '../api/contract';
import type { Principal } from '../domain/privilege';
import { separatelyLimitedTypes, type ChangeRequestStatus } from '../domain/approvals';
import { describeRecord, type RecordDefinition } from '../definitions/records';
import { permissionList } from './auth/sessionUser';
import type { Db, Row } from './db/db';
import { pgErrorCode } from './db/db';
import type { Ctx } from './http/handle';
import { HttpError } from './http/httpError';
import { recordLookup } from './recordLookups';

export type ChangeAction = 'CREATE' | 'EDIT' | 'DELETE';
/** Field name → what the approval modal shows. Never holds a password, hash or token. */
export type DisplayMap = Record<string, RecordField>;

export interface EntityAdapter<P extends object> {
  /** The record type as the console shows it ('User', 'Role', ...); also the entity_type stored. */
  readonly type: string;
  /** The record's display fields (screens/records.ts): the approval modal's display map is built from them. */
  readonly record: RecordDefinition;
  /** The table of the records; it has `id`, `locked` and `version` columns. */
  readonly table: string;
  /** A record's current values, in the payload's shape. */
  fromRow(row: Row): P;
  /** Values a record's row does not hold (e.g. a provider's currency list), added before it is described. */
  complete?(db: Db, values: P): Promise<P>;
  /** Business checks before a request is stored: throw HttpError(422, ...) to refuse. `maker`: who asks. */
  check?(db: Db, action: ChangeAction, values: P, recordId: number | undefined, maker: Principal): Promise<void>;
  /**
   * Applies an approved change and returns the record's id. CREATE inserts; EDIT updates fields;
   * DELETE disables. The engine then bumps `version` and `updated_at` of an edited record.
   */
  apply(db: Db, action: ChangeAction, recordId: number | undefined, payload: P, at: Date): Promise<number>;
  /** Named operations on one record beyond editing its fields (see RecordOperation), by name. */
  readonly operations?: Readonly<Record<string, RecordOperation<never>>>;
  /**
   * Clean-up for a request that will never be applied: rejected (in `decide`, in the decision's
   * transaction), withdrawn by its maker or expired (src/server/approvals.ts). E.g. the images the
   * request uploaded are deleted unless the record uses them. `record_id`: null for a CREATE.
   */
  onRejected?(db: Db, request: { payload: P; record_id: number | null }): Promise<void>;
}

/**
 * A named change to one record that is not an edit of its fields (a user's password reset, the
 * lifting of a sign-in lockout). It goes the way of an EDIT: the maker's request locks the record, a
 * different user approves or rejects it, and the approval applies it under the record's lock and
 * version check. Stored with action EDIT and its name in change_requests.operation, so the wire and
 * the approval modal need nothing new: the modal compares the record's fields as usual, with the
 * fields the operation shows (e.g. "Password: reset (temporary)") beside their current values.
 */
export interface RecordOperation<O extends object> {
  /** Lower-case words for logs and messages, e.g. 'password reset'. */
  readonly label: string;
  /**
   * Refuses the operation on this record for this maker (HttpError). Called when the request is made
   * and again when it is approved, with the maker's permissions as they are then.
   */
  check?(db: Db, row: Row, payload: O, maker: Principal, when: { stage: 'request' | 'approval'; at: Date }): Promise<void>;
  /**
   * The record is an account (console_users) and its owner may neither approve nor reject this
   * operation on it: the refusal (403) they get. Compared by account id, as every four-eyes rule.
   */
  readonly ownerMayNotDecide?: string;
  /** The fields the approval modal compares: their current values and the requested ones. */
  describe(row: Row, payload: O): { before: DisplayMap; after: DisplayMap };
  /** Applies an approved request; returns the activity log entry of what it did (never a secret). */
  apply(db: Db, row: Row, payload: O, at: Date): Promise<{ type: string; description: string }>;
}

export interface SubmitRequest<P> {
  action: ChangeAction;
  recordId?: number;
  payload: P;
}

/** A request for one of the adapter's named operations on a record. */
export interface OperationRequest {
  operation: string;
  recordId: number;
  payload: object;
}

interface StoredRequest {
  id: number;
  entity_type: string;
  record_id: number | null;
  action: ChangeAction;
  payload: unknown;
  new_record: DisplayMap;
  original_record: DisplayMap | null;
  record_version: number | null;
  requested_by: string;
  requested_by_id: number | null;
  requested_at: Date;
  status: ChangeRequestStatus;
  operation: string | null;
}

function operationOf<P extends object>(adapter: EntityAdapter<P>, name: string): RecordOperation<object> {
  const op = adapter.operations?.[name] as RecordOperation<object> | undefined;
  if (!op) throw new Error(`${adapter.type} has no operation ${name}`);
  return op;
}

/**
 * A maker as the rules see them: the account's permissions now (none when it or its role is disabled,
 * or when the request's maker is no known account). By account id: a rename changes nothing here.
 */
async function principalOf(db: Db, request: { requested_by: string; requested_by_id: number | null }): Promise<Principal> {
  const row =
    request.requested_by_id === null
      ? undefined
      : await db.one<{ username: string; permissions: unknown; role_disabled: number | null; disabled: number }>(
          `SELECT u.username, r.permissions, r.disabled AS role_disabled, u.disabled
             FROM console_users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1`,
          [request.requested_by_id],
        );
  if (!row || row.disabled !== 0 || row.role_disabled !== 0) return { username: request.requested_by, permissions: [] };
  return { username: row.username, permissions: permissionList(row.permissions) };
}

/** An account as the activity log names it: its name then and its id ("maker (account 3)"). */
export function accountText(username: string, id: number | null): string {
  return id === null ? `${username} (no known account)` : `${username} (account ${id})`;
}

/**
 * Refuses a new request when its maker already has as many pending requests as PENDING_REQUESTS_PER_MAKER
 * allows (422 naming the limit). Requests of a setting-gated area (the large money actions) are counted
 * apart from the others, each against the same limit. Called under the maker's lock, so parallel
 * requests of one maker cannot pass the limit together.
 */
async function checkPendingLimit(db: Db, makerId: number, type: string, limit: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-request:maker:${makerId}`]);
  const separate = separatelyLimitedTypes.includes(type);
  const row = await db.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM change_requests
      WHERE requested_by_id = $1 AND status = 'PENDING' AND (entity_type IN (SELECT jsonb_array_elements_text($2::jsonb))) = $3`,
    [makerId, JSON.stringify(separatelyLimitedTypes), separate],
  );
  if ((row?.n ?? 0) >= limit) {
    const what = separate ? `${type} requests` : 'change requests';
    throw new HttpError(422, `You already have ${limit} pending ${what}, the most one maker may have waiting (PENDING_REQUESTS_PER_MAKER): withdraw some or wait for their decision`);
  }
}

/** The display map of a record's values or a payload, from the record's display fields. Never a password, hash or token. */
export function describe<P extends object>(db: Db, adapter: EntityAdapter<P>, values: P): Promise<DisplayMap> {
  return describeRecord(adapter.record, values, recordLookup(db));
}

async function describeRow<P extends object>(db: Db, adapter: EntityAdapter<P>, row: Row): Promise<DisplayMap> {
  const values = adapter.fromRow(row);
  return describe(db, adapter, adapter.complete ? await adapter.complete(db, values) : values);
}

/** Stores a pending change request and locks its record. Returns the change request id. */
export async function submit<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, request: SubmitRequest<P>): Promise<number> {
  return store(ctx, adapter, request);
}

/** Stores a pending request for a named operation on a record and locks it. Returns the change request id. */
export async function submitOperation<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, request: OperationRequest): Promise<number> {
  operationOf(adapter, request.operation);
  return store(ctx, adapter, { action: 'EDIT', recordId: request.recordId, payload: request.payload, operation: request.operation });
}

async function store<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, request: { action: ChangeAction; recordId?: number; payload: object; operation?: string }): Promise<number> {
  const { action, recordId, payload, operation } = request;
  if ((action === 'CREATE') !== (recordId === undefined)) throw new Error('CREATE takes no recordId; EDIT and DELETE need one');
  const maker: Principal = { username: ctx.user.username, permissions: ctx.user.permissions };
  return ctx.tx(async (t) => {
    const db = t.db;
    let originalRecord: DisplayMap | null = null;
    let newRecord: DisplayMap = {};
    let recordVersion: number | null = null;
    await checkPendingLimit(db, t.user.id, adapter.type, t.pendingRequestsPerMaker);
    if (recordId === undefined) {
      // one CREATE of this type at a time, so "already pending creation" checks cannot race
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-request:create:${adapter.type}`]);
    } else {
      const row = await db.one<Row>(`SELECT * FROM ${adapter.table} WHERE id = $1 FOR UPDATE`, [recordId]);
      if (!row) throw new HttpError(404, `${adapter.type} not found`);
      if (row.locked !== 0) throw new HttpError(409, `${adapter.type} is locked: a change request is already pending`);
      originalRecord = await describeRow(db, adapter, row);
      recordVersion = Number(row.version);
      if (operation !== undefined) {
        const op = operationOf(adapter, operation);
        await op.check?.(db, row, payload, maker, { stage: 'request', at: t.clock() });
        const shown = op.describe(row, payload);
        originalRecord = { ...originalRecord, ...shown.before };
        newRecord = { ...originalRecord, ...shown.after };
      }
    }
    if (operation === undefined) {
      await adapter.check?.(db, action, payload as P, recordId, maker);
      newRecord = await describe(db, adapter, payload as P);
    }
    if (recordId !== undefined) await db.query(`UPDATE ${adapter.table} SET locked = 1 WHERE id = $1`, [recordId]);
    const stored = await db.one<{ id: number }>(
      `INSERT INTO change_requests
         (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status, operation)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'PENDING', $11) RETURNING id`,
      [adapter.type, recordId ?? null, action, newRecord, originalRecord, payload, recordVersion, t.user.username, t.user.id, t.clock(), operation ?? null],
    );
    const id = stored!.id;
    const what = operation === undefined ? action : operationOf(adapter, operation).label;
    await t.log({
      type: 'CHANGE_REQUEST',
      description: `Requested ${what} of ${adapter.type}${recordId === undefined ? '' : ` #${recordId}`} (change request #${id} by ${accountText(t.user.username, t.user.id)})`,
      before: originalRecord,
      after: newRecord,
    });
    return id;
  });
}

export interface Decision {
  changeRequestID: number;
  actionTaken: 'approve' | 'reject';
  /** The checker's comment (a reject's reason), at most 200 characters; blank is none. */
  comment?: string | undefined;
}

/** The moment before which a pending request has expired (CHANGE_REQUEST_EXPIRY_DAYS before now). */
export function expiryCutoff(now: Date, expiryDays: number): Date {
  return new Date(now.getTime() - expiryDays * 24 * 60 * 60 * 1000);
}

/** Approves (applies) or rejects a pending change request; exactly one decision per request. */
export async function decide<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, decision: Decision): Promise<{ message: string }> {
  return ctx.tx(async (t) => {
    const db = t.db;
    const now = t.clock();
    const request = await db.one<StoredRequest>('SELECT * FROM change_requests WHERE id = $1 FOR UPDATE', [decision.changeRequestID]);
    if (!request || request.entity_type !== adapter.type) throw new HttpError(404, 'Change request not found');
    if (request.status === 'WITHDRAWN') throw new HttpError(409, 'Change request was withdrawn by its maker');
    if (request.status === 'EXPIRED') throw new HttpError(409, 'Change request has expired');
    if (request.status !== 'PENDING') throw new HttpError(409, 'Change request already decided');
    // expired but not yet swept (the sweep before each call ends it): refused, never decided
    if (request.requested_at.getTime() <= expiryCutoff(now, t.changeRequestExpiryDays).getTime()) throw new HttpError(409, 'Change request has expired');
    // four eyes by account id: a rename of either account changes nothing
    if (request.requested_by_id === t.user.id) throw new HttpError(403, 'You cannot approve or reject your own change request');
    const approve = decision.actionTaken === 'approve';
    if (request.requested_by_id === null && approve) {
      throw new HttpError(403, `The maker of this change request (${request.requested_by}) is no known account, so no one can approve it as a second person: reject it, or let it expire`);
    }
    let recordId = request.record_id ?? undefined;
    if (request.operation !== null) {
      const op = operationOf(adapter, request.operation);
      if (op.ownerMayNotDecide !== undefined && adapter.table === 'console_users' && recordId === t.user.id) throw new HttpError(403, op.ownerMayNotDecide);
    }
    let after: DisplayMap | null = null;

    if (approve) {
      let current: Row | undefined;
      if (recordId !== undefined) {
        current = await db.one<Row>(`SELECT * FROM ${adapter.table} WHERE id = $1 FOR UPDATE`, [recordId]);
        if (!current || Number(current.version) !== request.record_version) throw new HttpError(409, 'The record changed since this request was made');
      }
      if (request.operation !== null) {
        const op = operationOf(adapter, request.operation);
        const payload = request.payload as object;
        await op.check?.(db, current!, payload, await principalOf(db, request), { stage: 'approval', at: now });
        const done = await op.apply(db, current!, payload, now);
        await t.log({ type: done.type, description: `${done.description} (change request #${request.id} by ${accountText(request.requested_by, request.requested_by_id)})` });
      } else {
        recordId = await applyChange(db, adapter, request.action, recordId, request.payload as P, now);
      }
      if (request.action !== 'CREATE') {
        await db.query(`UPDATE ${adapter.table} SET version = version + 1, updated_at = $2 WHERE id = $1`, [recordId, now]);
      }
      const applied = await db.one<Row>(`SELECT * FROM ${adapter.table} WHERE id = $1`, [recordId]);
      after = applied ? await describeRow(db, adapter, applied) : null;
      // an operation's own fields (e.g. "Password: reset (temporary)") are not columns: keep them in the log
      if (request.operation !== null && after) after = { ...request.new_record, ...after };
    }
    if (request.action !== 'CREATE' && recordId !== undefined) {
      await db.query(`UPDATE ${adapter.table} SET locked = 0 WHERE id = $1`, [recordId]);
    }
    const status = approve ? 'APPROVED' : 'REJECTED';
    const comment = decision.comment?.trim() || null;
    await db.query('UPDATE change_requests SET status = $2, decided_by = $3, decided_by_id = $4, decided_at = $5, record_id = $6, decision_comment = $7 WHERE id = $1', [
      request.id,
      status,
      t.user.username,
      t.user.id,
      now,
      recordId ?? null,
      comment,
    ]);
    await t.log({
      type: approve ? 'CHANGE_APPROVED' : 'CHANGE_REJECTED',
      description: `${approve ? 'Approved' : 'Rejected'} ${request.operation === null ? request.action : operationOf(adapter, request.operation).label} of ${adapter.type}${recordId === undefined ? '' : ` #${recordId}`} (change request #${request.id} by ${accountText(request.requested_by, request.requested_by_id)}; decided by ${accountText(t.user.username, t.user.id)})${comment ? `: ${comment}` : ''}`,
      before: request.original_record,
      after: approve ? after : request.new_record,
    });
    if (!approve) await adapter.onRejected?.(db, { payload: request.payload as P, record_id: recordId ?? null });
    return { message: `${adapter.type} ${approve ? 'approved' : 'rejected'} successfully` };
  });
}

async function applyChange<P extends object>(db: Db, adapter: EntityAdapter<P>, action: ChangeAction, recordId: number | undefined, payload: P, at: Date): Promise<number> {
  try {
    return await adapter.apply(db, action, recordId, payload, at);
  } catch (err) {
    if (pgErrorCode(err) === '23505') throw new HttpError(422, `${adapter.type} already exists`);
    throw err;
  }
}

/** The pending change requests of one entity type, oldest first, as list calls return them. */
export async function pendingChangeRequests(db: Db, adapter: { type: string }): Promise<ChangeRequest[]> {
  const rows = await db.query<StoredRequest>(
    `SELECT id, entity_type, action, requested_by, requested_at, new_record, original_record
       FROM change_requests WHERE entity_type = $1 AND status = 'PENDING' ORDER BY id`,
    [adapter.type],
  );
  return rows.map((r) => ({
    changeRequestId: r.id,
    type: r.entity_type,
    pendingAction: r.action,
    requestedBy: r.requested_by,
    requestedTime: r.requested_at.toISOString(),
    newRecord: r.new_record,
    originalRecord: r.original_record,
  }));
}

/** True when a pending CREATE of this type already uses the value (case-insensitive) for the payload field. */
export async function isPendingCreation(db: Db, type: string, payloadField: string, value: string): Promise<boolean> {
  const row = await db.one(
    `SELECT 1 FROM change_requests
      WHERE entity_type = $1 AND status = 'PENDING' AND action = 'CREATE' AND lower(payload ->> $2) = lower($3) LIMIT 1`,
    [type, payloadField, value],
  );
  return row !== undefined;
}

/** One display field. */
export function displayField(header: string, value: unknown, type: RecordField['type'] = 'STRING'): RecordField {
  return { header, type, value };
}
