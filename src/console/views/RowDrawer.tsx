/**
 * The row detail drawer: a side sheet with every field of one row, labelled by the
 * screen's column definitions, the expandable panels and lists laid out as sections, the row's
 * actions (the list's own RowActions, with the same confirmations and guards, drawn as buttons under a
 * head with the amount and the statuses when the screen has a `rowSummary`), and copy buttons on
 * IDs and trace numbers. The URL names the open row, so a link to it can be shared and a reload
 * opens it again:
 * - on a list screen, `?row=<key>` (ListRowDrawer), the row read from the list's rows; a transaction
 *   screen's row that the list shown does not hold is fetched by its id (Transaction/find);
 * - on any page, `?find=<service>:<id>` (FoundRowDrawer), the row the top-bar search opened.
 * After an action, success or failure, the row is read again from the server.
 */
import { useCallback, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnyListScreen, AnyScreen, Column, PanelField, RowAction, SessionUser } from '../../definitions/definitions';
import { LIST_DEFAULTS } from '../../definitions/definitions';
import { findTransactions, type FindMatch } from '../../api/finder';
import { findServiceLabels, type FindService } from '../../domain/transactionFinder';
import { callApi } from '../request';
import { toast } from '../ui/toast';
import { Button, Loader } from '../ui/primitives';
import { formatAmount } from '../format';
import { FOUND_ROW_PARAM, LIST_ROW_PARAM, isCopyableKey, parseFoundRow, screenForService, serviceOfScreen } from '../finder';
import { isNumericKind, renderCell } from './cells';
import { RowActions } from './RowActions';

type AnyRow = Record<string, unknown>;

/** Copies a value to the clipboard and says so. */
export function CopyButton({ label, value }: { label: string; value: string }) {
  return (
    <button
      type="button"
      className="ml-2 rounded px-1.5 py-0.5 text-xs text-accent hover:bg-accent/10 focus-visible:outline-2 focus-visible:outline-accent"
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      onClick={() => {
        const done = () => toast('success', `${label} copied: ${value}`);
        const failed = () => toast('warning', `${label} could not be copied`);
        if (navigator.clipboard?.writeText) void navigator.clipboard.writeText(value).then(done, failed);
        else failed();
      }}
    >
      Copy
    </button>
  );
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === '';
}

