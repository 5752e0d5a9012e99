/**
 * A list cut by its fetch count, end to end in Chromium at 1280 x 800: the table says
 * "10 of N matching - show all" (N from the reply's top-level `matching`), "show all" brings every
 * row, the export buttons say how many rows they write and "Download all N" writes the N matching rows
 * (the xlsx read back with exceljs); against a server that sends no `matching` the list still says it
 * may be cut; and a column's resize handle is a focusable separator that Left and Right resize.
 */
import { describe, expect, it } from 'vitest';
import { sheetLines } from './downloads';
import type { Browser, Download, Page, Route } from 'playwright-core';
import { signIn, useServerAndBrowser } from './harness';
import { exportItem, readExportItem } from './exportMenu';

const live = useServerAndBrowser();

async function laptop(browser: Browser, username: string) {
  const context = await browser.newContext({ baseURL: live.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, username);
  return { context, page };
}

const tableRegion = (page: Page, title: string) => page.getByRole('region', { name: `${title} table`, exact: true });
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });

async function settled(page: Page, title: string) {
  await tableRegion(page, title).waitFor();
  await expect.poll(() => tableRegion(page, title).getAttribute('aria-busy'), { timeout: 30_000 }).toBeNull();
}

/** The pager's words, e.g. "10 of 165 matching - show all" (without the page buttons). */
async function pagerText(page: Page): Promise<string> {
  return (await pager(page).locator('> span').first().innerText()).replace(/\s+/g, ' ').trim();
}

/** The data rows of an exported sheet: the lines after the header line that starts with `header`. */
async function sheetBody(download: Download, header: string): Promise<string[]> {
  const lines = await sheetLines(download);
  const at = lines.findIndex((l) => l.startsWith(header));
  expect(at, `header ${header} in ${lines.slice(0, 6).join(' / ')}`).toBeGreaterThanOrEqual(0);
  return lines.slice(at + 1);
}

