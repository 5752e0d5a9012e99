/**
 * The business time zone in Chromium, with the browser, the server process and the business in
 * different zones, both ways round: the console shows the zone once, starts its filters on the
 * business day, shows times in the business zone, and offers on a send-money row exactly the one of
 * Void and Refund the server accepts (the case: a row whose card was paid on another day in
 * the browser's zone than in the business zone), and the server accepts it. The Excel and PDF
 * exports, built in the browser's worker, carry the business zone too: the 'On' line names it, the file
 * name's stamp and every date cell are in it.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { useServerAndBrowser, signIn, screenshot, type RunningServer } from './harness';
import { rowAction, rowActionCount } from './rowMenu';
import { exportItem, readExportItem } from './exportMenu';
import { pdfText, sheetLines } from './downloads';
import { businessDateTime, businessTodayRange, displayDateTime, isSameBusinessDay, timeZoneNote } from '../../src/domain/businessTime';
import { canVoidOrRefund } from '../../src/domain/transactionGuards';
import type { CeftRow } from '../../src/api/transactions';
import { wireFrom, wireTo } from '../../src/domain/dates';
import { formatMoney } from '../../src/domain/amounts';

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
/** A date cell as the table and the exports show it: '-' for a placeholder time (before year 1000). */
const dateCell = (iso: string, zone: string) => (new Date(iso).getUTCFullYear() < 1000 ? '-' : displayDateTime(new Date(iso), zone));

const maker = { username: 'maker', permissions: ['transaction-refund', 'transaction-hold', 'transaction-retry'] };

