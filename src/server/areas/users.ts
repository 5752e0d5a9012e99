/** Console users: list, form options, maker-checker create/edit, password changes. */
import { userApprove, userChangePassword, userCreate, userEdit, userGetForEdit, userInitialData, userList, userResetPassword, userUnlock, type UserRow } from '../../api/users';
import { grantRefusal, isPrivileged, passwordResetRefusal } from '../../domain/privilege';
import { isLocked } from '../../domain/guards';
import { formStatusText } from '../../domain/recordStatus';
import { permissionList, revokeSessions } from '../auth/sessionUser';
import { decide, pendingChangeRequests, submit, submitOperation } from '../changeRequests';
import { checkPasswordReset, setTemporaryPassword, userEntity, type UserPayload } from '../entities/user';
import { branchNameSql } from '../entities/userBranches';
import { handle, type BodyOf, type Ctx } from '../http/handle';
import { pageSql, type ListRows } from '../db/keyset';
import { matchingRows } from './matching';
import { HttpError, notFound, unauthorized } from '../http/httpError';
import { NEW_PASSWORD_UNCHANGED } from '../../api/auth';
import { refreshSession } from '../auth/sessions';
import { passwordAttempt } from './auth';
import { permissionsList } from '../permissionOptions';
import { exportFieldsOf } from '../../definitions/exportFields';
import { usersScreen } from '../../../screens/users';

/** The export columns of the users list: the screen definition's, so table, exports and reply agree. */
const userExportFields = exportFieldsOf(usersScreen);

interface UserListRow {
  id: number;
  name: string;
  email: string;
  contact: string;
  username: string;
  branch_code: string;
  branch_name: string | null;
  disabled: number;
  locked: number;
  created_at: Date;
  updated_at: Date;
  permissions: unknown;
  signin_locked: boolean;
}

function toUserRow(r: UserListRow): UserRow {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    contact_number: r.contact,
    username: r.username,
    branch: r.branch_name ?? r.branch_code,
    status: formStatusText(r.disabled),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    locked: r.locked,
    permissions: permissionList(r.permissions),
    signin_locked: r.signin_locked ? 1 : 0,
    signin: r.signin_locked ? ['Locked'] : [],
  };
}

/** The users list's rows (its handler and its server export): search by username, e-mail or contact, by id. */
export const userListRows: ListRows<BodyOf<typeof userList>, UserListRow, Ctx> = {
  query: async (ctx, { data: search, fetchCount }) => ({
    sql: `SELECT u.id, u.name, u.email, u.contact, u.username, u.branch_code, ${branchNameSql('u.user_type', 'u.branch_code')} AS branch_name,
                 u.disabled, u.locked, u.created_at, u.updated_at, r.permissions,
                 EXISTS (SELECT 1 FROM login_attempts a WHERE a.username_lower = lower(u.username) AND a.locked_until > $2) AS signin_locked
            FROM console_users u LEFT JOIN roles r ON r.id = u.role_id
           WHERE $1 = '' OR strpos(lower(u.username), lower($1)) > 0 OR strpos(lower(u.email), lower($1)) > 0
              OR strpos(lower(u.contact), lower($1)) > 0`,
    params: [search.trim(), ctx.clock()],
    keys: [{ column: 'id', type: 'integer' }],
    descending: false,
    limit: fetchCount,
  }),
  toRow: (r) => toUserRow(r),
};

