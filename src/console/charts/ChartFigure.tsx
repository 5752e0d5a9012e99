/**
 * The frame every chart shares: a titled figure with optional controls (period or range selects),
 * the loading, failed and empty states, a tooltip, a live region that reads out the datum in focus,
 * and a visually hidden table of the data for screen readers.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { TooltipWithBounds } from '@visx/tooltip';

export type ChartStatus = 'loading' | 'failed' | 'ready';

export interface ChartCommonProps {
  /** Shown above the chart, and the start of its accessible name. */
  title: string;
  /** Selects and buttons shown beside the title. */
  controls?: ReactNode;
  /** Default 'ready'. A failed widget stays empty and says so, without disturbing the others. */
  status?: ChartStatus;
  /** Shown when there is nothing to draw. */
  emptyMessage?: string;
  /** Height of the drawing, px. */
  height?: number;
}

export const DEFAULT_EMPTY = 'No data for this period.';
export const FAILED_MESSAGE = 'This chart could not be loaded.';

export function ChartFigure({ title, controls, status = 'ready', empty, emptyMessage = DEFAULT_EMPTY, height, children }: ChartCommonProps & { empty: boolean; children: ReactNode }) {
  const headingId = useId();
  let body: ReactNode = children;
  if (status === 'loading')
    body = (
      <StateText height={height} busy>
        Loading…
      </StateText>
    );
  else if (status === 'failed') body = <StateText height={height}>{FAILED_MESSAGE}</StateText>;
  else if (empty) body = <StateText height={height}>{emptyMessage}</StateText>;
  return (
    <figure className="flex min-w-0 flex-col gap-2 rounded-md border border-line bg-surface p-4" aria-labelledby={headingId} aria-busy={status === 'loading' || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-ink">
          {title}
        </h2>
        {controls && <div className="flex flex-wrap items-center gap-2">{controls}</div>}
      </div>
      {body}
    </figure>
  );
}

function StateText({ children, height = 240, busy }: { children: ReactNode; height?: number; busy?: boolean }) {
  return (
    <div className="flex items-center justify-center text-sm text-ink-soft" style={{ minHeight: Math.min(height, 160) }} role={busy ? 'status' : undefined}>
      {children}
    </div>
  );
}

/**
 * The datum in focus: set by the pointer over a mark, or by the keyboard when the chart has focus
 * (arrow keys move, Home and End jump, Escape hides the tooltip).
 */
export function useActiveDatum(count: number) {
  const [active, setActive] = useState<number | null>(null);
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  const onKeyDown = (e: KeyboardEvent) => {
    if (count === 0) return;
    const current = active ?? -1;
    let next: number | null | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = clamp(current + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = clamp(current < 0 ? 0 : current - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = count - 1;
    else if (e.key === 'Escape') next = null;
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
  };
  return {
    active: active !== null && active < count ? active : null,
    setActive,
    focusProps: {
      tabIndex: 0,
      onKeyDown,
      onFocus: () => setActive((a) => a ?? (count > 0 ? 0 : null)),
      onBlur: () => setActive(null),
    },
  };
}

export const KEYBOARD_HINT = 'Focus the chart and use the arrow keys to read each value.';

/** The tooltip box, positioned within the chart's relative container. */
export function ChartTooltip({ left, top, children }: { left: number; top: number; children: ReactNode }) {
  return (
    <TooltipWithBounds
      left={left}
      top={top}
      unstyled
      applyPositionStyle
      className="pointer-events-none z-20 max-w-xs rounded-md border border-line bg-surface px-2.5 py-1.5 text-xs text-ink shadow-lg"
    >
      {children}
    </TooltipWithBounds>
  );
}

/**
 * The data as a table for screen readers (visually hidden). Hidden by a wrapping box, not on the table
 * itself: a table is as wide as its cells whatever width it is given, and a wide one hanging out of a
 * chart at the page's right edge made the whole page scroll sideways (the dashboard at 1280 px).
 */
export function HiddenDataTable({ caption, headers, rows }: { caption: string; headers: readonly string[]; rows: readonly (readonly string[])[] }) {
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {headers.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {c}
                  </th>
                ) : (
                  <td key={j}>{c}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The live region that reads out the datum in focus. */
export function LiveText({ text }: { text: string }) {
  return (
    <p className="sr-only" aria-live="polite">
      {text}
    </p>
  );
}

/** A legend: a swatch and a name per series (or slice, with its value). */
export function Legend({ items, onHover, vertical = false }: { items: readonly { label: string; colour: string; detail?: string }[]; onHover?: (index: number | null) => void; vertical?: boolean }) {
  return (
    <ul className={`flex text-xs text-ink-soft ${vertical ? 'flex-col gap-1.5' : 'flex-wrap gap-x-4 gap-y-1'}`} aria-label="Legend">
      {items.map((it, i) => (
        <li key={i} className="flex items-center gap-1.5" onMouseEnter={onHover ? () => onHover(i) : undefined} onMouseLeave={onHover ? () => onHover(null) : undefined}>
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 shrink-0 rounded-sm" style={{ background: it.colour }} />
          <span className="text-ink">{it.label}</span>
          {it.detail && <span className={`tabular-nums ${vertical ? 'ml-auto pl-3' : ''}`}>{it.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
