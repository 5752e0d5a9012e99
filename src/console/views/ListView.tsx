/**
 * The generic list screen: filter bar (applied filters live in the URL), create button, change-request
 * panel, table with row actions, exports. Everything it shows comes from the definition.
 */
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnyListScreen, FilterValues, SessionUser, WholeReply } from '../definitions';
import { hasAnyPermission, hasPermission } from '../../domain/permissions';
import { callApi } from '../request';
import { logExport } from '../../api/reports';
import { exportFieldsFor } from '../exportFields';
import { toast } from '../ui/toast';
import { Loader } from '../ui/primitives';
import { DataTable } from './DataTable';
import { defaultFilterValues, FilterBar, filterKeys } from './FilterBar';
import { ExportButtons, itemFieldsOf, type RunExport } from './ExportProgress';
import { CountCardsStrip, TotalsFooterView } from './ListExtras';
import { ChangeRequestPanel } from './ChangeRequestPanel';
import { RowActions } from './RowActions';
import { PageHeader } from './PageHeader';
import { ListNoticesView, ListToolbar } from './ListToolbar';

function sameFilters(a: FilterValues, b: FilterValues): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (String(a[k] ?? '') !== String(b[k] ?? '')) return false;
  return true;
}

/** The applied filters: the URL's values over the defaults, coerced to the defaults' types. */
export function appliedFilters(screen: AnyListScreen, search: Record<string, unknown>): FilterValues {
  const defaults = defaultFilterValues(screen.filters ?? []);
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

export function ListView({ screen, user }: { screen: AnyListScreen; user: SessionUser }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const applied = useMemo(() => appliedFilters(screen, search), [screen, search]);
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
      const res = await callApi(source.call, source.request(applied), { onPartial });
      if (!res.ok) throw new Error(String(res.statusCode)); // list loads that fail change nothing visible
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

  // a new search (not a reload of the rows shown) whose first page has arrived
  const streaming = early && early.key === queryKey && query.isFetching && (query.isPending || query.isPlaceholderData) ? early : undefined;
  const reply = streaming?.reply ?? query.data;
  const data = reply?.data;
  const fullRows = useMemo(() => (query.data?.data ? (source.rows(query.data.data) as object[]) : []), [query.data, source]);
  const rows = streaming?.rows ?? fullRows;
  const requests = data && source.changeRequests ? source.changeRequests(data) : [];
  const filtersChanged = !sameFilters(draft, applied);
  const exportsEnabled = !!data && !filtersChanged && !query.isFetching;
  const locked = screen.lockedWhen ?? (() => false);
  const actions = withActions ? screen.rowActions : undefined;
  // the Action column shows when the user holds the permission of an action (or rows may show a lock)
  const anyPermitted = !!actions?.some((a) => hasPermission(user.permissions, a.permission)) || !!screen.lockedWhen;
  const renderActions = useMemo(
    () => (actions && actions.length && anyPermitted ? (row: object) => <RowActions actions={actions} row={row} user={user} locked={locked(row)} reload={reload} /> : undefined),
    [actions, anyPermitted, user, locked, reload],
  );

  function go(next: FilterValues, nextTab = tabId) {
    setDraft(next);
    if (sameFilters(next, applied) && nextTab === tabId) reload();
    else void navigate({ to: screen.route, search: { ...next, ...(nextTab ? { tab: nextTab } : {}) } as never, replace: false });
    if (screen.countCards) void queryClient.invalidateQueries({ queryKey: ['counts', screen.id] });
  }

  function runSearch() {
    const next = { ...draft };
    for (const [k, v] of Object.entries(next)) if (typeof v === 'string') next[k] = v.trim();
    go(next);
  }

  function clearAll() {
    go(defaultFilterValues(screen.filters ?? [], new Date(), true));
  }

  /** Builds the file in the export worker (progress bar and Cancel meanwhile), downloads it, logs it. */
  async function runExport(kind: 'xlsx' | 'pdf', run: RunExport) {
    if (!exportsDef) return;
    const fields = exportFieldsFor(screen, data);
    const ctx = {
      title: exportsDef.title,
      fileBase: exportsDef.fileBase,
      username: user.username,
      now: new Date(),
      duration: durationOf(screen, applied),
    };
    try {
      const outcome = await run(kind, { fields, itemFields: itemFieldsOf(screen.columns, fields), ctx, rows });
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
          <ListToolbar actions={screen.toolbarActions} ctx={{ filters: applied, reply: query.isFetching ? undefined : reply, rows, now: new Date() }} user={user} onDone={reload} />
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
          exportsEnabled={exportsEnabled}
          onExport={(k, run) => void runExport(k, run)}
          exportRowCount={rows.length}
          showExports={!!exportsDef}
          data={data}
          onClear={screen.clearButton ? clearAll : undefined}
          clearEnabled={exportsEnabled}
        />
      ) : (
        exportsDef && (
          <div className="flex justify-end gap-2">
            <ExportButtons enabled={exportsEnabled} rowCount={rows.length} onExport={(k, run) => void runExport(k, run)} />
          </div>
        )
      )}
      {screen.notices && <ListNoticesView notices={screen.notices} reply={reply} />}
      {screen.changeRequests && hasAnyPermission(user.permissions, [screen.changeRequests.permission, ...(screen.changeRequests.alsoPermissions ?? [])]) && (
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
      {query.isPending && !streaming ? (
        <Loader />
      ) : (
        <DataTable
          // the first page alone under the default sort, then the whole list in a table of its own,
          // which starts with the sort the user last chose
          key={streaming ? 'first-page' : 'rows'}
          loadingMore={!!streaming}
          initialSort={streaming ? undefined : userSort}
          onSortChange={setUserSort}
          columns={screen.columns}
          rows={rows}
          pageSize={screen.pageSize ?? 50}
          defaultSort={screen.defaultSort ?? { key: 'id', desc: false }}
          actions={renderActions}
          emptyMessage={screen.emptyMessage}
          caption={screen.title}
        />
      )}
      {footer && reply && <TotalsFooterView def={footer} reply={reply} />}
    </div>
  );
}
