/**
 * The table of every list screen: sticky header, every column sortable, paginated.
 * Sorting works on precomputed ranks (one pass over the rows per column, kept while the rows stay),
 * ordering an index array; only the current page is handed to TanStack Table, which owns the column
 * and header model and the sorting state.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { Column, PanelField } from '../../definitions/definitions';
import { LIST_DEFAULTS } from '../../definitions/definitions';
import { sortKeyOf } from '../format';
import { isNumericKind, ListCell, PanelCell, renderCell } from './cells';
import { Button } from '../ui/primitives';

const features = tableFeatures({ rowSortingFeature });

/** The id of the Action column. */
const ACTIONS = '__actions';
const NO_PINS: readonly string[] = [];
const NO_ACTION_COLUMNS: readonly never[] = [];
const NO_WIDTHS: Readonly<Record<string, number>> = {};
/** The narrowest a column can be made. */
const MIN_WIDTH = 40;
/** The widest a column can be made (the widest the column prefs keep). */
const MAX_WIDTH = 2000;
/** Pixels an arrow key on a resize handle widens or narrows a column by; with Shift, the larger step. */
export const RESIZE_STEP = 10;
export const RESIZE_STEP_LARGE = 50;

/** From this many rows on, every sortable column is ranked in the background after the rows arrive. */
const PRERANK_FROM_ROWS = 5_000;
/** The longest a background ranking task runs before it lets the page handle input and paint. */
const BACKGROUND_SLICE_MS = 8;

/**
 * Runs `fn` in a task of its own at background priority (scheduler.postTask: input and rendering go
 * first), else when the browser is idle, else after a timer.
 */
function background(fn: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: (cb: () => void, o: { priority: string }) => Promise<unknown> } }).scheduler;
  if (typeof scheduler?.postTask === 'function') void scheduler.postTask(fn, { priority: 'background' }).catch(() => {});
  else if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn());
  else setTimeout(fn, 0);
}

export interface DataTableProps<Row extends object> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  pageSize: number;
  defaultSort?: { key: string; desc: boolean };
  /** The sort a new table starts with (the user's last one, kept by the caller); the default sort when unset. */
  initialSort?: { key: string; desc: boolean };
  /** Told each sort the user chooses, so that a table made anew (a new search) can start with it. */
  onSortChange?: (sort: { key: string; desc: boolean }) => void;
  /** The Action column, when the screen has row actions. */
  actions?: (row: Row) => ReactNode;
  /** Row actions shown in columns of their own (e.g. App Users' Images), placed just before the Action column. */
  actionColumns?: readonly ActionColumn<Row>[];
  /**
   * The key of the column the Action column (and the `actionColumns`) come just before, when the
   * specification places it among the columns; else (or when that column is not shown) they come last.
   */
  actionsBefore?: string;
  emptyMessage?: string;
  caption?: string;
  /** The rows are the first page of a list whose other rows are still arriving: no sorting or paging yet. */
  loadingMore?: boolean;
  /**
   * Keys of the columns that identify a row: shown in their place among the columns (pinning never
   * reorders them), and kept in view while the table scrolls sideways: a pinned column sticks to the
   * left edge after the pinned columns before it, and to the right edge before the pinned columns and
   * the Action column after it. The Action column is always kept at the right edge.
   */
  pinned?: readonly string[];
  /** A search is running: a progress bar over the table, the rows dimmed, `aria-busy` on the table. */
  loading?: boolean;
  /** The page (0 first) a new table starts on (e.g. from the URL); clamped to the pages there are. */
  initialPage?: number;
  /** Told each page the user moves to. */
  onPageChange?: (page: number) => void;
  /** Widths (CSS pixels) of the columns the user resized. */
  widths?: Readonly<Record<string, number>>;
  /** When given, each header has a handle on its right edge that resizes the column; told the new width. */
  onResize?: (key: string, width: number) => void;
  /** Opens a row's detail drawer: a click on the row (not on a control in it), or Enter on the focused row. */
  onRowOpen?: (row: Row) => void;
  /**
   * The rows are the first of more that match (the fetch count cut the list): the footer says
   * "10 of 165 matching - show all" instead of "1–10 of 10", and its "show all" calls `onShowAll`.
   */
  truncation?: { readonly matching: number; readonly onShowAll: () => void };
  /**
   * The field that identifies a row (default LIST_DEFAULTS.rowKey, `id`). A row is rendered under its value, so what a row holds
   * (an open modal or confirmation of its Action column) stays with that record when the rows change
   * under it (a search or a refetch arriving); rows without a value, or with one repeated on the page,
   * fall back to their position.
   */
  rowKey?: string;
}

