/**
 * Find by trace from the top bar and act from the row drawer, in Chromium: the maker
 * presses Ctrl+K (the command palette), types the trace of a 30-day-old send-money transaction (outside the lists' default
 * range of today), opens it with Enter, the drawer shows its fields and survives a reload (the URL
 * names the row), and the refund is made from the drawer after the same Warning! as the list's; the
 * drawer then shows the row as the server has it. The same row opens from a list row with Enter.
 */
import { describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { newPage, screenshot, signIn, useServerAndBrowser } from './harness';
import { canRefundCardPayment } from '../../src/domain/transactionGuards';
import type { CeftRow } from '../../src/api/transactions';
import { formatAmount, formatMoney } from '../../src/domain/amounts';

const live = useServerAndBrowser({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });

const LOCAL = "yyyy-MM-dd'T'HH:mm:ss";
const DAY = 86_400_000;

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${live.server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: Record<string, unknown> & { filteredList: CeftRow[] } };
}

/**
 * The newest send-money transaction initiated at least 30 days ago that the maker may refund (guard
 * canRefundCardPayment: a refund requested, nothing settled yet); few demo rows are, so it is looked
 * for from 30 to 90 days back.
 */
async function refundableThirtyDaysOld(token: string): Promise<CeftRow> {
  const now = Date.now();
  const body = { from_date: format(new Date(now - 90 * DAY), LOCAL), to_date: format(new Date(now - 30 * DAY), LOCAL), country_code: '', data: '', status: '', fetchCount: 99999999 };
  const reply = await api('Transaction/get-ceftTransaction', body, token);
  expect(reply.statusCode).toBe(200);
  const maker = { username: 'maker', permissions: ['transaction-refund'] };
  const target = reply.data.filteredList.filter((r) => canRefundCardPayment({ row: r, user: maker, timeZone: 'UTC' })).pop();
  expect(target, 'a refundable send-money transaction at least 30 days old in the demo data').toBeDefined();
  const age = (now - new Date(target!.initiated_time).getTime()) / DAY;
  expect(age).toBeGreaterThanOrEqual(30);
  expect(age).toBeLessThan(90);
  return target!;
}

describe('find by trace from the top bar', () => {
  it('finds a 30-day-old transaction by trace, opens its drawer with Enter, and refunds it from the drawer', async () => {
    const token = (await api('auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
    const target = await refundableThirtyDaysOld(token);

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const box = page.getByRole('combobox', { name: 'Find a transaction by trace, ID or UID' });
    await box.waitFor();
    // Ctrl+K from anywhere opens the command palette; a trace typed there and Enter goes to the search
    await page.getByRole('heading').first().click();
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').waitFor();
    await page.keyboard.type(target.trace);
    await page.keyboard.press('Enter');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);

    const results = page.getByRole('listbox', { name: 'Transactions found' });
    const option = results.getByRole('option').filter({ hasText: `ID ${target.id}` });
    await option.waitFor();
    expect(await results.getByRole('option').count()).toBe(1);
    const optionText = await option.innerText();
    expect(optionText).toContain('Send Money');
    expect(optionText).toContain(`Trace ${target.trace}`);
    expect(optionText).toContain(target.status);
    await screenshot(page, 'finder-results');
    await page.keyboard.press('Enter');

    const drawer = page.getByRole('dialog', { name: `Send Money Transactions: ID ${target.id}` });
    await drawer.waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('find')).toBe(`ceft:${target.id}`);
    const details = drawer.getByRole('region', { name: 'Row details' });
    await details.getByText(target.trace, { exact: true }).waitFor();
    // labels from the screen's columns, panels as sections, copy buttons on identifiers
    await details.getByText('UID/NIC', { exact: true }).waitFor();
    for (const section of ['Details', 'IPG Deduction Details', 'Void Details', 'Refund Details']) await drawer.getByRole('region', { name: section, exact: true }).waitFor();
    for (const copy of ['Copy ID', 'Copy Trace', 'Copy UID/NIC']) await drawer.getByRole('button', { name: copy, exact: true }).waitFor();
    await screenshot(page, 'finder-drawer');

    // the URL names the row: a reload opens it again
    await page.reload();
    await drawer.waitFor();
    await details.getByText(target.trace, { exact: true }).waitFor();

    // the head: the amount and its currency, the statuses as tags
    const head = drawer.getByRole('group', { name: 'Summary' });
    expect(await head.locator('[data-summary="amount"]').innerText()).toBe(formatAmount(target.amount));
    expect(await head.locator('[data-summary="currency"]').innerText()).toBe(target.currency_code);
    expect(await head.locator('[data-summary-status="card_payment_status"]').innerText()).toMatch(/^Card Payment Status\s+SUCCESS$/);
    expect(await head.locator('[data-summary-status="status"]').innerText()).toMatch(new RegExp(`^Status\\s+${target.status}$`));

    // the row's actions, as buttons (money actions in the danger style), with the list's guards and confirmation
    const actions = drawer.getByRole('group', { name: 'Row actions' });
    const refund = actions.getByRole('button', { name: 'Refund', exact: true });
    expect(await refund.getAttribute('data-tone')).toBe('danger');
    await refund.click();
    const warning = page.getByRole('dialog', { name: 'Warning!' });
    await warning.getByText(`Taking this action will refund the card payment of the customer (Tran ID - ${target.id}). Do you want to continue?`, { exact: true }).waitFor();
    const summary = await warning.locator('[data-confirm-summary]').innerText();
    for (const part of [formatMoney(target.amount, target.currency_code), target.uid, target.trace, "refunded to the customer's card"]) expect(summary).toContain(part);
    // Cancel gives the focus back to the drawer's Refund button
    await warning.getByRole('button', { name: 'Cancel', exact: true }).click();
    await warning.waitFor({ state: 'detached' });
    await expect.poll(() => refund.evaluate((el) => el === document.activeElement)).toBe(true);
    await refund.click();
    await warning.getByRole('button', { name: `Refund ${formatMoney(target.amount, target.currency_code)}`, exact: true }).click();
    await page.getByText(`Transaction refunded successfully: Id - ${target.id}`).waitFor();
    // the drawer reads the row again: refunded, and no refund is offered any more
    await expect.poll(async () => drawer.locator('[data-field="status"]').innerText(), { timeout: 10_000 }).toBe('REFUNDED');
    await expect.poll(() => head.locator('[data-summary-status="status"]').innerText()).toMatch(/REFUNDED$/);
    await expect.poll(() => drawer.locator('[data-field="ipg_refund_status"]').innerText()).toBe('SUCCESS');
    expect(await actions.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    await screenshot(page, 'finder-drawer-refunded');

    // the server holds the refund
    const again = await api('Transaction/find', { value: target.trace }, token);
    expect((again.data as unknown as { matches: { status: string }[] }).matches.map((m) => m.status)).toEqual(['REFUNDED']);

    // Escape closes the drawer and the URL forgets the row
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('find')).toBeNull();
    await context.close();
  });

  it('opens a list row in the drawer with Enter, named in the URL', async () => {
    const token = (await api('auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
    const reply = await api('Transaction/find', { value: '1', service: 'ceft', by: 'id' }, token);
    const row = (reply.data as unknown as { matches: { row: CeftRow }[] }).matches[0].row;
    const at = new Date(row.initiated_time);
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const search = new URLSearchParams({ from_date: format(new Date(at.getTime() - 60_000), LOCAL), to_date: format(new Date(at.getTime() + 60_000), LOCAL), fetchCount: '99999999', data: row.trace });
    await page.goto(`/transaction/ceft?${search}`);
    const tableRow = page
      .getByRole('table', { name: 'Send Money Transactions' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: row.trace, exact: true }) });
    await tableRow.waitFor();
    await tableRow.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: `Send Money Transactions: ID ${row.id}` });
    await drawer.waitFor();
    expect(new URL(page.url()).searchParams.get('row')).toBe(String(row.id));
    await drawer.getByRole('region', { name: 'Row details' }).getByText(row.trace, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('row')).toBeNull();
    // the filters stay
    expect(new URL(page.url()).searchParams.get('data')).toBe(row.trace);
    await context.close();
  });
});

