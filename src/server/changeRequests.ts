/**
 * The maker-checker engine, generic over entities. A maker's create, edit or disable becomes a pending
 * change request and locks the record; a checker (never the maker) approves it, which applies the
 * change in the same transaction under row locks, or rejects it. An entity plugs in with an adapter.
 */
import type { ChangeRequest, RecordField } from '../api/contract';
import type { Db, Row } from './db/db';
import { pgErrorCode } from './db/db';
import type { Ctx } from './http/handle';
import { HttpError } from './http/httpError';

export type ChangeAction = 'CREATE' | 'EDIT' | 'DELETE';
/** Field name → what the approval modal shows. Never holds a password, hash or token. */
export type DisplayMap = Record<string, RecordField>;

export interface EntityAdapter<P extends object> {
  /** The record type as the console shows it ('User', 'Role', ...); also the entity_type stored. */
  readonly type: string;
  /** The table of the records; it has `id`, `locked` and `version` columns. */
  readonly table: string;
  /** A record's current values, in the payload's shape. */
  fromRow(row: Row): P;
  /** The display map of a record or payload. */
  describe(db: Db, values: P): Promise<DisplayMap>;
  /** Business checks before a request is stored: throw HttpError(422, ...) to refuse. */
  check?(db: Db, action: ChangeAction, values: P, recordId: number | undefined): Promise<void>;
  /**
   * Applies an approved change and returns the record's id. CREATE inserts; EDIT updates fields;
   * DELETE disables. The engine then bumps `version` and `updated_at` of an edited record.
   */
  apply(db: Db, action: ChangeAction, recordId: number | undefined, payload: P, at: Date): Promise<number>;
}

export interface SubmitRequest<P> {
  action: ChangeAction;
  recordId?: number;
  payload: P;
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
  requested_at: Date;
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
}

/** Stores a pending change request and locks its record. Returns the change request id. */
export async function submit<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, request: SubmitRequest<P>): Promise<number> {
  const { action, recordId, payload } = request;
  if ((action === 'CREATE') !== (recordId === undefined)) throw new Error('CREATE takes no recordId; EDIT and DELETE need one');
  return ctx.tx(async (t) => {
    const db = t.db;
    let originalRecord: DisplayMap | null = null;
    let recordVersion: number | null = null;
    if (recordId === undefined) {
      // one CREATE of this type at a time, so "already pending creation" checks cannot race
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`change-request:create:${adapter.type}`]);
    } else {
      const row = await db.one<Row>(`SELECT * FROM ${adapter.table} WHERE id = $1 FOR UPDATE`, [recordId]);
      if (!row) throw new HttpError(404, `${adapter.type} not found`);
      if (row.locked !== 0) throw new HttpError(409, `${adapter.type} is locked: a change request is already pending`);
      originalRecord = await adapter.describe(db, adapter.fromRow(row));
      recordVersion = Number(row.version);
    }
    await adapter.check?.(db, action, payload, recordId);
    const newRecord = await adapter.describe(db, payload);
    if (recordId !== undefined) await db.query(`UPDATE ${adapter.table} SET locked = 1 WHERE id = $1`, [recordId]);
    const stored = await db.one<{ id: number }>(
      `INSERT INTO change_requests
         (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PENDING') RETURNING id`,
      [adapter.type, recordId ?? null, action, newRecord, originalRecord, payload, recordVersion, t.user.username, t.clock()],
    );
    const id = stored!.id;
    await t.log({
      type: 'CHANGE_REQUEST',
      description: `Requested ${action} of ${adapter.type}${recordId === undefined ? '' : ` #${recordId}`} (change request #${id})`,
      before: originalRecord,
      after: newRecord,
    });
    return id;
  });
}

export interface Decision {
  changeRequestID: number;
  actionTaken: 'approve' | 'reject';
}

/** Approves (applies) or rejects a pending change request; exactly one decision per request. */
export async function decide<P extends object>(ctx: Ctx, adapter: EntityAdapter<P>, decision: Decision): Promise<{ message: string }> {
  return ctx.tx(async (t) => {
    const db = t.db;
    const now = t.clock();
    const request = await db.one<StoredRequest>('SELECT * FROM change_requests WHERE id = $1 FOR UPDATE', [decision.changeRequestID]);
    if (!request || request.entity_type !== adapter.type) throw new HttpError(404, 'Change request not found');
    if (request.status !== 'PENDING') throw new HttpError(409, 'Change request already decided');
    if (request.requested_by.toLowerCase() === t.user.username.toLowerCase()) {
      throw new HttpError(403, 'You cannot approve or reject your own change request');
    }
    const approve = decision.actionTaken === 'approve';
    let recordId = request.record_id ?? undefined;
    let after: DisplayMap | null = null;

    if (approve) {
      if (recordId !== undefined) {
        const row = await db.one<{ version: number }>(`SELECT version FROM ${adapter.table} WHERE id = $1 FOR UPDATE`, [recordId]);
        if (!row || row.version !== request.record_version) throw new HttpError(409, 'The record changed since this request was made');
      }
      recordId = await applyChange(db, adapter, request.action, recordId, request.payload as P, now);
      if (request.action !== 'CREATE') {
        await db.query(`UPDATE ${adapter.table} SET version = version + 1, updated_at = $2 WHERE id = $1`, [recordId, now]);
      }
      const applied = await db.one<Row>(`SELECT * FROM ${adapter.table} WHERE id = $1`, [recordId]);
      after = applied ? await adapter.describe(db, adapter.fromRow(applied)) : null;
    }
    if (request.action !== 'CREATE' && recordId !== undefined) {
      await db.query(`UPDATE ${adapter.table} SET locked = 0 WHERE id = $1`, [recordId]);
    }
    const status = approve ? 'APPROVED' : 'REJECTED';
    await db.query('UPDATE change_requests SET status = $2, decided_by = $3, decided_at = $4, record_id = $5 WHERE id = $1', [
      request.id,
      status,
      t.user.username,
      now,
      recordId ?? null,
    ]);
    await t.log({
      type: approve ? 'CHANGE_APPROVED' : 'CHANGE_REJECTED',
      description: `${approve ? 'Approved' : 'Rejected'} ${request.action} of ${adapter.type}${recordId === undefined ? '' : ` #${recordId}`} (change request #${request.id} by ${request.requested_by})`,
      before: request.original_record,
      after: approve ? after : request.new_record,
    });
    return { message: `${adapter.type} ${approve ? 'approved' : 'rejected'} successfully` };
  });
}

async function applyChange<P extends object>(
  db: Db,
  adapter: EntityAdapter<P>,
  action: ChangeAction,
  recordId: number | undefined,
  payload: P,
  at: Date,
): Promise<number> {
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

export function statusText(disabled: unknown): string {
  return Number(disabled) === 0 ? 'Active' : 'Not Active';
}
