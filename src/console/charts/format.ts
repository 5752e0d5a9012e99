/** Number formats of the charts: counts with thousands separators, amounts with 2 decimals, compact axis ticks. */
import { formatAmount } from '../format';

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export type ValueFormat = (value: number) => string;

export const formatCount: ValueFormat = (v) => countFormat.format(v);
export const formatMoney: ValueFormat = (v) => formatAmount(v);
export const formatCompact: ValueFormat = (v) => compactFormat.format(v);

/** A label cut to `max` characters with an ellipsis (axis ticks); the full label stays in tooltips and the table. */
export function shorten(label: string, max = 16): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

/** The share of `value` in `total`, as a percentage with one decimal. */
export function percentOf(value: number, total: number): string {
  if (total <= 0) return '0%';
  return `${((value / total) * 100).toFixed(1)}%`;
}