function scenario(name: string, serverZone: string, businessZone: string, browserZone: string) {
  describe(name, () => {
    const live = useServerAndBrowser({ TZ: serverZone, BUSINESS_TIME_ZONE: businessZone, PAYMENT_SIMULATOR_FAILURE_RATE: '0' });

    async function open(browser: Browser) {
      const context = await browser.newContext({ baseURL: live.server.url, timezoneId: browserZone, acceptDownloads: true, viewport: { width: 1440, height: 900 } });
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
        await page
          .getByRole('cell', { name: formatDateTime(first.initiated_time, businessZone), exact: true })
          .first()
          .waitFor();
      }
      await screenshot(page, `business-time-${browserZone.replace('/', '-')}`);
      await context.close();
    });

    it('offers the one of Void and Refund the server accepts, and the server accepts it', async () => {
      const token = (await api(live.server, 'auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
      const now = new Date();
      const from = businessDateTime(new Date(now.getTime() - 2 * 86_400_000), businessZone);
      const reply = await api(
        live.server,
        'Transaction/get-ceftTransaction',
        { from_date: from, to_date: businessDateTime(now, businessZone), country_code: '', data: '', status: '', fetchCount: 99999999 },
        token,
      );
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
      await expect.poll(() => rowActionCount(page, row, offered), { timeout: 15_000 }).toBe(1);
      expect(await rowActionCount(page, row, other)).toBe(0);
      await (await rowAction(page, row, offered)).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: `${offered} ${formatMoney(target!.amount, target!.currency_code)}`, exact: true })
        .click();
      await page.getByText(`Transaction ${isVoid ? 'voided' : 'refunded'} successfully: Id - ${target!.id}`).waitFor();
      await context.close();
    });

    it("exports in the business zone: the 'On' line names it, the file name and every date cell are in it", async () => {
      const token = (await api(live.server, 'auth/login', { username: 'maker', password: 'Demo@Pass1' })).data.token as string;
      const now = new Date();
      const range = { from: businessDateTime(new Date(now.getTime() - 2 * 86_400_000), businessZone), to: businessDateTime(now, businessZone) };
      const reply = await api(live.server, 'Transaction/get-ceftTransaction', { from_date: range.from, to_date: range.to, country_code: '', data: '', status: '', fetchCount: 99999999 }, token);
      expect(reply.statusCode).toBe(200);
      const byId = new Map(reply.data.filteredList.map((r) => [String(r.id), r]));
      expect(byId.size).toBeGreaterThan(0);

      const { context, page } = await open(live.browser);
      try {
        await signIn(page, 'maker');
        await page.goto('/transaction/ceft');
        await page.getByRole('heading', { name: 'Send Money Transactions' }).waitFor();
        await page.getByLabel('From', { exact: true }).fill(range.from);
        await page.getByLabel('To', { exact: true }).fill(range.to);
        await page.getByLabel('Fetch Count', { exact: true }).selectOption({ label: 'All' });
        await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/Transaction/get-ceftTransaction')), page.getByRole('button', { name: 'Search' }).click()]);
        await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled()), { timeout: 30_000 }).toBe(true);

        // the 'On' line and the file name: the business zone's clock at the click, the zone named
        const before = displayDateTime(new Date(), businessZone);
        const [xlsx] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
        const after = displayDateTime(new Date(), businessZone);
        const lines = await sheetLines(xlsx);
        const on = /^On (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) by maker\. (.+)$/.exec(lines[1]);
        expect(on, lines[1]).not.toBeNull();
        const stamp = on![1];
        expect(stamp >= before && stamp <= after, `${stamp} within ${before} .. ${after} (${businessZone})`).toBe(true);
        expect(on![2]).toBe(timeZoneNote(businessZone));
        expect(xlsx.suggestedFilename()).toBe(`ceftTransactions_${stamp.replace(' ', '_').replace(/:/g, '-')}.xlsx`);
        // the range as sent (and as the fields show it): From at second 01, To at second 00
        expect(lines[2]).toBe(`Duration: ${wireFrom(range.from).replace('T', ' ')} to ${wireTo(range.to, range.from).replace('T', ' ')}`);

        // every date cell of every row is the business zone's wall clock of the instant the server sent
        const header = lines.findIndex((l) => l.startsWith('ID|Trace|'));
        const columns = lines[header].split('|');
        const dateKeys = { 'Initiated Time': 'initiated_time', 'Card Payment Time': 'card_payment_time', 'Created At': 'created_at' } as const;
        const body = lines.slice(header + 1).map((l) => l.split('|'));
        expect(body.length).toBe(byId.size);
        let differs = 0;
        for (const cells of body) {
          const row = byId.get(cells[0]) as unknown as Record<string, string | null>;
          expect(row, `row ${cells[0]} of the file is in the reply`).toBeDefined();
          for (const [headerText, key] of Object.entries(dateKeys)) {
            const sent = row[key];
            const cell = cells[columns.indexOf(headerText)];
            expect(cell, `${headerText} of ${cells[0]}`).toBe(sent ? dateCell(sent, businessZone) : '');
            if (sent && dateCell(sent, browserZone) !== cell) differs++;
          }
        }
        // the browser's own zone would have written other times
        expect(differs).toBeGreaterThan(0);

        // the PDF: the same 'On' line naming the zone, the dates in the business zone
        await expect.poll(() => readExportItem(page, 'Download as PDF', (i) => i.isEnabled()), { timeout: 30_000 }).toBe(true);
        const pdfBefore = displayDateTime(new Date(), businessZone);
        const [pdf] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as PDF')).click()]);
        const { text } = await pdfText(pdf);
        const pdfOn = /On (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) by maker\. (Times in \S+ \(UTC[+-]\d{2}:\d{2}\))/.exec(text);
        expect(pdfOn, text.slice(0, 300)).not.toBeNull();
        expect(pdfOn![1] >= pdfBefore && pdfOn![1] <= displayDateTime(new Date(), businessZone)).toBe(true);
        expect(pdfOn![2]).toBe(timeZoneNote(businessZone));
        expect(pdf.suggestedFilename()).toBe(`ceftTransactions_${pdfOn![1].replace(' ', '_').replace(/:/g, '-')}.pdf`);
        for (const row of [...byId.values()].slice(0, 5)) expect(text).toContain(formatDateTime(row.initiated_time, businessZone));
      } catch (err) {
        await screenshot(page, `business-time-export-failed-${browserZone.replace('/', '-')}`).catch(() => {});
        throw err;
      } finally {
        await context.close();
      }
    });
  });
}

// both ways round: the browser west of the business zone (13.5 hours behind Colombo), then east of it
scenario('browser west of the business: browser in America/Los_Angeles, server in UTC, business in Asia/Colombo', 'UTC', 'Asia/Colombo', 'America/Los_Angeles');
scenario('browser east of the business: browser in Asia/Colombo, server in Asia/Colombo, business in America/New_York', 'Asia/Colombo', 'America/New_York', 'Asia/Colombo');
