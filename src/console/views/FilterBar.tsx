/**
 * The filter bar of list screens: date ranges (typed, or picked in a calendar; committed when a field is
 * left and at Search, which a refused date blocks: ./DateRangeFilter.tsx, ../ui/dateRangeEntry.ts), text
 * (trimmed on blur), fetch count, selects; Search and the exports (with their progress).
 */
import type { FilterDef, FilterValues } from '../../definitions/definitions';
import { fetchCountOptions } from '../../domain/validation';
import { useState } from 'react';
import { Button, inputClass } from '../ui/primitives';
import { commitDateRange, isRangeSearchable, rangeEntryOf, typeIntoRange, type RangeEnd, type RangeEntry, type RangeLimits } from '../ui/dateRangeEntry';
import { displayOf } from '../ui/dateTimeText';
import { DateRangeFilter } from './DateRangeFilter';
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
function rangeLimits(): RangeLimits {
  return { latestFrom: latestFrom(), latestTo: latestTo() };
}

type RangeDef = Extract<FilterDef, { kind: 'dateTimeRange' }>;

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
  /** Search with these values (the draft, with the date fields' texts committed). */
  onSearch: (values: FilterValues) => void;
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
  const ranges = filters.filter((f): f is RangeDef => f.kind === 'dateTimeRange');

  /**
   * The date fields' texts and messages, per range, while they differ from the values' committed form:
   * kept with the values they were typed over, so a change from outside (Clear, Back) shows the new values.
   */
  const [entries, setEntries] = useState<Record<string, { base: string; entry: RangeEntry }>>({});
  const baseOf = (f: RangeDef, v: FilterValues = values) => `${String(v[f.from] ?? '')}|${String(v[f.to] ?? '')}`;
  const entryOf = (f: RangeDef): RangeEntry => {
    const kept = entries[f.from];
    if (kept && kept.base === baseOf(f)) return kept.entry;
    return rangeEntryOf({ from: String(values[f.from] ?? ''), to: String(values[f.to] ?? '') }, rangeLimits());
  };
  const keep = (f: RangeDef, entry: RangeEntry, v: FilterValues = values) => setEntries((prev) => ({ ...prev, [f.from]: { base: baseOf(f, v), entry } }));

  /**
   * Commits ranges (a field left, a calendar pick, Search): the fields show the committed values and the
   * values take them; returns the values and the id of the first field whose text is refused.
   */
  function commit(of: readonly RangeDef[], which: RangeEnd | 'both', typed: Record<string, RangeEntry> = {}): { next: FilterValues; refused: string | null } {
    const next = { ...values };
    let refused: string | null = null;
    const limits = rangeLimits();
    const kept: Record<string, { base: string; entry: RangeEntry }> = {};
    for (const f of of) {
      const c = commitDateRange(typed[f.from] ?? entryOf(f), which, limits);
      if (c.value.from !== null) next[f.from] = c.value.from;
      if (c.value.to !== null) next[f.to] = c.value.to;
      kept[f.from] = { base: baseOf(f, next), entry: { from: c.from, to: c.to } };
      if (refused === null && which === 'both' && !isRangeSearchable(c)) refused = `filter-${c.from.message ? f.from : f.to}`;
    }
    setEntries((prev) => ({ ...prev, ...kept }));
    if (of.some((f) => next[f.from] !== values[f.from] || next[f.to] !== values[f.to])) onChange(next);
    return { next, refused };
  }
  return (
    <form
      // a date range keeps a line free under its fields for their messages (./DateRangeFilter.tsx): a
      // message shown or gone never moves the Search button
      className={`flex flex-wrap items-end gap-x-3 rounded-md border border-line bg-surface px-3 pt-3 ${ranges.length > 0 ? 'gap-y-6 pb-6' : 'gap-y-3 pb-3'}`}
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        // what the date fields show is what is searched: a text that is no date-time blocks Search
        const { next, refused } = commit(ranges, 'both');
        if (refused) document.getElementById(refused)?.focus();
        else onSearch(next);
      }}
    >
      {filters.map((f) => {
        const id = `filter-${filterKeys(f)[0]}`;
        switch (f.kind) {
          case 'dateTimeRange':
            return (
              <DateRangeFilter
                key={f.from}
                ids={{ from: `filter-${f.from}`, to: `filter-${f.to}` }}
                labels={{ from: f.fromLabel ?? 'From', to: f.toLabel ?? 'To' }}
                entry={entryOf(f)}
                today={businessDay(now, businessTimeZone())}
                onType={(end, text) => keep(f, typeIntoRange(entryOf(f), end, text))}
                onCommit={(end) => commit([f], end)}
                onPick={(range) => commit([f], 'both', { [f.from]: { from: { text: displayOf(range.from), message: null }, to: { text: displayOf(range.to), message: null } } })}
              />
            );
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
