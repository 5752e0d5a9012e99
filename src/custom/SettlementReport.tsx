/**
 * The Scheduled and Instant Settlement Reports (screens/settlement.ts): a list with toolbar actions
 * and notices. Hand-written only until the generic list view renders `toolbarActions` and `notices`
 * (src/console/toolbar.ts); it reuses the list runtime's parts: the URL-held filters, the filter bar,
 * the table, the exports (each logged with report/log-export) and the toolbar.
 */
import { useCallback, useMemo, useState } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FilterValues, WholeReply } from '../console/definitions';
import type { ToolbarListScreen } from '../console/toolbar';
import { exportFieldsOf } from '../console/exportFields';
import { callApi } from '../console/request';
import { useSession } from '../console/session';
import { toast } from '../console/ui/toast';
import { Loader } from '../console/ui/primitives';
import { appliedFilters, durationOf } from '../console/views/ListView';
import { DataTable } from '../console/views/DataTable';
import { FilterBar } from '../console/views/FilterBar';
import { PageHeader } from '../console/views/PageHeader';
import { ListNoticesView, ListToolbar } from '../console/views/ListToolbar';
import { logExport } from '../api/reports';
import { instantSettlementScreen, settlementScreen } from '../../screens/settlement';

function sameFilters(a: FilterValues, b: FilterValues): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (String(a[k] ?? '') !== String(b[k] ?? '')) return false;
  return true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function ToolbarList({ screen }: { screen: ToolbarListScreen<any> }) {
  const user = useSession();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const applied = useMemo(() => appliedFilters(screen, search), [screen, search]);
  const [draft, setDraft] = useState<FilterValues>(applied);
  const [exporting, setExporting] = useState<'xlsx' | 'pdf' | null>(null);

  const query = useQuery({
    queryKey: ['list', screen.id, '', applied],
    queryFn: async () => {
      const res = await callApi(screen.source.call, screen.source.request(applied));
      if (!res.ok) throw new Error(String(res.statusCode)); // list loads that fail change nothing visible
      const { ok: _ok, statusCode: _s, ...whole } = res;
      return whole as WholeReply;
    },
    placeholderData: (prev) => prev,
    retry: false,
  });
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['list', screen.id] }), [queryClient, screen.id]);
  const reply = query.data;
  const rows = useMemo(() => (reply ? (screen.source.rows(reply.data as never) as object[]) : []), [reply, screen]);
  const filtersChanged = !sameFilters(draft, applied);
  const exportsEnabled = !!reply && !filtersChanged && !query.isFetching;
  if (!user) return null;

  function runSearch() {
    const next = { ...draft };
    for (const [k, v] of Object.entries(next)) if (typeof v === 'string') next[k] = v.trim();
    setDraft(next);
    if (sameFilters(next, applied)) reload();
    else void navigate({ to: screen.route, search: next as never });
  }

  async function runExport(kind: 'xlsx' | 'pdf') {
    if (!screen.exports || !user) return;
    setExporting(kind);
    try {
      const { downloadExport, exportFileName } = await import('../console/exports');
      const ctx = { title: screen.exports.title, fileBase: screen.exports.fileBase, username: user.username, now: new Date(), duration: durationOf(screen, applied) };
      await downloadExport(kind, exportFieldsOf(screen), rows as Record<string, unknown>[], ctx);
      void callApi(logExport, { screen: screen.id, fileName: exportFileName(ctx, kind), rows: rows.length });
    } catch {
      toast('warning', 'Export failed!');
    } finally {
      setExporting(null);
    }
  }

  const toolbarCtx = { filters: applied, reply: query.isFetching ? undefined : reply, rows, now: new Date() };
  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={screen}>
        <ListToolbar actions={screen.toolbarActions ?? []} ctx={toolbarCtx} user={user} onDone={reload} />
      </PageHeader>
      <FilterBar
        filters={screen.filters ?? []}
        values={draft}
        onChange={setDraft}
        onSearch={runSearch}
        exportsEnabled={exportsEnabled}
        onExport={(k) => void runExport(k)}
        exporting={exporting}
        showExports={!!screen.exports}
        data={reply?.data}
      />
      {screen.notices && <ListNoticesView notices={screen.notices} reply={reply} />}
      {query.isPending ? (
        <Loader />
      ) : (
        <DataTable
          columns={screen.columns}
          rows={rows}
          pageSize={screen.pageSize ?? 50}
          defaultSort={screen.defaultSort ?? { key: 'id', desc: false }}
          emptyMessage={screen.emptyMessage}
          caption={screen.title}
        />
      )}
    </div>
  );
}

export function ScheduledSettlementReport() {
  return <ToolbarList key={settlementScreen.id} screen={settlementScreen} />;
}

export function InstantSettlementReport() {
  return <ToolbarList key={instantSettlementScreen.id} screen={instantSettlementScreen} />;
}
