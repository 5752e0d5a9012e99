/**
 * Who sees Generate Report on the Scheduled Settlement Report, end to end in Chromium
 * (docs/settlement.md): the maker, who holds settlement-report-generate, does; an IPG bank officer, who views
 * their own provider's settlement with settlement-report-view, does not.
 */
import { describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn, useServerAndBrowser } from './harness';

// Generate Report on an empty report of today: the server's own schedule (07:30) would have made the batch at start
const live = useServerAndBrowser({ SETTLEMENT_SCHEDULE: 'off' });

describe('Generate Report', () => {
  it('is shown to the maker and not to an IPG bank officer, on the same empty report of today', async () => {
    for (const [username, shown] of [
      ['maker', 1],
      ['kasun_herath', 0],
    ] as const) {
      const { context, page } = await newPage(live.browser, live.server.url);
      await signIn(page, username);
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settlement Report', exact: true }).click();
      await page.getByRole('heading', { name: 'Scheduled Settlement Report' }).waitFor();
      await page.getByText('No settlement records found.').waitFor();
      if (shown) await page.getByRole('button', { name: 'Generate Report' }).waitFor();
      expect(await page.getByRole('button', { name: 'Generate Report' }).count(), username).toBe(shown);
      await screenshot(page, `settlement-generate-${username}`);
      await context.close();
    }
  });
});
