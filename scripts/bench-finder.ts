/**
 * `npx tsx scripts/bench-finder.ts [--transactions 1000000 --runs 200 --reseed --json results.json]`
 *
 * Find by trace, ID or UID across the five services and all dates (Transaction/find). On the
 * bench data set (scripts/benchData.ts, N transactions in PostgreSQL), times the server's lookup
 * (src/server/areas/finder.ts `findRows`: the matches from the directory, then their rows from the month partitions) for
 * a trace, an ID, the UID with the most transactions, a value that matches nothing, and the same trace
 * as an IPG bank user (provider filter), each over values picked at random across all dates. Prints
 * p50 and p95 and the plan of the trace lookup; target: p95 under 50 ms.
 */
import { writeFile } from 'node:fs/promises';
import { findRows, findSql, type FindQuery } from '../src/server/areas/finder';
import { findServices } from '../src/domain/transactionFinder';
import { jsonArg, numberArg, openBenchDb, printTable, quantile, type BenchRow } from './benchData';

const N = numberArg('transactions', 1_000_000);
const RUNS = numberArg('runs', 200);
const JSON_FILE = jsonArg();
const P95_TARGET_MS = 50;

async function main() {
  const db = await openBenchDb(N);
  try {
    const total = await db.one<{ n: number }>(
      `SELECT (SELECT count(*) FROM ceft_transactions) + (SELECT count(*) FROM bill_transactions) + (SELECT count(*) FROM echannelling_transactions)
            + (SELECT count(*) FROM thyaga_transactions) + (SELECT count(*) FROM insurance_transactions) AS n`,
    );
    console.log(`${Number(total?.n).toLocaleString('en-US')} transactions in the five tables.`);
    const sample = await db.query<{ trace: string; id: number; uid: string; provider_bank_code: string | null }>(
      `SELECT trace, id, uid, provider_bank_code FROM ceft_transactions TABLESAMPLE SYSTEM (1) LIMIT $1`,
      [RUNS],
    );
    const topUid = await db.one<{ uid: string; n: number }>(`SELECT uid, count(*) AS n FROM ceft_transactions GROUP BY uid ORDER BY 2 DESC LIMIT 1`);
    const services = [...findServices];
    const base = (value: string, extra: Partial<FindQuery> = {}): FindQuery => ({ value, services, by: 'any', ...extra });
    const cases: { measure: string; query: (i: number) => FindQuery }[] = [
      { measure: 'trace (a random send-money row, any date)', query: (i) => base(sample[i % sample.length].trace) },
      { measure: 'ID (a random send-money id, looked up in all five)', query: (i) => base(String(sample[i % sample.length].id)) },
      { measure: `UID with the most transactions (${Number(topUid?.n)} send-money rows, 20 per service returned)`, query: () => base(topUid!.uid) },
      { measure: 'a value that matches nothing', query: (i) => base(`ZZ${i}NOMATCH`) },
      { measure: 'trace as an IPG bank user (own provider only)', query: (i) => base(sample[i % sample.length].trace, { provider: sample[i % sample.length].provider_bank_code ?? '7010' }) },
    ];
    const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${findSql(base(sample[0].trace)).sql}`, findSql(base(sample[0].trace)).params);
    console.log('\nPlan of a trace lookup in the directory (first branch):');
    console.log(
      plan
        .map((r) => r['QUERY PLAN'])
        .slice(0, 14)
        .join('\n'),
    );

    const rows: BenchRow[] = [];
    const table: string[][] = [['case', 'matches', 'p50 ms', 'p95 ms']];
    for (const c of cases) {
      for (let i = 0; i < 5; i++) await findRows(db, c.query(i));
      const ms: number[] = [];
      let matches = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = process.hrtime.bigint();
        const r = await findRows(db, c.query(i));
        ms.push(Number(process.hrtime.bigint() - t) / 1e6);
        matches += r.matches.length;
      }
      ms.sort((a, b) => a - b);
      const p50 = quantile(ms, 0.5);
      const p95 = quantile(ms, 0.95);
      table.push([c.measure, (matches / RUNS).toFixed(1), p50.toFixed(2), p95.toFixed(2)]);
      rows.push({
        goal: '17 find',
        measure: `find by ${c.measure}: p95 of ${RUNS}, ${N.toLocaleString('en-US')} transactions`,
        ours: Math.round(p95 * 100) / 100,
        baseline: null,
        unit: 'ms',
        target: `< ${P95_TARGET_MS}`,
        met: p95 < P95_TARGET_MS,
      });
    }
    console.log('');
    printTable(table);
    if (JSON_FILE) await writeFile(JSON_FILE, JSON.stringify(rows, null, 2));
  } finally {
    await db.close();
  }
}

// the results are written: exit without waiting for a pool or a server that would hold the process open
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
