/**
 * The generic list screen: filter bar (applied filters live in the URL), create button, change-request
 * panel, table with row actions, exports. Everything it shows comes from the definition; everything it
 * does apart from drawing comes from the list controller (../listController.ts).
 */
import { useMemo } from 'react';
import { Link } from '@tanstack/react-router';
import { LIST_DEFAULTS, type AnyListScreen, type SessionUser } from '../../definitions/definitions';
import { hasAnyPermission, hasPermission } from '../../domain/permissions';
import { businessTimeZone } from '../businessTime';
import { Button } from '../ui/primitives';
import { useListController } from '../listController';
import { DataTable } from './DataTable';
import { FilterBar } from './FilterBar';
import { ExportButtons } from './ExportProgress';
import { CountCardsStrip, TotalsFooterView } from './ListExtras';
import { ChangeRequestPanel } from './ChangeRequestPanel';
import { refusalReasons, RowActions, visibleActions } from './RowActions';
import { PageHeader } from './PageHeader';
import { arrangeColumns, ColumnChooser, useColumnPrefs } from './ColumnChooser';
import { ListNoticesView, ListToolbar } from './ListToolbar';
import { ListRowDrawer, useOpenListRow } from './RowDrawer';
import { ServerExportPanel } from './ServerExport';

const NO_PINS: readonly string[] = [];