/** React keys for the rows of a page: the row's identifying value where it has a unique one, else its position. */
export function rowKeys(rows: readonly object[], field: string): string[] {
  const values = rows.map((r) => (r as Record<string, unknown>)[field]);
  const seen = new Map<string, number>();
  for (const v of values) if (typeof v === 'string' || typeof v === 'number') seen.set(String(v), (seen.get(String(v)) ?? 0) + 1);
  return values.map((v, i) => ((typeof v === 'string' || typeof v === 'number') && seen.get(String(v)) === 1 ? `k:${String(v)}` : `#${i}`));
}

/** A click on the row itself, not on a control inside it nor in a dialog it opened (portals bubble through React). */
function isRowClick(e: { target: EventTarget; currentTarget: HTMLElement }): boolean {
  const target = e.target as Element;
  return e.currentTarget.contains(target) && !target.closest('button, a, input, select, textarea, label') && !window.getSelection()?.toString();
}

/**
 * The dense ranks of one column: rows with equal keys share a rank, and ranks follow the keys' order
 * (numbers as numbers, anything else as text). Keys are computed once per row; only the distinct keys
 * are sorted (natively: a Float64Array, or strings with `<`), so a column of 100,000 rows ranks in tens
 * of milliseconds, and every later sort on it is a counting sort of the ranks.
 * `sortValue` turns a cell's value into the value sorted on (e.g. a list into its length).
 */
export function sortRanks<Row>(rows: readonly Row[], key: string, kind: string | undefined, sortValue?: (value: unknown) => unknown): Uint32Array {
  return runSteps(rankSteps(rows, key, kind, sortValue, Infinity));
}

/** Runs a ranking to its end at once. */
function runSteps(steps: Generator<void, Uint32Array>): Uint32Array {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Rows (or keys) per step of a ranking done in the background: about a millisecond of work. */
const RANK_SLICE = 4096;

/** Calls `each(start, end)` for consecutive slices of 0..n, yielding between them. */
function* inSlices(n: number, slice: number, each: (start: number, end: number) => void): Generator<void, void> {
  for (let s = 0; s < n; s += slice) {
    const e = Math.min(n, s + slice);
    each(s, e);
    if (e < n) yield;
  }
}

/**
 * sortRanks in steps: it yields after every `slice` rows of each pass (and of each merge pass of the
 * distinct texts), so that a ranking done in the background never holds the page for long.
 */
export function* rankSteps<Row>(rows: readonly Row[], key: string, kind: string | undefined, sortValue?: (value: unknown) => unknown, slice = RANK_SLICE): Generator<void, Uint32Array> {
  const n = rows.length;
  const keys = new Array<number | string>(n);
  let numeric = true;
  yield* inSlices(n, slice, (s, e) => {
    for (let i = s; i < e; i++) {
      const v = (rows[i] as Record<string, unknown>)[key];
      const k = sortKeyOf(sortValue ? sortValue(v) : v, kind);
      keys[i] = typeof k === 'number' && Number.isNaN(k) ? -Infinity : k;
      if (typeof k !== 'number') numeric = false;
    }
  });
  const ranks = new Uint32Array(n);
  if (numeric) {
    const sorted = Float64Array.from(keys as number[]).sort();
    let u = 0;
    for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i];
    const distinct = sorted.subarray(0, u);
    yield;
    yield* inSlices(n, slice, (s, e) => {
      for (let i = s; i < e; i++) {
        const k = keys[i] as number;
        let lo = 0;
        let hi = u - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (distinct[mid] < k) lo = mid + 1;
          else hi = mid;
        }
        ranks[i] = lo;
      }
    });
    return ranks;
  }
  const index = new Map<string, number>();
  let distinct: string[] = [];
  yield* inSlices(n, slice, (s, e) => {
    for (let i = s; i < e; i++) {
      const k = String(keys[i]);
      keys[i] = k;
      if (!index.has(k)) {
        index.set(k, 0);
        distinct.push(k);
      }
    }
  });
  distinct = yield* sortTexts(distinct, slice); // code-unit order, as < compares strings
  for (let r = 0; r < distinct.length; r++) index.set(distinct[r], r);
  yield;
  yield* inSlices(n, slice, (s, e) => {
    for (let i = s; i < e; i++) ranks[i] = index.get(keys[i] as string)!;
  });
  return ranks;
}

