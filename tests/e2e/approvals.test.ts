/**
 * The checker's workbench end to end in Chromium: a maker's requests arrive in the
 * checker's Approvals inbox while it is open (the menu count rises without a reload, by server-sent
 * events); the checker approves one, is stopped from rejecting another without a reason, rejects it
 * with one, approves two more in bulk; the maker reads the outcomes and the reason under My requests.
 * A checker who signs out with the inbox open: the server ends the inbox's live stream itself, at the
 * logout, and the tab opens no other and follows no more changes.
 */
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { DEMO_PASSWORD, menuOf, newPage, screenshot, signIn, signOut, useServerAndBrowser } from './harness';

const live = useServerAndBrowser();

async function api(path: string, body: unknown, token?: string): Promise<{ statusCode: number; data: Record<string, unknown> }> {
  const res = await fetch(`${live.server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: Record<string, unknown> };
}

/** A role request by the maker, through the API (another session than the checker's browser). */
async function requestRole(token: string, name: string): Promise<number> {
  const reply = await api('role/create', { role_name: name, user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }, token);
  expect(reply.statusCode, JSON.stringify(reply.data)).toBe(200);
  return reply.data.changeRequestId as number;
}

const menuCount = async (page: Page) =>
  Number(
    (
      await page
        .getByTestId('menu-count')
        .first()
        .textContent()
        .catch(() => '0')
    )?.replace(/\D/g, '') || 0,
  );

describe('the approvals inbox', () => {
  it('a checker approves one, rejects one with a reason, approves two in bulk; the maker reads the reason under My requests', async () => {
    const makerToken = (await api('auth/login', { username: 'maker', password: DEMO_PASSWORD })).data.token as string;
    await requestRole(makerToken, 'Inbox Approve Me');

    const checker = await newPage(live.browser, live.server.url);
    const maker = await newPage(live.browser, live.server.url);
    try {
      const page = checker.page;
      await signIn(page, 'checker');
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await nav.getByRole('link', { name: /^Approvals/ }).click();
      await page.getByRole('heading', { name: 'Approvals' }).first().waitFor();
      const rowOf = (name: string) => page.getByRole('table', { name: 'Pending requests' }).getByRole('row').filter({ hasText: name });
      await rowOf('Inbox Approve Me').waitFor();
      await expect.poll(() => menuCount(page), { timeout: 10_000 }).toBeGreaterThan(0);
      const before = await menuCount(page);

      // the maker submits while the inbox is open: the count and the list follow without a reload (well within the 30 s poll)
      await requestRole(makerToken, 'Inbox Reject Me');
      await expect.poll(() => menuCount(page), { timeout: 10_000 }).toBe(before + 1);
      await rowOf('Inbox Reject Me').waitFor({ timeout: 10_000 });
      await expect.poll(() => nav.locator('[data-area-count="Role"]').innerText()).toMatch(/Role\s+\d+/);

      // filter by area and maker
      await page.getByLabel('Area', { exact: true }).selectOption('Role');
      // the makers are offered by account, each with how many of their requests wait: "maker (3)"
      const makerSelect = page.getByLabel('Maker', { exact: true });
      const makerOption = makerSelect.locator('option', { hasText: /^maker \(\d+\)$/ });
      await makerSelect.selectOption((await makerOption.getAttribute('value'))!);
      expect(await rowOf('Inbox Approve Me').getByRole('cell').nth(4).innerText()).toBe('maker');
      await screenshot(page, 'approvals-inbox');

      // approve one, with a comment
      await rowOf('Inbox Approve Me')
        .getByRole('button', { name: /^View request/ })
        .click();
      let dialog = page.getByRole('dialog');
      await dialog.getByText('Inbox Approve Me').first().waitFor();
      await dialog.getByLabel(/^Comment/).fill('Looks right');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Role approved successfully').waitFor();
      await expect.poll(() => rowOf('Inbox Approve Me').count()).toBe(0);

      // reject one: a reason is required
      await rowOf('Inbox Reject Me')
        .getByRole('button', { name: /^View request/ })
        .click();
      dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Please enter a reason for the rejection' }).waitFor();
      await dialog.getByLabel(/^Comment/).fill('Role names must name the team');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('Role rejected successfully').waitFor();
      await expect.poll(() => rowOf('Inbox Reject Me').count()).toBe(0);

      // bulk: two more, selected and approved with one comment; each outcome listed
      const bulk = [await requestRole(makerToken, 'Inbox Bulk One'), await requestRole(makerToken, 'Inbox Bulk Two')];
      await rowOf('Inbox Bulk Two').waitFor({ timeout: 10_000 });
      for (const id of bulk) await page.getByLabel(`Select request #${id}`, { exact: true }).check();
      await page.getByRole('button', { name: 'Approve selected' }).click();
      const outcome = page.getByRole('region', { name: 'Outcome of the bulk decision' });
      for (const id of bulk) await expect.poll(() => outcome.locator(`[data-outcome="${id}"]`).innerText()).toMatch(/Done\s+Role approved successfully/);
      await screenshot(page, 'approvals-bulk-outcome');

      // the maker's side
      await signIn(maker.page, 'maker');
      await maker.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'My requests' }).click();
      const mine = maker.page.getByRole('table', { name: 'My requests' });
      const rejected = mine.getByRole('row').filter({ hasText: 'Inbox Reject Me' });
      await rejected.waitFor();
      expect(await rejected.innerText()).toContain('Rejected by checker');
      expect(await rejected.innerText()).toContain('Role names must name the team');
      expect(await mine.getByRole('row').filter({ hasText: 'Inbox Approve Me' }).innerText()).toMatch(/Approved by checker[\s\S]*Looks right/);
      await screenshot(maker.page, 'my-requests');
    } catch (err) {
      await screenshot(checker.page, 'approvals-failed-checker').catch(() => {});
      await screenshot(maker.page, 'approvals-failed-maker').catch(() => {});
      throw err;
    } finally {
      await checker.context.close();
      await maker.context.close();
    }
  }, 180_000);

  it("a checker signs out with the inbox open: the server ends the inbox's stream at the logout, and the tab follows no more changes", async () => {
    const makerToken = (await api('auth/login', { username: 'maker', password: DEMO_PASSWORD })).data.token as string;
    await requestRole(makerToken, 'Signed Out Before');
    const checker = await newPage(live.browser, live.server.url);
    const page = checker.page;
    // the tab's requests to the stream: each one's end, by the server (finished) or by the tab (failed)
    const streams = new Map<Request, 'open' | 'finished' | 'failed'>();
    const isStream = (r: Request) => new URL(r.url()).pathname === '/api/changeRequest/events';
    page.on('request', (r) => isStream(r) && streams.set(r, 'open'));
    page.on('requestfinished', (r) => isStream(r) && streams.set(r, 'finished'));
    page.on('requestfailed', (r) => isStream(r) && streams.set(r, 'failed'));
    try {
      await signIn(page, 'checker');
      const opened = page.waitForResponse((r) => isStream(r.request()) && r.status() === 200);
      await page
        .getByRole('navigation', { name: 'Main menu' })
        .getByRole('link', { name: /^Approvals/ })
        .click();
      await page.getByRole('heading', { name: 'Approvals' }).first().waitFor();
      const stream = (await opened).request();
      // the inbox follows changes: a request made now raises the menu count
      await expect.poll(() => menuCount(page), { timeout: 10_000 }).toBeGreaterThan(0);
      const before = await menuCount(page);
      await requestRole(makerToken, 'Signed Out Live');
      await expect.poll(() => menuCount(page), { timeout: 10_000 }).toBe(before + 1);

      // The logout's reply is held until the server has ended the stream, so the tab (which drops its
      // stream once signed out) cannot be what ends it; then the tab gets the reply and signs out.
      let endedByServer: 'finished' | 'failed' | 'still open' = 'still open';
      await page.route('**/api/auth/logout', async (route) => {
        const reply = await route.fetch();
        await expect
          .poll(() => streams.get(stream), { timeout: 10_000 })
          .not.toBe('open')
          .catch(() => {});
        const state = streams.get(stream);
        endedByServer = state === 'finished' || state === 'failed' ? state : 'still open';
        await route.fulfill({ response: reply });
      });
      await signOut(page);
      expect(endedByServer).toBe('finished');
      // what the stream said last: that it ended with the session
      expect((await (await stream.response())!.text()).trimEnd()).toMatch(/event: end\ndata: \{"reason":"session"\}$/);

      // no stream is open or opened again (the tab retries a lost stream after 5 s), whatever changes
      await requestRole(makerToken, 'Signed Out After');
      await new Promise((r) => setTimeout(r, 7_000));
      expect([...streams.values()]).toEqual(['finished']);
    } catch (err) {
      await screenshot(page, 'approvals-signout-failed').catch(() => {});
      throw err;
    } finally {
      await checker.context.close();
    }
  }, 120_000);

  it('with MONEY_ACTION_APPROVAL_ABOVE_USD off (this server), no Money Action Approvals entry or page, and no Approvals for a money permission alone', async () => {
    const admin = await newPage(live.browser, live.server.url);
    const holder = await newPage(live.browser, live.server.url);
    try {
      await signIn(admin.page, 'admin');
      const menu = await menuOf(admin.page);
      expect(menu.some((l) => /^Approvals/.test(l))).toBe(true);
      expect(menu).not.toContain('Money Action Approvals');
      await admin.page.goto('/transactions/money-approvals');
      await admin.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      // a demo maker holds transaction-refund but no approve permission: nothing to approve while the setting is off
      await signIn(holder.page, 'nimal_perera');
      const ofHolder = await menuOf(holder.page);
      expect(ofHolder).toContain('My requests');
      expect(ofHolder.some((l) => /^Approvals/.test(l))).toBe(false);
      expect(ofHolder).not.toContain('Money Action Approvals');
    } finally {
      await admin.context.close();
      await holder.context.close();
    }
  }, 60_000);
});
