/**
 * The list runtime's honest states and memory, end to end in Chromium at 1280 x 800: a
 * search that runs (progress bar, rows dimmed, aria-busy, Search disabled), a re-search that fails
 * (banner with the reason and Retry, the rows kept), a first load that fails (no "No records found.",
 * no "No pending change requests"), an empty result shown in the visible part of the table, a result
 * cut by the fetch count (notice with the matching count, Show all, the export buttons' row counts, the fetch count remembered),
 * the pinned columns' positions, sort and page surviving Back, and the list reloaded after a failed
 * row action. The server is made to stall or fail with Playwright's page.route on the list call.
 * Screenshots of three lists in both themes go to test-results/shots-lists/ (or SHOTS_DIR).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { ARTEFACTS, openInApp, signIn, useServerAndBrowser } from './harness';
import { readExportItem } from './exportMenu';
import { screens } from '../../screens';
import type { AnyListScreen } from '../../src/definitions/definitions';

// with MONEY_ACTION_APPROVAL_ABOVE_USD set (far above any demo amount), so Money Action Approvals is among the lists checked
const live = useServerAndBrowser({ MONEY_ACTION_APPROVAL_ABOVE_USD: '100000000' });
const SHOTS = process.env.SHOTS_DIR ?? join(ARTEFACTS, 'shots-lists');
const WIDTH = 1280;
const HEIGHT = 800;

async function laptop(browser: Browser, username: string, theme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ baseURL: live.server.url, viewport: { width: WIDTH, height: HEIGHT }, acceptDownloads: true });
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  const page = await context.newPage();
  await signIn(page, username);
  return { context, page };
}

/** The table's scrolling region of a list screen. */
function tableRegion(page: Page, title: string) {
  return page.getByRole('region', { name: `${title} table`, exact: true });
}

function bodyRows(page: Page, title: string) {
  return tableRegion(page, title).locator('tbody tr');
}

/** Waits for a list's search to end (the table region no longer busy). */
async function settled(page: Page, title: string) {
  await tableRegion(page, title).waitFor();
  await expect.poll(() => tableRegion(page, title).getAttribute('aria-busy'), { timeout: 20_000 }).toBeNull();
}

/** A route handler that holds the list call until `release` is called. */
function stall() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const handler = async (route: Route) => {
    await released;
    await route.continue().catch(() => undefined);
  };
  return { handler, release };
}

const failWith500 = (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, data: { message: 'Database unavailable' } }) });

