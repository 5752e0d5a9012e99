/**
 * The transaction views end to end in Chromium: filter a day, expand a panel, hold a transaction as
 * maker and see the list reload, export Excel and PDF and read them back, the auditor's Refunded tab,
 * and a screenshot of every transaction screen (test-results/).
 */
import { describe, expect, it } from 'vitest';
import { sheetLines } from './downloads';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { format } from 'date-fns';
import type { Page } from 'playwright-core';
import { menuOf, newPage, screenshot, signIn, useServerAndBrowser } from './harness';
import { exportItem, readExportItem } from './exportMenu';
import { canHoldFundTransfer } from '../../src/domain/transactionGuards';
import type { CeftRow } from '../../src/api/transactions';
import { formatAmount, formatMoney } from '../../src/domain/amounts';

const live = useServerAndBrowser({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });

const LOCAL = "yyyy-MM-dd'T'HH:mm:ss";

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${live.server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: Record<string, unknown> & { filteredList: CeftRow[] } };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, standardFontDataUrl: join(root, 'standard_fonts') + '/' }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str + (item.hasEOL ? '\n' : ' '));
  }
  return parts.join('');
}

/** Runs the search and waits for its reply (the exports are enabled again once it is in). */
async function search(page: Page) {
  await page.getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled()), { timeout: 15_000 }).toBe(true);
}

/** Sets the From and To pickers and the fetch count. */
async function filterRange(page: Page, from: Date, to: Date, fetchCount = 'All') {
  await page.getByLabel('From', { exact: true }).fill(format(from, LOCAL));
  await page.getByLabel('To', { exact: true }).fill(format(to, LOCAL));
  await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: fetchCount });
}

function table(page: Page) {
  return page.getByRole('table', { name: /Send Money Transactions|Bill Payments|Thyaga|E-Channelling|Insurance/ });
}

/** The texts of one column of the table's current page. */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = await table(page).locator('thead th').allInnerTexts();
  const index = headers.findIndex((h) => h.replace(/[▲▼↕]/g, '').trim() === header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return table(page)
    .locator(`tbody tr td:nth-child(${index + 1})`)
    .allInnerTexts();
}

