/** The filter bar of list screens: text (trimmed on blur), fetch count, selects; Search and the exports. */
import type { FilterDef, FilterValues } from '../definitions';
import { fetchCountOptions } from '../../domain/validation';
import { Button, inputClass } from '../ui/primitives';

export function defaultFilterValues(filters: readonly FilterDef[]): FilterValues {
  const v: FilterValues = {};
  for (const f of filters) v[f.key] = f.kind === 'fetchCount' ? 10 : '';
  return v;
}

export function FilterBar({
  filters,
  values,
  onChange,
  onSearch,
  exportsEnabled,
  onExport,
  exporting,
  showExports,
  data,
}: {
  filters: readonly FilterDef[];
  values: FilterValues;
  onChange: (values: FilterValues) => void;
  onSearch: () => void;
  exportsEnabled: boolean;
  onExport: (kind: 'xlsx' | 'pdf') => void;
  exporting: 'xlsx' | 'pdf' | null;
  showExports: boolean;
  /** The last reply, for filters whose options come with it. */
  data?: unknown;
}) {
  const set = (key: string, value: string | number) => onChange({ ...values, [key]: value });
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-3"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      {filters.map((f) => {
        const id = `filter-${f.key}`;
        switch (f.kind) {
          case 'text':
            return (
              <div key={f.key} className="flex min-w-64 flex-col gap-1">
                <label htmlFor={id} className="text-xs font-medium text-ink-soft">
                  {f.label}
                </label>
                <input id={id} className={inputClass} maxLength={f.maxLength} value={String(values[f.key] ?? '')} onChange={(e) => set(f.key, e.target.value)} onBlur={(e) => set(f.key, e.target.value.trim())} />
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
      <Button type="submit" variant="primary">
        Search
      </Button>
      {showExports && (
        <span className="ml-auto flex gap-2">
          <Button onClick={() => onExport('xlsx')} disabled={!exportsEnabled || exporting !== null}>
            {exporting === 'xlsx' ? 'Preparing…' : 'Download as Excel'}
          </Button>
          <Button onClick={() => onExport('pdf')} disabled={!exportsEnabled || exporting !== null}>
            {exporting === 'pdf' ? 'Preparing…' : 'Download as PDF'}
          </Button>
        </span>
      )}
    </form>
  );
}
