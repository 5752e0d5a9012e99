/**
 * `npm run bench [-- --transactions 1000000 --reseed --no-browser --no-export --no-server-export --only PART,...]`: every goal of the benchmark
 * in one run, printed as one table (goal, measure, ours, baseline, ratio, target, met) and written to
 * bench-results/bench-results.json (bench-results/ is gitignored; each part's own output is kept
 * there as a .log beside it).
 *
 * 1. Builds the console (vite build) and reads the first load from dist/ (goal 5).
 * 2. Seeds or reuses N transactions in PostgreSQL (BENCH_DATABASE_URL, default
 *    postgres://postgres@127.0.0.1:5432/test, schema `bench` or BENCH_SCHEMA), the same data set the API benches use
 *    (scripts/benchData.ts).
 * 3. Runs the API, dashboard, export and find-by-trace benches as child processes, each writing its
 *    rows with `--json <file>` (goals 2, 3 and 4, and the lookup across all services and
 *    dates) and the settlement generation (scripts/bench-settlement.ts); a part that writes
 *    no file shows as "not measured".
 *    The server export job (scripts/bench-export-server.ts, its own schema `bench_export`,
 *    seeded once with 1,820,000 transactions, about 1,000,000 of them send-money rows): .xlsx and .csv
 *    of 1,000,000 rows x 20 columns (and x 41), with the server's RSS above idle and another call's p95
 *    during the job vs idle; `--no-server-export` leaves it out.
 * 4. Starts the server (src/server/main.ts) on the bench schema and drives Chromium through it
 *    (scripts/bench-browser.ts): Send Money with fetch count All over ~100,000 rows, sorting, paging,
 *    memory, and a 100,000-row Excel export with the main thread's long tasks (goals 1 and 2).
 *
 * Figures are wall-clock times on this machine: run it on an otherwise idle machine.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_DATABASE_URL, BENCH_SCHEMA, benchToday, numberArg, openBenchDb } from './benchData';
import { businessDateTime } from '../src/domain/businessTime';
import { readBusinessTimeZone } from '../src/server/environment';
import { benchBrowser, startBenchServer } from './bench-browser';
import { INITIAL_JS_BUDGET_BYTES, kb, readBundle } from './bundle-sizes';

const OUT_DIR = 'bench-results';
const N = numberArg('transactions', 1_000_000);
const LIST_ROWS = 100_000;
const CHILD_TIMEOUT_MS = 20 * 60_000;
/** The parts a run may be limited to with `--only` (comma-separated); the build always runs. */
const PARTS = ['api', 'dashboard', 'export', 'finder', 'settlement', 'export-server', 'browser'] as const;
const onlyArg = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const only = onlyArg?.split(',') ?? [...PARTS];
for (const part of only) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only: no part '${part}' (the parts: ${PARTS.join(', ')})`);
const runs = (part: (typeof PARTS)[number]) => only.includes(part);

/** A row as any part writes it (the parts agree on the fields, not on every type). */
type AnyRow = { goal: number | string; measure: string; ours: unknown; baseline: unknown; unit?: string; target?: unknown; met?: unknown };

const rows: AnyRow[] = [];

function log(line: string) {
  console.log(line);
}

/** The bench schema as a DATABASE_URL for the server and the scripts that read DATABASE_URL. */
function benchDatabaseUrl(): string {
  const url = new URL(BENCH_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${BENCH_SCHEMA}`);
  return url.toString();
}

