/** The parameters written into a COPY statement as literals (src/server/db/db.ts inlineParams). */
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { inlineParams } from '../../src/server/db/db';

const quote = (v: string) => pg.escapeLiteral(v);

describe('inlineParams', () => {
  it('writes strings quoted by the driver, dates as timestamptz, numbers and booleans as themselves', () => {
    const sql = inlineParams(
      'SELECT * FROM t WHERE a = $1 AND b >= $2 AND c = $10 AND d < $3 AND e = $4',
      ["O'Brien \\ %", new Date('2026-08-28T13:48:00Z'), 99_999_999, true, 5, 6, 7, 8, 9, 'tenth'],
      quote,
    );
    expect(sql).toBe(`SELECT * FROM t WHERE a = ${quote("O'Brien \\ %")} AND b >= '2026-08-28T13:48:00.000Z'::timestamptz AND c = 'tenth' AND d < 99999999 AND e = true`);
  });

  it('refuses what it cannot write safely, and a placeholder without a value', () => {
    expect(() => inlineParams('SELECT $1', [Number.NaN], quote)).toThrow(/\$1/);
    expect(() => inlineParams('SELECT $1', [{ a: 1 }], quote)).toThrow(/\$1/);
    expect(() => inlineParams('SELECT $1', [new Date('nonsense')], quote)).toThrow(/\$1/);
    expect(() => inlineParams('SELECT $2', ['x'], quote)).toThrow('inlineParams: no value for $2');
  });
});
