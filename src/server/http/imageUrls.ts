/**
 * Short-lived signed URLs for the app users' identity documents (passport/UID images, selfies):
 * `images/kyc/...png?exp=<unix seconds>&sig=<HMAC>`. The calls that may show them (the KYC list for
 * kyc-view, the app-user list for app-user-view / auditor-app-user-view) hand them out; GET /images
 * serves a document only with a signature that is valid for that very path and not expired, so a
 * URL copied from a log, a browser history or a proxy stops working after minutes, and one image's
 * URL opens no other. Logos and advertisement images stay public.
 *
 * The signing key is derived from the server's token secret (HMAC with a fixed label), so no new
 * setting is needed and every process behind a balancer accepts the others' URLs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IMAGE_PATH } from '../../api/imageUpload';

/** The folders of identity documents: app users' selfies and UID images, and the KYC submissions' images. */
export const PRIVATE_IMAGE_FOLDERS: readonly string[] = ['kyc', 'app-users'];

/** How long a handed-out URL works: long enough to open a review, short enough not to outlive it by much. */
export const IMAGE_URL_TTL_SECONDS = 10 * 60;

export function isPrivateImagePath(path: string): boolean {
  return PRIVATE_IMAGE_FOLDERS.some((folder) => path.startsWith(`images/${folder}/`));
}

export interface ImageUrlSigner {
  /** A private image's path as a signed URL (relative, like the path); public paths and null as they are. */
  sign(path: string): string;
  signOrNull(path: string | null): string | null;
  /** Whether `exp` and `sig` (the query of a GET /<path>) are a valid, unexpired signature of this path. */
  verify(path: string, exp: unknown, sig: unknown): boolean;
}

export function imageUrlSigner(secret: Uint8Array, clock: () => Date, ttlSeconds = IMAGE_URL_TTL_SECONDS): ImageUrlSigner {
  const key = createHmac('sha256', secret).update('remit-console signed image URLs v1').digest();
  const mac = (path: string, exp: string) => createHmac('sha256', key).update(`${path}\n${exp}`).digest();
  const sign = (path: string) => {
    if (!isPrivateImagePath(path) || !IMAGE_PATH.test(path)) return path;
    const exp = String(Math.floor(clock().getTime() / 1000) + ttlSeconds);
    return `${path}?exp=${exp}&sig=${mac(path, exp).toString('base64url')}`;
  };
  return {
    sign,
    signOrNull: (path) => (path === null ? null : sign(path)),
    verify(path, exp, sig) {
      if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
      const nowSeconds = clock().getTime() / 1000;
      // expired, or further ahead than this server hands out (a future exp cannot be forged without the key anyway)
      if (Number(exp) <= nowSeconds || Number(exp) > nowSeconds + ttlSeconds + 60) return false;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(path, exp);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

const SIGNED_URL = /^(images\/[^?#]+)\?exp=\d+&sig=[A-Za-z0-9_-]+(?:&t=\d+)?$/;

/** A value sent back as it was handed out (a signed URL) as the stored path it stands for; anything else as it is. */
export function unsignedImagePath(value: string): string {
  const m = SIGNED_URL.exec(value);
  return m && IMAGE_PATH.test(m[1]!) ? m[1]! : value;
}
