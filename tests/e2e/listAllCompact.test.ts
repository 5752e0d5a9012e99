/**
 * Fetch count All through the compact list rows (src/api/listRows.ts), end to end in Chromium: the
 * console asks for `x-list-rows: lines3, arrays2`, the server streams the rows (a small
 * LIST_STREAM_ABOVE_ROWS, so that the demo data's list streams) as arrays from the embedded database
 * and as lines of COPY text from PostgreSQL (TEST_DATABASE_URL, else 127.0.0.1:5432/test, a schema of
 * the file's own), and the table shows exactly the rows of the documented reply (fetched here without
 * the header), sorts them, and the Excel export of them reads back with every row and the same values.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { format, subDays } from 'date-fns';
import { signIn, useServerAndBrowser } from './harness';
import { exportItem, readExportItem } from './exportMenu';
import { sheetLines } from './downloads';

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const PATH = '/api/Transaction/get-ceftTransaction';
const title = 'Send Money Transactions';

const tableRegion = (page: Page) => page.getByRole('region', { name: `${title} table`, exact: true });
const pagerText = async (page: Page) => (await page.getByRole('navigation', { name: 'Pagination' }).locator('> span').first().innerText()).replace(/\s+/g, ' ').trim();
const firstColumn = (page: Page) => tableRegion(page).locator('tbody tr td:first-child').allInnerTexts();

type Row = { id: number; amount: number; trace: string; status: string; currency_code: string; bank_name: string | null };

async function onPostgres(schema: string, sql: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(sql.replace('$schema', schema));
  } finally {
    await client.end();
  }
}

describe('fetch count All with the compact rows, on the embedded database (arrays)', () => {
  const live = useServerAndBrowser({ LIST_STREAM_ABOVE_ROWS: '20' });
  it('shows, sorts and exports exactly the rows of the documented reply', () => allRows(live, 'arrays2'), 180_000);
});

describe('fetch count All with the compact rows, on PostgreSQL (lines of COPY text)', () => {
  const schema = `e2e_lines_${randomBytes(5).toString('hex')}`;
  // registered before the server's hooks: the schema is made before it starts and dropped after it stops
  beforeAll(() => onPostgres(schema, 'CREATE SCHEMA $schema'));
  afterAll(() => onPostgres(schema, 'DROP SCHEMA IF EXISTS $schema CASCADE'));
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const live = useServerAndBrowser({ LIST_STREAM_ABOVE_ROWS: '20', DATABASE_URL: url, SEED_TRANSACTIONS: '3000', SETTLEMENT_SCHEDULE: 'off' });
  it('shows, sorts and exports exactly the rows of the documented reply', () => allRows(live, 'lines3'), 180_000);
});

async function allRows(live: ReturnType<typeof useServerAndBrowser>, form: string) {
  const context = await live.browser.newContext({ baseURL: live.server.url, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, 'maker');
  await page.goto('/transaction/ceft');
  await tableRegion(page).waitFor();

  await page.getByLabel('From', { exact: true }).fill(`${format(subDays(new Date(), 120), 'yyyy-MM-dd')}T00:00:01`);
  await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
  const listCall = page.waitForRequest((r) => r.url().endsWith(PATH) && (r.postData() ?? '').includes('99999999'));
  await page.locator('form button[type="submit"]').click();
  const request: Request = await listCall;
  const response = (await request.response())!;
  // the console asked for the compact rows and the server sent them
  expect((await request.allHeaders())['x-list-rows']).toBe('lines3, arrays2');
  expect((await response.allHeaders())['x-list-rows']).toBe(form);

  // the documented reply of the same call (no header), for what the table must show
  const auth = (await request.allHeaders()).authorization;
  const documented = (await (
    await fetch(`${live.server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: auth }, body: request.postData() ?? '' })
  ).json()) as { data: { filteredList: Row[] } };
  const rows = documented.data.filteredList;
  expect(rows.length).toBeGreaterThan(50);

  await expect.poll(() => pagerText(page), { timeout: 60_000 }).toBe(`1–50 of ${rows.length}`);
  // the default sort, by ID: the first page is the 50 smallest ids
  const byId = [...rows].sort((a, b) => a.id - b.id);
  expect(await firstColumn(page)).toEqual(byId.slice(0, 50).map((r) => String(r.id)));

  // sorting the ID column the other way: the 50 largest ids
  const idHeader = tableRegion(page)
    .locator('thead th')
    .filter({ has: page.locator('button') })
    .first();
  await idHeader.locator('button').click();
  await expect.poll(() => idHeader.getAttribute('aria-sort')).toBe('descending');
  expect(await firstColumn(page)).toEqual(
    byId
      .slice(-50)
      .reverse()
      .map((r) => String(r.id)),
  );
  // the last page holds the smallest ids
  await page.getByRole('button', { name: 'Last page' }).click();
  await expect.poll(async () => (await firstColumn(page)).at(-1)).toBe(String(byId[0].id));

  // the Excel export of every row reads back with every id, and each id's trace and amount
  expect(await readExportItem(page, 'Download as Excel', (i) => i.innerText())).toBe(`Download as Excel (${rows.length.toLocaleString('en-US')} rows)`);
  const [download] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
  const lines = await sheetLines(download);
  const header = lines.findIndex((l) => l.startsWith('ID|Trace|'));
  expect(header).toBeGreaterThanOrEqual(0);
  const body = lines.slice(header + 1).map((l) => l.split('|'));
  expect(body).toHaveLength(rows.length);
  const amountAt = lines[header].split('|').findIndex((h) => /^Amount/.test(h));
  expect(amountAt).toBeGreaterThan(1);
  const byIdMap = new Map(rows.map((r) => [String(r.id), r]));
  expect(new Set(body.map((cells) => cells[0]))).toEqual(new Set(byIdMap.keys()));
  for (const cells of body) {
    const row = byIdMap.get(cells[0])!;
    expect(cells[1]).toBe(row.trace);
    expect(Number(cells[amountAt].replace(/,/g, ''))).toBeCloseTo(row.amount, 2);
  }

  // a row of the list opens in the drawer with the documented row's values (the row the last page ends with)
  const first = byId[0];
  await tableRegion(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('cell', { name: String(first.id), exact: true }) })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: `${title}: ID ${first.id}` });
  await drawer.waitFor();
  await drawer.getByRole('region', { name: 'Row details' }).getByText(first.trace, { exact: true }).waitFor();
  for (const key of ['status', 'currency_code', 'bank_name'] as const) {
    expect(await drawer.locator(`[data-field="${key}"]`).first().innerText(), key).toBe(first[key] ?? '');
  }
  await context.close();
}
