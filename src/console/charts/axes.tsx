/** Axis and grid styling shared by the bar and line charts, in the theme's tokens. */
import { AxisBottom, AxisLeft } from '@visx/axis';
import { GridColumns, GridRows } from '@visx/grid';
import type { PickD3Scale } from '@visx/scale';
import { formatCompact, shorten } from './format';
import { chartTokens } from './theme';

export type BandScale = PickD3Scale<'band', number, string>;
export type PointScale = PickD3Scale<'point', number, string>;
export type LinearScale = PickD3Scale<'linear', number>;

const tickLabel = { fill: chartTokens.axis, fontSize: 11, fontFamily: 'inherit' } as const;

/** Every k-th category label, so that labels of about `maxChars` characters do not overlap over `length` px. */
export function thinnedTicks(categories: readonly string[], length: number, horizontal: boolean): string[] {
  if (categories.length === 0) return [];
  const per = horizontal ? 16 : Math.min(16, Math.max(...categories.map((c) => c.length))) * 6.5 + 10;
  const fit = Math.max(1, Math.floor(length / per));
  const k = Math.ceil(categories.length / fit);
  return categories.filter((_, i) => i % k === 0);
}

export function CategoryAxis({ scale, length, position, offset }: { scale: BandScale | PointScale; length: number; position: 'bottom' | 'left'; offset: number }) {
  const ticks = thinnedTicks(scale.domain(), length, position === 'left');
  const common = {
    scale,
    tickValues: ticks,
    tickFormat: (v: string) => shorten(v, position === 'left' ? 24 : 16),
    stroke: chartTokens.grid,
    tickStroke: chartTokens.grid,
  };
  return position === 'bottom' ? (
    <AxisBottom {...common} top={offset} tickLabelProps={() => ({ ...tickLabel, textAnchor: 'middle' })} />
  ) : (
    <AxisLeft {...common} left={offset} tickLabelProps={() => ({ ...tickLabel, textAnchor: 'end', dx: '-0.25em', dy: '0.33em' })} />
  );
}

export function ValueAxis({ scale, position, offset }: { scale: LinearScale; position: 'bottom' | 'left'; offset: number }) {
  const common = {
    scale,
    numTicks: 5,
    tickFormat: (v: number | { valueOf(): number }) => formatCompact(Number(v)),
    stroke: chartTokens.grid,
    tickStroke: chartTokens.grid,
    hideAxisLine: true,
  };
  return position === 'left' ? (
    <AxisLeft {...common} left={offset} tickLabelProps={() => ({ ...tickLabel, textAnchor: 'end', dx: '-0.25em', dy: '0.33em' })} />
  ) : (
    <AxisBottom {...common} top={offset} tickLabelProps={() => ({ ...tickLabel, textAnchor: 'middle' })} />
  );
}

export function ValueGrid({ scale, horizontal, length }: { scale: LinearScale; horizontal: boolean; length: number }) {
  return horizontal ? (
    <GridColumns scale={scale} height={length} numTicks={5} stroke={chartTokens.grid} strokeOpacity={0.8} />
  ) : (
    <GridRows scale={scale} width={length} numTicks={5} stroke={chartTokens.grid} strokeOpacity={0.8} />
  );
}
