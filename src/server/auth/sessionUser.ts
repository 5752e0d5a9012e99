import type { Db } from '../db/db';

/** The signed-in user as handlers see it: permissions are the role's current ones, read per call. */
export interface SessionUser {
  id: number;
  username: string;
  permissions: string[];
  sessionVersion: number;
  /** The session of the token the call came with (absent only for a user loaded without one, at sign-in). */
  sessionId?: string;
  tokenId?: string;
  sessionExpiresAt?: Date;
  /** A password set by someone else: nothing but changing it is allowed (src/server/auth/passwordChangeGate.ts). */
  mustChangePassword: boolean;
}

interface UserAccessRow {
  id: number;
  username: string;
  disabled: number;
  session_version: number;
  must_change_password: number;
  permissions: unknown;
  role_disabled: number | null;
  session_ok: boolean | null;
  session_expires_at: Date | null;
}

/** A token's session: its id, the token's id in it, and the time to judge them at. */
export interface SessionClaims {
  sessionId: string;
  tokenId: string;
  now: Date;
}

/**
 * The user a token's claims name, if they may still act: the account exists, is active and has not
 * revoked its tokens since (same session_version), and, when `session` is given, the session has not
 * ended and the token is its current one (or the one it replaced, for a few seconds: sessions.ts). One
 * query, the session joined to the user: this runs on every call. A disabled role grants no permission.
 */
export async function loadSessionUser(db: Db, userId: number, sessionVersion: number, session?: SessionClaims): Promise<SessionUser | undefined> {
  const row = await db.one<UserAccessRow>(
    `SELECT u.id, u.username, u.disabled, u.session_version, u.must_change_password, r.permissions, r.disabled AS role_disabled,
            (s.ended_at IS NULL AND s.expires_at > $4 AND (s.token_id = $3 OR (s.previous_token_id = $3 AND s.previous_valid_until > $4))) AS session_ok,
            s.expires_at AS session_expires_at
       FROM console_users u LEFT JOIN roles r ON r.id = u.role_id
            LEFT JOIN console_sessions s ON s.id = $2 AND s.user_id = u.id
      WHERE u.id = $1`,
    [userId, session?.sessionId ?? null, session?.tokenId ?? null, session?.now ?? null],
  );
  if (!row || row.disabled !== 0 || row.session_version !== sessionVersion) return undefined;
  if (session && row.session_ok !== true) return undefined;
  return {
    id: row.id,
    username: row.username,
    permissions: row.role_disabled === 0 ? permissionList(row.permissions) : [],
    sessionVersion: row.session_version,
    ...(session ? { sessionId: session.sessionId, tokenId: session.tokenId, sessionExpiresAt: row.session_expires_at! } : {}),
    mustChangePassword: row.must_change_password !== 0,
  };
}

export function permissionList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

/** Revokes every token of the user (every session of theirs ends with it). */
export async function revokeSessions(db: Db, userId: number): Promise<number> {
  const row = await db.one<{ session_version: number }>('UPDATE console_users SET session_version = session_version + 1 WHERE id = $1 RETURNING session_version', [userId]);
  return row?.session_version ?? 0;
}
