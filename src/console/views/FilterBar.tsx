/** The filter bar of list screens: text (trimmed on blur), fetch count, selects; Search and the exports (with their progress). */
import type { FilterDef, FilterValues } from '../../definitions/definitions';
import { fetchCountOptions } from '../../domain/validation';
import { capAt, followFrom } from '../../domain/dates';
import { Button, inputClass } from '../ui/primitives';
import { DateTimeInput } from '../ui/DateTimeInput';
import { ExportButtons, type OnExport } from './ExportProgress';
import { businessDateTime, businessDay, businessTodayRange } from '../../domain/businessTime';
import { businessTimeZone } from '../businessTime';

/**
 * The filters' defaults: fetch count 10, today's range, empty text; `afterClear` starts the range at
 * 00:00:01. "Today" is the business day (the business time zone, as the server reads the range), not
 * the browser's day.
 */
export function defaultFilterValues(filters: readonly FilterDef[], now = new Date(), afterClear = false, zone = businessTimeZone()): FilterValues {
  const v: FilterValues = {};
  for (const f of filters) {
    if (f.kind === 'dateTimeRange') {
      const r = businessTodayRange(now, zone, afterClear);
      v[f.from] = r.from;
      v[f.to] = r.to;
    } else if (f.kind === 'date') v[f.key] = businessDay(now, zone);
    else v[f.key] = f.kind === 'fetchCount' ? 10 : '';
  }
  return v;
}

/**
 * To may reach the end of the business day (today's default range ends there), From no later than the
 * business zone's now: wall clocks of the business zone, as the values are (never the browser's day).
 */
function latestFrom(zone = businessTimeZone()): string {
  return businessDateTime(new Date(), zone);
}
function latestTo(zone = businessTimeZone()): string {
  return businessTodayRange(new Date(), zone).to;
}

/** The URL keys a filter owns. */
export function filterKeys(f: FilterDef): string[] {
  return f.kind === 'dateTimeRange' ? [f.from, f.to] : [f.key];
}

export function FilterBar({
  filters,
  values,
  onChange,
  onSearch,
  searching = false,
  exportsEnabled,
  onExport,
  exportRowCount,
  exportAllMatching,
  showExports,
  data,
  onClear,
  clearEnabled,
}: {
  filters: readonly FilterDef[];
  values: FilterValues;
  onChange: (values: FilterValues) => void;
  onSearch: () => void;
  /** A search is running: Search is disabled until it ends. */
  searching?: boolean;
  exportsEnabled: boolean;
  /** An export button was pressed: gather what to export and `run` it (the buttons show its progress). */
  onExport: OnExport;
  /** How many rows an export would hold (a PDF of too many is refused in favour of Excel). */
  exportRowCount: number;
  /** How many rows match the filters when the fetch count cut the list: the exports also offer them all. */
  exportAllMatching?: number;
  showExports: boolean;
  /** The last reply, for filters whose options come with it. */
  data?: unknown;
  /** Shown when the screen has a Clear All Filters button. */
  onClear?: () => void;
  clearEnabled?: boolean;
}) {
  const set = (key: string, value: string | number) => onChange({ ...values, [key]: value });
  const now = new Date();
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-3"
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      {filters.map((f) => {
        const id = `filter-${filterKeys(f)[0]}`;
        switch (f.kind) {
          case 'dateTimeRange': {
            const from = String(values[f.from] ?? '');
            const to = String(values[f.to] ?? '');
            return (
              <div key={f.from} className="flex gap-3">
                <div className="flex flex-col gap-1">
                  <label htmlFor={`filter-${f.from}`} className="text-xs font-medium text-ink-soft">
                    {f.fromLabel ?? 'From'}
                  </label>
                  <DateTimeInput
                    id={`filter-${f.from}`}
                    value={from}
                    latest={latestFrom}
                    onChange={(typed) => {
                      const next = capAt(typed, latestFrom());
                      onChange({ ...values, [f.from]: next, [f.to]: followFrom(next, to) });
                    }}
                  />
                </div>
                <div className="flex flex-col gap-1">
                  <label htmlFor={`filter-${f.to}`} className="text-xs font-medium text-ink-soft">
                    {f.toLabel ?? 'To'}
                  </label>
                  <DateTimeInput id={`filter-${f.to}`} value={to} latest={latestTo} onChange={(typed) => set(f.to, followFrom(from, capAt(typed, latestTo())))} />
                </div>
              </div>
            );
          }
          case 'date':
            return (
              <div key={f.key} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  {f.label}
                </label>
                <input
                  id={id}
                  type="date"
                  lang="en-CA"
                  className={inputClass}
                  max={businessDay(now, businessTimeZone())}
                  value={String(values[f.key] ?? '')}
                  onChange={(e) => set(f.key, e.target.value)}
                />
              </div>
            );
          case 'text':
            return (
              <div key={f.key} className="flex min-w-64 flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  {f.label}
                </label>
                <input
                  id={id}
                  className={inputClass}
                  maxLength={f.maxLength}
                  value={String(values[f.key] ?? '')}
                  onChange={(e) => set(f.key, e.target.value)}
                  onBlur={(e) => set(f.key, e.target.value.trim())}
                />
              </div>
            );
          case 'fetchCount':
            return (
              <div key={f.key} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  Fetch Count
                </label>
                <select id={id} className={inputClass} value={String(values[f.key] ?? 10)} onChange={(e) => set(f.key, Number(e.target.value))}>
                  {fetchCountOptions.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </div>
            );
          case 'dataSelect': {
            const opts = data === undefined ? [] : f.options(data);
            return (
              <div key={f.key} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  {f.label}
                </label>
                <select id={id} className={inputClass} value={String(values[f.key] ?? '')} onChange={(e) => set(f.key, e.target.value)}>
                  <option value="">{f.allLabel}</option>
                  {opts.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </div>
            );
          }
          case 'select':
            return (
              <div key={f.key} className="flex flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  {f.label}
                </label>
                <select id={id} className={inputClass} value={String(values[f.key] ?? '')} onChange={(e) => set(f.key, e.target.value)}>
                  {f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </div>
            );
        }
      })}
      <Button type="submit" variant="primary" disabled={searching} aria-busy={searching || undefined}>
        {searching && <span className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-white border-t-transparent" aria-hidden="true" />}
        Search
      </Button>
      {onClear && (
        <Button onClick={onClear} disabled={!clearEnabled}>
          Clear All Filters
        </Button>
      )}
      {showExports && <ExportButtons enabled={exportsEnabled} rowCount={exportRowCount} allMatching={exportAllMatching} onExport={onExport} />}
    </form>
  );
}
