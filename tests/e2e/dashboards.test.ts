/**
 * The two dashboards in Chromium on the demo data: every chart renders with data, the period
 * dropdowns change the figures, tooltips open on hover and on keyboard focus, the View Chart modal
 * opens, and a screenshot of each dashboard in the light and the dark theme is kept in test-results/.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import { newPage, screenshot, signIn, useServerAndBrowser } from './harness';

const live = useServerAndBrowser();

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const numberIn = (text: string) => Number(text.replace(/[^\d.]/g, ''));

/** A chart by its title: its drawing (role img) is there and has a name. */
async function expectChart(page: Page, title: string): Promise<Locator> {
  const figure = page.getByRole('figure', { name: title, exact: true });
  const img = figure.getByRole('img');
  await img.waitFor({ timeout: 30_000 });
  expect(await img.getAttribute('aria-label')).toMatch(new RegExp(`^${title.replace(/[()]/g, '\\$&')}\\. (Pie|Bar|Line) chart`));
  return figure;
}

/** A full-page screenshot from the top, with no tooltip or focus ring left over from the checks. */
async function keep(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  // painted after the blur and the scroll (the tooltip gone); screenshot() ends any transition still running
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await screenshot(page, name);
}

async function useDarkTheme(page: Page) {
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
}

describe('the app dashboard, as admin', () => {
  it('shows the counts, the transactions table and five charts with data', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    const totals = page.getByRole('region', { name: 'Totals', exact: true });
    const users = totals.getByTestId('stat-card').filter({ hasText: 'Users' });
    await expect.poll(async () => numberIn(await users.innerText()), { timeout: 30_000 }).toBeGreaterThan(0);
    for (const label of ['Total no of Remittance Transactions', 'Total Value of Transactions (LKR)', 'Remittances', 'Bill Payments', 'EChannelling', 'Thyaga']) {
      expect(await totals.getByText(label, { exact: true }).filter({ visible: true }).count(), label).toBe(1);
    }
    expect(await totals.getByTestId('stat-card').filter({ hasText: 'Total Value of Transactions (LKR)' }).innerText()).toMatch(/\d{1,3}(,\d{3})+\.\d{2}/);

    const pie = await expectChart(page, 'Transactions by Category');
    await expectChart(page, 'App Users by Country');
    const bars = await expectChart(page, 'Transaction Value by Currency (USD)');
    await expectChart(page, 'Transactions per Month');
    await expectChart(page, 'App User Registrations per Month');

    // tooltips: on hover of a slice, and on keyboard focus of a chart
    const slice = pie.getByTestId('pie-slice').first(); // Remittances, from 12 o'clock clockwise past 6
    const box = (await slice.boundingBox())!;
    await slice.hover({ position: { x: box.width - 8, y: box.height / 2 } }); // on the ring, not in the hole
    await expect.poll(() => pie.locator('.visx-tooltip').innerText()).toMatch(/Remittances[\s\S]*%/);
    await bars.getByRole('img').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => bars.locator('.visx-tooltip').innerText()).toMatch(/\d\.\d{2}/);

    const table = page.getByRole('region', { name: 'All Transactions', exact: true });
    await expect.poll(() => table.getByRole('row').count(), { timeout: 30_000 }).toBe(6); // header + 5 per page
    await keep(page, 'dashboard-admin-light');
    await useDarkTheme(page);
    await keep(page, 'dashboard-admin-dark');
    await context.close();
  });

  it('a widget whose call fails says so, the dashboard says its figures are missing, and Retry loads them', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    // the server down for two of the widgets' calls
    const down = (route: Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' });
    await page.route('**/api/dashboard/overallTransactionCounts', down);
    await page.route('**/api/dashboard/totalTransactionValues', down);
    await page.goto('/dashboard');
    const alert = page.getByRole('alert').filter({ hasText: 'parts of this dashboard could not be loaded' });
    await expect.poll(() => alert.innerText(), { timeout: 30_000 }).toBe('2 parts of this dashboard could not be loaded. Its figures are missing, not zero.\nRetry');
    await expect.poll(() => page.getByRole('figure', { name: 'Transactions by Category', exact: true }).innerText()).toContain('This chart could not be loaded.');
    const table = page.getByRole('region', { name: 'All Transactions', exact: true });
    expect(await table.innerText()).not.toContain('No transactions in this period.');
    expect(await table.innerText()).toContain('The transactions could not be loaded.');

    await page.unroute('**/api/dashboard/overallTransactionCounts');
    await page.unroute('**/api/dashboard/totalTransactionValues');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expectChart(page, 'Transactions by Category');
    await expect.poll(() => table.getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    await expect.poll(() => alert.count()).toBe(0);
    await context.close();
  });

  it('the period dropdown changes the figures; a custom range is capped at today', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    const panel = page.getByRole('region', { name: 'All Transactions', exact: true });
    const note = panel.getByTestId('transactions-note');
    await expect.poll(() => note.innerText(), { timeout: 30_000 }).toMatch(/transactions from/);
    const countOf = async () =>
      Number(
        /of ([\d,]+) transactions|^([\d,]+) transactions?/
          .exec(await note.innerText())!
          .slice(1)
          .find(Boolean)!
          .replace(/,/g, ''),
      );
    const week = await countOf();
    expect(week).toBeGreaterThan(0);

    const period = panel.getByLabel('Period', { exact: true });
    await period.selectOption({ label: 'Last Year' });
    await expect.poll(countOf, { timeout: 30_000 }).toBeGreaterThan(week);
    const today = localDay(new Date());
    expect(await note.innerText()).toContain(`to ${today}`);

    await period.selectOption({ label: 'Custom' });
    const from = panel.getByLabel('From', { exact: true });
    const to = panel.getByLabel('To', { exact: true });
    expect(await to.getAttribute('max')).toBe(today);
    expect(await from.getAttribute('max')).toBe(today);
    const start = new Date();
    start.setDate(start.getDate() - 3);
    await from.fill(localDay(start));
    await to.fill(today);
    await expect.poll(() => note.innerText(), { timeout: 30_000 }).toContain(`from ${localDay(start)} to ${today}`);
    const custom = await countOf();
    expect(custom).toBeGreaterThan(0);
    expect(custom).toBeLessThanOrEqual(week);
    await context.close();
  });
});

