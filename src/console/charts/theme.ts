/** Chart colours as CSS variables (see charts.css), so one rendering reads in both themes. */
import './charts.css';

export const SERIES_COLOURS = 8;

/** The colour of the i-th series or slice. */
export function seriesColour(index: number): string {
  return `rgb(var(--chart-${(index % SERIES_COLOURS) + 1}))`;
}

export const chartTokens = {
  axis: 'rgb(var(--ink-soft))',
  grid: 'rgb(var(--line))',
  text: 'rgb(var(--ink))',
  surface: 'rgb(var(--surface))',
} as const;
