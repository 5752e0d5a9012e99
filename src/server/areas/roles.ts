/** Roles: list, form options, maker-checker create/edit. */
import { roleApprove, roleCreate, roleEdit, roleGetForEdit, roleInitialData, roleList, type RoleRow } from '../../api/roles';
import { permissionList } from '../auth/sessionUser';
import { decide, pendingChangeRequests, submit } from '../changeRequests';
import { roleEntity } from '../entities/role';
import { grantRefusal } from '../../domain/privilege';
import { formStatusText } from '../../domain/recordStatus';
import { handle } from '../http/handle';
import { notFound } from '../http/httpError';
import { permissionsList } from '../permissionOptions';
import type { Db } from '../db/db';

interface RoleTableRow {
  id: number;
  role_name: string;
  user_type: string;
  user_level: number;
  permissions: unknown;
  disabled: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
}

function toRoleRow(r: RoleTableRow): RoleRow {
  return {
    id: r.id,
    role_name: r.role_name,
    user_type: r.user_type,
    user_level: r.user_level,
    permissions: permissionList(r.permissions),
    disabled: r.disabled,
    status: formStatusText(r.disabled),
    locked: r.locked,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const roleColumns = 'id, role_name, user_type, user_level, permissions, disabled, locked, created_at, updated_at';

async function findRole(db: Db, id: number): Promise<RoleRow> {
  const row = await db.one<RoleTableRow>(`SELECT ${roleColumns} FROM roles WHERE id = $1`, [id]);
  if (!row) throw notFound('Role');
  return toRoleRow(row);
}

export const roleHandlers = [
  handle(roleList, async (ctx) => {
    const rows = await ctx.db.query<RoleTableRow>(`SELECT ${roleColumns} FROM roles ORDER BY id`);
    return { data: { roles: rows.map(toRoleRow), changeRequests: await pendingChangeRequests(ctx.db, roleEntity) } };
  }),

  handle(roleInitialData, async (ctx) => ({
    data: {
      userLevels: await ctx.db.query<{ id: number; level: number; title: string }>('SELECT id, level, title FROM user_levels ORDER BY level'),
      permissionsList: permissionsList(),
    },
  })),

  handle(
    roleCreate,
    async (ctx, payload) => {
      const changeRequestId = await submit(ctx, roleEntity, { action: 'CREATE', payload });
      return { data: { message: 'Role sent for approval', changeRequestId } };
    },
    { guards: [grantRefusal], changeRequest: { entity: roleEntity.type, approve: roleApprove } },
  ),

  handle(roleGetForEdit, async (ctx, { id }) => ({ data: { role: await findRole(ctx.db, id) } })),

  handle(
    roleEdit,
    async (ctx, body) => {
      const { id, ...payload } = body;
      const changeRequestId = await submit(ctx, roleEntity, { action: 'EDIT', recordId: id, payload });
      return { data: { message: 'Role sent for approval', changeRequestId } };
    },
    { guards: [grantRefusal], changeRequest: { entity: roleEntity.type, approve: roleApprove } },
  ),

  handle(roleApprove, async (ctx, decision) => ({ data: await decide(ctx, roleEntity, decision) }), { decides: [roleEntity.type] }),
];