describe('send money as maker', () => {
  it('filters a day, expands a panel, and exports Excel and PDF that read back', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    expect(await menuOf(page)).toEqual(expect.arrayContaining(['Send Money', 'Bill Payments', 'Thyaga', 'E-Channelling', 'Insurance']));
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Send Money', exact: true }).click();
    await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
    for (const card of ['Success', 'Pending', 'Failed', 'Refunded']) await page.getByText(card, { exact: true }).first().waitFor();
    await page.getByText('Displaying only the total value of successful transactions.').waitFor();
    await page.getByLabel('UID/NIC/Trace/Account Number', { exact: true }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Country', exact: true }).locator('option').first().innerText()).toBe('All Countries');

    // a day three days ago
    const day = new Date();
    day.setDate(day.getDate() - 3);
    const from = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 0, 0, 0);
    const to = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 23, 59, 59);
    await filterRange(page, from, to);
    // exports and Clear wait for the search
    await expect(readExportItem(page, 'Download as Excel', (i) => i.isDisabled())).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Clear All Filters' }).isDisabled()).resolves.toBe(true);
    await search(page);
    const url = new URL(page.url());
    // the range as the fields show it once committed: From at second 01, To at second 00
    expect(url.searchParams.get('from_date')).toBe(format(from, "yyyy-MM-dd'T'HH:mm:01"));
    expect(url.searchParams.get('to_date')).toBe(format(to, "yyyy-MM-dd'T'HH:mm:00"));
    const times = await columnTexts(page, 'Initiated Time');
    expect(times.length).toBeGreaterThan(0);
    for (const t of times) expect(t.slice(0, 10)).toBe(format(day, 'yyyy-MM-dd'));

    const panelButton = table(page).getByRole('button', { name: 'IPG Deduction Details: click to view' }).first();
    expect(await panelButton.getAttribute('title')).toBe('Click to view');
    await panelButton.click();
    await table(page).getByText('Beneficiary Received Amount (LKR)').first().waitFor();
    await screenshot(page, 'transactions-ceft-day-panel');

    const [xlsx] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^ceftTransactions_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.xlsx$/);
    const lines = await sheetLines(xlsx);
    expect(lines[0]).toBe('Send Money Transactions');
    expect(lines[1]).toMatch(/^On \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} by maker\. Times in \S+ \(UTC[+-]\d{2}:\d{2}\)$/);
    expect(lines[2]).toBe(`Duration: ${format(from, 'yyyy-MM-dd HH:mm:01')} to ${format(to, 'yyyy-MM-dd HH:mm:00')}`);
    const header = lines.find((l) => l.startsWith('ID|Trace|UID/NIC|Country|Tran Type|Bank|'));
    expect(header).toContain('|Exchange Rate (LKR)|IPG Rate (%)|IPG Commission|Bank Charge|Refund Commission (%)|Beneficiary Received Amount (LKR)|');
    const body = lines.slice(lines.indexOf(header!) + 1);
    const total = Number((await page.getByRole('navigation', { name: 'Pagination' }).innerText()).match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThanOrEqual(times.length);
    expect(body).toHaveLength(total);

    const [pdf] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as PDF')).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^ceftTransactions_.*\.pdf$/);
    const text = await pdfText(new Uint8Array(readFileSync(await pdf.path())));
    expect(text).toContain('Send Money Transactions');
    expect(text).toMatch(/On \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} by maker/);
    await context.close();
  });

  it('toggles a header between its two sorts, and keeps the sort the user chose through a search whose rows stream in', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    await page.goto('/transaction/ceft');
    await expect.poll(() => table(page).locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const idHeader = table(page).locator('thead th').filter({ hasText: /^ID/ });
    // ID starts sorted A→Z; its header toggles between the two directions, never to unsorted
    expect(await idHeader.getAttribute('aria-sort')).toBe('ascending');
    for (const direction of ['descending', 'ascending', 'descending']) {
      await idHeader.getByRole('button').click();
      await expect.poll(() => idHeader.getAttribute('aria-sort')).toBe(direction);
    }
    // fetch count All over a year: the reply streams, its first page (under the default sort) shows first
    const to = new Date();
    await filterRange(page, new Date(to.getTime() - 365 * 86_400_000), to);
    await search(page);
    await expect.poll(() => idHeader.getAttribute('aria-sort')).toBe('descending');
    const ids = (await columnTexts(page, 'ID')).map(Number);
    expect(ids.length).toBe(50);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const total = Number((await page.getByRole('navigation', { name: 'Pagination' }).innerText()).match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThan(5000);
    await context.close();
  });

  it('holds a transaction with a reason after the Warning! dialog says what will happen, and the list reloads', async () => {
    // find a transaction the maker may hold, through the API
    const token = (await api('auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
    const now = new Date();
    const wide = { from_date: format(new Date(now.getTime() - 60 * 86_400_000), LOCAL), to_date: format(now, LOCAL), country_code: '', data: '', status: 'PENDING', fetchCount: 99999999 };
    const reply = await api('Transaction/get-ceftTransaction', wide, token);
    const maker = { username: 'maker', permissions: ['transaction-hold'] };
    const target = reply.data.filteredList.filter((r) => canHoldFundTransfer({ row: r, user: maker, timeZone: 'Asia/Colombo' })).pop();
    expect(target).toBeDefined();

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    await page.goto('/transaction/ceft');
    await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
    const at = new Date(target!.initiated_time);
    await filterRange(page, new Date(at.getTime() - 60_000), new Date(at.getTime() + 60_000));
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('PENDING');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = table(page)
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: String(target!.id), exact: true }) });
    await row.waitFor();
    const hold = row.getByRole('button', { name: 'Hold', exact: true });
    expect(await hold.getAttribute('data-tone')).toBe('danger');
    await hold.click();
    const dialog = page.getByRole('dialog', { name: 'Warning!' });
    // the specification's sentence, word for word, then the summary and the verb
    await dialog.getByText(`Taking this action will hold the fund-transfer of the customer (Tran ID - ${target!.id}). Do you want to continue?`, { exact: true }).waitFor();
    const summary = dialog.locator('[data-confirm-summary]');
    const facts = await summary.locator('dt').allInnerTexts();
    const values = await summary.locator('dd').allInnerTexts();
    expect(Object.fromEntries(facts.map((f, i) => [f, values[i]]))).toEqual({
      'Tran ID': String(target!.id),
      Trace: target!.trace,
      Amount: formatMoney(target!.amount, target!.currency_code),
      'Customer (NIC/Passport)': target!.uid,
      'Beneficiary account': `${target!.account_number} at ${target!.bank_name}`,
    });
    expect(await summary.locator('[data-confirm-effect]').innerText()).toBe(
      'The payout to the beneficiary is stopped and the transaction shows HOLD; no money moves. A manual fund transfer can still pay it later.',
    );
    const confirm = dialog.getByRole('button', { name: 'Hold transaction', exact: true });
    await confirm.waitFor();
    expect(await dialog.getByRole('button', { name: 'Yes' }).count()).toBe(0);
    await screenshot(page, 'transactions-ceft-hold-dialog');

    // Cancel gives the focus back to the row's Hold button
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hold.evaluate((el) => el === document.activeElement)).toBe(true);

    // the reason: longer than the call takes is refused before anything is sent, with the server's message
    const holdCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/Transaction/ceft/hold')) holdCalls.push(r.postData() ?? '');
    });
    await hold.click();
    const reasonBox = dialog.getByLabel('Reason (optional)', { exact: true });
    await reasonBox.fill('z'.repeat(201));
    await dialog.getByText('201/200 characters').waitFor();
    await confirm.click();
    await dialog.getByRole('alert').filter({ hasText: 'Hold reason can have at most 200 characters' }).waitFor();
    expect(holdCalls).toEqual([]);

    // a failed call keeps the dialog and the reason, and shows the server's message
    const reason = 'Beneficiary name does not match the account holder';
    await reasonBox.fill(`  ${reason} `);
    const refusal = 'Hold refused: the transfer is already in the clearing cycle';
    await page.route('**/api/Transaction/ceft/hold', (route) => route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ statusCode: 422, data: { message: refusal } }) }));
    await confirm.click();
    await dialog.getByRole('alert').filter({ hasText: refusal }).waitFor();
    expect(await reasonBox.inputValue()).toBe(`  ${reason} `);
    await page.unroute('**/api/Transaction/ceft/hold');

    // the retry holds it, with the reason
    await confirm.click();
    await page.getByText(`Transaction hold successful: Id - ${target!.id}`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(holdCalls.map((b) => JSON.parse(b))).toEqual([
      { id: target!.id, description: reason },
      { id: target!.id, description: reason },
    ]);
    // the list reloads: the status filter is PENDING, so the held transaction leaves the list
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => row.getByText('HOLD', { exact: true }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // the server kept the reason: the row's CEFT payment description says who held it and why
    await row.getByText(`Held by maker: ${reason}`, { exact: true }).waitFor();
    await screenshot(page, 'transactions-ceft-after-hold');

    // the row drawer: amount and currency on top, the statuses as tags, the reason among the fields
    await page.goto(`/transaction/ceft?find=ceft:${target!.id}`);
    const drawer = page.getByRole('dialog', { name: `Send Money Transactions: ID ${target!.id}` });
    const head = drawer.getByRole('group', { name: 'Summary' });
    await head.waitFor();
    expect(await head.locator('[data-summary="amount"]').innerText()).toBe(formatAmount(target!.amount));
    expect(await head.locator('[data-summary="currency"]').innerText()).toBe(target!.currency_code);
    expect(await head.locator('[data-summary-status="ceft_payment_status"]').innerText()).toMatch(/^CEFT Payment Status\s+HOLD$/);
    expect(await head.locator('[data-summary-status="status"]').innerText()).toMatch(/^Status\s+HOLD$/);
    expect(await drawer.locator('[data-field="ceft_payment_description"]').innerText()).toBe(`Held by maker: ${reason}`);
    await screenshot(page, 'transactions-ceft-held-drawer');
    await context.close();
  });
});