describe('honest states', () => {
  it('a running search shows progress, dims the rows, is aria-busy and disables Search; a failed re-search keeps the rows under a banner with Retry', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    const before = await bodyRows(page, 'Users').allInnerTexts();
    expect(before.length).toBeGreaterThan(0);

    // a search that stalls
    const stalled = stall();
    await page.route('**/api/user/list', stalled.handler);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => tableRegion(page, 'Users').getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('progressbar', { name: 'Loading the list' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Search' }).isDisabled()).toBe(true);
    // the rows dim (the opacity eases in over 150 ms, so its first frame may still read 1)
    await expect
      .poll(() =>
        tableRegion(page, 'Users')
          .locator('tbody')
          .evaluate((el) => Number(getComputedStyle(el).opacity)),
      )
      .toBeLessThan(1);
    // the rows stay while it runs
    expect(await bodyRows(page, 'Users').allInnerTexts()).toEqual(before);
    stalled.release();
    await settled(page, 'Users');
    expect(await page.getByRole('progressbar', { name: 'Loading the list' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Search' }).isEnabled()).toBe(true);
    await page.unroute('**/api/user/list');

    // a re-search that fails: the banner with the reason and Retry, the rows as they were
    await page.route('**/api/user/list', failWith500);
    await page.getByRole('button', { name: 'Search' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'The list could not be loaded' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Database unavailable');
    expect(await banner.innerText()).toContain('The rows below are from the last search that loaded.');
    expect(await bodyRows(page, 'Users').allInnerTexts()).toEqual(before);
    expect(await page.getByText('No records found.').count()).toBe(0);
    // Retry once the server answers again
    await page.unroute('**/api/user/list');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.waitFor({ state: 'detached' });
    await settled(page, 'Users');
    expect(await bodyRows(page, 'Users').allInnerTexts()).toEqual(before);

    // a search with other filters that fails changes nothing visible either
    await page.route('**/api/user/list', failWith500);
    await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill('checker');
    await page.getByRole('button', { name: 'Search' }).click();
    await banner.waitFor();
    expect(await banner.innerText()).toContain('The rows below are from the last search that loaded.');
    expect(await bodyRows(page, 'Users').allInnerTexts()).toEqual(before);
    expect(await readExportItem(page, 'Download as Excel', (i) => i.isDisabled())).toBe(true);
    await page.unroute('**/api/user/list');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.waitFor({ state: 'detached' });
    await settled(page, 'Users');
    expect((await bodyRows(page, 'Users').allInnerTexts()).every((r) => r.includes('checker'))).toBe(true);
    await context.close();
  });

  it('a first load that fails says so with Retry: never "No records found." nor "No pending change requests"', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.route('**/api/user/list', failWith500);
    await page.goto('/users');
    const banner = page.getByRole('alert').filter({ hasText: 'The list could not be loaded' });
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Database unavailable');
    expect(await banner.innerText()).not.toContain('rows below');
    expect(await page.getByText('No records found.').count()).toBe(0);
    expect(await page.getByText('No pending change requests').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Change Requests' }).count()).toBe(0);
    await page.unroute('**/api/user/list');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.waitFor({ state: 'detached' });
    await settled(page, 'Users');
    expect(await bodyRows(page, 'Users').count()).toBeGreaterThan(0);
    await page.getByRole('region', { name: 'Change Requests' }).waitFor();
    await context.close();
  });

  it('an empty result shows its message in the visible part of a wide table', async () => {
    const { context, page } = await laptop(live.browser, 'maker');
    await page.goto('/transaction/ceft');
    await settled(page, 'Send Money Transactions');
    await page.getByLabel('UID/NIC/Trace/Account Number', { exact: true }).fill('NO-SUCH-TRACE-999');
    await page.getByRole('button', { name: 'Search' }).click();
    const message = page.getByText('No transactions found.', { exact: true });
    await message.waitFor();
    const region = (await tableRegion(page, 'Send Money Transactions').boundingBox())!;
    const box = (await message.boundingBox())!;
    // the table scrolls thousands of pixels sideways; the message sits within the part in view
    expect(await tableRegion(page, 'Send Money Transactions').evaluate((el) => el.scrollWidth)).toBeGreaterThan(WIDTH);
    expect(box.x).toBeGreaterThanOrEqual(region.x);
    expect(box.x + box.width).toBeLessThanOrEqual(region.x + region.width);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    await context.close();
  });

  it('a result cut by the fetch count says so, the exports say how many rows they write, Show all brings the rest, and the fetch count is remembered', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    const notice = page.getByRole('status').filter({ hasText: /Showing 10 of \d+ matching rows/ });
    await notice.waitFor();
    expect(await notice.innerText()).toContain('Fetch Count 10 cut the result');
    expect(await bodyRows(page, 'Users').count()).toBe(10);
    expect(await readExportItem(page, 'Download as Excel', (i) => i.innerText())).toBe('Download as Excel (10 rows)');
    expect(await readExportItem(page, 'Download as PDF', (i) => i.innerText())).toBe('Download as PDF (10 rows)');

    await notice.getByRole('button', { name: /^Show all \d+ matching rows$/ }).click();
    await notice.waitFor({ state: 'detached' });
    await settled(page, 'Users');
    const all = await bodyRows(page, 'Users').count();
    expect(all).toBeGreaterThan(10);
    expect(await readExportItem(page, 'Download as Excel', (i) => i.innerText())).toBe(`Download as Excel (${all} rows)`);
    expect(await page.getByLabel('Fetch Count', { exact: true }).inputValue()).toBe('99999999');

    // the next visit (no filters in the URL) starts with the fetch count this user chose here
    await page.goto('/dashboard');
    await page.goto('/users');
    await settled(page, 'Users');
    expect(await page.getByLabel('Fetch Count', { exact: true }).inputValue()).toBe('99999999');
    expect(await bodyRows(page, 'Users').count()).toBe(all);
    expect(await page.getByText('matching rows', { exact: false }).count()).toBe(0);
    // another user on the same browser keeps the default
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('.users.fetchCount')))).toEqual(['remit.list.admin.users.fetchCount']);
    await context.close();
  });
});

describe('pinned columns at 1280 x 800', () => {
  /** The header cell of a column, by its text. */
  const header = (page: Page, title: string, name: string) => tableRegion(page, title).getByRole('columnheader', { name, exact: true });

  async function expectInView(page: Page, title: string, names: string[]) {
    for (const name of names) {
      const box = (await header(page, title, name).boundingBox())!;
      expect(box, name).toBeTruthy();
      expect(box.x, `${name} left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} right edge`).toBeLessThanOrEqual(WIDTH);
    }
  }

  it('Send Money keeps ID and Trace at the left and the Action column at the right while the table scrolls', async () => {
    const { context, page } = await laptop(live.browser, 'maker');
    await page.goto('/transaction/ceft');
    await settled(page, 'Send Money Transactions');
    const region = tableRegion(page, 'Send Money Transactions');
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeGreaterThan(2000);
    await expectInView(page, 'Send Money Transactions', ['ID', 'Trace', 'Action']);
    const idBefore = (await header(page, 'Send Money Transactions', 'ID').boundingBox())!;
    const actionBefore = (await header(page, 'Send Money Transactions', 'Action').boundingBox())!;
    // pinned right: the Action column ends at the table's right edge before any scroll
    const regionBox = (await region.boundingBox())!;
    expect(Math.abs(actionBefore.x + actionBefore.width - (regionBox.x + regionBox.width))).toBeLessThan(20);
    expect(await region.getAttribute('data-more-right')).toBe('true');
    expect(await region.getAttribute('data-scrolled-left')).toBeNull();

    await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => region.getAttribute('data-scrolled-left')).toBe('true');
    await expectInView(page, 'Send Money Transactions', ['ID', 'Trace', 'Action']);
    const idAfter = (await header(page, 'Send Money Transactions', 'ID').boundingBox())!;
    expect(idAfter.x).toBeCloseTo(idBefore.x, 0);
    // the first row's ID cell stays in view too, beside a column that scrolled under it
    const firstId = region.locator('tbody tr').first().locator('td').first();
    const cellBox = (await firstId.boundingBox())!;
    expect(cellBox.x).toBeCloseTo(idBefore.x, 0);
    // the Action cell paints over the cells beneath it: an opaque background
    const bg = await region
      .locator('tbody tr')
      .first()
      .locator('td')
      .last()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toMatch(/^rgb\(/);
    await context.close();
  });

  it('every list shows its identifying columns and its Action column without scrolling sideways (administrator, and auditor for the audit lists)', async () => {
    const lists = screens.filter((sc): sc is AnyListScreen => sc.kind === 'list' && !sc.route.includes('$'));
    expect(lists.length).toBeGreaterThan(15);
    for (const username of ['admin', 'auditor']) {
      const { context, page } = await laptop(live.browser, username);
      const mine = lists.filter((sc) => (username === 'auditor') === 'rule' in sc.access);
      for (const sc of mine) {
        await openInApp(page, sc.route);
        await settled(page, sc.title);
        const names = (sc.pinnedColumns ?? []).map((k) => sc.columns.find((c) => c.key === k)!.header);
        expect(names.length, sc.id).toBeGreaterThan(0);
        const hasActions = (await header(page, sc.title, 'Action').count()) > 0;
        await expectInView(page, sc.title, hasActions ? [...names, 'Action'] : names);
      }
      await context.close();
    }
  });

  it('screenshots of three lists in both themes', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      for (const [user, route, name] of [
        ['maker', '/transaction/ceft', 'send-money'],
        ['admin', '/users', 'users'],
        ['admin', '/appUsers', 'app-users'],
      ] as const) {
        const { context, page } = await laptop(live.browser, user, theme);
        await page.goto(route);
        const title = (await page.locator('h1').first().innerText()).trim();
        await settled(page, title);
        const region = tableRegion(page, title);
        await region.evaluate((el) => el.scrollTo({ left: Math.min(900, el.scrollWidth) }));
        await region.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `${name}-${theme}-1280.png`) });
        await context.close();
      }
    }
  });
});

