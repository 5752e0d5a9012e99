/**
 * The period dropdown of the dashboards (spec 000 §2, §9): This Week, Last Two Weeks, Last Month,
 * Last Three Months, Last Year and Custom (optionally All), sent as a number of days in `range`. Custom
 * shows a From and To date picker capped at today; To cannot be before From (changing From past To
 * moves To along).
 */
import { businessDay } from '../../domain/businessTime';
import { businessTimeZone } from '../businessTime';
import { useId } from 'react';
import { addDays, ALL_PERIOD, CUSTOM_RANGE, periodOptions } from '../../api/dashboard';
import { inputClass } from './primitives';

/** The input look, sized to its content (for selects and pickers in a row of controls). */
export const inlineInputClass = inputClass.replace('w-full ', 'w-auto ');

export interface PeriodValue {
  range: number;
  /** yyyy-MM-dd; read only for Custom. */
  fromDate: string;
  toDate: string;
}

/** Today: the business day (the business time zone, as the server reads the periods), not the browser's. */
export function todayLocal(now = new Date(), zone = businessTimeZone()): string {
  return businessDay(now, zone);
}

/** A period of `range` days; Custom starts as the last 7 days, so it is usable at once. */
export function defaultPeriod(range: number, now = new Date()): PeriodValue {
  const today = todayLocal(now);
  return { range, fromDate: addDays(today, -6), toDate: today };
}

/** The request body of a period, or null while a custom range is incomplete or invalid. */
export function periodBodyOf(v: PeriodValue, now = new Date()): { range: number; fromDate?: string; toDate?: string } | null {
  if (v.range !== CUSTOM_RANGE) return { range: v.range };
  const today = todayLocal(now);
  if (!v.fromDate || !v.toDate || v.toDate < v.fromDate || v.toDate > today) return null;
  return { range: CUSTOM_RANGE, fromDate: v.fromDate, toDate: v.toDate };
}

/** A picked date capped at today. */
export function capAtToday(value: string, now = new Date()): string {
  const today = todayLocal(now);
  return value && value > today ? today : value;
}

export function PeriodFilter({
  label = 'Period',
  value,
  onChange,
  withAll = false,
  compact = false,
}: {
  label?: string;
  value: PeriodValue;
  onChange: (value: PeriodValue) => void;
  /** Adds All (range 1) before the other periods. */
  withAll?: boolean;
  /** Smaller controls, for chart headers. */
  compact?: boolean;
}) {
  const id = useId();
  const now = new Date();
  const today = todayLocal(now);
  const options = withAll ? [ALL_PERIOD, ...periodOptions] : periodOptions;
  const size = compact ? 'py-1 text-xs' : '';
  const setFrom = (raw: string) => {
    const from = capAtToday(raw, now);
    onChange({ ...value, fromDate: from, toDate: from && value.toDate && from > value.toDate ? from : value.toDate });
  };
  const setTo = (raw: string) => {
    const to = capAtToday(raw, now);
    onChange({ ...value, toDate: value.fromDate && to && to < value.fromDate ? value.fromDate : to });
  };
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-range`} className={compact ? 'sr-only' : 'text-xs font-medium text-ink-soft'}>
          {label}
        </label>
        <select
          id={`${id}-range`}
          className={`${inlineInputClass} ${size}`}
          value={value.range}
          onChange={(e) => {
            const range = Number(e.target.value);
            onChange(range === CUSTOM_RANGE ? { ...defaultPeriod(range, now), ...(value.range === CUSTOM_RANGE ? value : {}), range } : { ...value, range });
          }}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {value.range === CUSTOM_RANGE && (
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-from`} className={compact ? 'sr-only' : 'text-xs font-medium text-ink-soft'}>
              From
            </label>
            <input id={`${id}-from`} type="date" lang="en-CA" className={`${inlineInputClass} ${size}`} max={today} value={value.fromDate} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-to`} className={compact ? 'sr-only' : 'text-xs font-medium text-ink-soft'}>
              To
            </label>
            <input
              id={`${id}-to`}
              type="date"
              lang="en-CA"
              className={`${inlineInputClass} ${size}`}
              min={value.fromDate || undefined}
              max={today}
              value={value.toDate}
              onChange={(e) => setTo(e.target.value)}
            />
          </div>
        </>
      )}
    </div>
  );
}
