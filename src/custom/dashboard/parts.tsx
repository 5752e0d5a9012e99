/** Small pieces of the dashboards: stat cards with tooltips, titled panels, the state lines. */
import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../console/ui/primitives';
import { FAILED_MESSAGE, type ChartStatus } from '../../console/charts';
import { chartRangeLabels, chartRanges, type ChartRange } from '../../api/dashboard';
import { inlineInputClass } from '../../console/ui/PeriodFilter';

/** A titled panel (tables and card blocks); charts bring their own frame. */
export function Panel({ title, controls, children, busy }: { title: string; controls?: ReactNode; children: ReactNode; busy?: boolean }) {
  const id = useId();
  return (
    <section aria-labelledby={id} aria-busy={busy || undefined} className="flex min-w-0 flex-col gap-3 rounded-md border border-line bg-surface p-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id={id} className="text-sm font-semibold text-ink">
          {title}
        </h2>
        {controls && <div className="flex flex-wrap items-end gap-2">{controls}</div>}
      </div>
      {children}
    </section>
  );
}

/** The value of a card by the state of its call: a dash while loading or after a failure. */
export function shown(status: ChartStatus, value: string | undefined): string {
  return status === 'ready' && value !== undefined ? value : '–';
}

/**
 * A figure with its label. `tip`: shown on hover and on keyboard focus of the card (the card is then
 * focusable and described by the tip).
 */
export function StatCard({ label, value, tip, status = 'ready', sub, accent = false }: { label: string; value: string; tip?: ReactNode; status?: ChartStatus; sub?: ReactNode; accent?: boolean }) {
  const tipId = useId();
  const [open, setOpen] = useState(false);
  return (
    <div
      className={`relative flex min-w-0 flex-col gap-1 rounded-md border border-line bg-surface px-4 py-3 ${accent ? 'border-l-4 border-l-accent' : ''} ${tip ? 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent' : ''}`}
      tabIndex={tip ? 0 : undefined}
      aria-describedby={tip ? tipId : undefined}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={() => setOpen(false)}
      onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      data-testid="stat-card"
    >
      <span className="flex items-center gap-1 text-xs font-medium text-ink-soft">
        <span>{label}</span>
        {tip && (
          <span aria-hidden="true" className="inline-flex h-4 w-4 items-center justify-center rounded-full border border-line text-[10px] leading-none">
            i
          </span>
        )}
      </span>
      <span className="truncate text-xl font-semibold tabular-nums text-ink" title={value}>
        {status === 'failed' ? <span className="text-sm font-normal text-ink-soft">{FAILED_MESSAGE.replace('chart', 'figure')}</span> : value}
      </span>
      {sub}
      {tip && (
        <div id={tipId} role="tooltip" className={`absolute left-2 top-full z-30 mt-1 min-w-56 rounded-md border border-line bg-surface px-3 py-2 text-xs text-ink shadow-lg ${open ? '' : 'hidden'}`}>
          {tip}
        </div>
      )}
    </div>
  );
}

/** Label and value rows inside a tooltip or card. */
export function Figures({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-ink-soft">{k}</dt>
          <dd className="text-right tabular-nums">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The Yearly / Monthly / Weekly choice of a chart. */
export function ChartRangeSelect({ value, onChange, label }: { value: ChartRange; onChange: (v: ChartRange) => void; label: string }) {
  return (
    <select aria-label={label} className={`${inlineInputClass} py-1 text-xs`} value={value} onChange={(e) => onChange(e.target.value as ChartRange)}>
      {chartRanges.map((r) => (
        <option key={r} value={r}>
          {chartRangeLabels[r]}
        </option>
      ))}
    </select>
  );
}

/** Only the part of a country name before the first comma is shown (spec 000 §7). */
export function shortCountryName(name: string): string {
  return name.split(',')[0].trim();
}

/**
 * Whether any of the dashboard's widgets failed to load, and a way to load the failed ones again. Each
 * widget says its own failure where its figures would be; this line says it once at the top, with
 * Retry, so that a dashboard of dashes is never taken for a quiet day.
 */
export function WidgetFailures() {
  const client = useQueryClient();
  const cache = client.getQueryCache();
  const failed = useSyncExternalStore(
    (listener) => cache.subscribe(listener),
    () => cache.findAll({ queryKey: ['dashboard'], type: 'active' }).filter((q) => q.state.status === 'error').length,
  );
  const [retrying, setRetrying] = useState(false);
  if (failed === 0) return null;
  const retry = async () => {
    setRetrying(true);
    try {
      await client.refetchQueries({ queryKey: ['dashboard'], type: 'active', predicate: (q) => q.state.status === 'error' });
    } finally {
      setRetrying(false);
    }
  };
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
    >
      <span>
        <strong className="font-semibold">{failed === 1 ? 'One part of this dashboard could not be loaded.' : `${failed} parts of this dashboard could not be loaded.`}</strong> Its figures are
        missing, not zero.
      </span>
      <Button className="py-0.5" onClick={() => void retry()} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </Button>
    </div>
  );
}
