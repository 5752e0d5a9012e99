import { describe, expect, it } from 'vitest';
import { orderByRanks, rankSteps, sortRanks } from '../../src/console/views/DataTable';
import { sortKeyOf } from '../../src/console/format';

/** Dense ranks the plain way: sort the distinct keys, look each row's key up. */
function referenceRanks(rows: Record<string, unknown>[], key: string, kind: string | undefined): number[] {
  const keys = rows.map((r) => {
    const k = sortKeyOf(r[key], kind);
    return typeof k === 'number' && Number.isNaN(k) ? -Infinity : k;
  });
  const numeric = keys.every((k) => typeof k === 'number');
  const norm: (number | string)[] = numeric ? keys : keys.map(String);
  const distinct = [...new Set<number | string>(norm)].sort(numeric ? (a, b) => (a as number) - (b as number) : undefined);
  const at = new Map(distinct.map((k, i) => [k, i]));
  return norm.map((k) => at.get(k)!);
}

function run(steps: Generator<void, Uint32Array>): { ranks: Uint32Array; yields: number } {
  let yields = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { ranks: r.value, yields };
    yields++;
  }
}

describe('ranking in steps', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = ['Processed', 'queued', 'Held by A: x', 'é', 'Z', '', 'a\u00a0b', '😀', 'ශ්‍රී'];
  const rows = Array.from({ length: 20_000 }, (_, i) => ({
    id: Math.floor(rand() * 50_000),
    amount: i % 17 === 0 ? null : String(Math.round(rand() * 1e6) / 100),
    trace: `T${Math.floor(rand() * 1e9)}`,
    desc: i % 11 === 0 ? null : words[Math.floor(rand() * words.length)],
  }));

  for (const [key, kind] of [
    ['id', 'integer'],
    ['amount', 'amount'],
    ['trace', 'text'],
    ['desc', 'text'],
  ] as const) {
    it(`gives the same ranks as a plain sort, in small steps or at once (${key})`, () => {
      const expected = referenceRanks(rows, key, kind);
      const stepped = run(rankSteps(rows, key, kind, undefined, 1000));
      expect(stepped.yields).toBeGreaterThan(10);
      expect(Array.from(stepped.ranks)).toEqual(expected);
      expect(Array.from(sortRanks(rows, key, kind))).toEqual(expected);
    });
  }

  it('orders both directions stably from the stepped ranks', () => {
    const ranks = run(rankSteps(rows, 'desc', 'text', undefined, 300)).ranks;
    const asc = Array.from(orderByRanks(ranks, false));
    const desc = Array.from(orderByRanks(ranks, true));
    const byKey = (i: number) => String(sortKeyOf(rows[i].desc, 'text'));
    for (let i = 1; i < asc.length; i++) {
      expect(byKey(asc[i - 1]) <= byKey(asc[i])).toBe(true);
      if (byKey(asc[i - 1]) === byKey(asc[i])) expect(asc[i - 1] < asc[i]).toBe(true);
      expect(byKey(desc[i - 1]) >= byKey(desc[i])).toBe(true);
      if (byKey(desc[i - 1]) === byKey(desc[i])) expect(desc[i - 1] < desc[i]).toBe(true);
    }
  });
});