describe('the change-request panel and comparison', () => {
  it('names the record, and shows only the changed currency row as old -> new until Changes only is turned off', async () => {
    // the IPG bank officer of provider 7010 changes one rate (one change request for the whole list)
    const officer = (await api('auth/login', { username: 'kasun_herath', password: 'Demo@Pass1' })).data.token as string;
    const list = (await api('IPGProvider/currency/list', { provider_bank_code: '7010' }, officer)) as unknown as {
      data: { currencies: { currency_code: string; transaction_rate: number; settlement_rate: number; disabled: number }[] };
    };
    const currencies = list.data.currencies;
    expect(currencies.length).toBeGreaterThan(2);
    const changed = currencies[0];
    const newRate = Math.round((changed.transaction_rate + 1.2345) * 10_000) / 10_000;
    const saved = await api(
      'IPGProvider/currency/save',
      {
        provider_bank_code: '7010',
        currencies: currencies.map((c) => ({
          disabled: c.disabled === 0 ? 0 : 1,
          provider_bank_code: '7010',
          currency_code: c.currency_code,
          transaction_rate: c.currency_code === changed.currency_code ? newRate : c.transaction_rate,
          settlement_rate: c.settlement_rate,
        })),
      },
      officer,
    );
    expect(saved.statusCode).toBe(200);

    // the IPG bank checker of the same provider reviews it
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'ruvini_a');
    await page.goto('/ipgProviderCurrencies');
    const panel = page.getByRole('region', { name: 'Change Requests' });
    const request = panel.getByRole('row').filter({ hasText: 'EDIT' }).first();
    await request.getByText('(7010)').waitFor();
    const headers = await panel.getByRole('columnheader').allInnerTexts();
    expect(headers.slice(0, 3)).toEqual(['#', 'Record', 'Pending Action']);
    await request.getByRole('button', { name: 'View' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`1 of ${currencies.length} rows changed (unchanged rows hidden)`).waitFor();
    const bodyRows = dialog.locator('tr[data-row]');
    await expect(bodyRows.count()).resolves.toBe(1);
    const row = dialog.locator(`tr[data-row="${changed.currency_code}"]`);
    expect(await row.getAttribute('data-change')).toBe('changed');
    const formatted = (n: number) => String(n);
    await expect(row.locator('[data-old]').innerText()).resolves.toBe(formatted(changed.transaction_rate));
    await expect(row.locator('[data-new]').innerText()).resolves.toBe(formatted(newRate));
    await screenshot(page, 'finder-change-request-changes-only');
    // every row when asked
    await dialog.getByLabel('Changes only').uncheck();
    await expect.poll(() => bodyRows.count()).toBe(currencies.length);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await context.close();
  });
});
