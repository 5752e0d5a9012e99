/**
 * Four eyes on large money actions in the one approvals inbox, in Chromium, with
 * MONEY_ACTION_APPROVAL_ABOVE_USD at 1: the maker refunds a send-money transaction from the row drawer
 * and is told it was sent for approval; a second demo maker (nimal_perera: the Maker role holds
 * transaction-refund but no approve permission) now has Approvals and Money Action Approvals in the
 * menu, sees the refund in /approvals (area Transaction, the trace, the maker, the action and amount),
 * and approves it there; the maker reads the outcome under My requests. With the setting off (the
 * other browser file's server, tests/e2e/approvals.test.ts) the entries are absent.
 */
import { describe, expect, it } from 'vitest';
import { format } from 'date-fns';
import { menuOf, newPage, screenshot, signIn, useServerAndBrowser } from './harness';
import { canRefundCardPayment } from '../../src/domain/transactionGuards';
import type { CeftRow } from '../../src/api/transactions';
import { formatMoney } from '../../src/domain/amounts';

const live = useServerAndBrowser({ PAYMENT_SIMULATOR_FAILURE_RATE: '0', MONEY_ACTION_APPROVAL_ABOVE_USD: '1' });

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

/** A send-money transaction from 30 to 90 days ago that the maker may refund (canRefundCardPayment). */
async function refundable(token: string): Promise<CeftRow> {
  const now = Date.now();
  const body = { from_date: format(new Date(now - 90 * DAY), LOCAL), to_date: format(new Date(now - 30 * DAY), LOCAL), country_code: '', data: '', status: '', fetchCount: 99999999 };
  const reply = await api('Transaction/get-ceftTransaction', body, token);
  expect(reply.statusCode).toBe(200);
  const maker = { username: 'maker', permissions: ['transaction-refund'] };
  const target = reply.data.filteredList.filter((r) => canRefundCardPayment({ row: r, user: maker, timeZone: 'UTC' })).pop();
  expect(target, 'a refundable send-money transaction in the demo data').toBeDefined();
  return target!;
}

describe('a large refund in the approvals inbox', () => {
  it('the maker refunds above the amount; a second holder of transaction-refund approves it in /approvals; the maker reads the outcome', async () => {
    const makerToken = (await api('auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
    const target = await refundable(makerToken);
    const maker = await newPage(live.browser, live.server.url);
    const checker = await newPage(live.browser, live.server.url);
    try {
      // the maker: find the transaction, Refund from its drawer: sent for approval, nothing moves
      const page = maker.page;
      await signIn(page, 'maker');
      const box = page.getByRole('combobox', { name: 'Find a transaction by trace, ID or UID' });
      await box.fill(target.trace);
      await box.press('Enter');
      await page
        .getByRole('listbox', { name: 'Transactions found' })
        .getByRole('option')
        .filter({ hasText: `ID ${target.id}` })
        .waitFor();
      await box.press('Enter');
      const drawer = page.getByRole('dialog', { name: `Send Money Transactions: ID ${target.id}` });
      await drawer.getByRole('group', { name: 'Row actions' }).getByRole('button', { name: 'Refund', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Warning!' })
        .getByRole('button', { name: `Refund ${formatMoney(target.amount, target.currency_code)}`, exact: true })
        .click();
      const sent = page.getByText(new RegExp(`^Refund of transaction ${target.id} \\(USD [\\d,.]+, above USD 1\\.00\\) sent for approval \\(change request #\\d+\\)$`));
      await sent.waitFor();
      const requestId = Number((await sent.innerText()).match(/#(\d+)\)$/)![1]);
      expect((await api('Transaction/find', { value: target.trace }, makerToken)).data.matches).toEqual([expect.objectContaining({ status: target.status })]);

      // the checker: a demo maker holding transaction-refund, not the maker; the menu offers the approvals while the setting is on
      const cp = checker.page;
      await signIn(cp, 'nimal_perera');
      const menu = await menuOf(cp);
      expect(menu.some((l) => /^Approvals/.test(l))).toBe(true);
      expect(menu).toContain('Money Action Approvals');
      const nav = cp.getByRole('navigation', { name: 'Main menu' });
      await nav.getByRole('link', { name: /^Approvals/ }).click();
      await cp.getByRole('heading', { name: 'Approvals' }).first().waitFor();
      const row = cp.getByRole('table', { name: 'Pending requests' }).locator(`[data-request="${requestId}"]`);
      await row.waitFor();
      const cells = await row.getByRole('cell').allInnerTexts();
      expect(cells[1]).toBe('Transaction');
      expect(cells[2]).toBe('REFUND');
      expect(cells[3]).toBe(`${target.trace} (#${target.id})`);
      expect(cells[4]).toBe('maker');
      expect(cells[5]).toMatch(/^\d+ min$/);
      expect(cells[6]).toMatch(/^Action: Refund, Amount: .+ \(USD [\d,.]+\)$/);
      await expect.poll(() => nav.locator('[data-area-count="Transaction"]').innerText()).toMatch(/Transaction\s+[1-9]/);
      await screenshot(cp, 'money-approvals-inbox');

      // approve it in the same modal, with a comment: the refund runs then
      await row.getByRole('button', { name: `View request #${requestId}` }).click();
      // the dialog names the action, not EDIT
      const dialog = cp.getByRole('dialog', { name: /REFUND/ });
      await dialog.getByText('Refund').first().waitFor();
      await dialog.getByLabel(/^Comment/).fill('Customer confirmed by phone');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await cp.getByText(`Approved: Transaction refunded successfully: Id - ${target.id}`).waitFor();
      await expect.poll(() => row.count()).toBe(0);
      await expect.poll(async () => (await api('Transaction/find', { value: target.trace }, makerToken)).data.matches).toEqual([expect.objectContaining({ status: 'REFUNDED' })]);

      // the maker's side: the outcome and the comment under My requests
      await page.keyboard.press('Escape');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My requests' }).click();
      const mine = page.getByRole('table', { name: 'My requests' }).getByRole('row').filter({ hasText: target.trace });
      await mine.first().waitFor();
      expect(await mine.first().innerText()).toMatch(/Approved by nimal_perera[\s\S]*Customer confirmed by phone/);
      await screenshot(page, 'money-approvals-my-requests');
    } catch (err) {
      await screenshot(maker.page, 'money-approvals-failed-maker').catch(() => {});
      await screenshot(checker.page, 'money-approvals-failed-checker').catch(() => {});
      throw err;
    } finally {
      await maker.context.close();
      await checker.context.close();
    }
  }, 180_000);
});
