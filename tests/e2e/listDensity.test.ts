/**
 * A list on a laptop screen shows its rows, not its furniture: Send Money at 1280x800 has no tab bar for
 * its single tab, the "N of M matching" notice is a quiet line (not an alert box), the exports are one
 * 'Export' menu that works by keyboard, a row shows at most two actions (the rest under "More actions"), and more rows are fully visible than the 3 the page showed when
 * the exports, the notice and the count cards each took a block of their own.
 */
import { describe, expect, it } from 'vitest';
import { signIn, useServerAndBrowser } from './harness';
import { exportButton } from './exportMenu';

const live = useServerAndBrowser();

/** Rows of the page's table that are fully inside the window and inside every scrolling box around them. */
function fullyVisibleRows(): number {
  let count = 0;
  for (const row of document.querySelectorAll('table tbody tr')) {
    const r = row.getBoundingClientRect();
    let inside = r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    for (let box = row.parentElement; box && inside; box = box.parentElement) {
      if (/(auto|scroll|hidden)/.test(getComputedStyle(box).overflowY)) {
        const b = box.getBoundingClientRect();
        if (r.top < b.top || r.bottom > b.bottom) inside = false;
      }
    }
    if (inside) count++;
  }
  return count;
}

describe('Send Money on a 1280x800 laptop', () => {
  it('has no single-tab bar, a quiet matching line, a keyboard Export menu, and more than 3 rows in view', async () => {
    const context = await live.browser.newContext({ baseURL: live.server.url, acceptDownloads: true, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await signIn(page, 'admin');
      await page.goto('/transaction/ceft');
      const table = page.getByRole('table', { name: 'Send Money Transactions' });
      await table.locator('tbody tr').nth(9).waitFor();

      // one tab ("All") is no choice: no tab bar
      expect(await page.getByRole('tablist').count()).toBe(0);
      expect(await page.getByRole('tab').count()).toBe(0);

      // the matching line: its words, as a status line, not an alert box
      const line = page.getByRole('status').filter({ hasText: /Showing 10 of [\d,]+ matching rows: Fetch Count 10 cut the result\./ });
      await line.waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'matching rows' }).count()).toBe(0);
      const box = await line.evaluate((el) => {
        const s = getComputedStyle(el);
        return { border: s.borderTopWidth, background: s.backgroundColor, height: el.getBoundingClientRect().height };
      });
      expect(box.border).toBe('0px');
      expect(box.background).toBe('rgba(0, 0, 0, 0)');
      expect(box.height).toBeLessThan(40);

      // the exports: one button, a menu opened and walked by keyboard, Escape gives the focus back
      expect(await page.getByRole('button', { name: /^Download/ }).count()).toBe(0);
      const trigger = exportButton(page);
      expect(await trigger.getAttribute('aria-haspopup')).toBe('menu');
      await trigger.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await trigger.getAttribute('aria-expanded')).toBe('true');
      const items = await menu.getByRole('menuitem').allInnerTexts();
      expect(items.slice(0, 2)).toEqual(['Download as Excel (10 rows)', 'Download as PDF (10 rows)']);
      expect(items.slice(2)).toEqual([expect.stringMatching(/^Download all [\d,]+ as Excel$/), expect.stringMatching(/^Download all [\d,]+ as PDF$/)]);
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
      expect(await focused()).toBe('Download as Excel (10 rows)');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe('Download as PDF (10 rows)');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      expect(await focused()).toMatch(/^Download all [\d,]+ as PDF$/);
      await page.keyboard.press('Escape');
      expect(await menu.count()).toBe(0);
      expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
      // Space opens it too, and Enter on an item downloads that file
      await page.keyboard.press(' ');
      await menu.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      expect(await menu.count()).toBe(0);

      // the count cards: one row of small chips
      const chips = page.getByRole('list', { name: 'Transaction counts' }).getByRole('listitem');
      expect(await chips.count()).toBe(4);
      const tops = new Set(await chips.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top))));
      expect(tops.size).toBe(1);

      // the Action column: at most two action buttons a row, the rest under "More actions", which opens by keyboard
      const actionCells = table.locator('tbody tr td:last-child');
      const inline = await actionCells.evaluateAll((cells) => cells.map((c) => [...c.querySelectorAll('button')].filter((b) => b.getAttribute('aria-haspopup') !== 'menu').length));
      expect(Math.max(...inline)).toBeLessThanOrEqual(2);
      const more = table.getByRole('button', { name: 'More actions' }).first();
      if ((await more.count()) > 0) {
        await more.focus();
        await page.keyboard.press('Enter');
        const rowMenu = page.getByRole('menu');
        expect((await rowMenu.getByRole('menuitem').allInnerTexts()).length).toBeGreaterThan(0);
        await page.keyboard.press('Escape');
        expect(await rowMenu.count()).toBe(0);
        expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
      }
      // as wide as the widest row's actions (plus the cell's padding), and narrower than the 316 px it took
      // with every action of a row as a button
      const actionHeader = table.getByRole('columnheader', { name: 'Action', exact: true });
      const headerWidth = (await actionHeader.boundingBox())!.width;
      const widestContent = Math.max(...(await actionCells.evaluateAll((cells) => cells.map((c) => (c.firstElementChild as HTMLElement | null)?.getBoundingClientRect().width ?? 0))));
      expect(headerWidth).toBeLessThanOrEqual(widestContent + 32);
      expect(headerWidth).toBeLessThan(316);

      // more rows in view than the 3 before
      expect(await page.evaluate(fullyVisibleRows)).toBeGreaterThan(3);
    } finally {
      await context.close();
    }
  });
});
