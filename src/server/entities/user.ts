/** Console users as a maker-checker entity. */
import { userRecord } from '../../../screens/users';
import { userTypeLabels, type UserType } from '../../api/users';
import { grantRefusal, passwordResetRefusal, userEditRefusal, type Principal } from '../../domain/privilege';
import { branchMessage, messages } from '../../domain/validation';
import { clearFailures } from '../auth/loginAttempts';
import { permissionList, revokeSessions } from '../auth/sessionUser';
import { displayField, isPendingCreation, type ChangeAction, type EntityAdapter, type RecordOperation } from '../changeRequests';
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

/** The payload of a password reset request: the new password's scrypt hash, never the password. */
export interface PasswordResetPayload {
  password_hash: string;
}

/** A user as the privilege rules see them: the permissions of their role, also when it is disabled. */
export async function userPrincipal(db: Db, userId: number): Promise<Principal | undefined> {
  const row = await db.one<{ username: string; permissions: unknown }>('SELECT u.username, r.permissions FROM console_users u LEFT JOIN roles r ON r.id = u.role_id WHERE u.id = $1', [userId]);
  return row && { username: row.username, permissions: permissionList(row.permissions) };
}

/** Refuses (403, the reason) when `actor` may not set the password of user `userId` (src/domain/privilege.ts). */
export async function checkPasswordReset(db: Db, actor: Principal, userId: number): Promise<Principal> {
  const target = await userPrincipal(db, userId);
  if (!target) throw new HttpError(404, 'User not found');
  const refusal = passwordResetRefusal({ actor, target });
  if (refusal) throw new HttpError(403, refusal);
  return target;
}

/**
 * Sets a password chosen by someone else: it is temporary (the owner must change it at the next
 * sign-in) and every token of the account is revoked. Returns the log entry (no password, no hash).
 */
export async function setTemporaryPassword(db: Db, userId: number, passwordHash: string, at: Date): Promise<{ type: string; description: string }> {
  const row = await db.one<{ username: string }>('UPDATE console_users SET password_hash = $2, must_change_password = 1, updated_at = $3 WHERE id = $1 RETURNING username', [userId, passwordHash, at]);
  if (!row) throw new HttpError(404, 'User not found');
  await revokeSessions(db, userId);
  return { type: 'PASSWORD_CHANGED', description: `Changed the password of ${row.username} (temporary: to be changed at the next sign-in; their sessions were revoked)` };
}

/** True when the username's sign-in is locked at `at` after too many failed attempts. */
export async function isSignInLocked(db: Db, username: string, at: Date): Promise<boolean> {
  const row = await db.one('SELECT 1 FROM login_attempts WHERE username_lower = lower($1) AND locked_until > $2', [username, at]);
  return row !== undefined;
}

/**
 * A password reset of a privileged account, with a second person: the maker may reset it (the same
 * rule as an immediate reset, checked again at approval with the maker's permissions then), another
 * user with user-approve applies it.
 */
const passwordReset: RecordOperation<PasswordResetPayload> = {
  label: 'password reset',
  async check(db, row, _payload, maker) {
    await checkPasswordReset(db, maker, Number(row.id));
  },
  // else the account's owner, once talked into it, hands their identity to the one who chose the password
  ownerMayNotDecide: 'You cannot approve or reject the reset of your own password',
  describe: () => ({
    before: { password: displayField('Password', 'unchanged') },
    after: { password: displayField('Password', 'reset (temporary)') },
  }),
  apply: (db, row, payload, at) => setTemporaryPassword(db, Number(row.id), payload.password_hash, at),
};

/** Lifting a sign-in lockout (after too many failed sign-ins) before it runs out. */
const signInUnlock: RecordOperation<Record<string, never>> = {
  label: 'sign-in unlock',
  async check(db, row, _payload, _maker, { stage, at }) {
    // at approval a lockout that has run out meanwhile is no reason to refuse: clearing it is harmless
    if (stage === 'request' && !(await isSignInLocked(db, String(row.username), at))) {
      throw new HttpError(422, `The sign-in of "${String(row.username)}" is not locked`);
    }
  },
  describe: () => ({
    before: { signin: displayField('Sign-in', 'Locked') },
    after: { signin: displayField('Sign-in', 'Unlocked') },
  }),
  async apply(db, row) {
    await clearFailures(db, String(row.username));
    return { type: 'SIGN_IN_UNLOCKED', description: `Lifted the sign-in lockout of ${String(row.username)}` };
  },
};

export const userEntity: EntityAdapter<UserPayload> = {
  type: userRecord.type,
  record: userRecord,
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

  async check(db, action, v, recordId, maker) {
    await checkUserFields(db, action, v, recordId);
    await checkUserGrant(db, v, recordId, maker);
  },

  operations: { PASSWORD_RESET: passwordReset, UNLOCK: signInUnlock },

  async apply(db, action, recordId, v, at) {
    if (action === 'CREATE') {
      if (!v.password_hash) throw new Error('A user CREATE request has no password hash');
      const row = await db.one<{ id: number }>(
        `INSERT INTO console_users
           (name, email, contact, username, user_type, branch_code, role_id, disabled, password_hash, must_change_password, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10) RETURNING id`,
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

/**
 * No privilege through a user request: the maker gives a user only a role whose permissions they hold
 * themselves, and edits only a user whose current role they could give (else a maker creates an
 * account with the Administrator role and a password they chose, or renames a checker's account).
 */
async function checkUserGrant(db: Db, v: UserPayload, recordId: number | undefined, maker: Principal): Promise<void> {
  if (recordId !== undefined) {
    const current = await userPrincipal(db, recordId);
    const refusal = current && userEditRefusal(maker, current);
    if (refusal) throw new HttpError(422, refusal);
  }
  const role = await db.one<{ role_name: string; permissions: unknown }>('SELECT role_name, permissions FROM roles WHERE id = $1', [v.role]);
  const refusal = role && grantRefusal(maker, permissionList(role.permissions), `You cannot give a user the role "${role.role_name}": it holds permissions you do not hold`);
  if (refusal) throw new HttpError(422, refusal);
}

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
