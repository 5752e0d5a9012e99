/**
 * Prometheus for `npm run cluster` (scripts/cluster.ts): the configuration that scrapes every app
 * server's metrics port, HAProxy's own exporter and PostgreSQL's exporter, and the report that
 * `--chaos` and `--roll` print at the end, read from Prometheus's HTTP API (`/api/v1/query`).
 *
 * The report is one row per time window of the run (before, during and after a kill or a restart):
 * the app servers' requests per second and their answers by status class
 * (`remit_http_requests_total{status_class}`), their p95 latency (`histogram_quantile` over
 * `remit_http_request_duration_seconds` in the window), what HAProxy answered its clients by status
 * class (`haproxy_frontend_http_responses_total`: the failures the app servers never saw, such as a
 * 502 for a request cut by a dying server or a 503 with no server left) and how often HAProxy retried
 * or re-sent a request to another server; then one line from PostgreSQL's exporter. Every query names
 * its time (`@ <end>`), so the report can be asked for after the run.
 *
 * HAProxy's counts are exact: its counters at the window's end minus at its start (HAProxy runs
 * throughout). The app servers' counters start again at 0 when a server restarts, so theirs are
 * Prometheus's `increase()` over the window, which follows restarts but extrapolates to the window's
 * edges: an estimate, within a few percent on windows of several seconds. Each range reaches one scrape
 * before the window's start, so an event just after the start is not lost between two samples.
 */

/** Scrape interval of the app servers and HAProxy, in seconds (the exporter's is twice it). */
export const SCRAPE_SECONDS = 1;
/** A window shorter than this is widened (at its end): `increase` needs at least two samples in its range. */
export const MIN_WINDOW_MS = 2000;

export interface ScrapeTargets {
  /** Each app server's name (the `server` label) and its metrics address, host:port. */
  readonly apps: readonly { readonly name: string; readonly address: string }[];
  /** HAProxy's Prometheus exporter (its `/metrics`), when this HAProxy has it. */
  readonly haproxy?: string;
  /** prometheus-postgres-exporter in front of the primary. */
  readonly postgres?: string;
}

/** prometheus.yml for the cluster's targets (YAML written out by hand: three small jobs). */
export function prometheusConfig(targets: ScrapeTargets): string {
  const lines = ['global:', `  scrape_interval: ${SCRAPE_SECONDS}s`, `  scrape_timeout: ${SCRAPE_SECONDS}s`, `  evaluation_interval: ${SCRAPE_SECONDS}s`, 'scrape_configs:'];
  lines.push('  - job_name: app', '    static_configs:');
  for (const app of targets.apps) lines.push(`      - targets: ['${app.address}']`, '        labels:', `          server: ${app.name}`);
  if (targets.haproxy) lines.push('  - job_name: haproxy', '    static_configs:', `      - targets: ['${targets.haproxy}']`);
  if (targets.postgres) {
    // the exporter runs a dozen queries a scrape: every 2 s is plenty
    lines.push(
      '  - job_name: postgres',
      `    scrape_interval: ${SCRAPE_SECONDS * 2}s`,
      `    scrape_timeout: ${SCRAPE_SECONDS * 2}s`,
      '    static_configs:',
      `      - targets: ['${targets.postgres}']`,
    );
  }
  return lines.join('\n') + '\n';
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** One instant query at `atMs` (epoch ms); the result vector. Throws with Prometheus's own error text. */
export async function promQuery(baseUrl: string, expr: string, atMs: number): Promise<Sample[]> {
  const params = new URLSearchParams({ query: expr, time: (atMs / 1000).toFixed(3) });
  const res = await fetch(`${baseUrl}/api/v1/query?${params}`, { signal: AbortSignal.timeout(10_000) });
  const json = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: Sample[] } };
  if (json.status !== 'success' || !json.data) throw new Error(`Prometheus: ${json.error ?? `HTTP ${res.status}`} (${expr})`);
  if (json.data.resultType !== 'vector') throw new Error(`Prometheus answered a ${json.data.resultType}, not a vector (${expr})`);
  return json.data.result;
}

