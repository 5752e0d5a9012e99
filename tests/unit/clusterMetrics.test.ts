import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_WINDOW_MS, metricsReport, prometheusConfig, reportReadyAt, widened } from '../../scripts/clusterMetrics';

describe('the cluster: Prometheus configuration', () => {
  it('scrapes each app server under its name, HAProxy and the PostgreSQL exporter', () => {
    const yml = prometheusConfig({
      apps: [
        { name: 'app1', address: '127.0.0.1:9101' },
        { name: 'app2', address: '127.0.0.1:9102' },
      ],
      haproxy: '127.0.0.1:9200',
      postgres: '127.0.0.1:9187',
    });
    expect(yml).toContain('  scrape_interval: 1s');
    expect(yml).toMatch(
      /- job_name: app\n {4}static_configs:\n {6}- targets: \['127\.0\.0\.1:9101'\]\n {8}labels:\n {10}server: app1\n {6}- targets: \['127\.0\.0\.1:9102'\]\n {8}labels:\n {10}server: app2\n/,
    );
    expect(yml).toMatch(/- job_name: haproxy\n {4}static_configs:\n {6}- targets: \['127\.0\.0\.1:9200'\]/);
    expect(yml).toMatch(/- job_name: postgres\n {4}scrape_interval: 2s\n {4}scrape_timeout: 2s\n {4}static_configs:\n {6}- targets: \['127\.0\.0\.1:9187'\]/);
  });

  it('leaves out the jobs it has no target for', () => {
    const yml = prometheusConfig({ apps: [{ name: 'app1', address: '127.0.0.1:9101' }] });
    expect(yml).not.toContain('haproxy');
    expect(yml).not.toContain('postgres');
  });
});

