/**
 * Exports end to end in Chromium: the Excel and PDF files are built in a Web Worker while the page
 * shows an 'Export progress' bar and a Cancel button; the downloads read back (exceljs, pdfjs-dist).
 * Cancel stops an export (no file, a notice, the buttons usable again), and a list too long for a PDF
 * offers Excel instead.
 *
 * The large lists are the real reply of the list call with its rows repeated in the page, so the test
 * needs no large seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { pdfText, sheetLines } from './downloads';
import { launchBrowser, newPage, screenshot, signIn, startServer, type RunningServer } from './harness';
import { exportItem, readExportItem } from './exportMenu';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every file the page downloaded, in order. */
const downloads: Download[] = [];

const LOCAL = "yyyy-MM-dd'T'HH:mm:ss";
const LIST_PATH = '/api/Transaction/get-ceftTransaction';

beforeAll(async () => {
  server = await startServer({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, server.url));
  await installInflater();
  page.on('download', (d) => downloads.push(d));
  await signIn(page, 'maker');
  await page.goto('/transaction/ceft');
  await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** The Export menu's 'Download as Excel' item, the menu opened. */
function excelButton() {
  return exportItem(page, 'Download as Excel');
}
/** The Export menu's 'Download as PDF' item, the menu opened. */
function pdfButton() {
  return exportItem(page, 'Download as PDF');
}

/** The last seven days with fetch count All, searched; resolves once the exports are enabled again. */
async function searchLastWeek() {
  const now = new Date();
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7, 0, 0, 0);
  await page.getByLabel('From', { exact: true }).fill(format(from, LOCAL));
  await page.getByLabel('To', { exact: true }).fill(format(now, LOCAL));
  await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
  await Promise.all([page.waitForResponse((r) => r.url().endsWith(LIST_PATH)), page.getByRole('button', { name: 'Search' }).click()]);
  await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled()), { timeout: 30_000 }).toBe(true);
}

/** How many rows the table holds (its pagination reads '… of N'). */
async function tableTotal(): Promise<number> {
  return Number((await page.getByRole('navigation', { name: 'Pagination' }).innerText()).match(/of ([\d,]+)/)![1].replace(/,/g, ''));
}

/** Records, in the page, whether the 'Export progress' bar ever showed (a quick export shows it only briefly). */
async function watchProgress() {
  await page.evaluate(() => {
    const w = window as unknown as { __progress: string[]; __progressObserver?: MutationObserver };
    w.__progress = [];
    w.__progressObserver?.disconnect();
    const look = () => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Export progress"]');
      if (bar) w.__progress.push(bar.getAttribute('aria-valuenow') ?? '');
    };
    w.__progressObserver = new MutationObserver(look);
    w.__progressObserver.observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}
async function progressSeen(): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
}

/**
 * Makes the list call answer with its real rows repeated to `count` rows (ids made unique), in the
 * page (a fetch wrapper installed before the console loads), so no large reply crosses the test's wire.
 */
async function inflateList(count: number) {
  await page.evaluate((n) => {
    (window as unknown as { __inflateRows: number }).__inflateRows = n;
  }, count);
}

function installInflater() {
  return context.addInitScript((path) => {
    const w = window as unknown as { __inflateRows: number };
    w.__inflateRows = 0;
    const realFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!w.__inflateRows || !url.includes(path) || !response.ok) return response;
      const json = (await response.json()) as { data: { filteredList: Record<string, unknown>[]; filteredListKeys?: string[]; filteredListTimes?: number[]; filteredListRows?: unknown[][] } };
      // the console asks for the compact rows (src/api/listRows.ts): made into the documented list here, sent without the header
      // (its times are the UTC wall clock: made into the documented text, as src/api/listRows.ts isoOfUtcWallClock does)
      const { filteredListKeys: keys, filteredListTimes: times = [], filteredListRows: arrays } = json.data;
      const iso = (v: unknown) => (typeof v === 'string' ? `${(v.length === 19 ? `${v}.` : v).padEnd(23, '0').slice(0, 23)}Z` : v);
      if (keys && arrays) {
        json.data.filteredList = arrays.map((values) => Object.fromEntries(keys.map((k, i) => [k, times.includes(i) ? iso(values[i]) : values[i]])));
        delete json.data.filteredListKeys;
        delete json.data.filteredListTimes;
        delete json.data.filteredListRows;
      }
      const real = json.data.filteredList;
      if (real.length > 0) json.data.filteredList = Array.from({ length: w.__inflateRows }, (_, i) => ({ ...real[i % real.length], id: 9_000_000 + i }));
      return new Response(JSON.stringify(json), { status: response.status, headers: { 'content-type': 'application/json' } });
    };
  }, LIST_PATH);
}

