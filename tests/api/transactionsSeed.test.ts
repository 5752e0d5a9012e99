/**
 * The demo transaction generator: deterministic for a given `now`, count and seed; realistic spreads
 * (statuses, corridors, today's rows, holds, refunds, try counts, dependants); the roll-up equal to
 * the rows. Runs on copies of the run's migrated template (./templateDb.ts): PGlite, or PostgreSQL
 * databases when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/db';
import { insertCountries } from '../../src/server/seed/countries';
import { countsByKind, seedTransactions, todayShare } from '../../src/server/seed/transactions';
import { freshMigratedDatabase, type FreshDb } from './templateDb';

const now = new Date(2026, 10, 22, 15, 30, 0);
const COUNT = 6000;
const dbs: FreshDb[] = [];

/** A migrated database without demo data (a copy of the run's migrated template), with the countries. */
async function freshDb(): Promise<Db> {
  const fresh = await freshMigratedDatabase();
  dbs.push(fresh);
  await insertCountries(fresh.db);
  return fresh.db;
}

let a: Db;
let b: Db;
beforeAll(async () => {
  [a, b] = await Promise.all([freshDb(), freshDb()]);
  await seedTransactions(a, { now, count: COUNT });
  await seedTransactions(b, { now, count: COUNT, batchSize: 777 });
});
afterAll(async () => {
  for (const fresh of dbs) await fresh.drop();
});

const tables = ['ceft_transactions', 'bill_transactions', 'echannelling_transactions', 'thyaga_transactions', 'insurance_transactions', 'insurance_dependants'];

async function fingerprint(db: Db): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) out.push(String((await db.one<{ h: string }>(`SELECT md5(string_agg(x::text, '|' ORDER BY x.id)) AS h FROM ${t} x`))!.h));
  out.push(String((await db.one<{ h: string }>(`SELECT md5(string_agg(s::text, '|' ORDER BY s.day, s.kind, s.country, s.currency_code, s.status)) AS h FROM transaction_daily_stats s`))!.h));
  return out;
}

describe('the transaction generator', () => {
  it('is deterministic: the same now, count and seed give the same rows, whatever the batch size', async () => {
    expect(await fingerprint(a)).toEqual(await fingerprint(b));
  });

  it('splits the count over the kinds and keeps ids and traces in order', async () => {
    const byKind = countsByKind(COUNT);
    expect(Object.values(byKind).reduce((x, y) => x + y, 0)).toBe(COUNT);
    for (const [kind, table] of [
      ['ceft', 'ceft_transactions'],
      ['bill', 'bill_transactions'],
      ['insurance', 'insurance_transactions'],
    ] as const) {
      const r = await a.one<{ n: number; ordered: boolean }>(
        `SELECT count(*) AS n, bool_and(prev IS NULL OR prev <= initiated_time) AS ordered
           FROM (SELECT initiated_time, lag(initiated_time) OVER (ORDER BY id) AS prev FROM ${table}) x`,
      );
      expect(Number(r!.n), kind).toBe(byKind[kind]);
      expect(r!.ordered, kind).toBe(true);
    }
    const trace = await a.one<{ trace: string }>('SELECT trace FROM ceft_transactions WHERE id = 1');
    expect(trace!.trace).toMatch(/^\d{6}100000001$/);
  });

  it('spreads times over two years and puts a busy today before now', async () => {
    const r = await a.one<{ first: Date; last: Date; today: number }>(
      `SELECT min(initiated_time) AS first, max(initiated_time) AS last,
              count(*) FILTER (WHERE initiated_time >= $1) AS today FROM ceft_transactions`,
      [new Date(2026, 10, 22)],
    );
    expect(r!.last.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(r!.first.getTime()).toBeLessThan(now.getTime() - 700 * 86_400_000);
    expect(Number(r!.today)).toBeGreaterThan(todayShare(COUNT) * 0.4);
  });

  it('has mostly successful transactions, with pending, failed, refunded and held ones', async () => {
    const rows = await a.query<{ status: string; n: number }>('SELECT status, count(*) AS n FROM ceft_transactions GROUP BY status');
    const share = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0) / countsByKind(COUNT).ceft;
    expect(share('SUCCESS')).toBeGreaterThan(0.8);
    for (const s of ['PENDING', 'FAILED', 'REFUNDED', 'HOLD']) expect(share(s), s).toBeGreaterThan(0.003);
    const tries = await a.one<{ n: number }>('SELECT count(*) AS n FROM ceft_transactions WHERE ceft_try_count >= 100');
    expect(Number(tries!.n)).toBeGreaterThan(0);
    const refundRequested = await a.one<{ n: number }>(`SELECT count(*) AS n FROM ceft_transactions WHERE refund_requested AND ipg_refund_status IS NULL AND ipg_void_status IS NULL`);
    expect(Number(refundRequested!.n)).toBeGreaterThan(0);
  });

  it('uses the corridors, their currencies, billers, hospitals and insurance plans with dependants', async () => {
    const corridors = await a.query<{ country: string; currency_code: string }>('SELECT DISTINCT country, currency_code FROM ceft_transactions');
    expect(new Set(corridors.map((c) => c.country)).size).toBeGreaterThanOrEqual(12);
    expect(corridors).toContainEqual({ country: 'AE', currency_code: 'AED' });
    expect(corridors).toContainEqual({ country: 'JP', currency_code: 'JPY' });
    expect((await a.query('SELECT DISTINCT biller_code FROM bill_transactions')).length).toBeGreaterThanOrEqual(8);
    expect((await a.query('SELECT DISTINCT hospital_name FROM echannelling_transactions')).length).toBeGreaterThanOrEqual(6);
    const integrated = await a.one<{ n: number }>('SELECT count(*) AS n FROM echannelling_transactions WHERE itg_amount > 0 AND doctor_charge_lkr = 0');
    expect(Number(integrated!.n)).toBeGreaterThan(0);
    const families = await a.one<{ n: number }>(`SELECT count(DISTINCT insurance_transaction_id) AS n FROM insurance_dependants`);
    expect(Number(families!.n)).toBeGreaterThan(10);
    const amounts = await a.one<{ lo: number; hi: number }>('SELECT min(amount_usd) AS lo, max(amount_usd) AS hi FROM ceft_transactions');
    expect(Number(amounts!.lo)).toBeGreaterThan(0);
    expect(Number(amounts!.hi)).toBeLessThanOrEqual(8000);
  });

  it('fills the daily roll-up with exactly the rows', async () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const [kind, table] of [
      ['ceft', 'ceft_transactions'],
      ['thyaga', 'thyaga_transactions'],
      ['insurance', 'insurance_transactions'],
    ] as const) {
      const diff = await a.query(
        `WITH t AS (SELECT to_char(initiated_time AT TIME ZONE $2, 'YYYY-MM-DD') AS day, country, currency_code, status, count(*) AS n, sum(amount) AS amount, sum(amount_lkr) AS lkr
                      FROM ${table} GROUP BY 1, 2, 3, 4),
              s AS (SELECT to_char(day, 'YYYY-MM-DD') AS day, country, currency_code, status, count AS n, amount, amount_lkr AS lkr FROM transaction_daily_stats WHERE kind = $1)
         SELECT * FROM t FULL JOIN s USING (day, country, currency_code, status)
          WHERE t.n IS DISTINCT FROM s.n OR t.amount IS DISTINCT FROM s.amount OR t.lkr IS DISTINCT FROM s.lkr`,
        [kind, zone],
      );
      expect(diff, kind).toEqual([]);
    }
  });
});
