/**
 * The dashboards' pure parts: period bodies and days, the period filter's rules, the chart
 * components' accessible output (rendered to markup), and the helpers of the widgets.
 */
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { addDays, dashboardCalls, periodBody, periodDaysOf, periodWithAllBody, pointLabel, transactionValues } from '../../src/api/dashboard';
import { capAtToday, defaultPeriod, periodBodyOf } from '../../src/console/ui/PeriodFilter';
import { BarChart, LineChart, PieChart, formatCount, formatMoney, percentOf, shorten } from '../../src/console/charts';
import { drawnSlices } from '../../src/console/charts/PieChart';
import { thinnedTicks } from '../../src/console/charts/axes';
import { byCountryPrefix } from '../../src/custom/dashboard/AuditTables';
import { shortCountryName } from '../../src/custom/dashboard/parts';
import { lastDays, lastMonths } from '../../src/server/areas/dashboard/queries';

const now = new Date(2026, 10, 22, 10, 30); // Sunday 22 Nov 2026, local time

describe('periods', () => {
  it('a range of N days is today and the N-1 days before it; custom is taken as sent; All has no bounds', () => {
    expect(periodDaysOf({ range: 7 }, '2026-11-22')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(periodDaysOf({ range: 14 }, '2026-03-01')).toEqual({ from: '2026-02-16', to: '2026-03-01' });
    expect(periodDaysOf({ range: 365 }, '2026-11-22')).toEqual({ from: '2025-11-23', to: '2026-11-22' });
    expect(periodDaysOf({ range: 0, fromDate: '2026-01-05', toDate: '2026-01-09' }, '2026-11-22')).toEqual({ from: '2026-01-05', to: '2026-01-09' });
    expect(periodDaysOf({ range: 1 }, '2026-11-22')).toBeNull();
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('validates the documented bodies', () => {
    expect(periodBody.safeParse({ range: 30 }).success).toBe(true);
    expect(periodBody.safeParse({ range: 30, fromDate: '', toDate: '' }).success).toBe(true);
    expect(periodBody.safeParse({ range: 0, fromDate: '2026-01-01', toDate: '2026-01-31' }).success).toBe(true);
    expect(periodBody.safeParse({ range: 1 }).success).toBe(false);
    expect(periodWithAllBody.safeParse({ range: 1 }).success).toBe(true);
    expect(periodBody.safeParse({ range: 0, fromDate: '2026-01-31', toDate: '2026-01-01' }).success).toBe(false);
    expect(periodBody.safeParse({ range: 0, fromDate: '2026-02-29', toDate: '2026-03-01' }).success).toBe(false);
    expect(periodBody.safeParse({ range: 7, extra: 1 }).success).toBe(false);
    expect(transactionValues.request).toBe(periodBody);
  });

  it('has one call per dashboard widget of the specification, plus the remittance chart', () => {
    expect(dashboardCalls.map((c) => c.path)).toHaveLength(19);
    expect(dashboardCalls.map((c) => c.path)).toContain('dashboard/remittanceByYear');
  });

  it('the period filter: custom starts as the last 7 days, is sent only when complete, dates capped at today', () => {
    expect(defaultPeriod(0, now)).toEqual({ range: 0, fromDate: '2026-11-16', toDate: '2026-11-22' });
    expect(periodBodyOf({ range: 30, fromDate: 'x', toDate: 'y' }, now)).toEqual({ range: 30 });
    expect(periodBodyOf({ range: 0, fromDate: '2026-11-01', toDate: '2026-11-10' }, now)).toEqual({ range: 0, fromDate: '2026-11-01', toDate: '2026-11-10' });
    expect(periodBodyOf({ range: 0, fromDate: '', toDate: '2026-11-10' }, now)).toBeNull();
    expect(periodBodyOf({ range: 0, fromDate: '2026-11-10', toDate: '2026-11-01' }, now)).toBeNull();
    expect(periodBodyOf({ range: 0, fromDate: '2026-11-10', toDate: '2026-11-23' }, now)).toBeNull();
    expect(capAtToday('2027-01-01', now)).toBe('2026-11-22');
    expect(capAtToday('2026-11-01', now)).toBe('2026-11-01');
  });

  it('chart buckets: the last 12 months and the last 7 days, oldest first', () => {
    expect(lastMonths('2026-02-10').map((m) => m.name)).toEqual([
      'Mar 2025',
      'Apr 2025',
      'May 2025',
      'Jun 2025',
      'Jul 2025',
      'Aug 2025',
      'Sep 2025',
      'Oct 2025',
      'Nov 2025',
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
    ]);
    expect(lastDays('2026-11-22')).toEqual([
      { day: '2026-11-16', dayOfWeek: 'Mon' },
      { day: '2026-11-17', dayOfWeek: 'Tue' },
      { day: '2026-11-18', dayOfWeek: 'Wed' },
      { day: '2026-11-19', dayOfWeek: 'Thu' },
      { day: '2026-11-20', dayOfWeek: 'Fri' },
      { day: '2026-11-21', dayOfWeek: 'Sat' },
      { day: '2026-11-22', dayOfWeek: 'Sun' },
    ]);
    expect(pointLabel({ amount: 1, year: '2026', month: 'Nov' })).toBe('Nov 2026');
    expect(pointLabel({ amount: 1, dayOfWeek: 'Mon', date: '2026-11-16' })).toBe('Mon');
    expect(pointLabel({ amount: 1, year: '2025' })).toBe('2025');
  });
});

describe('widget helpers', () => {
  it('shows only the part of a country name before the first comma', () => {
    expect(shortCountryName('Korea, Republic of')).toBe('Korea');
    expect(shortCountryName('Sri Lanka')).toBe('Sri Lanka');
  });

  it('searches countries by prefix, case-insensitively', () => {
    const rows = [{ country: 'Saudi Arabia' }, { country: 'Sri Lanka' }, { country: 'United Arab Emirates' }];
    expect(byCountryPrefix(rows, 'sa')).toEqual([{ country: 'Saudi Arabia' }]);
    expect(byCountryPrefix(rows, ' S ')).toHaveLength(2);
    expect(byCountryPrefix(rows, 'arab')).toEqual([]);
    expect(byCountryPrefix(rows, '')).toHaveLength(3);
  });

  it('formats amounts with 2 decimals and thousands separators, counts with separators', () => {
    expect(formatMoney(1234567.5)).toBe('1,234,567.50');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(percentOf(1, 3)).toBe('33.3%');
    expect(percentOf(1, 0)).toBe('0%');
    expect(shorten('United Kingdom of Great Britain', 16)).toBe('United Kingdom …');
  });

  it('merges the smallest slices beyond the colours into Other', () => {
    const slices = Array.from({ length: 10 }, (_, i) => ({ label: `C${i}`, value: i + 1 }));
    const drawn = drawnSlices(slices, 8);
    expect(drawn).toHaveLength(8);
    expect(drawn[0]).toEqual({ label: 'C9', value: 10 });
    expect(drawn[7]).toEqual({ label: 'Other (3)', value: 1 + 2 + 3, other: true });
    expect(
      drawnSlices(
        [
          { label: 'a', value: 0 },
          { label: 'b', value: 2 },
        ],
        8,
      ),
    ).toEqual([{ label: 'b', value: 2 }]);
  });

  it('thins category labels that would overlap', () => {
    const months = Array.from({ length: 12 }, (_, i) => `M${i} 2026`);
    expect(thinnedTicks(months, 1000, false)).toHaveLength(12);
    expect(thinnedTicks(months, 300, false).length).toBeLessThan(12);
  });
});

describe('charts render accessibly', () => {
  const html = (el: ReturnType<typeof createElement>) => renderToStaticMarkup(el);

  it('pie: a titled figure, an image with a name that says what it shows, a legend and a data table', () => {
    const out = html(
      createElement(PieChart, {
        title: 'Transactions by Category',
        valueLabel: 'Transactions',
        width: 480,
        slices: [
          { label: 'Remittances', value: 300 },
          { label: 'Bill Payments', value: 100 },
        ],
      }),
    );
    expect(out).toContain('<h2');
    expect(out).toContain('Transactions by Category</h2>');
    expect(out).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Transactions by Category\. Pie chart of 2 parts, total 400; largest Remittances: 300 \(75\.0%\)/);
    expect(out).toMatch(/<svg[^>]*tabindex="0"/);
    expect(out).toContain('aria-label="Legend"');
    expect(out).toContain('<caption>Transactions by Category</caption>');
    expect(out).toContain('<th scope="row">Bill Payments</th><td>100</td><td>25.0%</td>');
    expect((out.match(/data-testid="pie-slice"/g) ?? []).length).toBe(2);
    expect(out).toContain('fill="rgb(var(--chart-1))"');
  });

  it('bar: axes, one bar per value, stacked totals in the table', () => {
    const out = html(
      createElement(BarChart, {
        title: 'Transactions per Month',
        width: 600,
        layout: 'stacked',
        categoryLabel: 'Month',
        categories: ['Oct 2026', 'Nov 2026'],
        series: [
          { name: 'Remittances', data: [5, 7] },
          { name: 'Thyaga', data: [1, 2] },
        ],
      }),
    );
    expect(out).toMatch(/role="img" aria-label="Transactions per Month\. Bar chart of 2 month values in 2 series \(Remittances, Thyaga\); highest Nov 2026: Remittances 7, Thyaga 2; total 9\./);
    expect((out.match(/data-testid="bar-group"/g) ?? []).length).toBe(2);
    expect(out).toContain('visx-axis-bottom');
    expect(out).toContain('<th scope="col">Total</th>');
    expect(out).toContain('<th scope="row">Oct 2026</th><td>5</td><td>1</td><td>6</td>');
  });

  it('line: one path per series, amounts in the table with 2 decimals', () => {
    const out = html(
      createElement(LineChart, {
        title: 'Remittance total value (USD)',
        width: 600,
        valueFormat: formatMoney,
        categories: ['2025', '2026'],
        series: [{ name: 'Total Value (USD)', data: [1500.5, 2500] }],
      }),
    );
    expect(out).toMatch(/role="img" aria-label="Remittance total value \(USD\)\. Line chart over 2 period values; first 2025: 1,500\.50; last 2026: 2,500\.00\./);
    expect((out.match(/data-testid="line-series"/g) ?? []).length).toBe(1);
    expect(out).toContain('<td>1,500.50</td>');
  });

  it('says so when there is nothing to draw, when loading, and when the call failed', () => {
    const empty = html(createElement(BarChart, { title: 'Empty', categories: ['a'], series: [{ name: 's', data: [0] }], emptyMessage: 'Nothing here.' }));
    expect(empty).toContain('Nothing here.');
    expect(empty).not.toContain('<svg');
    expect(html(createElement(PieChart, { title: 'P', slices: [], status: 'loading' }))).toContain('Loading…');
    expect(html(createElement(LineChart, { title: 'L', categories: [], series: [], status: 'failed' }))).toContain('This chart could not be loaded.');
  });
});
