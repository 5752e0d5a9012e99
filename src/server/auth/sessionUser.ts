import type { Db } from '../db/db';

/** The signed-in user as handlers see it: permissions are the role's current ones, read per call. */
export interface SessionUser {
  id: number;
  username: string;
  permissions: string[];
  sessionVersion: number;
}

interface UserAccessRow {
  id: number;
  username: string;
  disabled: number;
  session_version: number;
  permissions: unknown;
  role_disabled: number | null;
}

/**
 * The user a token's claims name, if they may still act: the account exists, is active and has not
 * revoked its tokens since (same session_version). A disabled role grants no permission.
 */
export async function loadSessionUser(db: Db, userId: number, sessionVersion: number): Promise<SessionUser | undefined> {
  const row = await db.one<UserAccessRow>(
    `SELECT u.id, u.username, u.disabled, u.session_version, r.permissions, r.disabled AS role_disabled
       FROM console_users u LEFT JOIN roles r ON r.id = u.role_id
      WHERE u.id = $1`,
    [userId],
  );
  if (!row || row.disabled !== 0 || row.session_version !== sessionVersion) return undefined;
  return {
    id: row.id,
    username: row.username,
    permissions: row.role_disabled === 0 ? permissionList(row.permissions) : [],
    sessionVersion: row.session_version,
  };
}

export function permissionList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

/** Revokes every token of the user. */
export async function revokeSessions(db: Db, userId: number): Promise<number> {
  const row = await db.one<{ session_version: number }>(
    'UPDATE console_users SET session_version = session_version + 1 WHERE id = $1 RETURNING session_version',
    [userId],
  );
  return row?.session_version ?? 0;
}
