/**
 * Privilege in the console: Change Password is offered only where the server's rule allows
 * it, a privileged account's reset says it was sent for approval, and a locked sign-in shows a tag and
 * an Unlock action that goes through a checker.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot, signIn, signOut, useServerAndBrowser } from './harness';
import { rowAction, rowActionCount } from './rowMenu';

const live = useServerAndBrowser();

/** The users-list row of `username`, after a search for it. */
async function rowOf(page: Page, username: string) {
  await page.goto('/users');
  await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill(username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('cell', { name: username, exact: true }).waitFor();
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
}

describe('Change Password and Edit on the users list', () => {
  it('are offered to the maker only for accounts with no more permissions than theirs (Change Password never for their own)', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const lesser = await rowOf(page, 'kasun_herath');
    await expect(lesser.getByRole('button', { name: 'Change Password' }).count()).resolves.toBe(1);
    await expect(lesser.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(1);
    const own = await rowOf(page, 'maker');
    await expect(own.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(1);
    await expect(own.getByRole('button', { name: 'Change Password' }).count()).resolves.toBe(0);
    // the server refuses to edit these (a role holding what the maker lacks), so the console offers neither action
    for (const username of ['admin', 'checker', 'auditor']) {
      const row = await rowOf(page, username);
      await expect(row.getByRole('button', { name: 'Edit' }).count(), username).resolves.toBe(0);
      await expect(row.getByRole('button', { name: 'Change Password' }).count(), username).resolves.toBe(0);
    }
    await signOut(page);
    // a super user edits any account
    await signIn(page, 'admin');
    await expect((await rowOf(page, 'checker')).getByRole('button', { name: 'Edit' }).count()).resolves.toBe(1);
    await context.close();
  });

  it("a privileged account's reset is sent for approval, and the row shows it locked", async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const row = await rowOf(page, 'nimal_perera');
    await row.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await dialog.getByRole('button', { name: 'Change' }).click();
    await page.getByText('Password reset for user "nimal_perera" sent for approval').waitFor();
    await expect.poll(() => row.getByRole('button', { name: 'Change Password' }).count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'privilege-reset-sent-for-approval');
    await context.close();
  });
});

describe('a row action opened while a search is answering', () => {
  it('stays with the record it was opened for when the new rows arrive in another order', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    await page.goto('/users');
    const cellOf = (username: string) => page.getByRole('cell', { name: username, exact: true });
    await cellOf('sunil_jayasinghe').waitFor();
    // the search for "a" answers only when the test lets it: by then Sunil Jayasinghe's row has moved up one
    // place (the checker account drops out) and Dilani Wickramasinghe's (a checker's: the maker may not reset it) sits where his was
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      void page.route('**/user/list', async (route) => {
        if (JSON.parse(route.request().postData() ?? '{}').data !== 'a') return route.continue();
        resolve();
        await new Promise<void>((r) => (release = r));
        await route.continue();
      });
    });
    await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill('a');
    await page.getByRole('button', { name: 'Search' }).click();
    await held;
    const row = page.getByRole('row').filter({ has: cellOf('sunil_jayasinghe') });
    await row.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading').first().textContent()).toBe('Change Password — sunil_jayasinghe');
    release();
    // (the open dialog hides the page from the accessibility tree, so the rows are found by their text)
    await page.getByText('arjun_t', { exact: true }).waitFor();
    await expect(page.getByText('checker', { exact: true }).count()).resolves.toBe(0);
    await expect(dialog.getByRole('heading').first().textContent()).resolves.toBe('Change Password — sunil_jayasinghe');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('a locked sign-in', () => {
  it('shows a tag and Unlock; the maker requests it, the checker approves it, the owner signs in', async () => {
    for (let i = 1; i <= 10; i++) {
      await fetch(`${live.server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'sanduni_k', password: `Wrong@Pass${i}` }),
      });
    }
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const row = await rowOf(page, 'sanduni_k');
    await expect(row.getByText('Locked', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(rowActionCount(page, await rowOf(page, 'ishara_d'), 'Unlock')).resolves.toBe(0);
    const locked = await rowOf(page, 'sanduni_k');
    // a row's button, or an item of its More actions menu past two actions
    await (await rowAction(page, locked, 'Unlock')).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Unlock of user "sanduni_k" sent for approval').waitFor();
    await screenshot(page, 'privilege-unlock-requested');
    await signOut(page);

    await signIn(page, 'checker');
    await page.goto('/users');
    const panel = page.getByRole('region', { name: 'Change Requests' });
    await panel.getByRole('row').filter({ hasText: 'maker' }).filter({ hasText: 'EDIT' }).last().getByRole('button', { name: 'View' }).click(); // the newest: nimal's reset is pending too
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Unlocked').isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('User approved successfully').waitFor();
    await signOut(page);

    await signIn(page, 'sanduni_k');
    await context.close();
  });
});
