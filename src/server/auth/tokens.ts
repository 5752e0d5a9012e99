/**
 * Session tokens: HS256 JWTs (jose), the algorithm pinned on verification. The payload carries
 * `iat`, `exp`, `rfh` (refresh interval in ms, 2/3 of the lifetime), `username`, `permissions`,
 * `sub` (the user id), `sv` (the user's session_version; bumping it revokes every token), `sid` and
 * `jti` (the session and this token's id in it: only the session's current token is accepted,
 * src/server/auth/sessions.ts) and, while the password must be changed, `mcp: true` (the console
 * then shows nothing but Reset Password; the server enforces it from the database, not from this).
 * A token never outlives its session: `exp` is at most the session's end.
 */
import { SignJWT, jwtVerify } from 'jose';

export const DEFAULT_TOKEN_TTL_SECONDS = 30 * 60;

export interface TokenSubject {
  id: number;
  username: string;
  permissions: readonly string[];
  sessionVersion: number;
  /** The session the token belongs to and its id in it (a token without them is refused). */
  sessionId?: string;
  tokenId?: string;
  /** The session's absolute end: the token expires then at the latest. */
  sessionExpiresAt?: Date;
  mustChangePassword?: boolean;
}

export interface TokenClaims {
  userId: number;
  sessionVersion: number;
  sessionId: string;
  tokenId: string;
}

export async function issueToken(subject: TokenSubject, secret: Uint8Array, now: Date, ttlSeconds: number): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const end = subject.sessionExpiresAt ? Math.floor(subject.sessionExpiresAt.getTime() / 1000) : Infinity;
  const exp = Math.max(iat + 1, Math.min(iat + ttlSeconds, end));
  return new SignJWT({
    username: subject.username,
    permissions: [...subject.permissions],
    rfh: Math.round(((exp - iat) * 1000 * 2) / 3),
    sv: subject.sessionVersion,
    ...(subject.sessionId !== undefined ? { sid: subject.sessionId } : {}),
    ...(subject.mustChangePassword ? { mcp: true } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(subject.id))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(subject.tokenId ?? '')
    .sign(secret);
}

/** A verified token's claims and its expiry (seconds since the epoch). */
interface Verified {
  readonly claims: TokenClaims;
  readonly exp: number;
}

/** Tokens whose signature has been verified, per secret; the oldest are dropped beyond this many. */
const VERIFIED_TOKENS_KEPT = 10_000;
const verifiedBySecret = new WeakMap<Uint8Array, Map<string, Verified>>();

/**
 * The claims of a well-signed, unexpired token; undefined for anything else. A token's signature is
 * checked once per secret (jose's verification costs ~0.2 ms and a thread-pool round trip, on every
 * call of a signed-in user); its expiry is checked on every call. Whether the account may still act
 * (active, same session version) is the caller's check, on every call (src/server/auth/authenticate.ts).
 */
export async function readToken(token: string, secret: Uint8Array, now: Date): Promise<TokenClaims | undefined> {
  let verified = verifiedBySecret.get(secret);
  if (!verified) verifiedBySecret.set(secret, (verified = new Map()));
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const known = verified.get(token);
  if (known) {
    if (nowSeconds < known.exp) return known.claims;
    verified.delete(token);
    return undefined;
  }
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: now });
    const userId = Number(payload.sub);
    const { sv: sessionVersion, sid: sessionId, jti: tokenId } = payload;
    if (!Number.isInteger(userId) || userId <= 0 || typeof sessionVersion !== 'number' || typeof payload.exp !== 'number') {
      return undefined;
    }
    if (typeof sessionId !== 'string' || sessionId === '' || typeof tokenId !== 'string' || tokenId === '') return undefined;
    const claims = { userId, sessionVersion, sessionId, tokenId };
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, exp: payload.exp });
    return claims;
  } catch {
    return undefined;
  }
}

/** The bearer token of an Authorization header, if it has one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
