/** The audit dashboard's tables: App Users by country (period with All, prefix search) and Top Billers. */
import { useMemo, useState } from 'react';
import { topBillers, topUsers } from '../../api/dashboard';
import { DataTable } from '../../console/views/DataTable';
import type { Column } from '../../definitions/definitions';
import { defaultPeriod, PeriodFilter, periodBodyOf } from '../../console/ui/PeriodFilter';
import { inputClass } from '../../console/ui/primitives';
import { limits } from '../../domain/validation';
import { Panel } from './parts';
import { useDashboardCall } from './useDashboardCall';

const PAGE_SIZE = 5;

type CountryRow = { country: string; count: number };
type BillerRow = { billerName: string; totalAmount: number };

const countryColumns: readonly Column<CountryRow>[] = [
  { key: 'country', header: 'Country' },
  { key: 'count', header: 'App Users', kind: 'integer' },
];
const billerColumns: readonly Column<BillerRow>[] = [
  { key: 'billerName', header: 'Biller Name' },
  { key: 'totalAmount', header: 'Total Amount (USD)', kind: 'amount' },
];

/** Rows whose country starts with the search text (case-insensitive). */
export function byCountryPrefix<R extends { country: string }>(rows: readonly R[], text: string): R[] {
  const t = text.trim().toLowerCase();
  return t ? rows.filter((r) => r.country.toLowerCase().startsWith(t)) : [...rows];
}

export function AppUsersByCountryTable() {
  const [period, setPeriod] = useState(() => defaultPeriod(1));
  const [search, setSearch] = useState('');
  const { data, status, busy } = useDashboardCall(topUsers, periodBodyOf(period));
  const rows = useMemo(() => byCountryPrefix(data ?? [], search), [data, search]);
  return (
    <Panel
      title="App Users by Country"
      busy={busy}
      controls={
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor="country-search" className="text-xs font-medium text-ink-soft">
              Search Country
            </label>
            <input
              id="country-search"
              type="search"
              className={`${inputClass} w-44`}
              maxLength={limits.searchText}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onBlur={(e) => setSearch(e.target.value.trim())}
            />
          </div>
          <PeriodFilter label="App users period" withAll value={period} onChange={setPeriod} />
        </>
      }
    >
      <DataTable
        columns={countryColumns}
        rows={rows}
        pageSize={PAGE_SIZE}
        defaultSort={{ key: 'count', desc: true }}
        caption="App Users by Country"
        emptyMessage={status === 'loading' ? 'Loading…' : status === 'failed' ? 'The app users could not be loaded.' : 'No app users found.'}
      />
    </Panel>
  );
}

export function TopBillersTable() {
  const [period, setPeriod] = useState(() => defaultPeriod(365));
  const { data, status, busy } = useDashboardCall(topBillers, periodBodyOf(period));
  return (
    <Panel title="Top Billers" busy={busy} controls={<PeriodFilter label="Top billers period" value={period} onChange={setPeriod} />}>
      <DataTable
        columns={billerColumns}
        rows={data ?? []}
        pageSize={PAGE_SIZE}
        defaultSort={{ key: 'totalAmount', desc: true }}
        caption="Top Billers"
        emptyMessage={status === 'loading' ? 'Loading…' : status === 'failed' ? 'The billers could not be loaded.' : 'No bill payments in this period.'}
      />
    </Panel>
  );
}
