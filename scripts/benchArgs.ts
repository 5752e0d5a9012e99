/** Command-line arguments and the result row shared by the bench and load scripts. */

/** `--name N`: a positive whole number (underscores allowed: 1_000_000), or the fallback. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]?.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a positive whole number`);
  return n;
}

/** The file of `--json <file>`, if given. */
export function jsonArg(): string | undefined {
  const i = process.argv.indexOf('--json');
  if (i < 0) return undefined;
  const file = process.argv[i + 1];
  if (!file || file.startsWith('--')) throw new Error('--json needs a file name');
  return file;
}

/** One line of the JSON results the `npm run bench` table is made of. */
export interface BenchRow {
  goal: number | string;
  measure: string;
  ours: number | string | null;
  baseline: number | string | null;
  unit: string;
  target: string;
  /** null: measured for information, no target (the bench table shows '-' and does not count it). */
  met: boolean | null;
}
