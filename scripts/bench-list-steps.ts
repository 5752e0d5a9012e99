/**
 * What each server-side step of a 100,000-row list costs, for the documented reply (rows as objects),
 * the compact one (rows as arrays, `x-list-rows: arrays2`) and the lines of COPY text (`lines3`, whose
 * rows the console's reader makes into objects here too): the statement that writes the rows'
 * JSON in PostgreSQL (read to the end through the same batched cursor the server streams them with),
 * the size, and compressing it (brotli quality 1, as the server does; gzip level 1 and 6; none) and,
 * on the client's side, decompressing and JSON.parse in one piece, in this process.
 *
 * `tsx scripts/bench-list-steps.ts [--from yyyy-MM-ddTHH:mm:ss] [--to ...] [--json out.json]`, on the bench
 * schema (BENCH_DATABASE_URL, schema bench, seeded by `npm run bench`).
 */
import { writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { openDb } from '../src/server/db/db';
import { openReadSnapshot } from '../src/server/db/db';
import { keysOf, listRowsLinesSql, listRowsSql, resolveFilters, rowKindsOf, rowSeparator, type RowForm } from '../src/server/areas/transactions/query';
import { LineRows } from '../src/console/compactRows';
import { transactionKindSpecs } from '../src/server/areas/transactions/kinds';
import { ceftRow } from '../src/api/transactions';
import { BENCH_DATABASE_URL, BENCH_SCHEMA, jsonArg, type BenchRow } from './benchData';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const ms = (t: bigint) => Math.round(Number(process.hrtime.bigint() - t) / 1e6);
const MB = 1024 * 1024;

async function main() {
  const db = await openDb({ databaseUrl: BENCH_DATABASE_URL, schema: BENCH_SCHEMA });
  const rows: BenchRow[] = [];
  const row = (measure: string, ours: number | string, unit: string) => {
    rows.push({ goal: 1, measure, ours, baseline: null, unit, target: '-', met: null });
    console.log(`${measure}: ${ours} ${unit}`);
  };
  try {
    const zone = process.env.BUSINESS_TIME_ZONE ?? 'Asia/Colombo';
    const from = arg('from') ?? '2026-08-24T13:48:00';
    const to = arg('to') ?? '2026-11-25T23:59:00';
    const filters = resolveFilters({ from_date: from, to_date: to, country_code: '', data: '', status: '', fetchCount: 99_999_999 }, zone);
    const keys = keysOf(ceftRow);
    for (const form of ['objects', 'arrays'] as RowForm[]) {
      const q = listRowsSql(transactionKindSpecs.ceft, filters, keys, form);
      const snapshot = await openReadSnapshot(db);
      const parts: string[] = [];
      let n = 0;
      const t0 = process.hrtime.bigint();
      try {
        for await (const batch of snapshot.batches<{ j: string }>(q.sql, q.params, 2_000)) {
          n += batch.length;
          parts.push(batch.map((b) => b.j).join(rowSeparator(form)));
        }
      } finally {
        await snapshot.release();
      }
      const queryMs = ms(t0);
      const text = `[${parts.join(form === 'arrays' ? ',\n' : ',')}]`;
      parts.length = 0;
      const bytes = Buffer.from(text);
      row(`${form}: ${n.toLocaleString('en-US')} rows' JSON written by PostgreSQL and read through the cursor`, queryMs, 'ms');
      row(`${form}: size`, (bytes.length / MB).toFixed(1), 'MB');
      let t = process.hrtime.bigint();
      const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
      const brMs = ms(t);
      t = process.hrtime.bigint();
      brotliDecompressSync(br);
      row(`${form}: brotli q1 (the server's): compress / decompress, ${(br.length / MB).toFixed(1)} MB`, `${brMs} / ${ms(t)}`, 'ms');
      for (const level of [1, 6]) {
        t = process.hrtime.bigint();
        const gz = gzipSync(bytes, { level });
        const gzMs = ms(t);
        t = process.hrtime.bigint();
        gunzipSync(gz);
        row(`${form}: gzip level ${level}: compress / decompress, ${(gz.length / MB).toFixed(1)} MB`, `${gzMs} / ${ms(t)}`, 'ms');
      }
      t = process.hrtime.bigint();
      const parsed = JSON.parse(text) as unknown[];
      row(`${form}: JSON.parse of the whole text in one piece (${parsed.length.toLocaleString('en-US')} rows)`, ms(t), 'ms');
    }
    // the lines form (x-list-rows: lines3): the same rows' values as COPY text, passed on as the database sends them
    const q = listRowsLinesSql(transactionKindSpecs.ceft, filters, keys);
    const snapshot = await openReadSnapshot(db);
    const chunks: Buffer[] = [];
    const t0 = process.hrtime.bigint();
    try {
      for await (const chunk of snapshot.copyText!(q.sql, q.params)) chunks.push(chunk);
    } finally {
      await snapshot.release();
    }
    const copyMs = ms(t0);
    const bytes = Buffer.concat(chunks);
    chunks.length = 0;
    const text = bytes.toString('utf8');
    const n = text.length === 0 ? 0 : text.split('\n').length - 1;
    row(`lines: ${n.toLocaleString('en-US')} rows' COPY text written by PostgreSQL and read as bytes`, copyMs, 'ms');
    row('lines: size', (bytes.length / MB).toFixed(1), 'MB');
    let t = process.hrtime.bigint();
    const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const brMs = ms(t);
    t = process.hrtime.bigint();
    brotliDecompressSync(br);
    row(`lines: brotli q1 (the server's): compress / decompress, ${(br.length / MB).toFixed(1)} MB`, `${brMs} / ${ms(t)}`, 'ms');
    t = process.hrtime.bigint();
    const store = new LineRows(keys, rowKindsOf(ceftRow), n);
    for (const line of text.slice(0, -1).split('\n')) store.add(line);
    row(`lines: kept as the console's rows (src/console/compactRows.ts LineRows: each line's value starts found), ${store.rows.length.toLocaleString('en-US')} rows`, ms(t), 'ms');
    t = process.hrtime.bigint();
    let read = 0;
    for (const r of store.rows) for (const k of keys) if (r[k] !== undefined) read++;
    row(`lines: every value of every row read from them (${read.toLocaleString('en-US')} values, as a whole export reads them)`, ms(t), 'ms');
  } finally {
    await db.close();
  }
  const json = jsonArg();
  if (json) writeFileSync(json, JSON.stringify(rows, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
