/**
 * The generic list screen: filter bar (applied filters live in the URL), create button, change-request
 * panel, table with row actions, exports. Everything it shows comes from the definition.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnyListScreen, FilterValues, SessionUser, WholeReply } from '../definitions';
import { hasAnyPermission, hasPermission } from '../../domain/permissions';
import { callApi, failureMessage } from '../request';
import { fetchCountOptions } from '../../domain/validation';
import { logExport } from '../../api/reports';
import { exportFieldsFor } from '../exportFields';
import { toast } from '../ui/toast';
import { businessTimeZone } from '../businessTime';
import { Button } from '../ui/primitives';
import { DataTable } from './DataTable';
import { defaultFilterValues, FilterBar, filterKeys } from './FilterBar';
import { ExportButtons, itemFieldsOf, type ExportKind, type RunExport } from './ExportProgress';
import { CountCardsStrip, TotalsFooterView } from './ListExtras';
import { ChangeRequestPanel } from './ChangeRequestPanel';
import { RowActions } from './RowActions';
import { PageHeader } from './PageHeader';
import { arrangeColumns, ColumnChooser, useColumnPrefs } from './ColumnChooser';
import { ListNoticesView, ListToolbar } from './ListToolbar';
import { ListRowDrawer, useOpenListRow } from './RowDrawer';
import { isServerExportable, ServerExportPanel, useServerExport } from './ServerExport';

function sameFilters(a: FilterValues, b: FilterValues): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (String(a[k] ?? '') !== String(b[k] ?? '')) return false;
  return true;
}

/**
 * The applied filters: the URL's values over the defaults, coerced to the defaults' types. `remembered`
 * replaces defaults (e.g. the user's last fetch count on this screen).
 */
export function appliedFilters(screen: AnyListScreen, search: Record<string, unknown>, remembered: FilterValues = {}): FilterValues {
  const defaults = { ...defaultFilterValues(screen.filters ?? []), ...remembered };
  const out: FilterValues = { ...defaults };
  for (const k of (screen.filters ?? []).flatMap(filterKeys)) {
    const v = search[k];
    if (v === undefined || v === null) continue;
    out[k] = typeof defaults[k] === 'number' ? Number(v) || defaults[k] : String(v);
  }
  return out;
}

/**
 * The rows as the exports take them: a 'list' column's items become one text line each, labelled by
 * its itemFields ('Title: Mr, Name: …'); every other value is passed as it is.
 */
export function exportRowsOf(columns: AnyListScreen['columns'], rows: readonly object[]): Record<string, unknown>[] {
  const lists = columns.filter((c) => c.kind === 'list' && c.itemFields && c.itemFields.length > 0);
  if (lists.length === 0) return rows as Record<string, unknown>[];
  return rows.map((row) => {
    const out = { ...(row as Record<string, unknown>) };
    for (const c of lists) {
      const items = out[c.key];
      if (!Array.isArray(items)) continue;
      out[c.key] = items
        .map((item: Record<string, unknown>) =>
          c.itemFields!.map((f) => `${f.label}: ${item?.[f.key] === null || item?.[f.key] === undefined ? '' : String(item[f.key])}`).join(', '),
        )
        .join('\n');
    }
    return out;
  });
}

/** The Duration line of exports: the applied date range or date, if the screen filters by one. */
export function durationOf(screen: AnyListScreen, applied: FilterValues): string | undefined {
  for (const f of screen.filters ?? []) {
    if (f.kind === 'dateTimeRange') return `${String(applied[f.from]).replace('T', ' ')} to ${String(applied[f.to]).replace('T', ' ')}`;
    if (f.kind === 'date') return String(applied[f.key]);
  }
  return undefined;
}

