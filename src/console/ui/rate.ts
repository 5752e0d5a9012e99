/**
 * The rate input's rules (spec 002 §5): digits only, entered from the right (each digit shifts in at
 * the last decimal place), at most `maxDigits` digits, shown with comma grouping and a fixed number of
 * decimals; Backspace resets the value to zero. Pure, so the rules are tested without a browser.
 */
export interface RateRules {
  readonly decimals: number;
  readonly maxDigits: number;
}

/** The value in units of the last decimal place (0.0012 with 4 decimals → 12). */
export function rateUnits(value: number, decimals: number): number {
  return Number.isFinite(value) ? Math.round(Math.abs(value) * 10 ** decimals) : 0;
}

/** The value after typing one digit: shifted in from the right; unchanged when it would exceed maxDigits. */
export function typeRateDigit(value: number, digit: number, rules: RateRules): number {
  const next = rateUnits(value, rules.decimals) * 10 + digit;
  if (String(next).length > rules.maxDigits) return value;
  return next / 10 ** rules.decimals;
}

/** What Backspace (or Delete) leaves: zero. */
export const RATE_AFTER_BACKSPACE = 0;

/** The value as shown: comma grouping and exactly `decimals` decimals ('1,234.5678'). */
export function formatRate(value: number, decimals: number): string {
  return (rateUnits(value, decimals) / 10 ** decimals).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/**
 * A pasted or filled text as a rate: a number with at most `decimals` decimals ('1,234.5' → 1234.5),
 * else its digits entered from the right ('12' → 0.0012); null when it has no digits or too many.
 */
export function parseRateText(text: string, rules: RateRules): number | null {
  const plain = text.replace(/,/g, '').trim();
  const m = /^(\d*)\.(\d*)$/.exec(plain);
  if (m && (m[1] || m[2]) && m[2].length <= rules.decimals) {
    const units = Number(`${m[1] || '0'}${m[2].padEnd(rules.decimals, '0')}`);
    return String(units).length <= rules.maxDigits ? units / 10 ** rules.decimals : null;
  }
  const digits = plain.replace(/\D/g, '');
  if (!digits) return null;
  const units = Number(digits);
  return String(units).length <= rules.maxDigits ? units / 10 ** rules.decimals : null;
}
