/**
 * The table of every list screen: sticky header, every column sortable, paginated.
 * Sorting works on precomputed ranks (one pass over the rows per column, kept while the rows stay),
 * ordering an index array; only the current page is handed to TanStack Table, which owns the column
 * and header model and the sorting state.
 */
import { useEffect, useMemo, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import type { Column, PanelField } from '../definitions';
import { sortKeyOf } from '../format';
import { isNumericKind, ListCell, PanelCell, renderCell } from './cells';
import { Button } from '../ui/primitives';

const features = tableFeatures({ rowSortingFeature });

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
  emptyMessage?: string;
  caption?: string;
  /** The rows are the first page of a list whose other rows are still arriving: no sorting or paging yet. */
  loadingMore?: boolean;
  /** Opens a row's detail drawer: a click on the row (not on a control in it), or Enter on the focused row. */
  onRowOpen?: (row: Row) => void;
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

export function DataTable<Row extends object>({
  columns,
  rows,
  pageSize,
  defaultSort = { key: 'id', desc: false },
  initialSort,
  onSortChange,
  actions,
  emptyMessage = 'No records found.',
  caption,
  loadingMore = false,
  onRowOpen,
}: DataTableProps<Row>) {
  const [sorting, setSorting] = useState<SortingState>(() => {
    const start = initialSort && columns.some((c) => c.key === initialSort.key && c.sortable !== false) ? initialSort : defaultSort;
    return [{ id: start.key, desc: start.desc }];
  });
  const [page, setPage] = useState(0);
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
    if (actions) cols.push({ id: '__actions', header: 'Action', enableSorting: false });
    return cols;
  }, [columns, actions]);

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
    if (actions) cols.push({ key: '__actions', className: 'whitespace-nowrap px-3 py-1.5 align-top ', render: (row: Row) => actions(row) });
    return cols;
  }, [columns, actions]);

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

  const kindOf = (id: string) => columns.find((c) => c.key === id)?.kind;
  const from = rows.length === 0 ? 0 : current * pageSize + 1;
  const to = Math.min(rows.length, (current + 1) * pageSize);

  return (
    <div className="flex flex-col gap-2">
      <div className="max-h-[65vh] overflow-auto rounded-md border border-line">
        <table className="w-full border-collapse text-sm tabular-nums">
          {caption && <caption className="sr-only">{caption}</caption>}
          <thead className="sticky top-0 z-10 bg-muted">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort() && !loadingMore;
                  const numeric = isNumericKind(kindOf(header.column.id));
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                      className={`whitespace-nowrap border-b border-line px-3 py-2 font-semibold text-ink ${numeric ? 'text-right' : 'text-left'}`}
                    >
                      {canSort ? (
                        <button type="button" className="inline-flex items-center gap-1 hover:text-accent focus-visible:outline-2 focus-visible:outline-accent" onClick={header.column.getToggleSortingHandler()}>
                          <table.FlexRender header={header} />
                          <span aria-hidden="true" className="text-xs text-ink-soft">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          </span>
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {pageRows.length === 0 ? (
              <tr>
                <td colSpan={tableColumns.length} className="px-3 py-8 text-center text-ink-soft">
                  {emptyMessage}
                </td>
              </tr>
            ) : (
              // keyed by position, as TanStack's rows were: a new order patches the rows in place
              pageRows.map((row, i) => (
                <tr
                  key={i}
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
                  {bodyColumns.map((c) => (
                    <td key={c.key} className={c.className}>
                      {c.render(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav className="flex items-center justify-between text-sm text-ink-soft" aria-label="Pagination">
        <span>
          {loadingMore ? (
            <span role="status">
              {from}–{to}: loading the other rows…
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