/** A list load that failed: the status and the reason the user is told. */
export class ListLoadError extends Error {
  constructor(
    readonly statusCode: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Why a list could not be loaded, in words: the server's message, else what the status means. */
export function listFailureReason(statusCode: number, message?: string): string {
  if (message) return message;
  if (statusCode === 502 || statusCode === 0) return 'the server could not be reached';
  if (statusCode === 504 || statusCode === 408) return 'the server took too long to answer';
  if (statusCode === 403) return 'you do not have permission to see this list';
  if (statusCode === 400) return 'the server refused the filters';
  return `the server answered with an error (${statusCode})`;
}

/** The fetch-count filter of a screen, if it has one. */
function fetchCountKey(screen: AnyListScreen): string | undefined {
  const f = (screen.filters ?? []).find((d) => d.kind === 'fetchCount');
  return f && f.kind === 'fetchCount' ? f.key : undefined;
}

/** Where a user's last fetch count on a screen is kept (local storage, per user and screen). */
export function fetchCountStorageKey(username: string, screenId: string): string {
  return `remit.list.${username}.${screenId}.fetchCount`;
}

function rememberedFilters(screen: AnyListScreen, user: SessionUser): FilterValues {
  const key = fetchCountKey(screen);
  if (!key) return {};
  try {
    const n = Number(localStorage.getItem(fetchCountStorageKey(user.username, screen.id)));
    return fetchCountOptions.some((o) => o.value === n) ? { [key]: n } : {};
  } catch {
    return {};
  }
}

function rememberFetchCount(screen: AnyListScreen, user: SessionUser, values: FilterValues) {
  const key = fetchCountKey(screen);
  if (!key || values[key] === undefined) return;
  try {
    localStorage.setItem(fetchCountStorageKey(user.username, screen.id), String(values[key]));
  } catch {
    // storage full or refused: the choice is simply not remembered
  }
}

/** The sort in the URL ('id.asc', 'amount.desc'), if it names a column. */
export function sortFromUrl(value: unknown, columns: AnyListScreen['columns']): { key: string; desc: boolean } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(.+)\.(asc|desc)$/.exec(value);
  if (!m || !columns.some((c) => c.key === m[1] && c.sortable !== false)) return undefined;
  return { key: m[1], desc: m[2] === 'desc' };
}

/** The page in the URL (1 first) as the table's page index (0 first). */
export function pageFromUrl(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 1 ? n - 1 : 0;
}

const NO_PINS: readonly string[] = [];

/** The reply's top-level `matching` (rows matching the filters without the fetch count), when it has one. */
export function matchingOf(reply: WholeReply | undefined): number | undefined {
  const n = reply?.matching;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

const ALL_ROWS = fetchCountOptions[fetchCountOptions.length - 1].value;

export function ListView({ screen, user }: { screen: AnyListScreen; user: SessionUser }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remembered = useMemo(() => rememberedFilters(screen, user), [screen, user]);
  const applied = useMemo(() => appliedFilters(screen, search, remembered), [screen, search, remembered]);
  const [draft, setDraft] = useState<FilterValues>(applied);

  const tabs = screen.tabs ?? [];
  const tabId = typeof search.tab === 'string' && tabs.some((t) => t.id === search.tab) ? search.tab : tabs[0]?.id;
  const tab = tabs.find((t) => t.id === tabId);
  const source = tab?.source ?? screen.source;
  const footer = tab?.footer ?? screen.footer;
  const exportsDef = tab?.exports ?? screen.exports;
  const withActions = tab?.rowActions !== false;

  const queryKey = useMemo(() => ['list', screen.id, tabId ?? '', applied], [screen.id, tabId, applied]);
  // the first page of a large reply, shown while its other rows are still arriving (source.firstPage)
  const [early, setEarly] = useState<{ key: unknown; reply: WholeReply; rows: object[] }>();
  // the user's last sort of the list, kept across the table made anew after a streamed search
  const [userSort, setUserSort] = useState<{ key: string; desc: boolean }>();
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      const firstPage = source.firstPage;
      const onPartial = firstPage
        ? ({ ok: _ok, statusCode: _s, ...partial }: Record<string, unknown>) => {
            const rows = partial.data ? (firstPage(partial.data as never) as object[] | undefined) : undefined;
            if (Array.isArray(rows) && rows.length > 0) setEarly({ key: queryKey, reply: partial as WholeReply, rows });
          }
        : undefined;
      const res = await callApi(source.call, source.request(applied), { onPartial, compactRows: true });
      // list loads that fail change nothing visible: the last rows stay, under a banner with Retry
      if (!res.ok) throw new ListLoadError(res.statusCode, listFailureReason(res.statusCode, failureMessage(res)));
      const { ok: _ok, statusCode: _s, ...whole } = res;
      return whole as WholeReply;
    },
    placeholderData: (prev) => prev,
    retry: false,
    // a reload must not compare 100,000 old rows with the new ones, field by field
    structuralSharing: false,
  });
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['list', screen.id] });
    // an action may have moved a transaction between statuses: the count cards follow
    if (screen.countCards) void queryClient.invalidateQueries({ queryKey: ['counts', screen.id] });
  }, [queryClient, screen.id, screen.countCards]);

  // the last reply that loaded on this screen and tab: what stays on screen when a later load fails
  const lastGood = useRef<{ id: string; reply: WholeReply }>(undefined);
  const here = `${screen.id}:${tabId ?? ''}`;
  if (query.data && !query.isError) lastGood.current = { id: here, reply: query.data };
  const failed = query.isError && !query.isFetching;
  // after a failure (and while Retry runs) the rows of the last load stay on screen
  const kept = query.isError && !query.data && lastGood.current?.id === here ? lastGood.current.reply : undefined;
  const loaded = query.data ?? kept;
  // a new search (not a reload of the rows shown) whose first page has arrived
  const streaming = early && early.key === queryKey && query.isFetching && (query.isPending || query.isPlaceholderData) ? early : undefined;
  const reply = streaming?.reply ?? loaded;
  const data = reply?.data;
  const fullRows = useMemo(() => (loaded?.data ? (source.rows(loaded.data as never) as object[]) : []), [loaded, source]);
  const rows = streaming?.rows ?? fullRows;
  const requests = data && source.changeRequests ? source.changeRequests(data) : [];
  const filtersChanged = !sameFilters(draft, applied);
  const exportsEnabled = !!data && !filtersChanged && !query.isFetching && !failed;
  // the fetch count cut the result: the reply's `matching` (rows matching the filters without the
  // cap) says by how much; from a server that does not send it, as many rows as the cap allows came
  // back, and there may be more
  const countKey = fetchCountKey(screen);
  const fetchCount = countKey ? Number(applied[countKey]) : undefined;
  const matching = matchingOf(loaded);
  const capped = !!loaded && !failed && !streaming && fetchCount !== undefined && fetchCount < ALL_ROWS;
  const truncated = capped && (matching !== undefined ? matching > rows.length : rows.length >= fetchCount);
  const allMatching = truncated && matching !== undefined ? matching : undefined;
  const pinned = screen.pinnedColumns ?? NO_PINS;
  const [columnPrefs, setColumnPrefs] = useColumnPrefs(user.username, screen.id);
  const shownColumns = useMemo(() => arrangeColumns(screen.columns, pinned, columnPrefs), [screen.columns, pinned, columnPrefs]);
  const urlSort = sortFromUrl(search.sort, screen.columns);
  const urlPage = pageFromUrl(search.page);
  const locked = screen.lockedWhen ?? (() => false);
  const actions = withActions ? screen.rowActions : undefined;
  // the Action column shows when the user holds the permission of an action (or rows may show a lock)
  const anyPermitted = !!actions?.some((a) => hasPermission(user.permissions, a.permission)) || !!screen.lockedWhen;
  const renderActions = useMemo(
    () => (actions && actions.length && anyPermitted ? (row: object) => <RowActions actions={actions} row={row} user={user} locked={locked(row)} reload={reload} /> : undefined),
    [actions, anyPermitted, user, locked, reload],
  );

  const openRow = useOpenListRow(screen);
  // server export jobs (./ServerExport.tsx): lists larger than the tab should export go to the server
  const serverExport = useServerExport(source.call.path);
  const serverExportable = !!exportsDef && isServerExportable(source.call.path);

  function go(next: FilterValues, nextTab = tabId) {
    setDraft(next);
    rememberFetchCount(screen, user, next);
    // a new search starts on its first page, under the sort the user chose
    if (sameFilters(next, applied) && nextTab === tabId) reload();
    else void navigate({ to: screen.route, search: { ...next, ...(nextTab ? { tab: nextTab } : {}), ...(typeof search.sort === 'string' ? { sort: search.sort } : {}) } as never, replace: false });
    if (screen.countCards) void queryClient.invalidateQueries({ queryKey: ['counts', screen.id] });
  }

  function runSearch() {
    const next = { ...draft };
    for (const [k, v] of Object.entries(next)) if (typeof v === 'string') next[k] = v.trim();
    go(next);
  }

  /** Sort and page live in the URL with the filters (replacing the entry: Back leaves the list as it was). */
  function remember(change: { sort?: string; page?: number }) {
    void navigate({
      to: screen.route,
      search: ((prev: Record<string, unknown>) => {
        const out: Record<string, unknown> = { ...prev };
        if (change.sort !== undefined) {
          out.sort = change.sort;
          delete out.page;
        }
        if (change.page !== undefined) {
          if (change.page > 0) out.page = change.page + 1;
          else delete out.page;
        }
        return out;
      }) as never,
      replace: true,
    });
  }

  function clearAll() {
    go(defaultFilterValues(screen.filters ?? [], new Date(), true));
  }

  /** Every row matching the applied filters: the same call with fetch count All (for an export of them all). */
  async function loadAllMatching(): Promise<{ data: unknown; rows: object[] }> {
    const all = countKey ? { ...applied, [countKey]: ALL_ROWS } : applied;
    const res = await callApi(source.call, source.request(all), { compactRows: true });
    if (!res.ok) throw new ListLoadError(res.statusCode, listFailureReason(res.statusCode, failureMessage(res)));
    return { data: res.data, rows: source.rows(res.data as never) as object[] };
  }

  /**
   * Builds the file in the export worker (progress bar and Cancel meanwhile), downloads it, logs it:
   * of the rows shown, or with `all` of every row matching the filters, fetched first.
   */
  async function runExport(kind: ExportKind, run: RunExport, all = false) {
    if (!exportsDef) return;
    // more rows than the tab should hold: a server job instead (of every matching row with `all`)
    const wanted = all ? (allMatching ?? rows.length) : rows.length;
    if (serverExportable && serverExport.runsOnServer(wanted)) {
      const request = all && countKey ? { ...applied, [countKey]: ALL_ROWS } : applied;
      return serverExport.start(kind, source.request(request) as Record<string, unknown>);
    }
    let toExport = { data, rows };
    if (all) {
      try {
        toExport = await loadAllMatching();
      } catch (err) {
        toast('warning', `Export failed: the matching rows could not be loaded (${err instanceof Error ? err.message : 'unknown error'}).`);
        return;
      }
    }
    const fields = exportFieldsFor(screen, toExport.data);
    const ctx = {
      title: exportsDef.title,
      fileBase: exportsDef.fileBase,
      username: user.username,
      now: new Date(),
      // the business time zone, not the browser's: the 'On' line, the file name and every DATE cell
      timeZone: businessTimeZone(),
      duration: durationOf(screen, applied),
    };
    try {
      const outcome = await run(kind, { fields, itemFields: itemFieldsOf(screen.columns, fields), ctx, rows: toExport.rows });
      if (outcome.status === 'cancelled') {
        toast('info', 'Export cancelled: no file was downloaded.');
        return;
      }
      // the server keeps every export in the activity log (who, which screen, which file, how many rows)
      void callApi(logExport, { screen: screen.id, fileName: outcome.fileName, rows: outcome.rows });
    } catch {
      toast('warning', 'Export failed!');
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen}>
        {screen.toolbarActions && (
          <ListToolbar actions={screen.toolbarActions} ctx={{ filters: applied, reply: query.isFetching || failed ? undefined : reply, rows, now: new Date(), timeZone: businessTimeZone() }} user={user} onDone={reload} />
        )}
        {screen.createButton && hasPermission(user.permissions, screen.createButton.permission) && (
          <Link to={screen.createButton.to} className="inline-flex items-center rounded-md bg-accent-fill px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-fill-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent">
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
          exportAllMatching={allMatching}
          showExports={!!exportsDef}
          data={data}
          onClear={screen.clearButton ? clearAll : undefined}
          clearEnabled={exportsEnabled}
        />
      ) : (
        exportsDef && (
          <div className="flex justify-end gap-2">
            <ExportButtons enabled={exportsEnabled} rowCount={rows.length} allMatching={allMatching} onExport={runExport} />
          </div>
        )
      )}
      {serverExportable && (
        <ServerExportPanel controller={serverExport} request={source.request(applied) as Record<string, unknown>} enabled={exportsEnabled} rowCount={rows.length} truncated={truncated} />
      )}
      {screen.notices && <ListNoticesView notices={screen.notices} reply={reply} />}
      {failed && <ListFailure reason={query.error.message} kept={!!loaded} onRetry={() => void query.refetch()} />}
      {truncated && countKey && (
        <div role="status" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/60 dark:text-amber-100">
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
          <Button className="py-0.5" onClick={() => go({ ...applied, [countKey]: ALL_ROWS })}>
            {allMatching !== undefined ? `Show all ${allMatching.toLocaleString('en-US')} matching rows` : 'Show all matching rows'}
          </Button>
        </div>
      )}
      {/* the panel speaks only of a list that loaded: a failed load never reads as "no pending change requests" */}
      {data !== undefined && screen.changeRequests && hasAnyPermission(user.permissions, [screen.changeRequests.permission, ...(screen.changeRequests.alsoPermissions ?? [])]) && (
        <ChangeRequestPanel def={screen.changeRequests} requests={requests} onDecided={reload} />
      )}
      {screen.countCards && <CountCardsStrip screenId={screen.id} def={screen.countCards} />}
      {tabs.length > 0 && (
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
            truncation={allMatching !== undefined && countKey ? { matching: allMatching, onShowAll: () => go({ ...applied, [countKey]: ALL_ROWS }) } : undefined}
            pageSize={screen.pageSize ?? 50}
            defaultSort={screen.defaultSort ?? { key: 'id', desc: false }}
            actions={renderActions}
            emptyMessage={loaded || streaming ? screen.emptyMessage : 'Loading…'}
            caption={screen.title}
            onRowOpen={openRow}
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
    <div role="alert" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
      <span>
        <strong className="font-semibold">The list could not be loaded:</strong> {reason}.{kept ? ' The rows below are from the last search that loaded.' : ''}
      </span>
      <Button className="py-0.5" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