describe('the cluster: the metrics report', () => {
  let server: Server | undefined;
  const stop = async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = undefined;
  };
  afterEach(stop);

  /** A Prometheus stand-in: answers /api/v1/query from `answer(expr, time)`, records the queries. */
  async function fakePrometheus(
    answer: (expr: string) => { metric: Record<string, string>; value: [number, string] }[] | 'error',
  ): Promise<{ url: string; queries: { expr: string; time: string }[] }> {
    const queries: { expr: string; time: string }[] = [];
    server = createServer((req, res) => {
      const u = new URL(req.url!, 'http://x');
      if (u.pathname === '/-/ready') return res.end('Prometheus Server is Ready.\n');
      const expr = u.searchParams.get('query') ?? '';
      queries.push({ expr, time: u.searchParams.get('time') ?? '' });
      const result = answer(expr);
      res.setHeader('content-type', 'application/json');
      if (result === 'error') return res.end(JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }));
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const addr = server.address();
    return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, queries };
  }

  const v = (value: number, metric: Record<string, string> = {}) => ({ metric, value: [0, String(value)] as [number, string] });
  const t0 = 1_800_000_000_000;

  it('says the metrics are unavailable without Prometheus, or when it does not answer', async () => {
    expect(await metricsReport(undefined, [{ label: 'x', from: t0, to: t0 + 5000 }], t0, 'remit_cluster')).toEqual([
      'Metrics unavailable: Prometheus is not running (not installed, or --no-prometheus).',
    ]);
    const lines = await metricsReport('http://127.0.0.1:1', [{ label: 'x', from: t0, to: t0 + 5000 }], t0, 'remit_cluster');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Metrics unavailable: Prometheus at http:\/\/127\.0\.0\.1:1 does not answer/);
  });

  it('prints one row a window: rate, status classes and p95 of the app servers, what HAProxy answered, retries', async () => {
    const end1 = `@ ${(t0 + 10_000) / 1000}.000`;
    const { url, queries } = await fakePrometheus((expr) => {
      // the app servers: increase() over the window and one scrape before it (11 s, then 3 s)
      if (expr.startsWith('sum by (status_class) (increase(remit_http_requests_total'))
        return expr.includes('[11000ms]') ? [v(220, { status_class: '2xx' }), v(11, { status_class: '4xx' })] : [v(60, { status_class: '2xx' }), v(4.5, { status_class: '5xx' })];
      if (expr.startsWith('histogram_quantile(0.95')) return [v(expr.includes('[11000ms]') ? 0.2504 : 1.5)];
      // HAProxy: end minus start
      if (expr.startsWith('sum by (code) (haproxy_frontend_http_responses_total')) return [v(210, { code: '2xx' }), v(2, { code: '5xx' })];
      if (expr.includes('retry_warnings')) return [v(0)];
      if (expr.includes('redispatch_warnings')) return [v(expr.startsWith(`sum (haproxy_backend_redispatch_warnings_total{proxy="apps"} ${end1})`) ? 0 : 7)];
      if (expr.startsWith('min_over_time(pg_up') || expr.startsWith('pg_up')) return [v(1)];
      if (expr.startsWith('max_over_time(sum(pg_stat_activity_count')) return [v(17)];
      if (expr.includes('xact_commit')) return [v(1120)];
      if (expr.startsWith('count(pg_stat_replication')) return [v(1)];
      if (expr.startsWith('max_over_time(max(pg_stat_replication')) return [v(512)];
      return [v(0)];
    });
    const lines = await metricsReport(
      url,
      [
        { label: 'before', from: t0, to: t0 + 10_000 },
        { label: 'app2 killed', from: t0 + 10_000, to: t0 + 11_200 },
      ],
      t0,
      'remit_cluster',
    );
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| window'));
    expect(rows).toEqual(['| before 0.0-10.0 | 21.0 | 200 | 10 | 0 | 250 | 210 | 0 | 2 | 0 | 0 |', '| app2 killed 10.0-11.2 * | 21.5 | 40 | 0 | 3 | 1500 | 210 | 0 | 2 | 0 | 7 |']);
    // each window is read at its end: the app servers' increase() over it, HAProxy's counters at its end minus at its start
    expect(queries.map((q) => q.expr)).toContain(`sum by (status_class) (increase(remit_http_requests_total{route!~"/health.*"}[11000ms] ${end1}))`);
    expect(queries.map((q) => q.expr)).toContain(`sum by (status_class) (increase(remit_http_requests_total{route!~"/health.*"}[3000ms] @ ${(t0 + 12_000) / 1000}.000))`);
    expect(queries.map((q) => q.expr)).toContain(
      `sum by (code) (haproxy_frontend_http_responses_total{proxy="console"} ${end1}) - sum by (code) (haproxy_frontend_http_responses_total{proxy="console"} @ ${t0 / 1000}.000)`,
    );
    expect(lines).toContain("* shorter than 2 s: the app servers' columns are over its first 2 s (increase() needs two samples), HAProxy's over the window itself.");
    // HAProxy's counts over the window itself, not widened
    expect(queries.map((q) => q.expr)).toContain(
      `sum (haproxy_backend_redispatch_warnings_total{proxy="apps"} @ ${((t0 + 11_200) / 1000).toFixed(3)}) - sum (haproxy_backend_redispatch_warnings_total{proxy="apps"} @ ${(t0 + 10_000) / 1000}.000)`,
    );
    expect(lines.at(-1)).toBe(
      'PostgreSQL exporter (the primary, over the run): pg_up 1 (lowest 1), at most 17 connections to remit_cluster, 100 commits/s, 0 rollbacks, 0 deadlocks; replicas streaming at the end 1, replay behind by at most 512 bytes',
    );
    expect(queries.some((q) => q.expr.includes('pg_stat_activity_count{datname="remit_cluster"}'))).toBe(true);
  });

  it('says when the app servers were not scraped, and passes on a query Prometheus refuses', async () => {
    const empty = await fakePrometheus(() => []);
    const lines = await metricsReport(empty.url, [{ label: 'before', from: t0, to: t0 + 5000 }], t0, 'remit_cluster');
    expect(lines).toContain('| before 0.0-5.0 | - | - | - | - | - | - | - | - | - | - |');
    expect(lines).toContain('No remit_http_requests_total series: the app servers were not scraped (is METRICS_PORT served?).');
    expect(lines.at(-1)).toBe('PostgreSQL exporter: no pg_up series (the exporter was not scraped).');
    await stop();
    const refusing = await fakePrometheus(() => 'error');
    const refused = await metricsReport(refusing.url, [{ label: 'before', from: t0, to: t0 + 5000 }], t0, 'remit_cluster');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^Metrics unavailable: Prometheus: parse error \(/);
  });

  it('widens a window shorter than two scrapes and waits for its last samples', () => {
    expect(widened({ label: 'x', from: 1000, to: 1500 })).toEqual({ label: 'x', from: 1000, to: 1000 + MIN_WINDOW_MS });
    expect(widened({ label: 'x', from: 1000, to: 9000 })).toEqual({ label: 'x', from: 1000, to: 9000 });
    expect(reportReadyAt([{ label: 'x', from: 1000, to: 1500 }])).toBe(1000 + MIN_WINDOW_MS + 2500);
  });
});
