import type { Db } from '../db/db';
import { unauthorized } from '../http/httpError';
import { loadSessionUser, type SessionUser } from './sessionUser';
import { bearerToken, readToken } from './tokens';

/**
 * The user behind an Authorization header: a valid HS256 token, unexpired, whose session version is
 * still the user's, whose account is active, and whose session has not ended and names it as its
 * current token (src/server/auth/sessions.ts). Anything else is 401 Unauthorized.
 */
export async function authenticate(db: Db, secret: Uint8Array, now: Date, authorization: string | undefined): Promise<SessionUser> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized();
  const claims = await readToken(token, secret, now);
  if (!claims) throw unauthorized();
  const user = await loadSessionUser(db, claims.userId, claims.sessionVersion, { sessionId: claims.sessionId, tokenId: claims.tokenId, now });
  if (!user) throw unauthorized();
  return user;
}