describe('exports built in a worker', () => {
  it('exports the list as Excel with a progress bar, and the file reads back', async () => {
    await searchLastWeek();
    const total = await tableTotal();
    expect(total).toBeGreaterThan(0);
    await watchProgress();
    const [xlsx] = await Promise.all([page.waitForEvent('download'), (await excelButton()).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^ceftTransactions_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
    expect((await progressSeen()).length).toBeGreaterThan(0);

    const lines = await sheetLines(xlsx);
    expect(lines[0]).toBe('Send Money Transactions');
    expect(lines[1]).toMatch(/^On \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} by maker\. Times in \S+ \(UTC[+-]\d{2}:\d{2}\)$/);
    expect(lines[2]).toMatch(/^Duration: \d{4}-\d{2}-\d{2} 00:00:01 to \d{4}-\d{2}-\d{2} \d{2}:\d{2}:00$/);
    const header = lines.findIndex((l) => l.startsWith('ID|Trace|UID/NIC|Country|Tran Type|Bank|'));
    expect(header).toBeGreaterThan(2);
    const body = lines.slice(header + 1);
    expect(body).toHaveLength(total);
    // the first row of the table (sorted by ID) is in the file with its trace
    const firstRow = page.getByRole('table', { name: 'Send Money Transactions' }).locator('tbody tr').first();
    const [id, trace] = await firstRow.locator('td').evaluateAll((tds) => tds.slice(0, 2).map((td) => (td as HTMLElement).innerText.trim()));
    expect(body.some((l) => l.startsWith(`${id}|${trace}|`))).toBe(true);
    // the buttons are back once the file is out
    await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled())).toBe(true);
    expect(await page.getByRole('progressbar', { name: 'Export progress' }).count()).toBe(0);
  });

  it('exports the list as PDF, and the file reads back', async () => {
    await watchProgress();
    const [pdf] = await Promise.all([page.waitForEvent('download'), (await pdfButton()).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^ceftTransactions_.*\.pdf$/);
    expect((await progressSeen()).length).toBeGreaterThan(0);
    const { pages, text } = await pdfText(pdf);
    expect(text).toContain('Send Money Transactions');
    expect(text).toMatch(/On \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} by maker/);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    const trace = await page.getByRole('table', { name: 'Send Money Transactions' }).locator('tbody tr').first().locator('td').nth(1).innerText();
    expect(text).toContain(trace.trim());
  });

  it('cancels an export: no file, a notice, and the page is usable again', async () => {
    await inflateList(18_000);
    await searchLastWeek();
    expect(await tableTotal()).toBe(18_000);
    const before = downloads.length;
    await (await pdfButton()).click();
    const bar = page.getByRole('progressbar', { name: 'Export progress' });
    await bar.waitFor();
    expect(await readExportItem(page, 'Download as Excel', (i) => i.isDisabled())).toBe(true);
    await screenshot(page, 'export-progress');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Export cancelled: no file was downloaded.').waitFor();
    expect(await bar.count()).toBe(0);
    expect(await readExportItem(page, 'Download as Excel', (i) => i.isEnabled())).toBe(true);
    expect(await readExportItem(page, 'Download as PDF', (i) => i.isEnabled())).toBe(true);

    // the page answers: the table pages on, and the next export runs to its file
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next page' }).click();
    const [xlsx] = await Promise.all([page.waitForEvent('download'), (await excelButton()).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const lines = await sheetLines(xlsx);
    const header = lines.findIndex((l) => l.startsWith('ID|Trace|'));
    expect(lines.length - header - 1).toBe(18_000);
    // the cancelled PDF never came
    expect(downloads.slice(before).map((d) => d.suggestedFilename().slice(-4))).toEqual(['xlsx']);
  });

  it('says a list of more than 20,000 rows is too long for a PDF, and offers Excel instead', async () => {
    await inflateList(20_001);
    await searchLastWeek();
    expect(await tableTotal()).toBe(20_001);
    const before = downloads.length;
    await (await pdfButton()).click();
    const dialog = page.getByRole('dialog', { name: 'Too many rows for a PDF' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This list has 20,001 rows.');
    await screenshot(page, 'export-pdf-too-long');
    const [xlsx] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export to Excel instead' }).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const lines = await sheetLines(xlsx);
    const header = lines.findIndex((l) => l.startsWith('ID|Trace|'));
    expect(lines.length - header - 1).toBe(20_001);
    expect(downloads.slice(before).map((d) => d.suggestedFilename().slice(-4))).toEqual(['xlsx']);
    await inflateList(0);
  });
});