export interface MetricsWindow {
  readonly label: string;
  /** Epoch ms. */
  readonly from: number;
  readonly to: number;
}

/** The window as queried: at least MIN_WINDOW_MS long. */
export function widened(w: MetricsWindow): MetricsWindow {
  return w.to - w.from >= MIN_WINDOW_MS ? w : { ...w, to: w.from + MIN_WINDOW_MS };
}

/** When the last window's samples are all in Prometheus (its end, widened, plus two scrapes). */
export function reportReadyAt(windows: readonly MetricsWindow[]): number {
  return Math.max(...windows.map((w) => widened(w).to)) + 2 * SCRAPE_SECONDS * 1000 + 500;
}

/**
 * The app servers' series of the clients' calls: not the health routes, which HAProxy's checks ask
 * every second (and which answer 503 while a server drains, as they should).
 */
const CALLS = '{route!~"/health.*"}';

const num = (s: Sample[] | undefined, match: (m: Record<string, string>) => boolean = () => true): number | undefined => {
  const hit = s?.find((x) => match(x.metric));
  if (!hit) return undefined;
  const v = Number(hit.value[1]);
  return Number.isFinite(v) ? v : undefined;
};
const round = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : String(Math.round(v)));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * The report's lines: a table of the windows and a line from PostgreSQL's exporter, or one line saying
 * why there are no metrics (no Prometheus, or it did not answer). `t0`: the run's start, for the
 * windows' times; `database`: the cluster's database name (the exporter's `datname`).
 */
export async function metricsReport(baseUrl: string | undefined, windows: readonly MetricsWindow[], t0: number, database: string): Promise<string[]> {
  if (!baseUrl) return ['Metrics unavailable: Prometheus is not running (not installed, or --no-prometheus).'];
  try {
    await fetch(`${baseUrl}/-/ready`, { signal: AbortSignal.timeout(5_000) });
  } catch (err) {
    return [`Metrics unavailable: Prometheus at ${baseUrl} does not answer (${err instanceof Error ? err.message : String(err)}).`];
  }
  try {
    const out = [
      `Prometheus (${baseUrl}): the app servers' counts are increase() estimates, HAProxy's exact ("HAProxy to clients": what the clients got, including answers no app server gave):`,
      '',
      '| window (s from start) | app servers: req/s | 2xx | 4xx | 5xx | p95 ms | HAProxy to clients: 2xx | 4xx | 5xx | retries | redispatched |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    let sawApp = false;
    let anyWidened = false;
    for (const raw of windows) {
      const w = widened(raw);
      // one scrape more than the window: the sample just before its start is the base of the increase
      const range = `${w.to - w.from + SCRAPE_SECONDS * 1000}ms`;
      const at = ` @ ${(w.to / 1000).toFixed(3)}`;
      const q = (expr: string) => promQuery(baseUrl, expr, w.to);
      /** HAProxy's counter at the window's end minus at its start (the window itself, never widened), summed `by`. */
      const diff = (metric: string, by = '') => q(`sum${by} (${metric} @ ${(raw.to / 1000).toFixed(3)}) - sum${by} (${metric} @ ${(raw.from / 1000).toFixed(3)})`);
      const [byClass, p95, front, retries, redispatches] = await Promise.all([
        q(`sum by (status_class) (increase(remit_http_requests_total${CALLS}[${range}]${at}))`),
        q(`histogram_quantile(0.95, sum by (le) (increase(remit_http_request_duration_seconds_bucket${CALLS}[${range}]${at})))`),
        diff('haproxy_frontend_http_responses_total{proxy="console"}', ' by (code)'),
        diff('haproxy_backend_retry_warnings_total{proxy="apps"}'),
        diff('haproxy_backend_redispatch_warnings_total{proxy="apps"}'),
      ]);
      if (byClass.length > 0) sawApp = true;
      // the increase over the range, brought back to the window's length
      const scale = (w.to - w.from) / (w.to - w.from + SCRAPE_SECONDS * 1000);
      const total = byClass.reduce((s, x) => s + Number(x.value[1]), 0) * scale;
      const cls = (c: string) => round((num(byClass, (m) => m.status_class === c) ?? (byClass.length ? 0 : NaN)) * scale);
      const code = (c: string) => round(num(front, (m) => m.code === c) ?? (front.length ? 0 : undefined));
      const p = num(p95);
      if (w.to !== raw.to) anyWidened = true;
      const label = `${raw.label} ${seconds(raw.from - t0)}-${seconds(raw.to - t0)}${w.to !== raw.to ? ' *' : ''}`;
      out.push(
        `| ${label} | ${byClass.length ? (total / ((w.to - w.from) / 1000)).toFixed(1) : '-'} | ${cls('2xx')} | ${cls('4xx')} | ${cls('5xx')} | ${p === undefined ? '-' : Math.round(p * 1000)} | ${code('2xx')} | ${code('4xx')} | ${code('5xx')} | ${round(num(retries))} | ${round(num(redispatches))} |`,
      );
    }
    if (anyWidened)
      out.push(`* shorter than ${MIN_WINDOW_MS / 1000} s: the app servers' columns are over its first ${MIN_WINDOW_MS / 1000} s (increase() needs two samples), HAProxy's over the window itself.`);
    if (!sawApp) out.push('', 'No remit_http_requests_total series: the app servers were not scraped (is METRICS_PORT served?).');
    out.push('', await postgresLine(baseUrl, { label: 'run', from: windows[0].from, to: Math.max(...windows.map((w) => w.to)) }, database));
    return out;
  } catch (err) {
    return [`Metrics unavailable: ${err instanceof Error ? err.message : String(err)}`];
  }
}

/** One line from prometheus-postgres-exporter over the whole run: up, connections, commits, deadlocks. */
async function postgresLine(baseUrl: string, w: MetricsWindow, database: string): Promise<string> {
  const range = `${Math.max(MIN_WINDOW_MS, w.to - w.from)}ms`;
  const at = ` @ ${(w.to / 1000).toFixed(3)}`;
  const from = ` @ ${(w.from / 1000).toFixed(3)}`;
  const db = `datname="${database}"`;
  const q = (expr: string) => promQuery(baseUrl, expr, w.to);
  // the primary's counters run throughout: end minus start
  const diff = (metric: string) => q(`sum(${metric}${at}) - sum(${metric}${from})`);
  const [upMin, upNow, connMax, commits, rollbacks, deadlocks, streaming, lagMax] = await Promise.all([
    q(`min_over_time(pg_up[${range}]${at})`),
    q(`pg_up${at}`),
    q(`max_over_time(sum(pg_stat_activity_count{${db}})[${range}:1s]${at})`),
    diff(`pg_stat_database_xact_commit{${db}}`),
    diff(`pg_stat_database_xact_rollback{${db}}`),
    diff(`pg_stat_database_deadlocks{${db}}`),
    // pg_stat_replication's rows, one a replica streaming from the primary
    q(`count(pg_stat_replication_pg_wal_lsn_diff${at})`),
    q(`max_over_time(max(pg_stat_replication_pg_wal_lsn_diff)[${range}:1s]${at})`),
  ]);
  if (upNow.length === 0 && upMin.length === 0) return 'PostgreSQL exporter: no pg_up series (the exporter was not scraped).';
  const secs = Math.max(MIN_WINDOW_MS, w.to - w.from) / 1000;
  const c = num(commits);
  return (
    `PostgreSQL exporter (the primary, over the run): pg_up ${round(num(upNow))} (lowest ${round(num(upMin))}), ` +
    `at most ${round(num(connMax))} connections to ${database}, ${c === undefined ? '-' : (c / secs).toFixed(0)} commits/s, ` +
    `${round(num(rollbacks))} rollbacks, ${round(num(deadlocks))} deadlocks; replicas streaming at the end ${round(num(streaming) ?? 0)}` +
    `${lagMax.length ? `, replay behind by at most ${round(num(lagMax))} bytes` : ''}`
  );
}
