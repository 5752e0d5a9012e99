/**
 * The business time zone in Chromium, with the browser, the server process and the business in
 * different zones, both ways round: the console shows the zone once, starts its filters on the
 * business day, shows times in the business zone, and offers on a send-money row exactly the one of
 * Void and Refund the server accepts (the case: a row whose card was paid on another day in
 * the browser's zone than in the business zone), and the server accepts it.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { useServerAndBrowser, signIn, screenshot, type RunningServer } from './harness';
import { businessDateTime, businessTodayRange, displayDateTime, isSameBusinessDay, timeZoneNote } from '../../src/domain/businessTime';
import { canVoidOrRefund } from '../../src/domain/transactionGuards';
import type { CeftRow } from '../../src/api/transactions';

async function api(server: RunningServer, path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: Record<string, unknown> & { filteredList: CeftRow[] } };
}

/** Void (paid on the business day of `now` in `zone`) rather than Refund: the spec's rule, computed here on its own. */
const paidToday = (r: CeftRow, zone: string, now: Date) => r.card_payment_time !== null && isSameBusinessDay(new Date(r.card_payment_time), now, zone);
const formatDateTime = (iso: string, zone: string) => displayDateTime(new Date(iso), zone);

const maker = { username: 'maker', permissions: ['transaction-refund', 'transaction-hold', 'transaction-retry'] };

function scenario(name: string, serverZone: string, businessZone: string, browserZone: string) {
  describe(name, () => {
    const live = useServerAndBrowser({ TZ: serverZone, BUSINESS_TIME_ZONE: businessZone, PAYMENT_SIMULATOR_FAILURE_RATE: '0' });

    async function open(browser: Browser) {
      const context = await browser.newContext({ baseURL: live.server.url, timezoneId: browserZone, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      // the browser really is in its own zone
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(browserZone);
      return { context, page };
    }

    it('names the zone, starts the filters on the business day and shows times in the business zone', async () => {
      const { context, page } = await open(live.browser);
      await signIn(page, 'maker');
      await page.goto('/transaction/ceft');
      await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
      const note = page.getByTestId('business-time-zone');
      await note.waitFor();
      expect(await note.innerText()).toBe(timeZoneNote(businessZone));
      const today = businessTodayRange(new Date(), businessZone);
      expect((await page.getByLabel('From', { exact: true }).inputValue()).slice(0, 10)).toBe(today.from.slice(0, 10));
      expect((await page.getByLabel('To', { exact: true }).inputValue()).slice(0, 10)).toBe(today.to.slice(0, 10));

      // the first row of today's list shows its initiated time in the business zone
      const token = (await api(live.server, 'auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
      const reply = await api(live.server, 'Transaction/get-ceftTransaction', { from_date: today.from, to_date: today.to, country_code: '', data: '', status: '', fetchCount: 10 }, token);
      expect(reply.statusCode).toBe(200);
      const first = reply.data.filteredList[0];
      if (first) {
        expect(formatDateTime(first.initiated_time, businessZone).slice(0, 10)).toBe(today.from.slice(0, 10));
        await page.getByRole('cell', { name: formatDateTime(first.initiated_time, businessZone), exact: true }).first().waitFor();
      }
      await screenshot(page, `business-time-${browserZone.replace('/', '-')}`);
      await context.close();
    });

    it('offers the one of Void and Refund the server accepts, and the server accepts it', async () => {
      const token = (await api(live.server, 'auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
      const now = new Date();
      const from = businessDateTime(new Date(now.getTime() - 2 * 86_400_000), businessZone);
      const reply = await api(live.server, 'Transaction/get-ceftTransaction', { from_date: from, to_date: businessDateTime(now, businessZone), country_code: '', data: '', status: '', fetchCount: 99999999 }, token);
      expect(reply.statusCode).toBe(200);
      const allowed = reply.data.filteredList.filter((r) => canVoidOrRefund({ row: r, user: maker, timeZone: businessZone } as Parameters<typeof canVoidOrRefund>[0]));
      // the case: paid on another day in the browser's zone than in the business zone
      const differing = allowed.filter((r) => paidToday(r, businessZone, now) !== paidToday(r, browserZone, now));
      const target = differing[0] ?? allowed[0];
      expect(target, 'a send-money row whose refund was requested').toBeDefined();
      console.log(`${name}: ${differing.length} of ${allowed.length} reversible rows are paid on another day in the browser's zone`);
      const isVoid = paidToday(target!, businessZone, now);
      const [offered, other] = isVoid ? ['Void', 'Refund'] : ['Refund', 'Void'];

      const { context, page } = await open(live.browser);
      await signIn(page, 'maker');
      await page.goto('/transaction/ceft');
      await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
      // the range is typed in the business zone's wall clock, as displayed
      const at = new Date(target!.initiated_time);
      await page.getByLabel('From', { exact: true }).fill(businessDateTime(new Date(at.getTime() - 60_000), businessZone));
      await page.getByLabel('To', { exact: true }).fill(businessDateTime(new Date(at.getTime() + 60_000), businessZone));
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(target!.id), exact: true }) });
      await row.first().waitFor();
      await row.getByRole('button', { name: offered, exact: true }).waitFor();
      expect(await row.getByRole('button', { name: other, exact: true }).count()).toBe(0);
      await row.getByRole('button', { name: offered, exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await page.getByText(`Transaction ${isVoid ? 'voided' : 'refunded'} successfully: Id - ${target!.id}`).waitFor();
      await context.close();
    });
  });
}

scenario('browser in UTC, server in UTC, business in Asia/Colombo', 'UTC', 'Asia/Colombo', 'UTC');
scenario('browser in Asia/Colombo, server in Asia/Colombo, business in America/New_York', 'Asia/Colombo', 'America/New_York', 'Asia/Colombo');
