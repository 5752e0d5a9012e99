/** A donut chart of shares (e.g. transactions by category), with a legend of values and percentages. */
import { Group } from '@visx/group';
import { Pie } from '@visx/shape';
import { useParentSize } from '@visx/responsive';
import { ChartFigure, ChartTooltip, HiddenDataTable, KEYBOARD_HINT, Legend, LiveText, useActiveDatum, type ChartCommonProps } from './ChartFigure';
import { formatCount, percentOf, type ValueFormat } from './format';
import { chartTokens, seriesColour, SERIES_COLOURS } from './theme';

export interface PieSlice {
  label: string;
  value: number;
  /** The merged smallest slices (drawn in a neutral colour). */
  other?: boolean;
}

const colourOf = (s: PieSlice, i: number) => (s.other ? chartTokens.axis : seriesColour(i));

export interface PieChartProps extends ChartCommonProps {
  slices: readonly PieSlice[];
  /** How values read (default: counts with thousands separators). */
  valueFormat?: ValueFormat;
  /** The value column's name in the data table, e.g. 'Transactions'. */
  valueLabel?: string;
  /** At most this many slices (one colour each); the smallest beyond them join one 'Other' slice. Default 8. */
  maxSlices?: number;
  /** Fixed width instead of the container's (tests). */
  width?: number;
}

/** The slices to draw: the positive ones, the smallest merged into 'Other (n)' beyond `max`. */
export function drawnSlices(slices: readonly PieSlice[], max: number): PieSlice[] {
  const positive = slices.filter((s) => s.value > 0);
  if (positive.length <= max) return positive;
  const sorted = [...positive].sort((a, b) => b.value - a.value);
  const rest = sorted.slice(max - 1);
  return [...sorted.slice(0, max - 1), { label: `Other (${rest.length})`, value: rest.reduce((s, x) => s + x.value, 0), other: true }];
}

export function PieChart(props: PieChartProps) {
  const all = props.slices.filter((s) => s.value > 0);
  return (
    <ChartFigure {...props} empty={all.length === 0}>
      <PieBody {...props} all={all} slices={drawnSlices(all, props.maxSlices ?? SERIES_COLOURS)} />
    </ChartFigure>
  );
}

function PieBody({ title, all, slices, valueFormat = formatCount, valueLabel = 'Value', height = 240, width: fixedWidth }: PieChartProps & { all: readonly PieSlice[] }) {
  const { parentRef, width: measured } = useParentSize({ initialSize: { width: fixedWidth ?? 480 } });
  const width = fixedWidth ?? measured;
  const { active, setActive, focusProps } = useActiveDatum(slices.length);
  const total = slices.reduce((s, x) => s + x.value, 0);
  const size = Math.max(120, Math.min(height, width));
  const radius = size / 2 - 6;
  const describe = (s: PieSlice) => `${s.label}: ${valueFormat(s.value)} (${percentOf(s.value, total)})`;
  const largest = slices.reduce((a, b) => (b.value > a.value ? b : a), slices[0]);
  const label = `${title}. Pie chart of ${all.length} ${all.length === 1 ? 'part' : 'parts'}, total ${valueFormat(total)}; largest ${describe(largest)}. ${KEYBOARD_HINT}`;

  // the tooltip sits on the middle of the active slice's ring (angles from 12 o'clock, clockwise, as the pie lays them out)
  let tip: { left: number; top: number } | null = null;
  if (active !== null) {
    const before = slices.slice(0, active).reduce((sum, x) => sum + x.value, 0);
    const mid = ((before + slices[active].value / 2) / total) * 2 * Math.PI;
    const r = radius * 0.79;
    tip = { left: size / 2 + r * Math.sin(mid), top: size / 2 - r * Math.cos(mid) };
  }
  return (
    <div ref={fixedWidth ? undefined : parentRef} className="relative flex flex-wrap items-center gap-4">
      <svg
        width={size}
        height={size}
        role="img"
        aria-label={label}
        className="shrink-0 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        {...focusProps}
        onMouseLeave={() => setActive(null)}
      >
        <Group aria-hidden="true" top={size / 2} left={size / 2}>
          <Pie data={[...slices]} pieValue={(d) => d.value} outerRadius={radius} innerRadius={radius * 0.58} padAngle={0.01} pieSort={null} pieSortValues={null}>
            {(pie) =>
              pie.arcs.map((arc, i) => {
                return (
                  <path
                    key={arc.data.label}
                    d={pie.path(arc) ?? ''}
                    fill={colourOf(arc.data, i)}
                    stroke={chartTokens.surface}
                    strokeWidth={active === i ? 3 : 1}
                    opacity={active === null || active === i ? 1 : 0.55}
                    onMouseMove={() => setActive(i)}
                    data-testid="pie-slice"
                  />
                );
              })
            }
          </Pie>
          <text textAnchor="middle" dy="-0.2em" fontSize={18} fontWeight={600} fill={chartTokens.text} aria-hidden="true">
            {valueFormat(total)}
          </text>
          <text textAnchor="middle" dy="1.2em" fontSize={11} fill={chartTokens.axis} aria-hidden="true">
            Total
          </text>
        </Group>
      </svg>
      <div className="min-w-48 max-w-sm flex-1">
        <Legend vertical items={slices.map((s, i) => ({ label: s.label, colour: colourOf(s, i), detail: `${valueFormat(s.value)} · ${percentOf(s.value, total)}` }))} onHover={setActive} />
      </div>
      {active !== null && tip && (
        <ChartTooltip left={tip.left} top={tip.top}>
          <strong className="block">{slices[active].label}</strong>
          <span className="tabular-nums">
            {valueFormat(slices[active].value)} · {percentOf(slices[active].value, total)}
          </span>
        </ChartTooltip>
      )}
      <LiveText text={active !== null ? describe(slices[active]) : ''} />
      <HiddenDataTable caption={title} headers={['Name', valueLabel, 'Share']} rows={all.map((s) => [s.label, valueFormat(s.value), percentOf(s.value, total)])} />
    </div>
  );
}
