/**
 * A bar chart over categories: one or more series, grouped side by side or stacked, vertical (value
 * up) or horizontal (for long category names such as countries).
 */
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { useParentSize } from '@visx/responsive';
import { ChartFigure, ChartTooltip, HiddenDataTable, KEYBOARD_HINT, Legend, LiveText, useActiveDatum, type ChartCommonProps } from './ChartFigure';
import { CategoryAxis, ValueAxis, ValueGrid } from './axes';
import { formatCount, type ValueFormat } from './format';
import { chartTokens, seriesColour } from './theme';

export interface ChartSeries {
  name: string;
  data: readonly number[];
}

export interface BarChartProps extends ChartCommonProps {
  categories: readonly string[];
  series: readonly ChartSeries[];
  /** Default 'grouped'. */
  layout?: 'grouped' | 'stacked';
  /** Default 'vertical'. */
  orientation?: 'vertical' | 'horizontal';
  valueFormat?: ValueFormat;
  /** The category column's name in the data table, e.g. 'Month'. */
  categoryLabel?: string;
  width?: number;
}

export function BarChart(props: BarChartProps) {
  const empty = props.categories.length === 0 || props.series.every((s) => s.data.every((v) => !v));
  return (
    <ChartFigure {...props} empty={empty}>
      <BarBody {...props} />
    </ChartFigure>
  );
}

