/**
 * Download links of export files: `/api/export-file/<job id>?exp=<unix seconds>&sid=<session id>&sv=<session version>&sig=<HMAC>`,
 * handed out by `export/download-link` to the job's owner (or an administrator) and valid for a few
 * minutes (EXPORT settings: linkTtlSeconds). The signature covers the job, the expiry and the session
 * that asked for the link (its id and the account's session version then): the file is served only
 * while that session lives (not signed out, not past its end, the account neither disabled nor its
 * tokens revoked by a password change) and its user may still see the file (src/server/http/exportFiles.ts).
 * The key is derived from the token secret, so every server process accepts the links of the others.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The session a link was asked for in. */
export interface LinkSession {
  sessionId: string;
  sessionVersion: number;
}

export interface ExportLinkSigner {
  /** The link to job `id`'s file for the session `session`, and when it stops working. */
  sign(id: number, ttlSeconds: number, session: LinkSession): { url: string; expiresAt: Date };
  /** The session a link's query names, when exp, sid, sv and sig are a valid, unexpired signature for job `id`; else undefined. */
  verify(id: number, query: Record<string, unknown>, maxTtlSeconds: number): LinkSession | undefined;
}

export const EXPORT_FILE_ROUTE = '/api/export-file/';

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function exportLinkSigner(secret: Uint8Array, clock: () => Date): ExportLinkSigner {
  const key = createHmac('sha256', secret).update('remit-console export file links v2').digest();
  const mac = (id: number, exp: string, sid: string, sv: string) => createHmac('sha256', key).update(`${id}\n${exp}\n${sid}\n${sv}`).digest();
  return {
    sign(id, ttlSeconds, session) {
      if (!SESSION_ID.test(session.sessionId) || !Number.isSafeInteger(session.sessionVersion)) throw new Error('exportLinkSigner: not a session');
      const expSeconds = Math.floor(clock().getTime() / 1000) + ttlSeconds;
      const exp = String(expSeconds);
      const sv = String(session.sessionVersion);
      const sig = mac(id, exp, session.sessionId, sv).toString('base64url');
      return { url: `${EXPORT_FILE_ROUTE}${id}?exp=${exp}&sid=${session.sessionId}&sv=${sv}&sig=${sig}`, expiresAt: new Date(expSeconds * 1000) };
    },
    verify(id, query, maxTtlSeconds) {
      const { exp, sid, sv, sig } = query;
      if (typeof exp !== 'string' || typeof sid !== 'string' || typeof sv !== 'string' || typeof sig !== 'string') return undefined;
      if (!/^\d{1,12}$/.test(exp) || !SESSION_ID.test(sid) || !/^\d{1,15}$/.test(sv) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return undefined;
      const nowSeconds = clock().getTime() / 1000;
      if (Number(exp) <= nowSeconds || Number(exp) > nowSeconds + maxTtlSeconds + 60) return undefined;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(id, exp, sid, sv);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return { sessionId: sid, sessionVersion: Number(sv) };
    },
  };
}
