/**
 * Session tokens: HS256 JWTs (jose), the algorithm pinned on verification. The payload carries
 * `iat`, `exp`, `rfh` (refresh interval in ms, 2/3 of the lifetime), `username`, `permissions`,
 * `sub` (the user id) and `sv` (the user's session_version; bumping it revokes every token).
 */
import { SignJWT, jwtVerify } from 'jose';

export const DEFAULT_TOKEN_TTL_SECONDS = 30 * 60;

export interface TokenSubject {
  id: number;
  username: string;
  permissions: readonly string[];
  sessionVersion: number;
}

export interface TokenClaims {
  userId: number;
  sessionVersion: number;
}

export async function issueToken(subject: TokenSubject, secret: Uint8Array, now: Date, ttlSeconds: number): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    username: subject.username,
    permissions: [...subject.permissions],
    rfh: Math.round((ttlSeconds * 1000 * 2) / 3),
    sv: subject.sessionVersion,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(subject.id))
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(secret);
}

/** The claims of a well-signed, unexpired token; undefined for anything else. */
export async function readToken(token: string, secret: Uint8Array, now: Date): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: now });
    const userId = Number(payload.sub);
    const sessionVersion = payload.sv;
    if (!Number.isInteger(userId) || userId <= 0 || typeof sessionVersion !== 'number' || typeof payload.exp !== 'number') {
      return undefined;
    }
    return { userId, sessionVersion };
  } catch {
    return undefined;
  }
}

/** The bearer token of an Authorization header, if it has one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
