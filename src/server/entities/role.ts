/** Roles as a maker-checker entity. */
import { roleRecord } from '../../../screens/roles';
import { userTypeLabels } from '../../api/users';
import { grantRefusal } from '../../domain/privilege';
import { messages } from '../../domain/validation';
import { isPendingCreation, type EntityAdapter } from '../changeRequests';
import type { Row } from '../db/db';
import { HttpError } from '../http/httpError';
import { permissionsForUserType } from '../permissionOptions';
import { permissionList } from '../auth/sessionUser';

export interface RolePayload {
  role_name: string;
  user_type: 'BACKEND' | 'IPGBANK';
  user_level: number;
  permissions: string[];
  disabled: 0 | 1;
}

export const roleEntity: EntityAdapter<RolePayload> = {
  type: roleRecord.type,
  record: roleRecord,
  table: 'roles',

  fromRow: (row: Row) => ({
    role_name: String(row.role_name),
    user_type: row.user_type as RolePayload['user_type'],
    user_level: Number(row.user_level),
    permissions: permissionList(row.permissions),
    disabled: Number(row.disabled) === 0 ? 0 : 1,
  }),

  async check(db, _action, v, recordId, maker) {
    const level = await db.one('SELECT 1 FROM user_levels WHERE id = $1', [v.user_level]);
    if (!level) throw new HttpError(422, messages.userLevel);
    const allowed = permissionsForUserType(v.user_type);
    const refused = v.permissions.filter((p) => !allowed.has(p));
    if (refused.length > 0) throw new HttpError(422, `Not available to ${userTypeLabels[v.user_type]} roles: ${refused.join(', ')}`);
    const taken = await db.one('SELECT 1 FROM roles WHERE lower(role_name) = lower($1) AND id <> $2', [v.role_name, recordId ?? 0]);
    if (taken) throw new HttpError(422, `Role name "${v.role_name}" already exists`);
    if (await isPendingCreation(db, roleEntity.type, 'role_name', v.role_name)) {
      throw new HttpError(422, `Role name "${v.role_name}" is already pending approval`);
    }
    // no privilege escalation through a role: a maker asks only for permissions they hold (so only a
    // super user for super-permission), and changes only a role they could have asked for
    if (recordId !== undefined) {
      const current = await db.one<{ role_name: string; permissions: unknown }>('SELECT role_name, permissions FROM roles WHERE id = $1', [recordId]);
      const refusal = current && grantRefusal(maker, permissionList(current.permissions), `You cannot edit the role "${current.role_name}": it holds permissions you do not hold`);
      if (refusal) throw new HttpError(422, refusal);
    }
    const refusal = grantRefusal(maker, v.permissions, 'You cannot request a role with permissions you do not hold');
    if (refusal) throw new HttpError(422, refusal);
  },

  async apply(db, action, recordId, v, at) {
    if (action === 'CREATE') {
      const row = await db.one<{ id: number }>(
        `INSERT INTO roles (role_name, user_type, user_level, permissions, disabled, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
        [v.role_name, v.user_type, v.user_level, [...new Set(v.permissions)], v.disabled, at],
      );
      return row!.id;
    }
    if (action === 'DELETE') {
      await db.query('UPDATE roles SET disabled = 1 WHERE id = $1', [recordId]);
      return recordId!;
    }
    await db.query('UPDATE roles SET role_name = $2, user_type = $3, user_level = $4, permissions = $5, disabled = $6 WHERE id = $1', [
      recordId,
      v.role_name,
      v.user_type,
      v.user_level,
      [...new Set(v.permissions)],
      v.disabled,
    ]);
    return recordId!;
  },
};
