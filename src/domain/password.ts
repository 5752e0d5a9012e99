/**
 * The generated-password rule (spec 000 §5): length 8 to 15 with at least two uppercase, two
 * lowercase, one digit and one special character. Uses the platform's crypto randomness.
 */
import { isValidPassword } from './validation';

const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SPECIAL = '@#$!%*?&-_+=';

function randomInt(max: number): number {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return buf[0] % max;
}

function pick(chars: string): string {
  return chars[randomInt(chars.length)];
}

export function generatePassword(): string {
  for (;;) {
    const length = 8 + randomInt(8); // 8..15
    const chars = [pick(UPPER), pick(UPPER), pick(LOWER), pick(LOWER), pick(DIGITS), pick(SPECIAL)];
    const all = UPPER + LOWER + DIGITS + SPECIAL;
    while (chars.length < length) chars.push(pick(all));
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j], chars[i]];
    }
    const candidate = chars.join('');
    if (isValidPassword(candidate)) return candidate;
  }
}
