/**
 * The app dashboard (/dashboard, spec 000 §2): the counts strip, the All Transactions table with its
 * period filter, and five charts. Each widget makes its own call and fails on its own.
 */
import { useState } from 'react';
import {
  appUsersByCountry,
  currencyWiseTransactionValues,
  overallTransactionCounts,
  totalAppUsersByMonth,
  totalCountsAndValues,
  totalTransactionsByMonth,
  totalTransactionValues,
  TRANSACTION_TABLE_LIMIT,
  type TransactionTableRow,
} from '../api/dashboard';
import { BarChart, formatCount, formatMoney, LineChart, PieChart } from '../console/charts';
import { DataTable } from '../console/views/DataTable';
import { PageHeader } from '../console/views/PageHeader';
import { defaultPeriod, PeriodFilter, periodBodyOf } from '../console/ui/PeriodFilter';
import type { Column } from '../definitions/definitions';
import { formatAmount } from '../console/format';
import { Figures, Panel, shown, StatCard, WidgetFailures } from './dashboard/parts';
import { useDashboardCall } from './dashboard/useDashboardCall';

export const DASHBOARD_PAGE_SIZE = 5;
const STRIP_SERVICES = 'Remittances, bill payments, EChannelling and Thyaga';

const transactionColumns: readonly Column<TransactionTableRow>[] = [
  { key: 'id', header: 'ID', kind: 'integer' },
  { key: 'type', header: 'Type' },
  { key: 'amount', header: 'Amount (LKR)', kind: 'amount' },
  { key: 'initiated_time', header: 'Initiated Time', kind: 'datetime' },
];

/** A panel that takes a whole row from 1280 to 1535 px (a half row there is narrower than the transactions table). */
const FULL_ROW_BELOW_2XL = 'grid min-w-0 xl:col-span-2 2xl:col-span-1';

export default function Dashboard() {
  return (
    <div className="flex flex-col gap-4">
      <PageHeader screen={{ title: 'Dashboard', breadcrumb: [{ label: 'Dashboard' }] }} />
      <WidgetFailures />
      <CountsStrip />
      {/* two panels a row; between 1280 and 1535 px a half row is narrower than the transactions table
          (its Initiated Time was cut off), so there the table and the last chart take a row each */}
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <div className={FULL_ROW_BELOW_2XL}>
          <AllTransactions />
        </div>
        <CategoryPie />
        <UsersByCountryPie />
        <CurrencyBars />
        <MonthlyTransactionBars />
        <div className={FULL_ROW_BELOW_2XL}>
          <RegistrationsLine />
        </div>
      </div>
    </div>
  );
}

function CountsStrip() {
  const { data, status } = useDashboardCall(totalCountsAndValues, {});
  const count = (v: number | undefined) => shown(status, v === undefined ? undefined : formatCount(v));
  return (
    <section aria-label="Totals" className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {/* spec 000 §3: the strip's remittance figures are ceftTransactions and totalCeftValueLKR, the same
            remittances as the Remittances card; the four services together are extra and labelled so */}
        <StatCard
          accent
          label="Total no of Remittance Transactions"
          value={count(data?.ceftTransactions)}
          status={status}
          tip="Send-money (remittance) transactions, every status."
          sub={
            <span className="text-xs text-ink-soft" data-testid="four-services-count">
              {STRIP_SERVICES} together: {data ? formatCount(data.totalTransactions) : '–'}
            </span>
          }
        />
        <StatCard
          accent
          label="Total Value of Transactions (LKR)"
          value={shown(status, data && formatAmount(data.totalCeftValueLKR))}
          status={status}
          tip={
            <Figures
              rows={[
                ['Remittances', data ? formatAmount(data.totalCeftValueLKR) : '–'],
                [`${STRIP_SERVICES} together`, data ? formatAmount(data.totalValueLKR) : '–'],
              ]}
            />
          }
          sub={
            <span className="text-xs text-ink-soft" data-testid="four-services-value">
              Successful remittances only. {STRIP_SERVICES} together: {data ? formatAmount(data.totalValueLKR) : '–'}
            </span>
          }
        />
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
        <StatCard label="Remittances" value={count(data?.ceftTransactions)} status={status} />
        <StatCard label="Bill Payments" value={count(data?.billTransactions)} status={status} />
        <StatCard label="EChannelling" value={count(data?.ecTransactions)} status={status} />
        <StatCard label="Thyaga" value={count(data?.thyagaTransactions)} status={status} />
        <StatCard label="Users" value={count(data?.appUsers)} status={status} />
      </div>
    </section>
  );
}