/**
 * Distinct texts in code-unit order (what a default sort() gives), in steps: runs of `slice` sorted
 * natively, then merged pairwise, yielding after about `slice` texts merged.
 */
function* sortTexts(texts: string[], slice: number): Generator<void, string[]> {
  const n = texts.length;
  if (n <= slice) return texts.sort();
  let from = texts;
  for (let s = 0; s < n; s += slice) {
    const run = from.slice(s, Math.min(n, s + slice)).sort();
    for (let i = 0; i < run.length; i++) from[s + i] = run[i];
    yield;
  }
  let to = new Array<string>(n);
  for (let width = slice; width < n; width *= 2) {
    let done = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) to[k++] = from[j] < from[i] ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
      done += hi - lo;
      if (done >= slice) {
        done = 0;
        yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Row indexes in rank order (a stable counting sort: equal keys keep the rows' order in both directions). */
export function orderByRanks(ranks: Uint32Array, desc: boolean): Uint32Array {
  const n = ranks.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (ranks[i] > max) max = ranks[i];
  const starts = new Uint32Array(max + 2);
  for (let i = 0; i < n; i++) starts[(desc ? max - ranks[i] : ranks[i]) + 1]++;
  for (let r = 1; r < starts.length; r++) starts[r] += starts[r - 1];
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[starts[desc ? max - ranks[i] : ranks[i]]++] = i;
  return order;
}

/** Row indexes ordered by one column (ranks, then a counting sort). */
export function sortedIndexes<Row>(rows: readonly Row[], key: string, kind: string | undefined, desc: boolean, sortValue?: (value: unknown) => unknown): Uint32Array {
  return orderByRanks(sortRanks(rows, key, kind, sortValue), desc);
}

/**
 * How a column sorts: a panel column by its own key's field (with that field's kind), a list column
 * by its number of items, any other by its value and kind.
 */
export function sortingOf<Row>(c: Column<Row>): { kind: string | undefined; sortValue?: (value: unknown) => unknown } {
  if (c.kind === 'list') return { kind: 'integer', sortValue: (v) => (Array.isArray(v) ? v.length : 0) };
  if (c.panel) return { kind: c.panel.find((p) => p.key === c.key)?.kind ?? c.kind };
  return { kind: c.kind };
}

/** A row action shown in a column of its own, with its header. */
export interface ActionColumn<Row> {
  readonly id: string;
  readonly header: string;
  readonly render: (row: Row) => ReactNode;
}

/**
 * The keys of the table's columns in the order shown: the columns as given (pinning does not move
 * them), with the action columns and then the Action column (`action`) inserted just before the column
 * `before`, or at the end when there is none or it is not shown.
 */
export function columnLayout(columns: readonly string[], actionColumns: readonly string[], action: string | undefined, before?: string): string[] {
  const extra = [...actionColumns, ...(action ? [action] : [])];
  const at = before === undefined ? -1 : columns.indexOf(before);
  return at < 0 ? [...columns, ...extra] : [...columns.slice(0, at), ...extra, ...columns.slice(at)];
}

/** The left offset of each pinned column: the widths of the pinned columns before it, added up. */
export function pinOffsets(widths: readonly number[]): number[] {
  const out: number[] = [];
  let left = 0;
  for (const w of widths) {
    out.push(left);
    left += w;
  }
  return out;
}

/**
 * The right offset of each pinned column: the widths of the pinned columns after it, added up, plus
 * `end` (the Action column's width when it comes after them).
 */
export function pinOffsetsFromRight(widths: readonly number[], end = 0): number[] {
  return pinOffsets([...widths].reverse())
    .map((r) => r + end)
    .reverse();
}

export function DataTable<Row extends object>({
  columns: declaredColumns,
  rows,
  pageSize,
  defaultSort = { key: 'id', desc: false },
  initialSort,
  onSortChange,
  actions,
  actionColumns = NO_ACTION_COLUMNS,
  actionsBefore,
  emptyMessage = 'No records found.',
  caption,
  loadingMore = false,
  pinned = NO_PINS,
  loading = false,
  initialPage = 0,
  onPageChange,
  widths = NO_WIDTHS,
  onResize,
  onRowOpen,
  truncation,
  rowKey = LIST_DEFAULTS.rowKey,
}: DataTableProps<Row>) {
  // the columns in the order given: pinning keeps a column in its place (screen and exports agree)
  const columns = declaredColumns;
  const pinnedKeys = useMemo(() => columns.filter((c) => pinned.includes(c.key)).map((c) => c.key as string), [columns, pinned]);
  const layout = useMemo(
    () =>
      columnLayout(
        columns.map((c) => c.key as string),
        actionColumns.map((a) => a.id),
        actions ? ACTIONS : undefined,
        actionsBefore,
      ),
    [columns, actionColumns, actions, actionsBefore],
  );
  const [sorting, setSorting] = useState<SortingState>(() => {
    const start = initialSort && columns.some((c) => c.key === initialSort.key && c.sortable !== false) ? initialSort : defaultSort;
    return [{ id: start.key, desc: start.desc }];
  });
  const [page, setPageState] = useState(() => (loadingMore ? 0 : Math.max(0, Math.floor(initialPage) || 0)));
  const setPage = (p: number) => {
    setPageState(p);
    onPageChange?.(p);
  };
  const sort = sorting[0];
  const sortColumn = columns.find((c) => c.key === sort?.id);

  // each column's ranks are computed once per set of rows, on its first sort; the row objects are never moved
  const ranksByColumn = useMemo(() => new Map<string, Uint32Array>(), [rows]);
  const ordersBySort = useMemo(() => new Map<string, Uint32Array>(), [rows]);
  // rankings under way in the background (a click on such a column finishes its ranking at once)
  const rankingByColumn = useMemo(() => new Map<string, Generator<void, Uint32Array>>(), [rows]);
  // on a large set, the other sortable columns are ranked in the background, a few milliseconds of
  // work per task, so that the first click on any of them only orders the index array, and no click
  // waits behind a long ranking task
  useEffect(() => {
    if (rows.length < PRERANK_FROM_ROWS) return;
    const pending = columns.filter((c) => c.sortable !== false && !ranksByColumn.has(c.key));
    let stopped = false;
    let current: { key: string; steps: Generator<void, Uint32Array> } | null = null;
    const work = () => {
      if (stopped) return;
      const until = performance.now() + BACKGROUND_SLICE_MS;
      do {
        if (current && ranksByColumn.has(current.key)) current = null; // finished by a click meanwhile
        if (!current) {
          const c = pending.shift();
          if (!c) return;
          if (ranksByColumn.has(c.key)) continue;
          const { kind, sortValue } = sortingOf(c);
          current = { key: c.key, steps: rankSteps(rows, c.key, kind, sortValue) };
          rankingByColumn.set(c.key, current.steps);
        }
        const r = current.steps.next();
        if (r.done) {
          ranksByColumn.set(current.key, r.value);
          rankingByColumn.delete(current.key);
          current = null;
        }
      } while (performance.now() < until);
      background(work);
    };
    background(work);
    return () => {
      stopped = true;
    };
  }, [rows, columns, ranksByColumn, rankingByColumn]);
  const order = useMemo(() => {
    if (!sort || !sortColumn) return null;
    let ranks = ranksByColumn.get(sort.id);
    if (!ranks) {
      const { kind, sortValue } = sortingOf(sortColumn);
      ranks = runSteps(rankingByColumn.get(sort.id) ?? rankSteps(rows, sort.id, kind, sortValue, Infinity));
      ranksByColumn.set(sort.id, ranks);
      rankingByColumn.delete(sort.id);
    }
    const key = `${sort.id}:${sort.desc ? 'desc' : 'asc'}`;
    let order = ordersBySort.get(key);
    if (!order) ordersBySort.set(key, (order = orderByRanks(ranks, sort.desc)));
    return order;
  }, [rows, ranksByColumn, ordersBySort, rankingByColumn, sort?.id, sort?.desc, sortColumn]);
  const pageCount = Math.max(1, Math.ceil(rows.length / pageSize));
  const current = Math.min(page, pageCount - 1);
  const pageRows = useMemo(() => {
    const out: Row[] = [];
    const start = current * pageSize;
    const end = Math.min(rows.length, start + pageSize);
    for (let i = start; i < end; i++) out.push(rows[order ? order[i] : i]);
    return out;
  }, [rows, order, current, pageSize]);
  const keys = useMemo(() => rowKeys(pageRows, rowKey), [pageRows, rowKey]);

  const tableColumns = useMemo<ColumnDef<typeof features, Row>[]>(() => {
    const cols: ColumnDef<typeof features, Row>[] = columns.map((c) => ({
      id: c.key,
      accessorFn: (r: Row) => (r as Record<string, unknown>)[c.key],
      header: c.header,
      enableSorting: c.sortable !== false,
      // the first click's direction follows the column's kind (numbers high to low first, texts and
      // dates A to Z), not the values on the page shown, so the second click always sorts the other way
      sortDescFirst: isNumericKind(sortingOf(c).kind as Parameters<typeof isNumericKind>[0]),
    }));
    for (const a of actionColumns) cols.push({ id: a.id, header: a.header, enableSorting: false });
    if (actions) cols.push({ id: ACTIONS, header: 'Action', enableSorting: false });
    return layout.map((k) => cols.find((c) => c.id === k)!);
  }, [columns, actions, actionColumns, layout]);

  // The body is drawn straight from the page's rows (TanStack keeps the header and sorting model): one
  // renderer and class per column, made once, instead of a row and cell model rebuilt on every sort.
  const bodyColumns = useMemo(() => {
    const cols: { key: string; className: string; render: (row: Row) => ReactNode }[] = columns.map((c) => ({
      key: c.key,
      className: `whitespace-nowrap px-3 py-1.5 align-top ${isNumericKind(c.kind) ? 'text-right' : ''}`,
      render: (row: Row): ReactNode => {
        const v = (row as Record<string, unknown>)[c.key];
        if (c.panel) return <PanelCell title={c.header} fields={c.panel as readonly PanelField<unknown>[]} row={row as Record<string, unknown>} />;
        if (c.kind === 'list') return <ListCell title={c.header} items={v} fields={c.itemFields ?? []} />;
        if (c.zeroAsDash && Number(v) === 0) return '-';
        return renderCell(c.kind, v);
      },
    }));
    for (const a of actionColumns) cols.push({ key: a.id, className: 'whitespace-nowrap px-3 py-1.5 align-top ', render: a.render });
    if (actions) cols.push({ key: ACTIONS, className: 'whitespace-nowrap px-3 py-1.5 align-top ', render: (row: Row) => actions(row) });
    return layout.map((k) => cols.find((c) => c.key === k)!);
  }, [columns, actions, actionColumns, layout]);

  const table = useTable({
    features,
    columns: tableColumns,
    data: pageRows,
    manualSorting: true,
    // a header toggles between its two directions: the table always has a sort (the lists' default is
    // ID ascending), never an unsorted third state that would show the rows in the server's order
    enableSortingRemoval: false,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      setSorting(next);
      setPage(0);
      if (next[0]) onSortChange?.({ key: next[0].id, desc: next[0].desc });
    },
  });

  // ---- pinning: the pinned columns' left offsets come from their header cells' widths, measured
  // after each render (their widths follow their contents); the scroll position decides the shadows
  const scroller = useRef<HTMLDivElement>(null);
  const headerCells = useRef(new Map<string, HTMLTableCellElement>());
  const [lefts, setLefts] = useState<number[]>([]);
  const [rights, setRights] = useState<number[]>([]);
  const [viewportWidth, setViewportWidth] = useState<number>();
  const [edges, setEdges] = useState({ left: false, right: false });
  const measureEdges = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const left = el.scrollLeft > 0;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
    setViewportWidth((w) => (w === el.clientWidth ? w : el.clientWidth));
  }, []);
  // each header's width as drawn, rounded: the value its resize handle announces (aria-valuenow)
  const [headerWidths, setHeaderWidths] = useState<Readonly<Record<string, number>>>({});
  useLayoutEffect(() => {
    const widths = pinnedKeys.map((k) => headerCells.current.get(k)?.getBoundingClientRect().width ?? 0);
    const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) < 0.5);
    const next = pinOffsets(widths);
    setLefts((prev) => (same(prev, next) ? prev : next));
    // on the right: the pinned columns after each one, and the Action column when it comes after it
    const actionAt = layout.indexOf(ACTIONS);
    const actionWidth = actionAt < 0 ? 0 : (headerCells.current.get(ACTIONS)?.getBoundingClientRect().width ?? 0);
    const nextRights = pinOffsetsFromRight(widths).map((r, i) => r + (actionAt > layout.indexOf(pinnedKeys[i]) ? actionWidth : 0));
    setRights((prev) => (same(prev, nextRights) ? prev : nextRights));
    if (onResize) {
      const drawn: Record<string, number> = {};
      for (const [k, el] of headerCells.current) drawn[k] = Math.round(el.getBoundingClientRect().width);
      setHeaderWidths((prev) => {
        const keys = Object.keys(drawn);
        return keys.length === Object.keys(prev).length && keys.every((k) => prev[k] === drawn[k]) ? prev : drawn;
      });
    }
    measureEdges();
  });
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => measureEdges());
    observer.observe(el);
    return () => observer.disconnect();
  }, [measureEdges]);

  // ---- resizing: a drag on a header's right edge; the width follows the pointer, and is told at the end
  const [dragging, setDragging] = useState<{ key: string; width: number } | null>(null);
  const startResize = (e: ReactPointerEvent, key: string) => {
    const th = headerCells.current.get(key);
    if (!th || !onResize) return;
    e.preventDefault();
    e.stopPropagation();
    const startX = e.clientX;
    const startWidth = th.getBoundingClientRect().width;
    let width = startWidth;
    const move = (ev: PointerEvent) => {
      width = Math.max(MIN_WIDTH, Math.round(startWidth + ev.clientX - startX));
      setDragging({ key, width });
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setDragging(null);
      if (Math.abs(width - startWidth) >= 1) onResize(key, width);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  const widthOf = (id: string): number | undefined => (dragging?.key === id ? dragging.width : widths[id]);
  // the keyboard: Left and Right arrows on a header's resize handle (a focusable separator) narrow or
  // widen the column by a step (Shift: a larger one), remembered as a drag's width is
  const resizeByKey = (e: KeyboardEvent<HTMLElement>, key: string) => {
    const step = e.shiftKey ? RESIZE_STEP_LARGE : RESIZE_STEP;
    const delta = e.key === 'ArrowLeft' ? -step : e.key === 'ArrowRight' ? step : 0;
    if (delta === 0 || !onResize) return;
    e.preventDefault();
    e.stopPropagation();
    const current = widthOf(key) ?? headerWidths[key] ?? headerCells.current.get(key)?.getBoundingClientRect().width ?? MIN_WIDTH;
    const next = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(current) + delta));
    if (next !== Math.round(current)) onResize(key, next);
  };

  /** The sticky position, width and classes of a cell of column `id` (no pin for a column that scrolls). */
  const pinOf = (id: string): { className: string; style?: CSSProperties } => {
    const w = widthOf(id);
    const size: CSSProperties | undefined = w ? { width: w, minWidth: w, maxWidth: w } : undefined;
    const fixed = w ? ' overflow-hidden text-ellipsis' : '';
    const i = pinnedKeys.indexOf(id);
    if (i >= 0) return { className: `pinned-cell pinned-left${i === pinnedKeys.length - 1 ? ' pinned-left-last' : ''}${fixed}`, style: { ...size, left: lefts[i] ?? 0, right: rights[i] ?? 0 } };
    if (id === ACTIONS) return { className: 'pinned-cell pinned-right', style: { right: 0 } };
    return { className: fixed.trim(), style: size };
  };

  const kindOf = (id: string) => columns.find((c) => c.key === id)?.kind;
  const headerText = (id: string) => (id === ACTIONS ? 'Action' : (columns.find((c) => c.key === id)?.header ?? actionColumns.find((a) => a.id === id)?.header ?? id));
  const from = rows.length === 0 ? 0 : current * pageSize + 1;
  const to = Math.min(rows.length, (current + 1) * pageSize);

  return (
    <div className="flex flex-col gap-2">
      <div className="relative">
        {loading && (
          <div role="progressbar" aria-label="Loading the list" className="list-progress absolute inset-x-0 top-0 z-40 h-1 overflow-hidden rounded-t-md bg-accent/15">
            <span className="block h-full w-1/3 bg-accent" />
          </div>
        )}
        <div
          ref={scroller}
          role="region"
          aria-label={`${caption ?? 'List'} table`}
          aria-busy={loading || loadingMore || undefined}
          tabIndex={0}
          onScroll={measureEdges}
          data-scrolled-left={edges.left || undefined}
          data-more-right={edges.right || undefined}
          className="table-scroller max-h-[65vh] overflow-auto rounded-md border border-line bg-surface focus-visible:outline-2 focus-visible:outline-accent"
        >
          <table className="w-full border-collapse text-sm tabular-nums">
            {caption && <caption className="sr-only">{caption}</caption>}
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const canSort = header.column.getCanSort() && !loadingMore;
                    const numeric = isNumericKind(kindOf(header.column.id));
                    const pin = pinOf(header.column.id);
                    return (
                      <th
                        key={header.id}
                        ref={(el) => {
                          if (el) headerCells.current.set(header.column.id, el);
                          else headerCells.current.delete(header.column.id);
                        }}
                        scope="col"
                        // named by the column's title alone: not by its resize handle's name inside it
                        aria-label={headerText(header.column.id)}
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                        style={pin.style}
                        className={`sticky top-0 z-10 whitespace-nowrap border-b border-line bg-muted px-3 py-2 font-semibold text-ink ${numeric ? 'text-right' : 'text-left'} ${pin.className}`}
                      >
                        {canSort ? (
                          <button
                            type="button"
                            className="inline-flex items-center gap-1 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent"
                            onClick={header.column.getToggleSortingHandler()}
                          >
                            <table.FlexRender header={header} />
                            <span aria-hidden="true" className="text-xs text-ink-soft">
                              {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                            </span>
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                        {onResize && header.column.id !== ACTIONS && !actionColumns.some((a) => a.id === header.column.id) && (
                          <span
                            // the resize handle: dragged with a pointer, or focused (Tab) and moved with Left and Right
                            role="separator"
                            tabIndex={0}
                            aria-orientation="vertical"
                            aria-label={`Resize column ${headerText(header.column.id)}`}
                            aria-valuenow={widthOf(header.column.id) ?? headerWidths[header.column.id] ?? MIN_WIDTH}
                            aria-valuemin={MIN_WIDTH}
                            aria-valuemax={MAX_WIDTH}
                            aria-valuetext={`${widthOf(header.column.id) ?? headerWidths[header.column.id] ?? MIN_WIDTH} pixels`}
                            data-resize={header.column.id}
                            title="Drag to resize (or focus and press Left or Right)"
                            className="absolute inset-y-0 right-0 w-1.5 cursor-col-resize touch-none hover:bg-accent/40 focus-visible:bg-accent focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent"
                            onPointerDown={(e) => startResize(e, header.column.id)}
                            onKeyDown={(e) => resizeByKey(e, header.column.id)}
                          />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className={loading ? 'opacity-50 transition-opacity' : undefined}>
              {pageRows.length === 0 ? (
                <tr>
                  <td colSpan={tableColumns.length} className="p-0">
                    {/* in the visible part of the table, not centred across its whole scroll width */}
                    <div className="sticky left-0 px-3 py-8 text-center text-ink-soft" style={viewportWidth ? { width: viewportWidth } : undefined} data-testid="empty-message">
                      {emptyMessage}
                    </div>
                  </td>
                </tr>
              ) : (
                pageRows.map((row, i) => (
                  <tr
                    key={keys[i]}
                    className={`border-b border-line/60 odd:bg-surface even:bg-muted/40 hover:bg-accent/5 ${onRowOpen ? 'cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent' : ''}`}
                    {...(onRowOpen
                      ? {
                          tabIndex: 0,
                          onClick: (e: MouseEvent<HTMLTableRowElement>) => isRowClick(e) && onRowOpen(row),
                          onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => {
                            if (e.key === 'Enter' && e.target === e.currentTarget) {
                              e.preventDefault();
                              onRowOpen(row);
                            }
                          },
                        }
                      : {})}
                  >
                    {bodyColumns.map((c) => {
                      const pin = pinOf(c.key);
                      return (
                        <td key={c.key} className={pin.className ? `${c.className} ${pin.className}` : c.className} style={pin.style}>
                          {c.render(row)}
                        </td>
                      );
                    })}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      <nav className="flex items-center justify-between text-sm text-ink-soft" aria-label="Pagination">
        <span>
          {loadingMore ? (
            <span role="status">
              {from}–{to}: loading the other rows…
            </span>
          ) : truncation && truncation.matching > rows.length ? (
            // the fetch count cut the list: how many of how many match, and a way to them all
            <span data-testid="truncated">
              {pageCount > 1 ? `${from}–${to}: ` : ''}
              {rows.length.toLocaleString('en-US')} of {truncation.matching.toLocaleString('en-US')} matching -{' '}
              <button
                type="button"
                className="font-medium text-accent underline underline-offset-2 hover:text-accent-strong focus-visible:outline-2 focus-visible:outline-accent"
                onClick={truncation.onShowAll}
              >
                show all
              </button>
            </span>
          ) : (
            <>
              {from}–{to} of {rows.length}
            </>
          )}
        </span>
        <span className="flex items-center gap-2">
          <Button onClick={() => setPage(0)} disabled={current === 0} aria-label="First page">
            «
          </Button>
          <Button onClick={() => setPage(current - 1)} disabled={current === 0} aria-label="Previous page">
            ‹
          </Button>
          <span>
            Page {current + 1} of {loadingMore ? '…' : pageCount}
          </span>
          <Button onClick={() => setPage(current + 1)} disabled={loadingMore || current >= pageCount - 1} aria-label="Next page">
            ›
          </Button>
          <Button onClick={() => setPage(pageCount - 1)} disabled={loadingMore || current >= pageCount - 1} aria-label="Last page">
            »
          </Button>
        </span>
      </nav>
    </div>
  );
}
