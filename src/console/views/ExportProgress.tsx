/**
 * The export buttons of list screens and what they show while a file is built: a progress bar
 * ('Export progress') and a Cancel button. The file is built in a Web Worker (src/console/exports/
 * client.ts), so the page stays usable meanwhile. Above PDF_MAX_ROWS rows the PDF button explains that
 * such a PDF is too long to read and offers Excel instead.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ExportField } from '../../api/contract';
import type { AnyListScreen } from '../../definitions/definitions';
import type { ExportContext, ItemFields } from '../../formats/cells';
import type { ExportOutcome, RunningExport } from '../exports/client';
import { PDF_MAX_ROWS } from '../../definitions/exportLimits';
import { Button, Modal } from '../ui/primitives';
import { MenuButton } from '../ui/MenuButton';

export type ExportKind = 'xlsx' | 'pdf';

/**
 * The percent of a running export, as a tiny store: only the progress bar follows it, so the list (and
 * its table of maybe 100,000 rows) renders twice per export, at its start and end, not once per percent.
 */
export interface ProgressStore {
  get(): number;
  set(percent: number): void;
  subscribe(listener: () => void): () => void;
}

export function progressStore(): ProgressStore {
  let percent = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => percent,
    set: (p) => {
      if (p === percent) return;
      percent = p;
      listeners.forEach((l) => l());
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

export interface ExportState {
  kind: ExportKind;
  progress: ProgressStore;
}

const KIND_LABEL: Record<ExportKind, string> = { xlsx: 'Excel', pdf: 'PDF' };

/** Per export field, the item fields when it is a 'list' column (its items become labelled lines), else null. */
export function itemFieldsOf(columns: AnyListScreen['columns'], fields: readonly ExportField[]): (ItemFields | null)[] {
  return fields.map((f) => {
    const c = columns.find((col) => col.key === f.dataKey && col.kind === 'list' && col.itemFields && col.itemFields.length > 0);
    return c?.itemFields ? c.itemFields.map(({ key, label }) => ({ key, label })) : null;
  });
}

export interface ExportInput {
  fields: ExportField[];
  itemFields?: (ItemFields | null)[];
  ctx: ExportContext;
  rows: readonly object[];
}

/**
 * Runs one export at a time in the export worker: `state` while it runs, `run` resolves to what became
 * of it, `cancel` stops it. Leaving the page cancels a running export.
 */
export function useExportRunner() {
  const [state, setState] = useState<ExportState | null>(null);
  const running = useRef<RunningExport | null>(null);
  useEffect(() => () => running.current?.cancel(), []);

  const busy = useRef(false);
  const cancelled = useRef(false);

  const run = useCallback(async (kind: ExportKind, input: ExportInput): Promise<ExportOutcome> => {
    if (busy.current) throw new Error('An export is running');
    busy.current = true;
    cancelled.current = false;
    const progress = progressStore();
    setState({ kind, progress });
    try {
      const { startExport } = await import('../exports/client');
      if (cancelled.current) return { status: 'cancelled' };
      const job = startExport({ kind, ...input, onProgress: progress.set });
      running.current = job;
      return await job.result;
    } finally {
      running.current = null;
      busy.current = false;
      setState(null);
    }
  }, []);

  const cancel = useCallback(() => {
    cancelled.current = true;
    running.current?.cancel();
  }, []);
  return { state, run, cancel };
}

/** The progress bar and Cancel button of a running export. */
/** The exports' progress bar (browser and server exports alike), named "Export progress". */
export function ProgressBar({ percent, valueText }: { percent: number; valueText: string }) {
  return (
    <span
      role="progressbar"
      aria-label="Export progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className="block h-2 w-32 overflow-hidden rounded-full bg-muted ring-1 ring-inset ring-line"
    >
      <span className="block h-full bg-accent transition-[width] duration-200" style={{ width: `${percent}%` }} />
    </span>
  );
}

export function ExportProgress({ state, onCancel }: { state: ExportState; onCancel: () => void }) {
  const percent = useSyncExternalStore(state.progress.subscribe, state.progress.get, state.progress.get);
  return (
    <span className="flex items-center gap-2" data-testid="export-progress">
      <span className="whitespace-nowrap text-xs text-ink-soft tabular-nums" aria-hidden="true">
        Building {KIND_LABEL[state.kind]}… {percent}%
      </span>
      <ProgressBar percent={percent} valueText={`${KIND_LABEL[state.kind]} export ${percent}%`} />
      <Button onClick={onCancel}>Cancel</Button>
    </span>
  );
}

/** How many rows an export button writes, beside its label. */
function rowsNote(count: number): string {
  return ` (${count === 1 ? '1 row' : `${count.toLocaleString('en-US')} rows`})`;
}

/** Runs an export of the given kind in the export worker; resolves to what became of it. */
export type RunExport = (kind: ExportKind, input: ExportInput) => Promise<ExportOutcome>;

/**
 * An export button was pressed: the list gathers what to export (with `all`, every row matching the
 * filters, fetched anew with fetch count All) and calls `run`; resolves when it is over.
 */
export type OnExport = (kind: ExportKind, run: RunExport, all: boolean) => Promise<void> | void;

/**
 * One 'Export' button opening a menu of 'Download as Excel' and 'Download as PDF', each saying how many
 * rows it writes, with the progress of a running export beside it. When the fetch count cut the list
 * (`allMatching`: how many rows match the filters, more than `rowCount`), two more items export every
 * matching row. The running export
 * is this component's state, so the list around it does not render while it runs. `rowCount` decides
 * whether a PDF is still readable.
 */
export function ExportButtons({
  enabled,
  rowCount,
  allMatching,
  onExport,
}: {
  enabled: boolean;
  rowCount: number;
  /** How many rows match the filters, when more than the rows shown (the list was cut by its fetch count). */
  allMatching?: number;
  onExport: OnExport;
}) {
  const { state, run, cancel } = useExportRunner();
  // the PDF refused for its length: how many rows, and whether they are all the matching ones
  const [tooLong, setTooLong] = useState<{ rows: number; all: boolean } | null>(null);
  // an export of every matching row is fetching them (before the worker starts building the file)
  const [fetching, setFetching] = useState(false);
  const disabled = !enabled || state !== null || fetching;
  const all = enabled && allMatching !== undefined && allMatching > rowCount ? allMatching : undefined;

  function start(kind: ExportKind, everyRow: boolean) {
    const rows = everyRow && all !== undefined ? all : rowCount;
    if (kind === 'pdf' && rows > PDF_MAX_ROWS) {
      setTooLong({ rows, all: everyRow });
      return;
    }
    const done = onExport(kind, run, everyRow);
    if (everyRow && done) {
      setFetching(true);
      void Promise.resolve(done).finally(() => setFetching(false));
    }
  }

  return (
    <span className="ml-auto flex flex-wrap items-center justify-end gap-2">
      {state && <ExportProgress state={state} onCancel={cancel} />}
      {fetching && !state && (
        <span role="status" className="text-xs text-ink-soft">
          Fetching all {all?.toLocaleString('en-US')} matching rows…
        </span>
      )}
      <MenuButton
        label={
          <>
            Export
            <span aria-hidden="true" className="text-xs">
              ▾
            </span>
          </>
        }
        disabled={disabled}
        groups={[
          [
            { id: 'xlsx', label: `Download as Excel${enabled ? rowsNote(rowCount) : ''}`, run: () => start('xlsx', false) },
            { id: 'pdf', label: `Download as PDF${enabled ? rowsNote(rowCount) : ''}`, run: () => start('pdf', false) },
          ],
          all === undefined
            ? []
            : [
                { id: 'all-xlsx', label: `Download all ${all.toLocaleString('en-US')} as Excel`, run: () => start('xlsx', true) },
                { id: 'all-pdf', label: `Download all ${all.toLocaleString('en-US')} as PDF`, run: () => start('pdf', true) },
              ],
        ]}
      />
      <Modal
        open={tooLong !== null}
        onOpenChange={(open) => !open && setTooLong(null)}
        title="Too many rows for a PDF"
        footer={
          <Button
            variant="primary"
            onClick={() => {
              const everyRow = tooLong?.all ?? false;
              setTooLong(null);
              const done = onExport('xlsx', run, everyRow);
              if (everyRow && done) {
                setFetching(true);
                void Promise.resolve(done).finally(() => setFetching(false));
              }
            }}
          >
            Export to Excel instead
          </Button>
        }
      >
        <p className="text-sm">
          This {tooLong?.all ? 'export' : 'list'} has {(tooLong?.rows ?? rowCount).toLocaleString('en-US')} rows. A PDF of more than {PDF_MAX_ROWS.toLocaleString('en-US')} rows would run to hundreds
          of pages and be too long to read: download it as Excel instead, and filter it there.
        </p>
      </Modal>
    </span>
  );
}
