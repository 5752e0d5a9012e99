/** The demo data's randomness: deterministic, so the same seed gives the same data. */

/** mulberry32: a small, fast PRNG; the same seed gives the same sequence. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i++)
      s += Math.floor(this.next() * 256)
        .toString(16)
        .padStart(2, '0');
    return s;
  }
  digits(n: number): string {
    let s = '';
    while (s.length < n) s += String(Math.floor(this.next() * 1e9)).padStart(9, '0');
    return s.slice(0, n);
  }
  /** A standard normal variate (Box-Muller). */
  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/** A seeded generator (every area's seeder uses its own seed). */
export function prng(seed: number): Rng {
  return new Rng(seed);
}