describe('the audit dashboard, as auditor', () => {
  it('shows the user figures, the transaction cards, the tables and the charts with data', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'auditor');
    expect(new URL(page.url()).pathname).toBe('/AuditDashboard');
    await page.getByRole('heading', { name: 'Audit Dashboard', level: 1 }).waitFor();

    const figures = page.getByRole('region', { name: 'Users and beneficiaries', exact: true });
    const appUsers = figures.getByTestId('stat-card').filter({ hasText: 'Total App User Count' });
    await expect.poll(async () => numberIn(await appUsers.innerText()), { timeout: 30_000 }).toBeGreaterThan(0);
    await appUsers.hover();
    const tip = appUsers.getByRole('tooltip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    for (const label of ['Today', 'This Week', 'This Month', 'This Year']) expect(await tip.innerText()).toContain(label);
    const active = figures.getByTestId('stat-card').filter({ hasText: 'Total Active User Count' });
    await active.focus();
    await expect.poll(() => active.getByRole('tooltip').innerText()).toBe('Users who transacted in the last 30 days.');

    const billers = page.getByRole('region', { name: 'Top Billers', exact: true });
    await expect.poll(() => billers.getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    expect(await billers.getByRole('row').nth(1).innerText()).toMatch(/\d\.\d{2}$/);

    const byCountry = page.getByRole('region', { name: 'App Users by Country', exact: true });
    await expect.poll(() => byCountry.getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    await byCountry.getByLabel('Search Country', { exact: true }).fill('Sa');
    await expect.poll(async () => (await byCountry.getByRole('row').allInnerTexts()).slice(1)).toEqual([expect.stringMatching(/^Saudi Arabia\s+[\d,]+$/)]);

    await expectChart(page, 'Overall Transaction Count');
    expect(await page.getByLabel('Overall transaction count range', { exact: true }).inputValue()).toBe('WEEKLY');

    // the country-wise chart shows only the part of a country name before the first comma
    const countryWise = await expectChart(page, 'Country-wise User Count');
    const names = await countryWise.locator('table tbody th').allTextContents();
    expect(names.length).toBeGreaterThan(3);
    expect(names.some((n) => n.includes(','))).toBe(false);

    // the remittance chart: the years that have data, a count or a value
    const remittance = await expectChart(page, 'Remittance Transactions');
    const years = (await page.getByLabel('Remittance year', { exact: true }).locator('option').allTextContents()).map(Number);
    expect(years).toContain(new Date().getFullYear());
    expect(years).toEqual([...years].sort());
    await page.getByLabel('Remittance measure', { exact: true }).selectOption('value');
    await expect.poll(() => remittance.locator('table tbody td').first().textContent(), { timeout: 30_000 }).toMatch(/\.\d{2}$/);
    await page.getByLabel('Remittance year', { exact: true }).selectOption(String(years[0]));
    await expect.poll(() => remittance.getByRole('img').getAttribute('aria-label')).toMatch(/Remittance Transactions\. Bar chart/);

    await keep(page, 'dashboard-auditor-light');
    await useDarkTheme(page);
    await keep(page, 'dashboard-auditor-dark');
    await context.close();
  });

  it('the transactions period changes the cards, and View Chart opens the value chart', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'auditor');
    const cards = page.getByRole('region', { name: 'Transactions', exact: true });
    const remittance = cards.getByTestId('service-ceft');
    const countOf = async () => numberIn((await remittance.locator('dd').first().innerText()) || '0');
    await expect.poll(countOf, { timeout: 30_000 }).toBeGreaterThan(0);
    const week = await countOf();
    await cards.getByLabel('Transactions period', { exact: true }).selectOption({ label: 'Last Year' });
    await expect.poll(countOf, { timeout: 30_000 }).toBeGreaterThan(week);

    await remittance.getByRole('button', { name: 'View Chart: Remittance total value' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remittance: Total Value (USD)' });
    await dialog.getByRole('img').waitFor({ timeout: 30_000 });
    expect(await dialog.locator('table tbody tr').count()).toBe(12); // monthly: the last 12 months
    await dialog.getByLabel('Chart range', { exact: true }).selectOption('WEEKLY');
    await expect.poll(() => dialog.locator('table tbody tr').count(), { timeout: 30_000 }).toBe(7);
    await screenshot(page, 'dashboard-auditor-value-chart');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await context.close();
  });
});

describe('on a 1280 px laptop', () => {
  /** Per visible table (the charts' hidden data tables aside): its caption, and whether its box shows all of it. */
  const tablesCut = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('table')]
        .filter((t) => !t.closest('.sr-only'))
        .map((t) => ({ table: t.querySelector('caption')?.textContent ?? '?', cut: t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1 })),
    );

  it.each([
    ['admin', ['All Transactions'], ['Transactions by Category', 'App Users by Country', 'Transaction Value by Currency (USD)', 'Transactions per Month', 'App User Registrations per Month']],
    ['auditor', ['App Users by Country', 'Top Billers'], ['Overall Transaction Count', 'Country-wise User Count', 'Remittance Transactions']],
  ] as const)('%s: every table of the dashboard shows all its columns, and the page does not scroll sideways', async (username, tables, charts) => {
    const context = await live.browser.newContext({ baseURL: live.server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, username);
    for (const name of tables) await expect.poll(() => page.getByRole('region', { name, exact: true }).getByRole('row').count(), { timeout: 30_000 }).toBe(6);
    for (const title of charts) await expectChart(page, title);
    const found = await tablesCut(page);
    expect(found.map((t) => t.table.replace(/ \(.*/, ''))).toEqual(tables);
    expect(found.filter((t) => t.cut)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
    await context.close();
  });
});
