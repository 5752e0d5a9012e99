/**
 * Password hashing with node:crypto scrypt, on low-priority threads of its own (./hashThreads.ts). A
 * stored hash reads `scrypt$N$r$p$saltB64$hashB64`, so a hash keeps verifying after the default cost
 * changes.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { scryptOnThread, type HashPriority } from './hashThreads';

export const DEFAULT_SCRYPT_N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

/** scrypt needs 128 * N * r bytes; the thread allows twice that. */
function scrypt(password: string, salt: Buffer, n: number, r: number, p: number, priority: HashPriority = 'low'): Promise<Buffer> {
  return scryptOnThread(password, salt, KEY_LENGTH, n, r, p, priority);
}

export async function hashPassword(password: string, n: number = DEFAULT_SCRYPT_N): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, n, R, P);
  return ['scrypt', n, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when the password matches the stored hash; false for a malformed hash. `priority`: of the hashing thread. */
export async function verifyPassword(password: string, stored: string, priority: HashPriority = 'low'): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > 2 ** 20) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await scrypt(password, salt, n, r, p, priority);
  return timingSafeEqual(key, expected);
}
