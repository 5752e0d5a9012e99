/**
 * Demo data: a few change requests waiting for a decision, made by `maker` in several areas (a bank
 * edit, a new role, a new app version, a user edit), so that a first start has work in the Approvals
 * inbox and in each list's change-request panel. Each is checked and described by its area's own
 * adapter, as a request made through the API would be, and locks its record; `checker` (or admin) can
 * approve or reject it at once.
 */
import type { Db, Row } from '../db/db';
import { describe, type ChangeAction, type DisplayMap, type EntityAdapter } from '../changeRequests';
import { permissionList } from '../auth/sessionUser';
import { bankEntity } from '../entities/bank';
import { roleEntity } from '../entities/role';
import { appVersionEntity } from '../entities/appVersion';
import { userEntity } from '../entities/user';
import type { AreaSeedContext } from './demo';

const HOUR = 60 * 60 * 1000;

/** The maker of the demo requests. */
export const PENDING_REQUESTS_MAKER = 'maker';

interface Pending<P extends object> {
  adapter: EntityAdapter<P>;
  action: ChangeAction;
  /** The record an EDIT changes (found by a query giving its row), else none. */
  record?: { sql: string; params: unknown[] };
  /** The request's values from the record's current ones (an EDIT) and the id of the 'Officer' user level. */
  payload: (current: P | undefined, officerLevel: number) => P;
  hoursAgo: number;
}

const pending = (): Pending<object>[] => [
  {
    adapter: bankEntity,
    action: 'EDIT',
    record: { sql: 'SELECT * FROM banks WHERE locked = 0 ORDER BY id DESC LIMIT 1', params: [] },
    payload: (b) => ({ ...(b as { bank_name: string }), bank_name: `${(b as { bank_name: string }).bank_name} & Co.`.slice(0, 100) }),
    hoursAgo: 30,
  } as Pending<object>,
  {
    adapter: roleEntity,
    action: 'CREATE',
    payload: (_, officerLevel) => ({
      role_name: 'Branch Reports Viewer',
      user_type: 'BACKEND',
      user_level: officerLevel,
      permissions: ['send-money-report-view', 'bill-payment-report-view'],
      disabled: 0,
    }),
    hoursAgo: 20,
  } as Pending<object>,
  {
    adapter: appVersionEntity,
    action: 'CREATE',
    payload: () => ({ appVersion: '2.5.0+52', platforms: ['ANDROID', 'IOS', 'HUAWEI'], forceUpdate: 0 }),
    hoursAgo: 6,
  } as Pending<object>,
  {
    adapter: userEntity,
    action: 'EDIT',
    record: { sql: "SELECT * FROM console_users WHERE username = 'mahesh_s'", params: [] },
    payload: (u) => ({ ...(u as { contact: string }), contact: '0779876543' }),
    hoursAgo: 2,
  } as Pending<object>,
];

/** Seeds the pending requests (after the users, roles and master data). */
export async function seedPendingRequests(db: Db, { now }: AreaSeedContext): Promise<void> {
  const maker = await db.one<{ id: number; username: string; permissions: unknown }>(
    'SELECT u.id, u.username, r.permissions FROM console_users u JOIN roles r ON r.id = u.role_id WHERE u.username = $1',
    [PENDING_REQUESTS_MAKER],
  );
  if (!maker) throw new Error(`The demo requests need the account ${PENDING_REQUESTS_MAKER}`);
  const principal = { username: maker.username, permissions: permissionList(maker.permissions) };
  const officer = await db.one<{ id: number }>('SELECT id FROM user_levels WHERE level = 1');
  if (!officer) throw new Error('The demo requests need the user levels');
  for (const p of pending()) {
    let row: Row | undefined;
    if (p.record) {
      row = await db.one<Row>(p.record.sql, p.record.params);
      if (!row) throw new Error(`No ${p.adapter.type} for a demo request`);
    }
    const current = row ? await completed(db, p.adapter, row) : undefined;
    const payload = p.payload(current, officer.id);
    const recordId = row ? Number(row.id) : undefined;
    // the area's own rules, as for a request made through the API (a seed that breaks one fails here)
    await p.adapter.check?.(db, p.action, payload, recordId, principal);
    const original: DisplayMap | null = current ? await describe(db, p.adapter, current) : null;
    const described = await describe(db, p.adapter, payload);
    if (recordId !== undefined) await db.query(`UPDATE ${p.adapter.table} SET locked = 1 WHERE id = $1`, [recordId]);
    await db.query(
      `INSERT INTO change_requests
         (entity_type, record_id, action, new_record, original_record, payload, record_version, requested_by, requested_by_id, requested_at, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'PENDING')`,
      [p.adapter.type, recordId ?? null, p.action, described, original, payload, row ? Number(row.version) : null, maker.username, maker.id, new Date(now.getTime() - p.hoursAgo * HOUR)],
    );
  }
}

async function completed<P extends object>(db: Db, adapter: EntityAdapter<P>, row: Row): Promise<P> {
  const values = adapter.fromRow(row);
  return adapter.complete ? adapter.complete(db, values) : values;
}