function BarBody({
  title,
  categories,
  series,
  layout = 'grouped',
  orientation = 'vertical',
  valueFormat = formatCount,
  categoryLabel = 'Category',
  height: givenHeight,
  width: fixedWidth,
}: BarChartProps) {
  const { parentRef, width: measured } = useParentSize({ initialSize: { width: fixedWidth ?? 560 } });
  const width = Math.max(240, fixedWidth ?? measured);
  const horizontal = orientation === 'horizontal';
  const stacked = layout === 'stacked' && series.length > 1;
  const { active, setActive, focusProps } = useActiveDatum(categories.length);

  const longest = Math.min(24, Math.max(0, ...categories.map((c) => c.length)));
  const margin = horizontal ? { top: 8, right: 16, bottom: 28, left: longest * 6.5 + 16 } : { top: 12, right: 12, bottom: 28, left: 52 };
  const height = givenHeight ?? (horizontal ? Math.max(160, categories.length * 26 + margin.top + margin.bottom) : 260);
  const innerW = Math.max(10, width - margin.left - margin.right);
  const innerH = Math.max(10, height - margin.top - margin.bottom);
  const categoryLength = horizontal ? innerH : innerW;
  const valueLength = horizontal ? innerW : innerH;

  const totals = categories.map((_, i) => series.reduce((s, x) => s + (x.data[i] ?? 0), 0));
  const max = stacked ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.data));
  const cat = scaleBand<string>({ domain: [...categories], range: [0, categoryLength], padding: 0.25 });
  const value = scaleLinear<number>({ domain: [0, max || 1], range: horizontal ? [0, valueLength] : [valueLength, 0], nice: true });
  const inner = scaleBand<number>({ domain: series.map((_, i) => i), range: [0, cat.bandwidth()], padding: 0.12 });

  /** The rectangle of a bar from value v0 to v1 at category offset c, thickness t. */
  const rect = (c: number, t: number, v0: number, v1: number) =>
    horizontal ? { x: value(v0), y: c, width: Math.max(0, value(v1) - value(v0)), height: t } : { x: c, y: value(v1), width: t, height: Math.max(0, value(v0) - value(v1)) };

  const describe = (i: number) =>
    `${categories[i]}: ${series.map((s) => (series.length > 1 ? `${s.name} ${valueFormat(s.data[i] ?? 0)}` : valueFormat(s.data[i] ?? 0))).join(', ')}${stacked ? `; total ${valueFormat(totals[i])}` : ''}`;
  const top = totals.reduce((best, t, i) => (t > totals[best] ? i : best), 0);
  const label = `${title}. Bar chart of ${categories.length} ${categoryLabel.toLowerCase()} values${series.length > 1 ? ` in ${series.length} series (${series.map((s) => s.name).join(', ')})` : ''}; highest ${describe(top)}. ${KEYBOARD_HINT}`;

  let tip: { left: number; top: number } | null = null;
  if (active !== null) {
    const c = (cat(categories[active]) ?? 0) + cat.bandwidth() / 2;
    const peak = stacked ? totals[active] : Math.max(...series.map((s) => s.data[active] ?? 0));
    tip = horizontal ? { left: margin.left + value(peak) + 8, top: margin.top + c } : { left: margin.left + c, top: margin.top + value(peak) - 8 };
  }

  return (
    <div ref={fixedWidth ? undefined : parentRef} className="relative flex flex-col gap-2">
      {series.length > 1 && <Legend items={series.map((s, i) => ({ label: s.name, colour: seriesColour(i) }))} />}
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={label}
        className="rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        {...focusProps}
        onMouseLeave={() => setActive(null)}
      >
        <Group aria-hidden="true" left={margin.left} top={margin.top}>
          <ValueGrid scale={value} horizontal={horizontal} length={horizontal ? innerH : innerW} />
          {categories.map((c, ci) => {
            const c0 = cat(c) ?? 0;
            const band = horizontal
              ? { x: 0, y: c0 - (cat.step() - cat.bandwidth()) / 2, width: innerW, height: cat.step() }
              : { x: c0 - (cat.step() - cat.bandwidth()) / 2, y: 0, width: cat.step(), height: innerH };
            let acc = 0;
            return (
              <g key={c} data-testid="bar-group">
                <rect {...band} fill={active === ci ? chartTokens.grid : 'transparent'} opacity={0.45} onMouseMove={() => setActive(ci)} />
                {series.map((s, si) => {
                  const v = s.data[ci] ?? 0;
                  const r = stacked ? rect(c0, cat.bandwidth(), acc, acc + v) : rect(c0 + (inner(si) ?? 0), inner.bandwidth(), 0, v);
                  acc += v;
                  return <rect key={s.name} {...r} rx={stacked ? 0 : 2} fill={seriesColour(si)} onMouseMove={() => setActive(ci)} pointerEvents="visiblePainted" />;
                })}
              </g>
            );
          })}
          {horizontal ? (
            <>
              <CategoryAxis scale={cat} length={innerH} position="left" offset={0} />
              <ValueAxis scale={value} position="bottom" offset={innerH} />
            </>
          ) : (
            <>
              <CategoryAxis scale={cat} length={innerW} position="bottom" offset={innerH} />
              <ValueAxis scale={value} position="left" offset={0} />
            </>
          )}
        </Group>
      </svg>
      {active !== null && tip && (
        <ChartTooltip left={tip.left} top={tip.top}>
          <strong className="block">{categories[active]}</strong>
          {series.map((s, si) => (
            <span key={s.name} className="flex items-center gap-1.5 tabular-nums">
              <span aria-hidden="true" className="inline-block h-2 w-2 rounded-sm" style={{ background: seriesColour(si) }} />
              {series.length > 1 && <span>{s.name}:</span>}
              <span>{valueFormat(s.data[active] ?? 0)}</span>
            </span>
          ))}
          {stacked && <span className="mt-0.5 block font-medium tabular-nums">Total: {valueFormat(totals[active])}</span>}
        </ChartTooltip>
      )}
      <LiveText text={active !== null ? describe(active) : ''} />
      <HiddenDataTable
        caption={title}
        headers={[categoryLabel, ...series.map((s) => s.name), ...(stacked ? ['Total'] : [])]}
        rows={categories.map((c, i) => [c, ...series.map((s) => valueFormat(s.data[i] ?? 0)), ...(stacked ? [valueFormat(totals[i])] : [])])}
      />
    </div>
  );
}
