/**
 * The list controller (react-admin's useListController is the model): everything a list
 * screen does apart from drawing it. The applied filters (from the URL over the defaults and the
 * remembered fetch count) and the draft in the filter bar, the tab, the rows (streamed first page,
 * the last good load kept after a failure), sort and page in the URL, the fetch-count cut, searching,
 * reloading, and export gathering (rows shown or all matching, in the tab or as a server job).
 * src/console/views/ListView.tsx is a thin view over `useListController`.
 *
 * Request building is pure and goes through a request helper passed in (`callApi` by default), so it is
 * tested against a fake one with exact request bodies (tests/unit/listController.test.ts).
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallContract, RequestOf } from '../api/contract';
import type { AnyListScreen, FilterValues, SessionUser, WholeReply } from '../definitions/definitions';
import { exportFieldsFor } from '../definitions/exportFields';
import { fetchCountOptions } from '../domain/validation';
import { wireFrom, wireTo } from '../domain/dates';
import { logExport } from '../api/reports';
import { callApi, failureMessage, type CallResult } from './request';
import { toast } from './ui/toast';
import { businessTimeZone } from './businessTime';
import { defaultFilterValues, filterKeys } from './views/FilterBar';
import { itemFieldsOf, type ExportKind, type RunExport } from './views/ExportProgress';
import { isServerExportable, useServerExport } from './views/ServerExport';

/** How the controller makes a call: `callApi`, or a fake in tests. */
export type RequestHelper = <C extends CallContract>(
  contract: C,
  body: RequestOf<C> | Record<string, never>,
  init?: { onPartial?: (partial: Record<string, unknown>) => void; compactRows?: boolean },
) => Promise<CallResult<C>>;

type AnySource = AnyListScreen['source'];

export function sameFilters(a: FilterValues, b: FilterValues): boolean {
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
        .map((item: Record<string, unknown>) => c.itemFields!.map((f) => `${f.label}: ${item?.[f.key] === null || item?.[f.key] === undefined ? '' : String(item[f.key])}`).join(', '))
        .join('\n');
    }
    return out;
  });
}

/**
 * The Duration line of exports: the applied date range as it was sent (From at second 01, To at second
 * 00: what the filter bar's fields show, and what the server's export jobs write), or the date, if the
 * screen filters by one.
 */
export function durationOf(screen: AnyListScreen, applied: FilterValues): string | undefined {
  for (const f of screen.filters ?? []) {
    if (f.kind === 'dateTimeRange') {
      const from = String(applied[f.from]);
      return `${wireFrom(from).replace('T', ' ')} to ${wireTo(String(applied[f.to]), from).replace('T', ' ')}`;
    }
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
export function fetchCountKey(screen: AnyListScreen): string | undefined {
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

/** The reply's top-level `matching` (rows matching the filters without the fetch count), when it has one. */
export function matchingOf(reply: WholeReply | undefined): number | undefined {
  const n = reply?.matching;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
/** The fetch count that means every matching row. */
export const ALL_ROWS = fetchCountOptions[fetchCountOptions.length - 1].value;

/** The tab shown (the URL's `tab` when the screen has it, else its first) and what it changes. */
export function listTabOf(screen: AnyListScreen, tabParam: unknown) {
  const tabs = screen.tabs ?? [];
  const tabId = typeof tabParam === 'string' && tabs.some((t) => t.id === tabParam) ? tabParam : tabs[0]?.id;
  const tab = tabs.find((t) => t.id === tabId);
  return { tabs, tabId, source: tab?.source ?? screen.source, footer: tab?.footer ?? screen.footer, exportsDef: tab?.exports ?? screen.exports, withActions: tab?.rowActions !== false };
}

/** The call a list makes for these filters, and its body (built by the source's `request`). */
export function listRequestOf(source: AnySource, filters: FilterValues): { call: CallContract; body: Record<string, unknown> } {
  return { call: source.call, body: source.request(filters) as Record<string, unknown> };
}

/** The filters of "every matching row": the applied ones with fetch count All (unchanged without a fetch count). */
export function allMatchingFilters(screen: AnyListScreen, applied: FilterValues): FilterValues {
  const key = fetchCountKey(screen);
  return key ? { ...applied, [key]: ALL_ROWS } : applied;
}

/** Loads a list through `request`: the whole reply (envelope fields and data), or a ListLoadError with the reason. */
export async function fetchList(request: RequestHelper, source: AnySource, filters: FilterValues, onPartial?: (partial: Record<string, unknown>) => void): Promise<WholeReply> {
  const { call, body } = listRequestOf(source, filters);
  // the rows as arrays with the field list once (src/api/listRows.ts): a third of the bytes for fetch count All
  const res = await request(call, body as never, { compactRows: true, ...(onPartial ? { onPartial } : {}) });
  if (!res.ok) throw new ListLoadError(res.statusCode, listFailureReason(res.statusCode, failureMessage(res)));
  const { ok: _ok, statusCode: _s, ...whole } = res;
  return whole as WholeReply;
}

/**
 * The headless list: state, derived values and the operations of a list screen. `request` defaults to
 * the console's request helper.
 */
export function useListController(screen: AnyListScreen, user: SessionUser, request: RequestHelper = callApi) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remembered = useMemo(() => rememberedFilters(screen, user), [screen, user]);
  const applied = useMemo(() => appliedFilters(screen, search, remembered), [screen, search, remembered]);
  const [draft, setDraft] = useState<FilterValues>(applied);

  const { tabs, tabId, source, footer, exportsDef, withActions } = listTabOf(screen, search.tab);

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
      // list loads that fail change nothing visible: the last rows stay, under a banner with Retry
      return fetchList(request, source, applied, onPartial);
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
  const urlSort = sortFromUrl(search.sort, screen.columns);
  const urlPage = pageFromUrl(search.page);
  // server export jobs (./ServerExport.tsx): lists larger than the tab should export go to the server
  const serverExport = useServerExport(source.call.path);
  const serverExportable = !!exportsDef && isServerExportable(source.call.path);
  // above the threshold every matching row is the server's to export: the browser's "Download all" is not offered
  const browserAllMatching = serverExportable && allMatching !== undefined && serverExport.runsOnServer(allMatching) ? undefined : allMatching;

  function go(next: FilterValues, nextTab = tabId) {
    setDraft(next);
    rememberFetchCount(screen, user, next);
    // a new search starts on its first page, under the sort the user chose
    if (sameFilters(next, applied) && nextTab === tabId) reload();
    else void navigate({ to: screen.route, search: { ...next, ...(nextTab ? { tab: nextTab } : {}), ...(typeof search.sort === 'string' ? { sort: search.sort } : {}) } as never, replace: false });
    if (screen.countCards) void queryClient.invalidateQueries({ queryKey: ['counts', screen.id] });
  }

  /** Search with the draft, or with `values` (the filter bar's draft with its date fields committed). */
  function runSearch(values: FilterValues = draft) {
    const next = { ...values };
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
    const whole = await fetchList(request, source, allMatchingFilters(screen, applied));
    return { data: whole.data, rows: source.rows(whole.data as never) as object[] };
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
      return serverExport.start(kind, listRequestOf(source, all ? allMatchingFilters(screen, applied) : applied).body);
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
      void request(logExport, { screen: screen.id, fileName: outcome.fileName, rows: outcome.rows });
    } catch {
      toast('warning', 'Export failed!');
    }
  }

  return {
    search,
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
    filtersChanged,
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
    showAll: () => go(allMatchingFilters(screen, applied)),
    runExport,
  };
}