export function ListView({ screen, user }: { screen: AnyListScreen; user: SessionUser }) {
  const {
    applied,
    draft,
    setDraft,
    tabs,
    tabId,
    here,
    source,
    footer,
    exportsDef,
    withActions,
    query,
    reload,
    loaded,
    streaming,
    reply,
    data,
    rows,
    requests,
    failed,
    exportsEnabled,
    countKey,
    fetchCount,
    truncated,
    allMatching,
    urlSort,
    urlPage,
    userSort,
    setUserSort,
    serverExport,
    serverExportable,
    browserAllMatching,
    go,
    runSearch,
    remember,
    clearAll,
    showAll,
    runExport,
  } = useListController(screen, user);
  const pinned = screen.pinnedColumns ?? NO_PINS;
  const [columnPrefs, setColumnPrefs] = useColumnPrefs(user.username, screen.id);
  const shownColumns = useMemo(() => arrangeColumns(screen.columns, pinned, columnPrefs), [screen.columns, pinned, columnPrefs]);
  const locked = screen.lockedWhen ?? (() => false);
  const actions = withActions ? screen.rowActions : undefined;
  // actions with a column of their own (e.g. App Users' Images) and those of the Action column
  const inActionColumn = useMemo(() => actions?.filter((a) => !a.column), [actions]);
  // the Action column shows when the user holds the permission of an action (or rows may show a lock)
  const anyPermitted = !!inActionColumn?.some((a) => hasPermission(user.permissions, a.permission)) || !!screen.lockedWhen;
  // the Action column only when some row shows something in it (an action, a lock, why none): no empty column
  const anyRowShows = useMemo(
    () =>
      !!inActionColumn &&
      anyPermitted &&
      rows.some((row) => !!screen.lockedWhen?.(row) || visibleActions(inActionColumn, row, user).length > 0 || refusalReasons(inActionColumn, row, user).length > 0),
    [inActionColumn, anyPermitted, rows, user, screen.lockedWhen],
  );
  const renderActions = useMemo(
    () =>
      inActionColumn && (inActionColumn.length || screen.lockedWhen) && anyPermitted && anyRowShows
        ? (row: object) => <RowActions actions={inActionColumn} row={row} user={user} locked={locked(row)} reload={reload} />
        : undefined,
    [inActionColumn, anyPermitted, anyRowShows, user, locked, reload, screen.lockedWhen],
  );
  const actionColumns = useMemo(
    () =>
      (actions ?? [])
        .filter((a) => a.column && (hasPermission(user.permissions, a.permission) || hasAnyPermission(user.permissions, a.anyOf ?? [])))
        .map((a) => ({
          id: `action:${a.id}`,
          header: a.column!,
          render: (row: object) => <RowActions actions={[a]} row={row} user={user} locked={locked(row)} reload={reload} marks={false} />,
        })),
    [actions, user, locked, reload],
  );

  const openRow = useOpenListRow(screen);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen}>
        {screen.toolbarActions && (
          <ListToolbar
            actions={screen.toolbarActions}
            ctx={{ filters: applied, reply: query.isFetching || failed ? undefined : reply, rows, now: new Date(), timeZone: businessTimeZone() }}
            user={user}
            onDone={reload}
          />
        )}
        {screen.createButton && hasPermission(user.permissions, screen.createButton.permission) && (
          <Link
            to={screen.createButton.to}
            className="inline-flex items-center rounded-md bg-accent-fill px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-fill-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
          >
            {screen.createButton.label}
          </Link>
        )}
      </PageHeader>
      {screen.filters && screen.filters.length > 0 ? (
        <FilterBar
          filters={screen.filters}
          values={draft}
          onChange={setDraft}
          onSearch={runSearch}
          searching={query.isFetching}
          exportsEnabled={exportsEnabled}
          onExport={runExport}
          exportRowCount={rows.length}
          exportAllMatching={browserAllMatching}
          showExports={!!exportsDef}
          data={data}
          onClear={screen.clearButton ? clearAll : undefined}
          clearEnabled={exportsEnabled}
        />
      ) : (
        exportsDef && (
          <div className="flex justify-end gap-2">
            <ExportButtons enabled={exportsEnabled} rowCount={rows.length} allMatching={browserAllMatching} onExport={runExport} />
          </div>
        )
      )}
      {serverExportable && (
        <ServerExportPanel
          controller={serverExport}
          request={source.request(applied) as Record<string, unknown>}
          enabled={exportsEnabled}
          rowCount={allMatching ?? rows.length}
          truncated={truncated}
        />
      )}
      {screen.notices && <ListNoticesView notices={screen.notices} reply={reply} />}
      {failed && <ListFailure reason={query.error?.message ?? ''} kept={!!loaded} onRetry={() => void query.refetch()} />}
      {truncated && countKey && (
        // a quiet line, not a warning: a cut list is the normal state of a list with a fetch count
        <p role="status" data-matching-line="" className="flex flex-wrap items-baseline gap-x-2 text-xs text-ink-soft">
          {allMatching !== undefined ? (
            <span>
              Showing {rows.length.toLocaleString('en-US')} of {allMatching.toLocaleString('en-US')} matching rows: Fetch Count {fetchCount} cut the result.
              {exportsDef ? ` The exports write these ${rows.length.toLocaleString('en-US')} rows; Download all writes all ${allMatching.toLocaleString('en-US')}.` : ''}
            </span>
          ) : (
            <span>
              Showing the first {rows.length.toLocaleString('en-US')} matching rows: Fetch Count {fetchCount} may have cut the result, and the exports write only these{' '}
              {rows.length.toLocaleString('en-US')} rows.
            </span>
          )}
          <button
            type="button"
            className="font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
            onClick={() => showAll()}
          >
            {allMatching !== undefined ? `Show all ${allMatching.toLocaleString('en-US')} matching rows` : 'Show all matching rows'}
          </button>
        </p>
      )}
      {/* the panel speaks only of a list that loaded: a failed load never reads as "no pending change requests" */}
      {data !== undefined && screen.changeRequests && hasAnyPermission(user.permissions, [screen.changeRequests.permission, ...(screen.changeRequests.alsoPermissions ?? [])]) && (
        <ChangeRequestPanel def={screen.changeRequests} requests={requests} onDecided={reload} />
      )}
      {screen.countCards && <CountCardsStrip screenId={screen.id} def={screen.countCards} />}
      {/* a single tab is no choice: no tab bar for it */}
      {tabs.length > 1 && (
        <div role="tablist" aria-label={`${screen.title} tabs`} className="flex gap-1 border-b border-line">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={t.id === tabId}
              className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${t.id === tabId ? 'border-accent text-accent' : 'border-transparent text-ink-soft hover:text-ink'}`}
              onClick={() => go(applied, t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
      )}
      {failed && !loaded ? null : (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-end gap-2">
            <ColumnChooser columns={screen.columns} pinned={pinned} prefs={columnPrefs} onChange={setColumnPrefs} />
          </div>
          <DataTable
            // the first page alone under the default sort, then the whole list in a table of its own (one
            // per search), which starts with the sort and page of the URL, else the sort the user last chose
            key={streaming ? 'first-page' : `rows:${here}:${JSON.stringify(applied)}`}
            loadingMore={!!streaming}
            loading={query.isFetching && !streaming}
            initialSort={streaming ? undefined : (urlSort ?? userSort)}
            onSortChange={(s) => {
              setUserSort(s);
              remember({ sort: `${s.key}.${s.desc ? 'desc' : 'asc'}` });
            }}
            initialPage={streaming ? 0 : urlPage}
            onPageChange={(p) => remember({ page: p })}
            columns={shownColumns}
            pinned={pinned}
            widths={columnPrefs.widths}
            onResize={(key, width) => setColumnPrefs({ ...columnPrefs, widths: { ...columnPrefs.widths, [key]: width } })}
            rows={rows}
            truncation={allMatching !== undefined && countKey ? { matching: allMatching, onShowAll: () => showAll() } : undefined}
            pageSize={screen.pageSize ?? LIST_DEFAULTS.pageSize}
            defaultSort={screen.defaultSort ?? LIST_DEFAULTS.defaultSort}
            actions={renderActions}
            actionColumns={actionColumns}
            actionsBefore={screen.actionsBefore}
            emptyMessage={loaded || streaming ? screen.emptyMessage : 'Loading…'}
            caption={screen.title}
            onRowOpen={openRow}
            rowKey={screen.rowKey ?? LIST_DEFAULTS.rowKey}
          />
        </div>
      )}
      <ListRowDrawer screen={screen} user={user} rows={rows} loaded={!!loaded && !streaming} actions={actions} reload={reload} />
      {footer && reply && <TotalsFooterView def={footer} reply={reply} />}
    </div>
  );
}

/** A list load that failed: the reason, whether the rows below are the last ones that loaded, and Retry. */
function ListFailure({ reason, kept, onRetry }: { reason: string; kept: boolean; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
    >
      <span>
        <strong className="font-semibold">The list could not be loaded:</strong> {reason}.{kept ? ' The rows below are from the last search that loaded.' : ''}
      </span>
      <Button className="py-0.5" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