export const userHandlers = [
  handle(userList, async (ctx, body) => {
    const q = await userListRows.query(ctx, body);
    const page = pageSql(q, q.limit);
    const rows = await ctx.db.query<UserListRow>(page.sql, page.params);
    return {
      data: {
        users: rows.map(toUserRow),
        changeRequests: await pendingChangeRequests(ctx.db, userEntity),
        fields: userExportFields,
      },
      top: { matching: await matchingRows(ctx.db, rows.length, q.limit, `FROM (${q.sql}) page`, q.params) },
    };
  }),

  handle(userInitialData, async (ctx) => {
    const items = (table: string, code = 'code') => ctx.db.query<{ id: number; code: string; name: string }>(`SELECT id, ${code} AS code, name FROM ${table} WHERE disabled = 0 ORDER BY name`);
    const [branchList, exchangeHouseList, merchantList] = await Promise.all([items('branches'), items('exchange_houses'), items('merchants', 'id::text')]);
    const providerList = await ctx.db.query<{ id: number; code: string; name: string }>(
      'SELECT id, provider_bank_code AS code, provider_bank_name AS name FROM ipg_providers WHERE disabled = 0 ORDER BY provider_bank_name',
    );
    const bankList = await ctx.db.query<{ id: number; bankCode: string; bankName: string }>(
      'SELECT id, bank_code AS "bankCode", bank_name AS "bankName" FROM banks WHERE disabled = 0 ORDER BY bank_name',
    );
    const roles = await ctx.db.query<{ id: number; role_name: string; user_type: string; permissions: unknown }>(
      'SELECT id, role_name, user_type, permissions FROM roles WHERE disabled = 0 ORDER BY role_name',
    );
    return {
      data: {
        branchList,
        bankList,
        // only the roles this user may give (a maker grants only permissions they hold: src/domain/privilege.ts)
        roleList: roles
          .map((r) => ({ roleId: r.id, roleName: r.role_name, userType: r.user_type, permissions: permissionList(r.permissions) }))
          .filter((r) => grantRefusal(ctx.user, r.permissions, '') === null),
        exchangeHouseList,
        providerList,
        merchantList,
        permissionsList: permissionsList(),
      },
    };
  }),

  handle(
    userCreate,
    async (ctx, body) => {
      const { password, ...fields } = body;
      const payload: UserPayload = { ...fields, password_hash: await ctx.auth.hashPassword(password) };
      const changeRequestId = await submit(ctx, userEntity, { action: 'CREATE', payload });
      return { data: { message: 'User sent for approval', changeRequestId } };
    },
    { guards: [grantRefusal], changeRequest: { entity: userEntity.type, approve: userApprove } },
  ),

  handle(userGetForEdit, async (ctx, { id }) => {
    const row = await ctx.db.one<{
      id: number;
      name: string;
      user_type: string;
      username: string;
      email: string;
      contact: string;
      branch_code: string;
      role_id: number;
      disabled: number;
      locked: number;
    }>('SELECT id, name, user_type, username, email, contact, branch_code, role_id, disabled, locked FROM console_users WHERE id = $1', [id]);
    if (!row) throw notFound('User');
    const { role_id, ...rest } = row;
    return { data: { customUser: { ...rest, role: role_id } } };
  }),

  handle(
    userEdit,
    async (ctx, body) => {
      const { id, ...payload } = body;
      const changeRequestId = await submit(ctx, userEntity, { action: 'EDIT', recordId: id, payload });
      return { data: { message: 'User sent for approval', changeRequestId } };
    },
    { guards: [grantRefusal], changeRequest: { entity: userEntity.type, approve: userApprove } },
  ),

  /**
   * Another user's password, by the rule of src/domain/privilege.ts: only a user whose permissions the
   * caller holds, never a super user or oneself. The password is temporary and the account's tokens
   * are revoked. A privileged account's reset (it could approve or reset) needs a second person: it
   * becomes a change request, else the one holding user-password-reset could sign in as a checker and
   * approve their own requests.
   */
  handle(
    userChangePassword,
    async (ctx, { username, password }) => {
      const found = await ctx.db.one<{ id: number; locked: number }>('SELECT id, locked FROM console_users WHERE lower(username) = lower($1)', [username]);
      if (!found) throw notFound('User');
      if (found.locked !== 0) throw new HttpError(422, 'User is locked');
      const actor = { username: ctx.user.username, permissions: ctx.user.permissions };
      const target = await checkPasswordReset(ctx.db, actor, found.id);
      const hash = await ctx.auth.hashPassword(password);
      if (isPrivileged(target.permissions)) {
        const changeRequestId = await submitOperation(ctx, userEntity, { operation: 'PASSWORD_RESET', recordId: found.id, payload: { password_hash: hash } });
        return { data: { message: `Password reset for user "${target.username}" sent for approval`, changeRequestId } };
      }
      return ctx.tx(async (t) => {
        // the rule again under the row's lock, so a role change approved meanwhile cannot slip through
        const row = await t.db.one<{ locked: number }>('SELECT locked FROM console_users WHERE id = $1 FOR UPDATE', [found.id]);
        if (!row) throw notFound('User');
        if (row.locked !== 0) throw new HttpError(422, 'User is locked');
        const now = await checkPasswordReset(t.db, actor, found.id);
        if (isPrivileged(now.permissions)) throw new HttpError(409, 'The user changed meanwhile: try again');
        const done = await setTemporaryPassword(t.db, found.id, hash, t.clock());
        await t.log(done);
        return { data: { message: `Password changed for user "${now.username}" successfully` } };
      });
    },
    { guards: [isLocked, passwordResetRefusal], changeRequest: { entity: userEntity.type, approve: userApprove, onlyWhen: isPrivileged } },
  ),

  handle(
    userUnlock,
    async (ctx, { id }) => {
      const changeRequestId = await submitOperation(ctx, userEntity, { operation: 'UNLOCK', recordId: id, payload: {} });
      return { data: { message: 'Unlock sent for approval', changeRequestId } };
    },
    { changeRequest: { entity: userEntity.type, approve: userApprove } },
  ),

  // The old password is a password attempt like a sign-in: the same counters, locks and back-off
  // (src/server/areas/auth.ts). A password set by someone else ends here: the flag is cleared, and the
  // new password must differ from it. The session goes on with a fresh token; every other one is revoked.
  handle(userResetPassword, async (ctx, { username, old_password, new_password }) => {
    if (username.toLowerCase() !== ctx.user.username.toLowerCase()) throw new HttpError(403, 'You can only reset your own password');
    const row = await ctx.db.one<{ password_hash: string }>('SELECT password_hash FROM console_users WHERE id = $1', [ctx.user.id]);
    const outcome = await passwordAttempt(ctx, ctx.user.username, async () => !!row && (await ctx.auth.verifyPassword(old_password, row.password_hash, { account: ctx.user.username })), {
      kind: 'password reset',
      lockedStatus: 403,
    });
    if (!outcome.ok) throw new HttpError(406, 'Old password is invalid');
    if (new_password === old_password) throw new HttpError(422, NEW_PASSWORD_UNCHANGED);
    const hash = await ctx.auth.hashPassword(new_password);
    await ctx.db.query('UPDATE console_users SET password_hash = $2, must_change_password = 0, updated_at = $3 WHERE id = $1', [ctx.user.id, hash, ctx.clock()]);
    const sessionVersion = await revokeSessions(ctx.db, ctx.user.id);
    // the streams this process holds open under the revoked tokens check again and end
    ctx.auth.sessionSignals?.accessChanged(ctx.user.id);
    await ctx.log({ type: 'PASSWORD_RESET', description: 'Reset own password (other sessions were revoked)' });
    const ref = await refreshSession(ctx.db, ctx.user.sessionId!, ctx.user.tokenId!, ctx.clock());
    if (!ref) throw unauthorized();
    const token = await ctx.auth.issueToken({ ...ctx.user, sessionVersion, mustChangePassword: false, ...ref });
    return { data: { message: 'Password reset successful', token } };
  }),

  handle(userApprove, async (ctx, decision) => ({ data: await decide(ctx, userEntity, decision) }), { decides: [userEntity.type] }),
];
