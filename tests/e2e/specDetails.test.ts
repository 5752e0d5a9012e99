/**
 * The specification's last details, in Chromium against the real server with the demo data:
 * - the lists show their columns in the specification's order (pinned columns in their places), the
 *   same order as their exports;
 * - a report's To typed in the future shows, once left, what Search sends, and From and To in one
 *   minute never send To before From;
 * - a fresh start has pending change requests by maker in the checker's Approvals inbox.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asUser, useServerAndBrowser } from './harness';
import { screens } from '../../screens';
import { exportFieldsOf } from '../../src/definitions/exportFields';
import type { AnyListScreen } from '../../src/definitions/definitions';

const live = useServerAndBrowser();

/** The headers of a list's table, without the sort arrows. */
async function headers(page: Page, title: string): Promise<string[]> {
  const region = page.getByRole('region', { name: `${title} table` });
  await region.locator('tbody tr').first().waitFor();
  return (await region.locator('thead th').allInnerTexts()).map((h) => h.replace(/[▲▼↕]/g, '').trim());
}

async function searched(page: Page, route: string, title: string): Promise<string[]> {
  await page.goto(route);
  await page.getByRole('heading', { name: title }).first().waitFor();
  const search = page.getByRole('button', { name: 'Search', exact: true });
  if (await search.count()) await search.click();
  return headers(page, title);
}

const exportHeaders = (id: string) => exportFieldsOf(screens.find((s): s is AnyListScreen => s.kind === 'list' && s.id === id)!).map((f) => f.header);

describe('column order as the specification lists it', () => {
  it('App Users, KYC, Activity Log, Users and Insurance, as their exports', async () => {
    await asUser(live, 'spec-columns', 'admin', async (page) => {
      const appUsers = await searched(page, '/appUsers', 'App Users');
      expect(appUsers).toEqual(['ID', 'First Name', 'Last Name', 'UID Type', 'UID', 'Contact Number', 'Email', 'Country', 'Status', 'Last Login', 'Registered', 'Images', 'Action', 'Hold Reason']);
      expect(appUsers.filter((h) => h !== 'Images' && h !== 'Action')).toEqual(exportHeaders('appUsers'));

      const kyc = await searched(page, '/kyc', 'KYC User Information');
      expect(kyc).toEqual(['ID', 'First Name', 'Last Name', 'UID Type', 'UID', 'Contact Number', 'Email', 'KYC Status', 'Created At', 'Updated At', 'Action']);

      const logs = await searched(page, '/activityLogs', 'Activity Log Report');
      expect(logs).toEqual(['ID', 'Level', 'Type', 'User', 'Description', 'Log Date']);
      expect(logs).toEqual(exportHeaders('activityLogs'));

      const users = await searched(page, '/users', 'Users');
      expect(users).toEqual(['ID', 'Name', 'Email', 'Contact Number', 'Username', 'Branch', 'Status', 'Created At', 'Updated At', 'Action', 'Sign-in']);

      const insurance = await searched(page, '/transaction/insurance', 'Insurance');
      expect(insurance.slice(0, 5)).toEqual(['ID', 'UID No', 'Trace Number', 'UID/NIC', 'Email']);
    });
  });
});

describe('report From and To', () => {
  it('a To typed in the future shows, once left, the time Search sends; From and To in one minute send To after From', async () => {
    await asUser(live, 'spec-range', 'admin', async (page) => {
      await page.goto('/activityLogs');
      await page.getByRole('heading', { name: 'Activity Log Report' }).first().waitFor();
      const from = page.getByLabel('From', { exact: true });
      const to = page.getByLabel('To', { exact: true });
      const today = (await from.inputValue()).slice(0, 10);
      const next = new Date(`${today}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      const tomorrow = next.toISOString().slice(0, 10);
      const sent: Record<string, unknown>[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/report/get-activity-report')) sent.push(r.postDataJSON() as Record<string, unknown>);
      });

      // tomorrow typed into To: once the field is left it shows the end of today as it is sent
      await to.fill(`${tomorrow} 10:00:00`);
      expect(await to.inputValue()).toBe(`${tomorrow} 10:00:00`);
      await to.press('Tab');
      expect(await to.inputValue()).toBe(`${today} 23:59:00`);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => sent.length).toBe(1);
      expect(sent[0]).toMatchObject({ from: `${today}T00:00:01`, to: `${today}T23:59:00` });

      // pressing Enter in the field (no blur): Search sends the end of today, and the field shows it
      await to.fill(`${tomorrow} 08:00:00`);
      await to.press('Enter');
      await expect.poll(() => sent.length).toBe(2);
      expect(sent[1].to).toBe(`${today}T23:59:00`);
      expect(await to.inputValue()).toBe(`${today} 23:59:00`);

      // one minute: From 00:05:20 and To 00:05:40 send 00:05:01 and 00:05:59, never To before From
      await from.fill(`${today} 00:05:20`);
      await to.fill(`${today} 00:05:40`);
      await to.press('Tab');
      expect([await from.inputValue(), await to.inputValue()]).toEqual([`${today} 00:05:01`, `${today} 00:05:59`]);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => sent.length).toBe(3);
      expect(sent[2]).toMatchObject({ from: `${today}T00:05:01`, to: `${today}T00:05:59` });
      await expect.poll(() => page.getByRole('region', { name: 'Activity Log Report table' }).getAttribute('aria-busy')).toBeNull();
      expect(await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
    });
  });
});

describe('demo data', () => {
  it("a fresh start has maker's requests of several areas waiting in the checker's Approvals inbox", async () => {
    await asUser(live, 'spec-inbox', 'checker', async (page) => {
      await page.goto('/approvals');
      const table = page.getByRole('table', { name: 'Pending requests' });
      await table.getByRole('row').nth(1).waitFor();
      const text = await table.innerText();
      for (const area of ['Bank', 'Role', 'App Version', 'User']) expect(text).toContain(area);
      expect(text).toContain('Branch Reports Viewer');
      expect(text).toContain('maker');
    });
  });
});
