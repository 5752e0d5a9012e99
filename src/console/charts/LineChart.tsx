/** A line chart over ordered categories (years, months, days): one line per series, a dot per value. */
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import { curveMonotoneX } from '@visx/curve';
import { useParentSize } from '@visx/responsive';
import { localPoint } from '@visx/event';
import type { MouseEvent } from 'react';
import { ChartFigure, ChartTooltip, HiddenDataTable, KEYBOARD_HINT, Legend, LiveText, useActiveDatum, type ChartCommonProps } from './ChartFigure';
import { CategoryAxis, ValueAxis, ValueGrid } from './axes';
import { formatCount, type ValueFormat } from './format';
import { chartTokens, seriesColour } from './theme';
import type { ChartSeries } from './BarChart';

export interface LineChartProps extends ChartCommonProps {
  categories: readonly string[];
  series: readonly ChartSeries[];
  valueFormat?: ValueFormat;
  categoryLabel?: string;
  width?: number;
}

export function LineChart(props: LineChartProps) {
  const empty = props.categories.length === 0 || props.series.every((s) => s.data.every((v) => !v));
  return (
    <ChartFigure {...props} empty={empty}>
      <LineBody {...props} />
    </ChartFigure>
  );
}

function LineBody({ title, categories, series, valueFormat = formatCount, categoryLabel = 'Period', height = 260, width: fixedWidth }: LineChartProps) {
  const { parentRef, width: measured } = useParentSize({ initialSize: { width: fixedWidth ?? 560 } });
  const width = Math.max(240, fixedWidth ?? measured);
  const { active, setActive, focusProps } = useActiveDatum(categories.length);
  const margin = { top: 12, right: 20, bottom: 28, left: 52 };
  const innerW = Math.max(10, width - margin.left - margin.right);
  const innerH = Math.max(10, height - margin.top - margin.bottom);
  const max = Math.max(0, ...series.flatMap((s) => s.data));
  const x = scalePoint<string>({ domain: [...categories], range: [0, innerW], padding: 0.3 });
  const y = scaleLinear<number>({ domain: [0, max || 1], range: [innerH, 0], nice: true });
  const px = (i: number) => x(categories[i]) ?? innerW / 2;

  const describe = (i: number) => `${categories[i]}: ${series.map((s) => (series.length > 1 ? `${s.name} ${valueFormat(s.data[i] ?? 0)}` : valueFormat(s.data[i] ?? 0))).join(', ')}`;
  const first = categories.length > 0 ? describe(0) : '';
  const last = categories.length > 0 ? describe(categories.length - 1) : '';
  const label = `${title}. Line chart over ${categories.length} ${categoryLabel.toLowerCase()} values${series.length > 1 ? ` in ${series.length} series (${series.map((s) => s.name).join(', ')})` : ''}; first ${first}; last ${last}. ${KEYBOARD_HINT}`;

  const onMove = (e: MouseEvent<SVGRectElement>) => {
    const p = localPoint(e);
    if (!p || categories.length === 0) return;
    const rel = p.x - margin.left;
    let best = 0;
    for (let i = 1; i < categories.length; i++) if (Math.abs(px(i) - rel) < Math.abs(px(best) - rel)) best = i;
    setActive(best);
  };

  const tip = active !== null ? { left: margin.left + px(active) + 10, top: margin.top + y(Math.max(...series.map((s) => s.data[active] ?? 0))) - 10 } : null;
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
          <ValueGrid scale={y} horizontal={false} length={innerW} />
          {active !== null && <line x1={px(active)} x2={px(active)} y1={0} y2={innerH} stroke={chartTokens.axis} strokeDasharray="3 3" />}
          {series.map((s, si) => (
            <g key={s.name} data-testid="line-series">
              <LinePath data={categories.map((_, i) => i)} x={(i) => px(i)} y={(i) => y(s.data[i] ?? 0)} stroke={seriesColour(si)} strokeWidth={2} curve={curveMonotoneX} />
              {categories.map((c, i) => (
                <circle key={c} cx={px(i)} cy={y(s.data[i] ?? 0)} r={active === i ? 5 : 3} fill={seriesColour(si)} stroke={chartTokens.surface} strokeWidth={1.5} />
              ))}
            </g>
          ))}
          <CategoryAxis scale={x} length={innerW} position="bottom" offset={innerH} />
          <ValueAxis scale={y} position="left" offset={0} />
          <rect x={0} y={0} width={innerW} height={innerH} fill="transparent" onMouseMove={onMove} />
        </Group>
      </svg>
      {active !== null && tip && (
        <ChartTooltip left={tip.left} top={tip.top}>
          <strong className="block">{categories[active]}</strong>
          {series.map((s, si) => (
            <span key={s.name} className="flex items-center gap-1.5 tabular-nums">
              <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full" style={{ background: seriesColour(si) }} />
              {series.length > 1 && <span>{s.name}:</span>}
              <span>{valueFormat(s.data[active] ?? 0)}</span>
            </span>
          ))}
        </ChartTooltip>
      )}
      <LiveText text={active !== null ? describe(active) : ''} />
      <HiddenDataTable caption={title} headers={[categoryLabel, ...series.map((s) => s.name)]} rows={categories.map((c, i) => [c, ...series.map((s) => valueFormat(s.data[i] ?? 0))])} />
    </div>
  );
}