/** Runs a command, its output to bench-results/<name>.log; resolves with the exit code. */
function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const started = Date.now();
    const logFile = join(OUT_DIR, `${name}.log`);
    let output = '';
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => (output += d.toString());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n(stopped after ${CHILD_TIMEOUT_MS / 60_000} minutes)\n`;
      child.kill('SIGTERM');
    }, CHILD_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      writeFileSync(logFile, output);
      log(`  ${name}: exit ${code ?? 'signal'} in ${((Date.now() - started) / 1000).toFixed(0)} s (output in ${logFile})`);
      resolve(code ?? 1);
    });
  });
}

/** One child bench: its --json rows, or a "not measured" row saying why. */
async function childBench(name: string, script: string, goals: string, extraArgs: string[], env: NodeJS.ProcessEnv = {}) {
  const file = join(OUT_DIR, `${name}.json`);
  rmSync(file, { force: true });
  log(`\n${name} (goal ${goals}): tsx ${script} --json ${file} ${extraArgs.join(' ')}`);
  if (!existsSync(script)) {
    rows.push({ goal: goals, measure: `${script}: not measured (no such script)`, ours: null, baseline: null, unit: '', target: '-', met: false });
    return;
  }
  const code = await run(name, join('node_modules', '.bin', 'tsx'), [script, '--json', file, ...extraArgs], env);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    const tail = readFileSync(join(OUT_DIR, `${name}.log`), 'utf8')
      .trim()
      .split('\n')
      .slice(-3)
      .join(' / ')
      .slice(0, 160);
    rows.push({ goal: goals, measure: `${script}: not measured (exit ${code}, no --json rows${tail ? `: ${tail}` : ''})`, ours: null, baseline: null, unit: '', target: '-', met: false });
    return;
  }
  for (const r of parsed as AnyRow[]) rows.push(r);
  if (code !== 0) rows.push({ goal: goals, measure: `${script} exited with ${code} after writing its rows`, ours: null, baseline: null, unit: '', target: '-', met: false });
}

/** Goal 5: the first load of the built console. */
function bundleRows() {
  const bundle = readBundle('dist');
  const initialList = bundle.initial.map((c) => `${c.file.replace('assets/', '')} ${kb(c.gzipBytes)}`).join(', ');
  rows.push({
    goal: 5,
    measure: `initial JS, gzip: entry + static imports (${initialList} KB)`,
    ours: kb(bundle.initialGzipBytes),
    baseline: null,
    unit: 'KB',
    target: `< ${INITIAL_JS_BUDGET_BYTES / 1024}`,
    met: bundle.initialGzipBytes < INITIAL_JS_BUDGET_BYTES,
  });
  const lazyOnly = (label: string, needles: string[]) => {
    const where = needles.flatMap((n) => bundle.whereIs(n));
    const files = [...new Set(where.map((w) => w.file))];
    const gz = files.reduce((s, f) => s + ([...bundle.initial, ...bundle.lazy].find((c) => c.file === f)?.gzipBytes ?? 0), 0);
    const ok = where.every((w) => !w.initial);
    rows.push({
      goal: 5,
      measure: `${label}: ${where.length === 0 ? 'not in the console at all' : ok ? `lazy (${files.map((f) => f.replace('assets/', '')).join(', ')})` : 'IN THE FIRST LOAD'}`,
      ours: kb(gz),
      baseline: null,
      unit: 'KB',
      target: 'lazy',
      met: ok,
    });
  };
  lazyOnly('exceljs', ['node_modules/exceljs/']);
  lazyOnly('jspdf + autotable', ['node_modules/jspdf/', 'node_modules/jspdf-autotable/']);
  lazyOnly('visx (dashboard charts)', ['node_modules/@visx/']);
  lazyOnly('list view + TanStack Table (master data, transactions, KYC, reports, administration lists)', ['src/console/views/ListView.tsx', 'node_modules/@tanstack/table-core/']);
  lazyOnly('form view + react-hook-form (create/edit screens)', ['src/console/views/FormView.tsx', 'node_modules/react-hook-form/']);
  lazyOnly('dashboards', ['src/custom/Dashboard.tsx', 'src/custom/AuditDashboard.tsx']);
  lazyOnly('KYC review', ['src/custom/KycReview.tsx']);
  lazyOnly('provider currencies (master data)', ['src/custom/ProviderCurrencies.tsx']);
}

/** Goals 1 and 2 in Chromium: the server on the bench schema, a range of ~100,000 Send Money rows. */
async function browserRows(skipExport: boolean) {
  const db = await openBenchDb(N);
  let from: string;
  let to: string;
  let expected: number;
  try {
    // the minute of the 100,000th newest send-money transaction, to the end of today (the lists filter initiated_time)
    const edge = await db.one<{ t: Date }>(`SELECT date_trunc('minute', initiated_time) AS t FROM ceft_transactions ORDER BY initiated_time DESC OFFSET $1 LIMIT 1`, [LIST_ROWS - 1]);
    if (!edge) throw new Error(`fewer than ${LIST_ROWS} send-money transactions in schema ${BENCH_SCHEMA}`);
    const start = new Date(edge.t);
    // (the filter bar's values are the business zone's wall clock)
    from = businessDateTime(start, readBusinessTimeZone());
    to = `${benchToday()}T23:59:00`;
    expected = Number((await db.one<{ n: number }>(`SELECT count(*) AS n FROM ceft_transactions WHERE initiated_time >= $1`, [start]))?.n ?? 0);
  } finally {
    await db.close();
  }
  log(`\nbrowser (goals 1 and 2): Send Money ${from} to ${to}, ${expected.toLocaleString('en-US')} rows in the range`);
  const server = await startBenchServer(benchDatabaseUrl());
  try {
    rows.push(...(await benchBrowser({ url: server.url, from, to, expectedRows: expected, skipExport, log })));
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    log(`  browser bench failed: ${reason}`);
    rows.push({ goal: '1, 2', measure: `browser: not measured (${reason.slice(0, 120)})`, ours: null, baseline: null, unit: '', target: '-', met: false });
  } finally {
    await server.stop();
  }
}

// ---- the table ---------------------------------------------------------------------------------

function show(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return String(v);
}

function ratio(r: AnyRow): string {
  const ours = typeof r.ours === 'number' ? r.ours : NaN;
  const base = typeof r.baseline === 'number' ? r.baseline : NaN;
  if (!Number.isFinite(ours) || !Number.isFinite(base) || base === 0) return '-';
  const x = ours / base;
  return `${x < 0.1 ? x.toFixed(3) : x.toFixed(2)}x`;
}

function metText(m: unknown): string {
  return m === true ? 'yes' : m === false ? 'NO' : '-';
}

function printTable() {
  const header = ['goal', 'measure', 'ours', 'baseline', 'ratio', 'target', 'met'];
  const goalKey = (g: unknown) => Number(String(g).split(/[^0-9]/)[0]) || 99;
  const sorted = rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => goalKey(a.r.goal) - goalKey(b.r.goal) || a.i - b.i)
    .map((x) => x.r);
  const table = sorted.map((r) => {
    const unit = r.unit ? ` ${r.unit}` : '';
    return [
      String(r.goal),
      r.measure,
      `${show(r.ours)}${r.ours === null ? '' : unit}`,
      `${show(r.baseline)}${r.baseline === null || r.baseline === undefined ? '' : unit}`,
      ratio(r),
      `${show(r.target)}${r.target && r.target !== '-' && !/[a-z]/i.test(String(r.target)) ? unit : ''}`,
      metText(r.met),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const right = new Set([2, 3, 4]);
  const line = (cells: string[]) => `| ${cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  console.log('');
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (right.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
  for (const t of table) console.log(line(t));
  const judged = rows.filter((r) => r.met === true || r.met === false);
  const met = judged.filter((r) => r.met === true).length;
  console.log(`\n${met} of ${judged.length} targets met.`);
}

async function main() {
  mkdirSync(OUT_DIR, { recursive: true });
  const startedAt = new Date();
  const load = loadavg();
  log(
    `npm run bench: ${N.toLocaleString('en-US')} transactions, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, load average ${load.map((l) => l.toFixed(1)).join(' ')}`,
  );
  if (load[0] > cpus().length) log('  (the machine is busy: timings will be slower than on an idle machine)');

  log('\nbuild (goal 5): vite build');
  if ((await run('build', join('node_modules', '.bin', 'vite'), ['build'])) !== 0) throw new Error(`vite build failed: see ${OUT_DIR}/build.log`);
  bundleRows();

  log('\ndata: seeding or reusing the bench schema');
  await (await openBenchDb(N)).close();

  const transactions = ['--transactions', String(N)];
  if (runs('api')) await childBench('api', 'scripts/bench-api.ts', '4', transactions);
  if (runs('dashboard')) await childBench('dashboard', 'scripts/bench-dashboard.ts', '3', transactions, { DATABASE_URL: benchDatabaseUrl() });
  if (runs('export')) await childBench('export', 'scripts/bench-export.ts', '2', []);
  if (runs('finder')) await childBench('finder', 'scripts/bench-finder.ts', '17 find', transactions);
  if (runs('settlement')) await childBench('settlement', 'scripts/bench-settlement.ts', '21 settlement', transactions);
  if (runs('export-server') && !process.argv.includes('--no-server-export')) {
    await childBench('export-server', 'scripts/bench-export-server.ts', '22', ['--transactions', '1820000', '--rows', '1000000']);
  }

  if (runs('browser') && !process.argv.includes('--no-browser')) await browserRows(process.argv.includes('--no-export'));

  printTable();
  const file = join(OUT_DIR, 'bench-results.json');
  writeFileSync(
    file,
    JSON.stringify({ startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), transactions: N, cores: cpus().length, node: process.version, loadAverageAtStart: load, rows }, null, 2),
  );
  console.log(`Written to ${file}.`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