function AllTransactions() {
  const [period, setPeriod] = useState(() => defaultPeriod(7));
  const body = periodBodyOf(period);
  const { data, status, busy } = useDashboardCall(totalTransactionValues, body);
  const rows = data?.transactions ?? [];
  const note =
    status === 'failed'
      ? 'The transactions could not be loaded.'
      : data
        ? data.count > rows.length
          ? `The latest ${formatCount(rows.length)} of ${formatCount(data.count)} transactions from ${data.from} to ${data.to}.`
          : `${formatCount(data.count)} ${data.count === 1 ? 'transaction' : 'transactions'} from ${data.from} to ${data.to}.`
        : 'Loading…';
  return (
    <Panel title="All Transactions" busy={busy} controls={<PeriodFilter value={period} onChange={setPeriod} />}>
      <p className="text-xs text-ink-soft" aria-live="polite" data-testid="transactions-note">
        {note}
      </p>
      <DataTable
        columns={transactionColumns}
        rows={rows}
        pageSize={DASHBOARD_PAGE_SIZE}
        defaultSort={{ key: 'initiated_time', desc: true }}
        caption={`All Transactions (at most ${TRANSACTION_TABLE_LIMIT})`}
        emptyMessage={status === 'loading' ? 'Loading…' : status === 'failed' ? 'The transactions could not be loaded.' : 'No transactions in this period.'}
      />
    </Panel>
  );
}

function CategoryPie() {
  const { data, status } = useDashboardCall(overallTransactionCounts, {});
  return (
    <PieChart
      title="Transactions by Category"
      status={status}
      valueLabel="Transactions"
      slices={(data?.categories ?? []).map((label, i) => ({ label, value: data?.counts[i] ?? 0 }))}
      emptyMessage="No transactions yet."
    />
  );
}

function UsersByCountryPie() {
  const { data, status } = useDashboardCall(appUsersByCountry, {});
  return (
    <PieChart
      title="App Users by Country"
      status={status}
      valueLabel="App users"
      slices={(data?.countries ?? []).map((label, i) => ({ label, value: data?.counts[i] ?? 0 }))}
      emptyMessage="No app users yet."
    />
  );
}

function CurrencyBars() {
  const { data, status } = useDashboardCall(currencyWiseTransactionValues, {});
  return (
    <BarChart
      title="Transaction Value by Currency (USD)"
      status={status}
      categories={data?.currencies ?? []}
      series={[{ name: 'Amount (USD)', data: data?.amounts ?? [] }]}
      valueFormat={formatMoney}
      categoryLabel="Currency"
      emptyMessage="No successful transactions yet."
    />
  );
}

function MonthlyTransactionBars() {
  const { data, status } = useDashboardCall(totalTransactionsByMonth, {});
  return (
    <BarChart
      title="Transactions per Month"
      status={status}
      categories={data?.monthNames ?? []}
      series={data?.transactions ?? []}
      layout="stacked"
      categoryLabel="Month"
      emptyMessage="No transactions in the last 12 months."
    />
  );
}

function RegistrationsLine() {
  const { data, status } = useDashboardCall(totalAppUsersByMonth, {});
  return (
    <LineChart
      title="App User Registrations per Month"
      status={status}
      categories={data?.monthNames ?? []}
      series={[{ name: 'Registrations', data: data?.users ?? [] }]}
      categoryLabel="Month"
      emptyMessage="No registrations in the last 12 months."
    />
  );
}