describe('every transaction screen', () => {
  it('shows the operational screens to admin and the auditor screens to the auditor', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    for (const [route, title, name] of [
      ['/transaction/bill', 'Bill Payments', 'bill'],
      ['/transaction/thyaga', 'Thyaga', 'thyaga'],
      ['/transaction/eChannelling', 'E-Channelling', 'echannelling'],
      ['/transaction/insurance', 'Insurance', 'insurance'],
    ] as const) {
      await page.goto(route);
      await page.getByRole('heading', { name: title }).waitFor();
      await expect.poll(() => table(page).locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await page.getByText('Displaying only the total value of successful transactions.').waitFor();
      await screenshot(page, `transactions-${name}`);
    }
    // the insurance dependants open in a panel
    await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
    const day = new Date();
    await filterRange(page, new Date(day.getTime() - 30 * 86_400_000), day);
    await search(page);
    const dependants = table(page).getByRole('button', { name: 'Dependents Detail: click to view' }).first();
    await dependants.click();
    await table(page).getByText('Relation Type:').first().waitFor();
    await screenshot(page, 'transactions-insurance-dependants');
    await context.close();

    const auditor = await newPage(live.browser, live.server.url);
    await signIn(auditor.page, 'auditor');
    expect(await menuOf(auditor.page)).toEqual(expect.arrayContaining(['Send Money', 'Bill Payments', 'Thyaga', 'E-Channelling']));
    for (const [route, title, name] of [
      ['/AuditerBillPayments', 'Bill Payments', 'audit-bill'],
      ['/AuditerThyaga', 'Thyaga', 'audit-thyaga'],
      ['/AuditerEChanneling', 'E-Channelling', 'audit-echannelling'],
    ] as const) {
      await auditor.page.goto(route);
      await auditor.page.getByRole('heading', { name: title }).waitFor();
      await expect.poll(() => table(auditor.page).locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await screenshot(auditor.page, `transactions-${name}`);
    }
    // E-Channelling for the auditor has no fetch count
    await expect(auditor.page.getByLabel('Fetch Count', { exact: true }).count()).resolves.toBe(0);
    await auditor.page.goto('/AllCeftTransactions');
    await auditor.page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
    await auditor.page.getByLabel('NIC/Passport/Trace/Account Number', { exact: true }).waitFor();
    await expect(auditor.page.getByRole('columnheader', { name: 'Action', exact: true }).count()).resolves.toBe(0); // no action permissions
    await screenshot(auditor.page, 'transactions-audit-ceft');
    await auditor.page.getByRole('tab', { name: 'Refunded' }).click();
    await auditor.page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
    await filterRange(auditor.page, new Date(day.getTime() - 60 * 86_400_000), day);
    await search(auditor.page);
    await expect.poll(() => auditor.page.getByText(/Total Amount:\s*[\d,]+\.\d{2} LKR/).count(), { timeout: 15_000 }).toBe(1);
    const statuses = await columnTexts(auditor.page, 'Status');
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['REFUNDED']));
    await screenshot(auditor.page, 'transactions-audit-ceft-refunded');
    // the operational screens are not for the auditor
    await auditor.page.goto('/transaction/ceft');
    await auditor.page.getByText('You do not have permission to view this page.').waitFor();
    await auditor.context.close();
  });
});
