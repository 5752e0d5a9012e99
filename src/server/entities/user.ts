/** Console users as a maker-checker entity. */
import { userTypeLabels, type UserType } from '../../api/users';
import { branchMessage, messages } from '../../domain/validation';
import { displayField, isPendingCreation, statusText, type ChangeAction, type EntityAdapter } from '../changeRequests';
import type { Db, Row } from '../db/db';
import { HttpError } from '../http/httpError';
import { roleSuitsUserType } from '../permissionOptions';
import { branchNameSql } from './userBranches';

/** What a user create or edit request carries. `password_hash` only on CREATE; never a password. */
export interface UserPayload {
  type: UserType;
  name: string;
  email: string;
  contact: string;
  username: string;
  branch_code: string;
  role: number;
  disabled: 0 | 1;
  password_hash?: string;
}

export const userEntity: EntityAdapter<UserPayload> = {
  type: 'User',
  table: 'console_users',

  fromRow: (row: Row) => ({
    type: row.user_type as UserType,
    name: String(row.name),
    email: String(row.email),
    contact: String(row.contact),
    username: String(row.username),
    branch_code: String(row.branch_code),
    role: Number(row.role_id),
    disabled: Number(row.disabled) === 0 ? 0 : 1,
  }),

  async describe(db, v) {
    const names = await db.one<{ branch: string | null; role: string | null }>(
      `SELECT ${branchNameSql('$1::text', '$2::text')} AS branch, (SELECT role_name FROM roles WHERE id = $3) AS role`,
      [v.type, v.branch_code, v.role],
    );
    return {
      name: displayField('Name', v.name),
      username: displayField('Username', v.username),
      email: displayField('Email', v.email),
      contact: displayField('Contact Number', v.contact),
      user_type: displayField('User Type', userTypeLabels[v.type] ?? v.type),
      branch: displayField('Branch', names?.branch ?? v.branch_code),
      role: displayField('Role', names?.role ?? String(v.role)),
      status: displayField('Status', statusText(v.disabled)),
    };
  },

  async check(db, action, v, recordId) {
    await checkUserFields(db, action, v, recordId);
  },

  async apply(db, action, recordId, v, at) {
    if (action === 'CREATE') {
      if (!v.password_hash) throw new Error('A user CREATE request has no password hash');
      const row = await db.one<{ id: number }>(
        `INSERT INTO console_users
           (name, email, contact, username, user_type, branch_code, role_id, disabled, password_hash, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id`,
        [v.name, v.email, v.contact, v.username, v.type, v.branch_code, v.role, v.disabled, v.password_hash, at],
      );
      return row!.id;
    }
    if (action === 'DELETE') {
      await db.query('UPDATE console_users SET disabled = 1 WHERE id = $1', [recordId]);
      return recordId!;
    }
    await db.query(
      `UPDATE console_users SET name = $2, email = $3, contact = $4, username = $5, user_type = $6, branch_code = $7,
              role_id = $8, disabled = $9 WHERE id = $1`,
      [recordId, v.name, v.email, v.contact, v.username, v.type, v.branch_code, v.role, v.disabled],
    );
    return recordId!;
  },
};

/** The rules a user request must meet beyond its shape (422 with the message the form would show). */
async function checkUserFields(db: Db, action: ChangeAction, v: UserPayload, recordId: number | undefined): Promise<void> {
  const role = await db.one<{ user_type: string; disabled: number }>('SELECT user_type, disabled FROM roles WHERE id = $1', [v.role]);
  if (!role || role.disabled !== 0) throw new HttpError(422, messages.role);
  if (!roleSuitsUserType(role.user_type, v.type)) throw new HttpError(422, `The role does not suit the user type ${userTypeLabels[v.type]}`);

  const branch = await db.one<{ name: string | null }>(`SELECT ${branchNameSql('$1::text', '$2::text')} AS name`, [v.type, v.branch_code]);
  if (!branch?.name) throw new HttpError(422, branchMessage(v.type));

  const taken = await db.one('SELECT 1 FROM console_users WHERE lower(username) = lower($1) AND id <> $2', [v.username, recordId ?? 0]);
  if (taken) throw new HttpError(422, `Username "${v.username}" already exists`);
  if (await isPendingCreation(db, userEntity.type, 'username', v.username)) {
    throw new HttpError(422, `Username "${v.username}" is already pending approval`);
  }
}