describe('memory', () => {
  it('sort and page are in the URL: Back returns to the same page and sort', async () => {
    const { context, page } = await laptop(live.browser, 'maker');
    // today's send-money transactions, all of them: more than the table's 50 a page
    await page.goto('/transaction/ceft');
    const title = 'Send Money Transactions';
    await settled(page, title);
    await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
    await page.getByRole('button', { name: 'Search' }).click();
    await settled(page, title);
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    await expect.poll(async () => Number(/of (\d+)/.exec(await pager.innerText())?.[1] ?? 0)).toBeGreaterThan(50);

    const idHeader = tableRegion(page, title).getByRole('columnheader', { name: 'ID', exact: true });
    await idHeader.getByRole('button').click();
    await expect.poll(() => idHeader.getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('button', { name: 'Next page' }).click();
    await pager.getByText('Page 2 of', { exact: false }).waitFor();
    const rowsOnPage2 = await bodyRows(page, title).allInnerTexts();
    expect(page.url()).toContain('sort=id.desc');
    expect(page.url()).toContain('page=2');

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Bill Payments', exact: true }).click();
    await page.getByRole('heading', { name: 'Bill Payments' }).first().waitFor();
    await page.goBack();
    await settled(page, title);
    await pager.getByText('Page 2 of', { exact: false }).waitFor();
    expect(await idHeader.getAttribute('aria-sort')).toBe('descending');
    expect(await bodyRows(page, title).allInnerTexts()).toEqual(rowsOnPage2);
    await context.close();
  });

  it('after a failed row action the list is loaded again from the server', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/appUsers');
    const title = (await page.locator('h1').first().innerText()).trim();
    await settled(page, title);
    // the action's call fails
    await page.route('**/api/AppUser/disable', failWith500);
    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/AppUser/list')) listCalls.push(r.url());
    });
    await tableRegion(page, title)
      .getByRole('button', { name: /^(Deactivate|Activate)$/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await page.getByText('App user disable failed').first().waitFor();
    await expect.poll(() => listCalls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await settled(page, title);
    await context.close();
  });
});

describe('columns', () => {
  it('the column chooser hides and orders columns, a header edge resizes one, all remembered per user and screen, and Reset columns undoes them', async () => {
    const { context, page } = await laptop(live.browser, 'admin');
    await page.goto('/users');
    await settled(page, 'Users');
    const headers = async () => (await tableRegion(page, 'Users').locator('thead th').allInnerTexts()).map((h) => h.replace(/[▲▼↕]/g, '').trim());
    expect(await headers()).toEqual(['ID', 'Name', 'Email', 'Contact Number', 'Username', 'Branch', 'Status', 'Created At', 'Updated At', 'Action', 'Sign-in']);

    await page.getByRole('button', { name: 'Columns', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns' });
    // the pinned columns are not offered: they always show
    expect(await dialog.getByRole('checkbox', { name: 'ID', exact: true }).count()).toBe(0);
    await dialog.getByRole('checkbox', { name: 'Email', exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Move Status up' }).click();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await headers()).toEqual(['ID', 'Name', 'Contact Number', 'Username', 'Status', 'Branch', 'Created At', 'Updated At', 'Action', 'Sign-in']);
    expect(await page.getByRole('button', { name: 'Columns (1 hidden)' }).count()).toBe(1);

    // a drag on the Name header's right edge makes the column 200 px wide
    const name = tableRegion(page, 'Users').getByRole('columnheader', { name: 'Name', exact: true });
    const before = (await name.boundingBox())!;
    const handle = (await tableRegion(page, 'Users').locator('[data-resize="name"]').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 200 - before.width, handle.y + handle.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await name.boundingBox())!.width)).toBe(200);

    // the next visit has them, for this user only
    await page.reload();
    await settled(page, 'Users');
    expect(await headers()).toEqual(['ID', 'Name', 'Contact Number', 'Username', 'Status', 'Branch', 'Created At', 'Updated At', 'Action', 'Sign-in']);
    expect(Math.round((await name.boundingBox())!.width)).toBe(200);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.endsWith('.columns')))).toEqual(['remit.list.admin.users.columns']);

    await page.getByRole('button', { name: 'Reset columns' }).click();
    expect(await headers()).toEqual(['ID', 'Name', 'Email', 'Contact Number', 'Username', 'Branch', 'Status', 'Created At', 'Updated At', 'Action', 'Sign-in']);
    expect(Math.round((await name.boundingBox())!.width)).not.toBe(200);
    expect(await page.evaluate(() => localStorage.getItem('remit.list.admin.users.columns'))).toBeNull();
    await context.close();
  });
});
