/**
 * The transactions cards block of the audit dashboard: for remittances, bill payments, Thyaga and
 * EChannelling in the chosen period, the number of transactions, the total value (USD) with a View
 * Chart modal, and the failed and refunded counts (remittances also hold).
 */
import { useState } from 'react';
import {
  billerTransactionTableData,
  ceftTransactionTableData,
  echTransactionTableData,
  pointLabel,
  thyagaTransactionTableData,
  transactionValues,
  type ChartRange,
  type ValueBlock,
} from '../../api/dashboard';
import type { CallContract } from '../../api/contract';
import { formatCount, formatMoney, LineChart } from '../../console/charts';
import { defaultPeriod, PeriodFilter, periodBodyOf } from '../../console/ui/PeriodFilter';
import { Button, Modal } from '../../console/ui/primitives';
import { ChartRangeSelect, Panel, shown } from './parts';
import { useDashboardCall } from './useDashboardCall';

type ServiceKey = 'ceft' | 'biller' | 'thyaga' | 'echanneling';

const services: readonly { key: ServiceKey; title: string; chart: CallContract }[] = [
  { key: 'ceft', title: 'Remittance', chart: ceftTransactionTableData },
  { key: 'biller', title: 'Bill Payments', chart: billerTransactionTableData },
  { key: 'thyaga', title: 'Thyaga', chart: thyagaTransactionTableData },
  { key: 'echanneling', title: 'EChannelling', chart: echTransactionTableData },
];

export function TransactionCards() {
  const [period, setPeriod] = useState(() => defaultPeriod(7));
  const body = periodBodyOf(period);
  const { data, status, busy } = useDashboardCall(transactionValues, body);
  const [chartOf, setChartOf] = useState<(typeof services)[number] | null>(null);
  return (
    <Panel title="Transactions" busy={busy} controls={<PeriodFilter label="Transactions period" value={period} onChange={setPeriod} />}>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-4">
        {services.map((s) => {
          const block = data?.[s.key] as (ValueBlock & { hold?: number }) | undefined;
          const n = (v: number | undefined) => shown(status, v === undefined ? undefined : formatCount(v));
          return (
            <article key={s.key} aria-label={s.title} className="flex flex-col gap-2 rounded-md border border-line bg-canvas/60 p-3" data-testid={`service-${s.key}`}>
              <h3 className="text-sm font-semibold text-ink">{s.title}</h3>
              <dl className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 gap-y-1 text-sm">
                <dt className="text-ink-soft">Number of Transactions</dt>
                <dd className="text-right text-base font-semibold tabular-nums">{n(block?.count)}</dd>
                <dt className="text-ink-soft">Total Value (USD)</dt>
                <dd className="text-right text-base font-semibold tabular-nums">{shown(status, block && formatMoney(block.totalValue))}</dd>
                <dt className="text-ink-soft">Failed</dt>
                <dd className="text-right tabular-nums text-[rgb(var(--chart-5))]">{n(block?.failed)}</dd>
                <dt className="text-ink-soft">Refunded</dt>
                <dd className="text-right tabular-nums">{n(block?.refunded)}</dd>
                {s.key === 'ceft' && (
                  <>
                    <dt className="text-ink-soft">Hold</dt>
                    <dd className="text-right tabular-nums">{n(block?.hold)}</dd>
                  </>
                )}
              </dl>
              <Button className="mt-auto self-start" onClick={() => setChartOf(s)} aria-label={`View Chart: ${s.title} total value`}>
                View Chart
              </Button>
            </article>
          );
        })}
      </div>
      {status === 'failed' && <p className="text-xs text-ink-soft">The transaction figures could not be loaded.</p>}
      {chartOf && <ValueChartModal service={chartOf} onClose={() => setChartOf(null)} />}
    </Panel>
  );
}

function ValueChartModal({ service, onClose }: { service: (typeof services)[number]; onClose: () => void }) {
  const [range, setRange] = useState<ChartRange>('MONTHLY');
  const { data, status } = useDashboardCall(service.chart as typeof ceftTransactionTableData, { range });
  const points = data ?? [];
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`${service.title}: Total Value (USD)`} wide>
      <LineChart
        title={`${service.title} total value (USD), ${range.toLowerCase()}`}
        status={status}
        controls={<ChartRangeSelect label="Chart range" value={range} onChange={setRange} />}
        categories={points.map(pointLabel)}
        series={[{ name: 'Total Value (USD)', data: points.map((p) => p.amount) }]}
        valueFormat={formatMoney}
        categoryLabel={range === 'YEARLY' ? 'Year' : range === 'MONTHLY' ? 'Month' : 'Day'}
        emptyMessage="No successful transactions in this range."
      />
    </Modal>
  );
}
