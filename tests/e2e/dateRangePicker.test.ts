/**
 * The filter bar's From and To fields and their calendar, in Chromium against the real server: typing is
 * never rewritten, leaving a field shows the value the rules make of it, the calendar opens and closes by
 * keyboard with its presets, and Search sends exactly what the fields show; a date the field refuses
 * blocks Search, and its message does not move the Search button.
 */
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { asUser, useServerAndBrowser } from './harness';

const live = useServerAndBrowser();
const REPORT = '/api/report/get-activity-report';

/** The activity report with its From and To fields, and the bodies of the report calls the page makes. */
async function activityReport(page: Page) {
  const sent: Record<string, unknown>[] = [];
  page.on('request', (r: Request) => {
    if (new URL(r.url()).pathname === REPORT) sent.push(r.postDataJSON() as Record<string, unknown>);
  });
  await page.goto('/activityLogs');
  await page.getByRole('heading', { name: 'Activity Log Report' }).first().waitFor();
  await expect.poll(() => sent.length).toBe(1);
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  const search = page.getByRole('button', { name: 'Search', exact: true });
  const settled = () => expect.poll(() => page.getByRole('region', { name: 'Activity Log Report table' }).getAttribute('aria-busy')).toBeNull();
  /** The fields' texts as the request writes them. */
  const shown = async () => ({ from: (await from.inputValue()).replace(' ', 'T'), to: (await to.inputValue()).replace(' ', 'T') });
  return { sent, from, to, search, settled, shown };
}

