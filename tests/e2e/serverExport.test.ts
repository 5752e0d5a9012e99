/**
 * Server export jobs in Chromium: with a small threshold (EXPORT_SERVER_ABOVE_ROWS=5) the
 * Excel button of a list above it starts a job on the server; the page shows the job's progress bar
 * and Cancel, a reload finds the job again and its progress continues, and once done the file is
 * downloaded through its signed link and read back with exceljs: the lines, the header and every row.
 * One row per batch (EXPORT_BATCH_ROWS=1) over 90 days of demo rows makes the job slow enough to
 * reload in the middle of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { format } from 'date-fns';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signIn, startServer, type RunningServer } from './harness';
import { exportItem, readExportItem } from './exportMenu';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import { ceftScreen } from '../../screens/transactions';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const LOCAL = "yyyy-MM-dd'T'HH:mm:ss";
const LIST_PATH = '/api/Transaction/get-ceftTransaction';

beforeAll(async () => {
  server = await startServer({ EXPORT_SERVER_ABOVE_ROWS: '5', EXPORT_BATCH_ROWS: '1', EXPORT_POLL_MS: '200' });
  browser = await launchBrowser();
  ({ context, page } = await newPage(browser, server.url));
  await signIn(page, 'maker');
  await page.goto('/transaction/ceft');
  await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const panel = () => page.getByTestId('server-export');
const progress = () => panel().getByRole('progressbar', { name: 'Export progress' });

describe('an export above the threshold runs on the server', () => {
  it('shows its progress, survives a reload, and downloads a file that reads back', async () => {
    const now = new Date();
    const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 90, 0, 0, 0);
    await page.getByLabel('From', { exact: true }).fill(format(from, LOCAL));
    await page.getByLabel('To', { exact: true }).fill(format(now, LOCAL));
    await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(LIST_PATH)), page.getByRole('button', { name: 'Search' }).click()]);
    await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled()), { timeout: 30_000 }).toBe(true);
    const total = Number((await page.getByRole('navigation', { name: 'Pagination' }).innerText()).match(/of ([\d,]+)/)![1]!.replace(/,/g, ''));
    expect(total).toBeGreaterThan(5);
    await expect.poll(() => panel().innerText()).toMatch(/more than a browser tab should export/);

    await (await exportItem(page, 'Download as Excel')).click();
    await progress().waitFor({ timeout: 30_000 });
    await expect.poll(async () => Number(await progress().getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(0);
    const before = Number(await progress().getAttribute('aria-valuenow'));
    expect(before).toBeLessThan(100);
    await screenshot(page, 'server-export-progress');

    await page.reload();
    await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
    // the job is found again and its progress continues
    await progress().waitFor({ timeout: 30_000 });
    await expect.poll(async () => Number(await progress().getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(before);

    const download = panel().getByRole('button', { name: /^Download ceftTransactions_.*\.xlsx$/ });
    await download.waitFor({ timeout: 120_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^ceftTransactions_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(await file.path()) as never);
    const sheet = wb.worksheets[0]!;
    expect(String(sheet.getRow(1).getCell(1).value)).toBe('Send Money Transactions');
    expect(String(sheet.getRow(2).getCell(1).value)).toMatch(/^On .* by maker\. Times in /);
    expect((sheet.getRow(5).values as unknown[]).slice(1)).toEqual(exportFieldsOf(ceftScreen).map((f) => f.header));
    expect(sheet.rowCount - 5).toBe(total);
    // once downloaded, the panel offers a new server export
    await panel().getByRole('button', { name: 'Export all matching rows on the server' }).waitFor();
  }, 300_000);
});
