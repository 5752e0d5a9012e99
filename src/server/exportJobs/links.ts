/**
 * Download links of export files: `/api/export-file/<job id>?exp=<unix seconds>&sig=<HMAC>`, handed
 * out by `export/download-link` to the job's owner (or an administrator) and valid for a few minutes
 * (EXPORT settings: linkTtlSeconds). The key is derived from the token secret, so every server process
 * accepts the links of the others.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ExportLinkSigner {
  /** The link to job `id`'s file, and when it stops working. */
  sign(id: number, ttlSeconds: number): { url: string; expiresAt: Date };
  /** Whether exp and sig are a valid, unexpired signature for job `id`. */
  verify(id: number, exp: unknown, sig: unknown, maxTtlSeconds: number): boolean;
}

export const EXPORT_FILE_ROUTE = '/api/export-file/';

export function exportLinkSigner(secret: Uint8Array, clock: () => Date): ExportLinkSigner {
  const key = createHmac('sha256', secret).update('remit-console export file links v1').digest();
  const mac = (id: number, exp: string) => createHmac('sha256', key).update(`${id}\n${exp}`).digest();
  return {
    sign(id, ttlSeconds) {
      const expSeconds = Math.floor(clock().getTime() / 1000) + ttlSeconds;
      const exp = String(expSeconds);
      return { url: `${EXPORT_FILE_ROUTE}${id}?exp=${exp}&sig=${mac(id, exp).toString('base64url')}`, expiresAt: new Date(expSeconds * 1000) };
    },
    verify(id, exp, sig, maxTtlSeconds) {
      if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
      const nowSeconds = clock().getTime() / 1000;
      if (Number(exp) <= nowSeconds || Number(exp) > nowSeconds + maxTtlSeconds + 60) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(id, exp);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