/** 'yyyy-MM-dd' `days` from `day`. */
function dayAfter(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const focused = (page: Page) => page.evaluate(() => ({ text: document.activeElement?.textContent?.trim() ?? '', label: document.activeElement?.getAttribute('aria-label') ?? '' }));

describe('the date range fields', () => {
  it('typing is kept, leaving a field shows what is sent, a preset is picked by keyboard, and Search sends the fields’ text', async () => {
    await asUser(live, 'date-range', 'admin', async (page) => {
      const { sent, from, to, search, settled, shown } = await activityReport(page);
      // the default range (today 00:00:00 to 23:59:59) shows as it is sent, and the first load sent it
      const today = (await from.inputValue()).slice(0, 10);
      expect(await shown()).toEqual({ from: `${today}T00:00:01`, to: `${today}T23:59:00` });
      expect(sent[0]).toMatchObject(await shown());

      // yesterday (10:30 of today may be still to come): From typed, then To typed earlier than From; no
      // keystroke rewrites the field
      const day = dayAfter(today, -1);
      await from.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(`${day} 10:30:00`);
      await page.keyboard.press('Tab');
      expect(await from.inputValue()).toBe(`${day} 10:30:01`);
      await page.keyboard.press('ControlOrMeta+A');
      let typed = '';
      for (const key of `${day} 00:00:00`) {
        await page.keyboard.type(key);
        typed += key;
        expect(await to.inputValue()).toBe(typed);
      }
      expect(await page.getByRole('alert').filter({ hasText: 'Enter a date' }).count()).toBe(0);
      // leaving it: To cannot be before From, so it is From's minute, at its last second
      await page.keyboard.press('Tab');
      expect(await to.inputValue()).toBe(`${day} 10:30:59`);
      await search.click();
      await expect.poll(() => sent.length).toBe(2);
      expect(sent[1]).toMatchObject(await shown());
      await settled();

      // a pasted value that a rule changes shows the changed value; Search sends it
      await from.fill(`${dayAfter(today, -3)}T08:30:00`);
      expect(await from.inputValue()).toBe(`${dayAfter(today, -3)}T08:30:00`);
      await from.press('Tab');
      expect(await from.inputValue()).toBe(`${dayAfter(today, -3)} 08:30:01`);
      // and a To in the future is the end of today
      await to.fill(`${dayAfter(today, 2)} 09:00:00`);
      await to.press('Tab');
      expect(await to.inputValue()).toBe(`${today} 23:59:00`);
      await search.click();
      await expect.poll(() => sent.length).toBe(3);
      expect(sent[2]).toEqual(expect.objectContaining({ from: `${dayAfter(today, -3)}T08:30:01`, to: `${today}T23:59:00` }));
      await settled();

      // the calendar button follows To; Enter opens the calendar, focus on its first preset
      await to.focus();
      await page.keyboard.press('Tab');
      await expect.poll(async () => (await focused(page)).label).toBe('Calendar: From and To days');
      await page.keyboard.press('Enter');
      const calendar = page.getByRole('dialog', { name: 'From and To days' });
      await calendar.waitFor();
      await expect.poll(async () => (await focused(page)).text).toBe('Today');
      // days after today cannot be picked: no later month, today's day can be
      expect(await calendar.getByRole('button', { name: /next month/i }).getAttribute('aria-disabled')).toBe('true');
      expect(await calendar.locator(`td[data-day="${today}"] button`).isDisabled()).toBe(false);
      for (const day of await calendar.locator('td[data-day]').evaluateAll((tds) => tds.map((td) => ({ day: td.getAttribute('data-day')!, disabled: td.querySelector('button')?.disabled ?? true }))))
        if (day.day > today) expect(day.disabled, day.day).toBe(true);
      // Escape closes it and focus returns to the button
      await page.keyboard.press('Escape');
      await calendar.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).label).toBe('Calendar: From and To days');

      // Enter again, Tab to Yesterday, Enter: the fields show yesterday, focus is back on the button
      await page.keyboard.press('Enter');
      await calendar.waitFor();
      await expect.poll(async () => (await focused(page)).text).toBe('Today');
      await page.keyboard.press('Tab');
      expect((await focused(page)).text).toBe('Yesterday');
      await page.keyboard.press('Enter');
      await calendar.waitFor({ state: 'detached' });
      await expect.poll(async () => (await focused(page)).label).toBe('Calendar: From and To days');
      const yesterday = dayAfter(today, -1);
      expect(await shown()).toEqual({ from: `${yesterday}T00:00:01`, to: `${yesterday}T23:59:00` });
      await search.click();
      await expect.poll(() => sent.length).toBe(4);
      expect(sent[3]).toMatchObject(await shown());
      await settled();
    });
  });

  it('a date the field refuses blocks Search, says why, and does not move the Search button', async () => {
    await asUser(live, 'date-range-refused', 'admin', async (page) => {
      const { sent, from, to, search, settled, shown } = await activityReport(page);
      await settled();
      const before = await search.boundingBox();

      await from.fill('2026-02-30 10:00:00');
      await from.press('Tab');
      await page.getByRole('alert').filter({ hasText: 'There is no date 2026-02-30' }).waitFor();
      expect(await from.getAttribute('aria-invalid')).toBe('true');
      expect(await search.boundingBox()).toEqual(before);
      await search.click();
      // Search did not run: the field keeps its text and has the focus
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('filter-from');
      expect(await from.inputValue()).toBe('2026-02-30 10:00:00');

      // a To not yet whole, at Search: its message, and still no search
      await to.fill('2026-11');
      await search.click();
      await page.getByRole('alert').filter({ hasText: 'Enter a date and time as yyyy-MM-dd HH:mm:ss' }).waitFor();
      expect(await to.getAttribute('aria-invalid')).toBe('true');
      expect(await search.boundingBox()).toEqual(before);

      // both put right: one search, with what the fields show
      await from.fill('2026-11-20 00:00:00');
      await to.fill('2026-11-21 12:00:30');
      await search.click();
      await expect.poll(() => sent.length).toBe(2);
      await settled();
      expect(sent).toHaveLength(2);
      expect(await shown()).toEqual({ from: '2026-11-20T00:00:01', to: '2026-11-21T12:00:00' });
      expect(sent[1]).toMatchObject(await shown());
      expect(
        await page
          .getByRole('alert')
          .filter({ hasText: /There is no date|Enter a date/ })
          .count(),
      ).toBe(0);
    });
  });
});