describe('a list cut by its fetch count', () => {
  it('Send Money: "10 of N matching - show all", the exports name their row counts, Download all writes the N rows, show all shows them', async () => {
    const { context, page } = await laptop(live.browser, 'maker');
    const title = 'Send Money Transactions';
    await page.goto('/transaction/ceft');
    await settled(page, title);
    expect(await page.getByLabel('Fetch Count', { exact: true }).inputValue()).toBe('10');
    await expect.poll(() => pagerText(page)).toMatch(/^10 of [\d,]+ matching - show all$/);
    const n = Number(/^10 of ([\d,]+) matching/.exec(await pagerText(page))![1].replace(/,/g, ''));
    expect(n).toBeGreaterThan(10);
    expect(await tableRegion(page, title).locator('tbody tr').count()).toBe(10);
    // the notice above the table says the same
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: `Showing 10 of ${n.toLocaleString('en-US')} matching rows` })
        .count(),
    ).toBe(1);

    // the exports say how many rows each writes: these 10, or all N
    expect(await readExportItem(page, 'Download as Excel', (i) => i.innerText())).toBe('Download as Excel (10 rows)');
    expect(await readExportItem(page, 'Download as PDF', (i) => i.innerText())).toBe('Download as PDF (10 rows)');
    const allName = `Download all ${n.toLocaleString('en-US')} as Excel`;
    expect(await readExportItem(page, allName, (i) => i.isEnabled(), true)).toBe(true);
    // cut by the fetch count but below the server threshold: Download all is the way, the server's export stays a quiet link
    expect(await page.getByRole('button', { name: 'Export all matching rows on the server' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Export on the server instead…' }).count()).toBe(1);

    // an export of these 10 rows holds 10
    const [ten] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
    expect(await sheetBody(ten, 'ID|Trace|')).toHaveLength(10);
    // Download all fetches every matching row (fetch count All), then writes them
    const fetchCounts: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/Transaction/get-ceftTransaction')) fetchCounts.push(Number(JSON.parse(r.postData() ?? '{}').fetchCount));
    });
    await expect.poll(() => readExportItem(page, allName, (i) => i.isEnabled(), true)).toBe(true);
    const [every] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, allName, true)).click()]);
    expect(fetchCounts).toEqual([99_999_999]);
    const rows = await sheetBody(every, 'ID|Trace|');
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.split('|')[0])).size).toBe(n);
    // the table still shows the 10 rows of the search
    expect(await tableRegion(page, title).locator('tbody tr').count()).toBe(10);

    // show all: every matching row in the table, the pager counts them, nothing says "matching"
    await pager(page).getByRole('button', { name: 'show all', exact: true }).click();
    await settled(page, title);
    await expect.poll(() => pagerText(page)).toBe(`1–${Math.min(50, n)} of ${n}`);
    expect(await page.getByLabel('Fetch Count', { exact: true }).inputValue()).toBe('99999999');
    // (the server export's "Export all matching rows on the server" stays: it is not a count)
    expect(await page.getByText(/of [\d,]+ matching/).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^show all/i }).count()).toBe(0);
    expect(await readExportItem(page, 'Download as Excel', (i) => i.innerText())).toBe(`Download as Excel (${n.toLocaleString('en-US')} rows)`);
    expect(await readExportItem(page, /^Download all/, (i) => i.count())).toBe(0);
    // below the threshold the server export is a quiet second choice: its controls show on asking
    const onServer = page.getByRole('button', { name: 'Export all matching rows on the server' });
    expect(await onServer.count()).toBe(0);
    await page.getByRole('button', { name: 'Export on the server instead…' }).click();
    await onServer.waitFor();
    await context.close();
  });

  it('Users (not a transaction list): show all brings exactly the N matching rows', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    await expect.poll(() => pagerText(page)).toMatch(/^10 of \d+ matching - show all$/);
    const n = Number(/^10 of (\d+)/.exec(await pagerText(page))![1]);
    expect(n).toBeGreaterThan(10);
    await pager(page).getByRole('button', { name: 'show all', exact: true }).click();
    await settled(page, 'Users');
    await expect.poll(() => tableRegion(page, 'Users').locator('tbody tr').count()).toBe(Math.min(n, 50));
    expect(await pagerText(page)).toBe(`1–${Math.min(n, 50)} of ${n}`);
    await context.close();
  });

  it('a search that stalls keeps "10 of N matching" until its rows arrive; a server without `matching` still says the list may be cut', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    await expect.poll(() => pagerText(page)).toMatch(/^10 of \d+ matching - show all$/);
    const before = await pagerText(page);

    // the next search stalls: the state shown stays as it was while it runs
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/api/user/list', async (route: Route) => {
      await released;
      await route.continue().catch(() => undefined);
    });
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => tableRegion(page, 'Users').getAttribute('aria-busy')).toBe('true');
    expect(await pagerText(page)).toBe(before);
    release();
    await settled(page, 'Users');
    await page.unroute('**/api/user/list');

    // a backend that speaks only the documented reply (no `matching`): the notice says it may be cut, no count is made up
    await page.route('**/api/user/list', async (route: Route) => {
      const response = await route.fetch();
      const { matching: _m, ...documented } = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: documented });
    });
    await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill('e');
    await page.getByRole('button', { name: 'Search' }).click();
    await settled(page, 'Users');
    const notice = page.getByRole('status').filter({ hasText: 'Showing the first 10 matching rows' });
    await notice.waitFor();
    expect(await notice.innerText()).toContain('Fetch Count 10 may have cut the result');
    expect(await pagerText(page)).toBe('1–10 of 10');
    expect(await readExportItem(page, /^Download all/, (i) => i.count())).toBe(0);
    await context.close();
  });
});

describe('keyboard resizing of columns', () => {
  it('the resize handle is a focusable separator named after its column: Left and Right change the width, remembered', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    const region = tableRegion(page, 'Users');
    const name = region.getByRole('columnheader', { name: 'Name', exact: true });
    const handle = region.getByRole('separator', { name: 'Resize column Name', exact: true });
    expect(await handle.getAttribute('aria-orientation')).toBe('vertical');

    // reached with Tab from the column's sort button
    await name.getByRole('button').focus();
    await page.keyboard.press('Tab');
    expect(await handle.evaluate((el) => el === document.activeElement)).toBe(true);

    const start = Math.round((await name.boundingBox())!.width);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(start);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Math.round((await name.boundingBox())!.width)).toBe(start + 30);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(start + 30);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => Math.round((await name.boundingBox())!.width)).toBe(start + 20);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => Math.round((await name.boundingBox())!.width)).toBe(start + 70);
    // the arrows resized the column, they did not scroll the table
    expect(await region.evaluate((el) => el.scrollLeft)).toBe(0);

    // remembered like a drag: the next visit has it
    await page.reload();
    await settled(page, 'Users');
    expect(Math.round((await name.boundingBox())!.width)).toBe(start + 70);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(start + 70);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('remit.list.admin.users.columns')))!).widths).toEqual({ name: start + 70 });
    await context.close();
  });
});