/** One field: its label, its value as the table shows it, a copy button on identifiers. */
function Field({ label, fieldKey, kind, value, zeroAsDash }: { label: string; fieldKey: string; kind?: Column<unknown>['kind']; value: unknown; zeroAsDash?: boolean }) {
  const shown = zeroAsDash && Number(value) === 0 ? '-' : renderCell(kind, value);
  return (
    <div className="contents">
      <dt className="py-1 text-ink-soft">{label}</dt>
      <dd className={`flex items-center py-1 ${isNumericKind(kind) ? 'tabular-nums' : ''}`} data-field={fieldKey}>
        <span className="min-w-0 break-words">{shown}</span>
        {isCopyableKey(fieldKey) && !isEmpty(value) && typeof value !== 'object' && <CopyButton label={label} value={String(value)} />}
      </dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1">
      <h3 className="border-b border-line pb-1 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

const gridClass = 'grid grid-cols-[minmax(9rem,max-content)_1fr] gap-x-4 text-sm';

/**
 * The drawer's head (the screen's `rowSummary`): the amount with its currency, large, and the row's
 * statuses as tags, each labelled by its column's header; a status the row does not have yet is left out.
 */
export function RowSummaryHead({ screen, row }: { screen: AnyListScreen; row: AnyRow }) {
  const summary = screen.rowSummary;
  if (!summary) return null;
  const columns = screen.columns as readonly Column<AnyRow>[];
  const statuses = (summary.statuses ?? []).map((key) => ({ key, column: columns.find((c) => c.key === key) })).filter(({ key }) => !isEmpty(row[key]));
  return (
    <div className="flex flex-col gap-2 border-b border-line px-5 py-3" role="group" aria-label="Summary" data-testid="row-summary">
      <p className="flex items-baseline gap-2">
        <span className="text-2xl font-semibold tabular-nums" data-summary="amount">
          {formatAmount(row[summary.amount])}
        </span>
        <span className="text-base font-medium text-ink-soft" data-summary="currency">
          {String(row[summary.currency] ?? '')}
        </span>
      </p>
      {statuses.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Statuses">
          {statuses.map(({ key, column }) => (
            <li key={key} className="flex items-center gap-1.5" data-summary-status={key}>
              <span className="text-ink-soft">{column?.header ?? key}</span>
              {renderCell(column?.kind ?? 'paymentStatus', row[key])}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Every field of the row, by the screen's columns: plain columns first, then each panel and list as a section. */
export function RowFields({ columns, row }: { columns: readonly Column<AnyRow>[]; row: AnyRow }) {
  const plain = columns.filter((c) => !c.panel && c.kind !== 'list');
  const panels = columns.filter((c) => c.panel);
  const lists = columns.filter((c) => c.kind === 'list');
  return (
    <div className="flex flex-col gap-5">
      <Section title="Details">
        <dl className={gridClass}>
          {plain.map((c) => (
            <Field key={c.key} label={c.header} fieldKey={c.key} kind={c.kind} value={row[c.key]} zeroAsDash={c.zeroAsDash} />
          ))}
        </dl>
      </Section>
      {panels.map((c) => (
        <Section key={c.key} title={c.header}>
          <dl className={gridClass}>
            {(c.panel as readonly PanelField<AnyRow>[]).map((f) => (
              <Field key={f.key} label={f.label} fieldKey={f.key} kind={f.kind} value={row[f.key]} />
            ))}
          </dl>
        </Section>
      ))}
      {lists.map((c) => {
        const items = Array.isArray(row[c.key]) ? (row[c.key] as AnyRow[]) : [];
        return (
          <Section key={c.key} title={c.header}>
            {items.length === 0 ? (
              <p className="text-sm text-ink-soft">None</p>
            ) : (
              items.map((item, i) => (
                <dl key={i} className={`${gridClass} rounded border border-line p-2`} aria-label={`${c.header} ${i + 1}`}>
                  {(c.itemFields ?? []).map((f) => (
                    <Field key={f.key} label={f.label} fieldKey={f.key} value={item?.[f.key]} />
                  ))}
                </dl>
              ))
            )}
          </Section>
        );
      })}
    </div>
  );
}

export interface RowDrawerProps {
  title: string;
  /** A line under the title (e.g. the service). */
  subtitle?: string;
  screen: AnyListScreen | undefined;
  row: AnyRow | undefined;
  /** What to show instead of the row: loading, or a sentence (not found, failed). */
  state: 'ready' | 'loading' | { message: string; retry?: () => void };
  user: SessionUser;
  /** Row actions shown (the list's, unless a tab drops them). */
  actions?: readonly RowAction<AnyRow>[];
  reload: () => void;
  onClose: () => void;
}

/** The side sheet itself (a Radix dialog): focus is kept inside it; Escape or Close closes it. */
export function RowDrawer({ title, subtitle, screen, row, state, user, actions, reload, onClose }: RowDrawerProps) {
  const locked = !!(row && screen?.lockedWhen?.(row));
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/30" />
        <Dialog.Content
          data-testid="row-drawer"
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(40rem,100vw)] flex-col border-l border-line bg-surface text-ink shadow-xl focus:outline-none"
        >
          <div className="flex items-start justify-between gap-3 border-b border-line px-5 py-3">
            <div className="min-w-0">
              <Dialog.Title className="truncate text-base font-semibold">{title}</Dialog.Title>
              {subtitle && <p className="text-xs text-ink-soft">{subtitle}</p>}
            </div>
            <Dialog.Close className="rounded p-1 text-ink-soft hover:bg-muted focus:outline-2 focus:outline-offset-2 focus:outline-accent" aria-label="Close">
              ×
            </Dialog.Close>
          </div>
          {row && screen && state === 'ready' && <RowSummaryHead screen={screen} row={row} />}
          {row && screen && actions && actions.length > 0 && (
            <div className="flex flex-wrap items-center gap-2 border-b border-line px-5 py-2" role="group" aria-label="Row actions">
              <RowActions actions={actions} row={row} user={user} locked={locked} reload={reload} bar />
            </div>
          )}
          <div className="flex-1 overflow-auto px-5 py-4" tabIndex={0} role="region" aria-label="Row details">
            {state === 'loading' ? (
              <Loader />
            ) : state !== 'ready' ? (
              <div className="flex flex-col items-start gap-2">
                <p role="alert" className="text-sm">
                  {state.message}
                </p>
                {state.retry && <Button onClick={state.retry}>Retry</Button>}
              </div>
            ) : row && screen ? (
              <RowFields columns={screen.columns as readonly Column<AnyRow>[]} row={row} />
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A search without one parameter (closing the drawer keeps the page's filters). */
function without(search: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = search;
  return rest;
}

/** The row of a service by its id, from the server (Transaction/find, by id). */
function useTransactionRow(service: FindService, id: number) {
  return useQuery({
    queryKey: ['find-row', service, id],
    queryFn: async () => {
      const res = await callApi(findTransactions, { value: String(id), service, by: 'id' });
      if (!res.ok) throw new Error(String(res.statusCode));
      return res.data.matches.find((m: FindMatch) => m.service === service && m.row.id === id) ?? null;
    },
    retry: false,
  });
}

function titleOf(screen: AnyListScreen | undefined, id: unknown): string {
  return `${screen?.title ?? 'Transaction'}: ID ${String(id)}`;
}

/** A transaction's drawer with its row read from the server (the top-bar search, or a link to a row the list does not hold). */
function TransactionDrawer({
  service,
  id,
  screen,
  user,
  actions,
  onClose,
  onReloaded,
}: {
  service: FindService;
  id: number;
  screen: AnyListScreen | undefined;
  user: SessionUser;
  actions?: readonly RowAction<AnyRow>[];
  onClose: () => void;
  onReloaded?: () => void;
}) {
  const queryClient = useQueryClient();
  const query = useTransactionRow(service, id);
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['find-row', service, id] });
    // the lists and count cards behind the drawer show the same row
    void queryClient.invalidateQueries({ queryKey: ['list'] });
    void queryClient.invalidateQueries({ queryKey: ['counts'] });
    onReloaded?.();
  }, [queryClient, service, id, onReloaded]);
  const state: RowDrawerProps['state'] = !screen
    ? { message: `You may not view ${findServiceLabels[service]} transactions.` }
    : query.isPending
      ? 'loading'
      : query.isError
        ? { message: 'The transaction could not be loaded.', retry: () => void query.refetch() }
        : !query.data
          ? { message: `No ${findServiceLabels[service]} transaction with ID ${id}, or you may not view it.` }
          : 'ready';
  return (
    <RowDrawer
      title={titleOf(screen, id)}
      subtitle={findServiceLabels[service]}
      screen={screen}
      row={query.data?.row as AnyRow | undefined}
      state={state}
      user={user}
      actions={actions ?? (screen?.rowActions as readonly RowAction<AnyRow>[] | undefined)}
      reload={reload}
      onClose={onClose}
    />
  );
}

/** The drawer of the row the top-bar search opened (`?find=ceft:123`), on any page. */
export function FoundRowDrawer({ screens, user }: { screens: readonly AnyScreen[]; user: SessionUser }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const found = parseFoundRow(search[FOUND_ROW_PARAM]);
  if (!found) return null;
  const screen = screenForService(screens, found.service, user.permissions);
  const close = () => void navigate({ to: '.', search: without(search, FOUND_ROW_PARAM) as never });
  return <TransactionDrawer key={`${found.service}:${found.id}`} service={found.service} id={found.id} screen={screen} user={user} onClose={close} />;
}

/** Opens a list row's drawer: puts its key in the URL. */
export function useOpenListRow(screen: AnyListScreen): (row: object) => void {
  const navigate = useNavigate();
  const rowKey = screen.rowKey ?? LIST_DEFAULTS.rowKey;
  return useCallback(
    (row: object) => {
      const key = (row as AnyRow)[rowKey];
      if (key === undefined || key === null) return;
      // the key as it is (a number stays a number: the router writes it as ?row=12, not ?row="12")
      void navigate({ to: '.', search: ((prev: Record<string, unknown>) => ({ ...prev, [LIST_ROW_PARAM]: key })) as never });
    },
    [navigate, rowKey],
  );
}

/** The drawer of a list's open row (`?row=<key>`), or nothing. */
export function ListRowDrawer({
  screen,
  user,
  rows,
  loaded,
  actions,
  reload,
}: {
  screen: AnyListScreen;
  user: SessionUser;
  rows: readonly object[];
  loaded: boolean;
  actions?: readonly RowAction<AnyRow>[];
  reload: () => void;
}) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const key = search[LIST_ROW_PARAM];
  if (key === undefined || key === null || key === '') return null;
  const rowKey = screen.rowKey ?? LIST_DEFAULTS.rowKey;
  const row = rows.find((r) => String((r as AnyRow)[rowKey]) === String(key)) as AnyRow | undefined;
  const close = () => void navigate({ to: '.', search: without(search, LIST_ROW_PARAM) as never });
  const service = serviceOfScreen(screen.id);
  const id = Number(key);
  // a transaction the list shown does not hold (another day, a shared link): read from the server
  if (!row && loaded && service && Number.isInteger(id) && id > 0) {
    return <TransactionDrawer service={service} id={id} screen={screen} user={user} actions={actions ?? []} onClose={close} onReloaded={reload} />;
  }
  return (
    <RowDrawer
      title={rowKey === 'id' ? titleOf(screen, key) : `${screen.title}: ${String(key)}`}
      screen={screen}
      row={row}
      state={row ? 'ready' : loaded ? { message: 'This record is not in the list shown.' } : 'loading'}
      user={user}
      actions={actions}
      reload={reload}
      onClose={close}
    />
  );
}
