/**
 * Sessions: every sign-in starts one (console_sessions), with an absolute end SESSION_MAX_HOURS
 * (default 12) after the sign-in, whatever the refreshes. The session names its current token (the
 * token's `jti`); a refresh (`auth/token`) replaces it, so a refreshed token is dead, and the
 * session's end is the end of every token in it: a refresh is then refused (401) and no token of the
 * session works any more. Logout ends its own session.
 *
 * The token a refresh replaced stays good for REPLACED_TOKEN_GRACE_SECONDS: calls a tab sent with it
 * just before the refresh answered (or a second tab that read local storage a moment earlier) are not
 * answered 401, which would sign the user out. A refresh asked for with that replaced token in those
 * seconds gets a token for the current id, without replacing it again, so two refreshes racing from
 * two tabs leave both tabs with working tokens.
 *
 * The check costs no extra round trip: the session row is read in the same query as the user
 * (loadSessionUser).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db';

export const DEFAULT_SESSION_MAX_HOURS = 12;
export const REPLACED_TOKEN_GRACE_SECONDS = 10;

/** SESSION_MAX_HOURS: a positive number of hours (fractions allowed); unset or empty, the default. */
export function parseSessionMaxHours(value: string | undefined): number {
  const text = (value ?? '').trim();
  if (text === '') return DEFAULT_SESSION_MAX_HOURS;
  const hours = Number(text);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 366) throw new Error(`SESSION_MAX_HOURS: "${text}" is not a positive number of hours`);
  return hours;
}

export interface SessionRef {
  sessionId: string;
  tokenId: string;
  sessionExpiresAt: Date;
}

const newId = () => randomBytes(16).toString('base64url');

/** Starts a session for the user (a successful sign-in). */
export async function startSession(db: Db, userId: number, now: Date, maxHours: number): Promise<SessionRef> {
  const ref = { sessionId: newId(), tokenId: newId(), sessionExpiresAt: new Date(now.getTime() + maxHours * 3600_000) };
  // forget sessions that ended a day ago or more, so the table stays small
  await db.query('DELETE FROM console_sessions WHERE expires_at < $1', [new Date(now.getTime() - 24 * 3600_000)]);
  await db.query('INSERT INTO console_sessions (id, user_id, started_at, expires_at, token_id) VALUES ($1, $2, $3, $4, $5)', [ref.sessionId, userId, now, ref.sessionExpiresAt, ref.tokenId]);
  return ref;
}

/**
 * The token to hand out on a refresh asked for with token `tokenId`: a new id replacing it when it is
 * the current one; the current id, unreplaced, when it is the one replaced a few seconds ago; nothing
 * when the session has ended or the token is older.
 */
export async function refreshSession(db: Db, sessionId: string, tokenId: string, now: Date): Promise<SessionRef | undefined> {
  const next = newId();
  const replaced = await db.one<{ expires_at: Date }>(
    `UPDATE console_sessions SET previous_token_id = token_id, previous_valid_until = $4, token_id = $3
      WHERE id = $1 AND token_id = $2 AND ended_at IS NULL AND expires_at > $5
      RETURNING expires_at`,
    [sessionId, tokenId, next, new Date(now.getTime() + REPLACED_TOKEN_GRACE_SECONDS * 1000), now],
  );
  if (replaced) return { sessionId, tokenId: next, sessionExpiresAt: replaced.expires_at };
  const current = await db.one<{ token_id: string; expires_at: Date }>(
    `SELECT token_id, expires_at FROM console_sessions
      WHERE id = $1 AND previous_token_id = $2 AND previous_valid_until > $3 AND ended_at IS NULL AND expires_at > $3`,
    [sessionId, tokenId, now],
  );
  return current ? { sessionId, tokenId: current.token_id, sessionExpiresAt: current.expires_at } : undefined;
}

/** Ends one session (logout): none of its tokens works any more. */
export async function endSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL', [sessionId, now]);
}
