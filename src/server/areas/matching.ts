/**
 * The top-level `matching` of the list calls that take a fetchCount (src/api/contract.ts
 * `listMatching`): how many rows match the filters without the cap. When fewer rows than the cap came
 * back they are every matching row, and nothing more is read; else one count(*) over the list's own
 * FROM and WHERE (`from`, with the same parameters as the list statement, without its LIMIT).
 */
import type { Db } from '../db/db';

export async function matchingRows(db: Db, returned: number, fetchCount: number, from: string, params: readonly unknown[]): Promise<number> {
  if (returned < fetchCount) return returned;
  const r = await db.one<{ n: number | string }>(`SELECT count(*) AS n ${from}`, [...params]);
  return Number(r?.n ?? 0);
}
