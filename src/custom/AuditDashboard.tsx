/**
 * The audit dashboard (/AuditDashboard, spec 000 §2): active users and beneficiaries, app-user and
 * beneficiary counts, the transactions cards with their period filter and View Chart modals, app
 * users by country, top billers, and three charts. Each widget makes its own call and fails on its own.
 */
import { useState } from 'react';
import {
  activeUsers,
  ACTIVE_DAYS,
  allTransactionCount,
  appUsersAndBeneficiariesCount,
  countryWiseAppUserCount,
  remittanceByYear,
  remittanceMeasures,
  type ChartRange,
  type PeriodCounts,
  type RemittanceMeasure,
} from '../api/dashboard';
import { BarChart, formatCount, formatMoney, LineChart } from '../console/charts';
import { PageHeader } from '../console/views/PageHeader';
import { defaultPeriod, inlineInputClass, PeriodFilter, periodBodyOf } from '../console/ui/PeriodFilter';
import { ChartRangeSelect, Figures, shortCountryName, shown, StatCard, WidgetFailures } from './dashboard/parts';
import { useDashboardCall } from './dashboard/useDashboardCall';
import { TransactionCards } from './dashboard/TransactionCards';
import { AppUsersByCountryTable, TopBillersTable } from './dashboard/AuditTables';

export default function AuditDashboard() {
  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={{ title: 'Audit Dashboard', breadcrumb: [{ label: 'Dashboard' }] }} />
      <WidgetFailures />
      <UserFigures />
      <TransactionCards />
      {/* side by side from 1536 px: on a 1280 px laptop a half row cut off Top Billers' Total Amount */}
      <div className="grid grid-cols-1 gap-4 2xl:grid-cols-2">
        <AppUsersByCountryTable />
        <TopBillersTable />
      </div>
      <OverallTransactionCountChart />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <CountryWiseUsersChart />
        <RemittanceChart />
      </div>
    </div>
  );
}

function periodTip(v: PeriodCounts | undefined) {
  if (!v) return undefined;
  return (
    <Figures
      rows={[
        ['Today', formatCount(v.today)],
        ['This Week', formatCount(v.week)],
        ['This Month', formatCount(v.month)],
        ['This Year', formatCount(v.year)],
      ]}
    />
  );
}

function UserFigures() {
  const active = useDashboardCall(activeUsers, {});
  const counts = useDashboardCall(appUsersAndBeneficiariesCount, {});
  const count = (status: typeof active.status, v: number | undefined) => shown(status, v === undefined ? undefined : formatCount(v));
  return (
    <section aria-label="Users and beneficiaries" className="grid grid-cols-2 gap-3 xl:grid-cols-4">
      <StatCard
        accent
        label="Total Active User Count"
        value={count(active.status, active.data?.activeUserCount)}
        status={active.status}
        tip={`Users who transacted in the last ${ACTIVE_DAYS} days.`}
      />
      <StatCard
        accent
        label="Total Active Beneficiaries"
        value={count(active.status, active.data?.activeBeneficiariesCount)}
        status={active.status}
        tip={`Beneficiaries who received money in the last ${ACTIVE_DAYS} days.`}
      />
      <StatCard label="Total App User Count" value={count(counts.status, counts.data?.appUsersValues.total)} status={counts.status} tip={periodTip(counts.data?.appUsersValues)} />
      <StatCard label="Total Beneficiary Count" value={count(counts.status, counts.data?.beneficiariesValues.total)} status={counts.status} tip={periodTip(counts.data?.beneficiariesValues)} />
    </section>
  );
}

function OverallTransactionCountChart() {
  const [range, setRange] = useState<ChartRange>('WEEKLY');
  const { data, status } = useDashboardCall(allTransactionCount, { range });
  return (
    <LineChart
      title="Overall Transaction Count"
      status={status}
      controls={<ChartRangeSelect label="Overall transaction count range" value={range} onChange={setRange} />}
      categories={data?.labels ?? []}
      series={data?.transactions ?? []}
      categoryLabel={range === 'YEARLY' ? 'Year' : range === 'MONTHLY' ? 'Month' : 'Day'}
      emptyMessage="No transactions in this range."
    />
  );
}

function CountryWiseUsersChart() {
  const [period, setPeriod] = useState(() => defaultPeriod(365));
  const body = periodBodyOf(period);
  const wire = body && (body.range === 0 ? { ...body, fromDate: `${body.fromDate}T00:00:00`, toDate: `${body.toDate}T23:59:59` } : body);
  const { data, status } = useDashboardCall(countryWiseAppUserCount, wire);
  return (
    <BarChart
      title="Country-wise User Count"
      status={status}
      controls={<PeriodFilter label="Country-wise user count period" compact value={period} onChange={setPeriod} />}
      categories={(data?.countries ?? []).map(shortCountryName)}
      series={[{ name: 'App users', data: data?.counts ?? [] }]}
      orientation="horizontal"
      categoryLabel="Country"
      emptyMessage="No app users registered in this period."
    />
  );
}

function RemittanceChart() {
  const [year, setYear] = useState<number | undefined>(undefined);
  const [measure, setMeasure] = useState<RemittanceMeasure>('count');
  const { data, status } = useDashboardCall(remittanceByYear, year === undefined ? { measure } : { year, measure });
  const years = data?.years ?? [];
  const shownYear = year ?? data?.year;
  return (
    <BarChart
      title="Remittance Transactions"
      status={status}
      controls={
        <>
          <select aria-label="Remittance year" className={`${inlineInputClass} py-1 text-xs`} value={shownYear ?? ''} onChange={(e) => setYear(Number(e.target.value))} disabled={years.length === 0}>
            {years.length === 0 && <option value="">No years</option>}
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
          <select aria-label="Remittance measure" className={`${inlineInputClass} py-1 text-xs`} value={measure} onChange={(e) => setMeasure(e.target.value as RemittanceMeasure)}>
            {remittanceMeasures.map((m) => (
              <option key={m} value={m}>
                {m === 'count' ? 'Count' : 'Value (USD)'}
              </option>
            ))}
          </select>
        </>
      }
      categories={data?.months ?? []}
      series={[{ name: measure === 'count' ? 'Remittances' : 'Value (USD)', data: data?.values ?? [] }]}
      valueFormat={measure === 'count' ? formatCount : formatMoney}
      categoryLabel="Month"
      emptyMessage={years.length === 0 ? 'No remittances yet.' : `No remittances in ${shownYear}.`}
    />
  );
}
