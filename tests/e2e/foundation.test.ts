/**
 * The foundation, end to end in Chromium: menus per demo account, the maker-checker round trip for a
 * new console user, the new user signing in, and the Users export read back.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { menuOf, newPage, screenshot, signIn, signInThroughForm, signOut, useServerAndBrowser } from './harness';
import { exportItem, readExportItem } from './exportMenu';

const live = useServerAndBrowser();

describe('demo accounts see exactly the menus their permissions allow', () => {
  it.each([
    ['admin', ['Dashboard', 'Users', 'Roles']],
    ['maker', ['Dashboard', 'Users', 'Roles']],
    ['checker', ['Dashboard', 'Users', 'Roles']],
    ['auditor', ['Dashboard']],
  ])('%s', async (username, expected) => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signInThroughForm(page, username);
    const menu = await menuOf(page);
    for (const item of expected) expect(menu).toContain(item);
    if (username === 'auditor') {
      expect(page.url()).toContain('/AuditDashboard');
      expect(menu).not.toContain('Users');
      await page.goto('/users');
      await page.getByText('You do not have permission to view this page.').waitFor();
    }
    await screenshot(page, `menu-${username}`);
    await context.close();
  });
});

describe('the theme', () => {
  /** The Roles screen in a browser whose system prefers `system`, with the console's own choice `app`. */
  async function rolesIn(system: 'light' | 'dark', app: 'light' | 'dark' | 'system') {
    const context = await live.browser.newContext({ baseURL: live.server.url, colorScheme: system, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'admin');
    await page.evaluate((choice) => (choice === 'system' ? localStorage.removeItem('theme') : localStorage.setItem('theme', choice)), app);
    await page.goto('/roles');
    const tag = page.getByRole('table').getByText('Active', { exact: true }).first();
    await tag.waitFor();
    const look = await tag.evaluate((el) => {
      const style = getComputedStyle(el);
      return { background: style.backgroundColor, color: style.color, dark: document.documentElement.classList.contains('dark') };
    });
    return { context, page, look };
  }

  it("follows the console's choice, not the system's: status tags look the same whatever the system prefers", async () => {
    const light = await rolesIn('light', 'light');
    const lightOnDarkSystem = await rolesIn('dark', 'light');
    expect(lightOnDarkSystem.look).toEqual(light.look);
    const dark = await rolesIn('dark', 'dark');
    const darkOnLightSystem = await rolesIn('light', 'dark');
    expect(darkOnLightSystem.look).toEqual(dark.look);
    expect(dark.look.background).not.toBe(light.look.background);
    expect(light.look.dark).toBe(false);
    expect(dark.look.dark).toBe(true);
    for (const r of [light, lightOnDarkSystem, dark, darkOnLightSystem]) await r.context.close();
  });

  it('the toggle drives the dark: utilities on a system that prefers light: a click gives the status tags their dark look', async () => {
    const dark = await rolesIn('dark', 'dark');
    const { context, page, look } = await rolesIn('light', 'system');
    expect(look.dark).toBe(false);
    const tagLook = () =>
      page
        .getByRole('table')
        .getByText('Active', { exact: true })
        .first()
        .evaluate((el) => {
          const style = getComputedStyle(el);
          return { background: style.backgroundColor, color: style.color, dark: document.documentElement.classList.contains('dark') };
        });
    expect(await tagLook()).toEqual(look);
    await page.getByRole('button', { name: 'Theme: system. Switch to dark theme' }).click();
    await expect.poll(tagLook).toEqual(dark.look);
    expect(dark.look.background).not.toBe(look.background);
    await page.getByRole('button', { name: 'Theme: dark. Switch to light theme' }).click();
    await expect.poll(tagLook).toEqual(look);
    await dark.context.close();
    await context.close();
  });

  it('cycles system → other theme → system theme → system, and remembers the choice', async () => {
    const { context, page, look } = await rolesIn('dark', 'system');
    expect(look.dark).toBe(true);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    await page.getByRole('button', { name: 'Theme: system. Switch to light theme' }).click();
    expect(await isDark()).toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Theme: light. Switch to dark theme' }).click();
    expect(await isDark()).toBe(true);
    await page.getByRole('button', { name: 'Theme: dark. Switch to system theme' }).click();
    expect(await isDark()).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(isDark).toBe(false);
    await context.close();
  });
});

describe('keyboard, focus and titles', () => {
  const focused = (page: import('playwright-core').Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { tag: el?.tagName ?? '', text: (el?.innerText ?? '').trim(), role: el?.getAttribute('role') ?? '' };
    });

  it('a skip link is the first Tab stop and moves to the page; a menu link moves focus to the new heading; each page names the tab', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    await page.goto('/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(await page.title()).toBe('Users - RemitOps');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: 'Skip to content' });
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'MAIN' });

    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Roles', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Roles', level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1', text: 'Roles' });
    expect(await page.title()).toBe('Roles - RemitOps');
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(await icon.text()).toContain('<svg');
    await context.close();
  });

  it('the user menu opens from the keyboard, moves with the arrows, and closes on Escape and on a click outside', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    const button = page.getByRole('button', { name: 'admin' });
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toMatchObject({ role: 'menuitem', text: 'Reset Password' });
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ role: 'menuitem', text: 'Logout' });
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ role: 'menuitem', text: 'Reset Password' });
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await focused(page)).toMatchObject({ tag: 'BUTTON', text: expect.stringContaining('admin') });
    await button.click();
    await page.getByRole('menu').waitFor();
    await page.mouse.click(700, 500);
    expect(await page.getByRole('menu').count()).toBe(0);
    await context.close();
  });
});

describe('the main menu', () => {
  it('stays in view under the header while a long page scrolls', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'auditor');
    await page.goto('/AuditerEChanneling');
    await page.getByRole('navigation', { name: 'Pagination' }).waitFor();
    // the rows may still be arriving when the pagination shows: scroll again until the page is long
    await expect.poll(() => page.evaluate(() => (window.scrollTo(0, document.documentElement.scrollHeight), window.scrollY))).toBeGreaterThan(100);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    const box = (await menu.getByRole('link').first().boundingBox())!;
    const header = (await page.locator('header').first().boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await screenshot(page, 'menu-in-view-scrolled');
    await context.close();
  });
});

describe('maker-checker round trip for a new console user', () => {
  const newUser = { name: 'Kasun Silva', username: 'kasun_e2e', email: 'kasun.silva@example.lk', contact: '0771234567', password: 'Kasun@Pass12' };

  it('the maker creates a user, which is sent for approval', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: 'Create User' }).click();
    await page.getByRole('heading', { name: 'Create User' }).waitFor();

    // the rules speak the specification's messages on blur
    await page.getByLabel('Name', { exact: true }).fill('ab');
    await page.getByLabel('Name', { exact: true }).blur();
    await expect(page.getByText('Name can only have alphanumeric characters and should be at least 3 characters long').isVisible()).resolves.toBe(true);

    await page.getByLabel('Name', { exact: true }).fill(newUser.name);
    await page.getByLabel('Username', { exact: true }).fill(newUser.username);
    await page.getByLabel('Email', { exact: true }).fill(newUser.email);
    await page.getByLabel('Contact No', { exact: true }).fill(newUser.contact);
    await page.getByLabel('User Type', { exact: true }).selectOption('BACKEND');
    await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'Head Office' });
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Maker' });
    // the role ticks its permissions in the read-only preview
    await expect(page.getByRole('checkbox', { name: 'user-create', exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'user-approve', exact: true }).isChecked()).resolves.toBe(false);
    await page.getByLabel('Password', { exact: true }).fill(newUser.password);
    await screenshot(page, 'user-create-form');
    // a username that is taken: the server's message stays until dismissed...
    await page.getByLabel('Username', { exact: true }).fill('maker');
    await page.getByRole('button', { name: 'Save' }).click();
    const taken = page.getByText('Username "maker" already exists');
    await taken.waitFor();
    // ...or until the form succeeds
    await page.getByLabel('Username', { exact: true }).fill(newUser.username);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('User sent for approval').waitFor();
    await expect.poll(() => taken.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/users');
    await signOut(page);
    await context.close();
  });

  it('the checker approves it in the modal', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'checker');
    await page.goto('/users');
    const panel = page.getByRole('region', { name: 'Change Requests' });
    const row = panel.getByRole('row').filter({ hasText: 'maker' }).filter({ hasText: 'CREATE' });
    await row.getByRole('button', { name: 'View' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(newUser.username).isVisible()).resolves.toBe(true);
    await expect(dialog.getByText('CREATE').first().isVisible()).resolves.toBe(true);
    await expect(dialog.getByText(newUser.password).count()).resolves.toBe(0);
    // a click outside does not dismiss it
    await page.mouse.click(5, 5);
    await expect(dialog.isVisible()).resolves.toBe(true);
    await screenshot(page, 'approval-modal');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('User approved successfully').waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0); // the request left the panel
    await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill(newUser.username);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: newUser.username, exact: true }).waitFor();
    await screenshot(page, 'users-after-approval');
    await signOut(page);
    await context.close();
  });

  it('the new user signs in with the password the maker set, must replace it first, and then works', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signInThroughForm(page, newUser.username, newUser.password);
    // a password chosen by someone else is temporary
    await page.waitForURL('**/resetPassword');
    expect(await menuOf(page)).toEqual([]);
    await page.getByLabel('Old Password').fill(newUser.password);
    await page.getByLabel('New Password').fill('Own@Choice12');
    await page.getByLabel('Confirm Password').fill('Own@Choice12');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password reset successful').waitFor();
    await expect.poll(() => menuOf(page), { timeout: 15_000 }).toContain('Users');
    await context.close();
  });

  it('the Users export downloads and reads back with the new user', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    await page.goto('/users');
    await page.getByLabel('Username/Email/Contact Number', { exact: true }).fill('kasun');
    // exports are disabled while the filter changed since the last search
    await expect(readExportItem(page, 'Download as Excel', (i) => i.isDisabled())).resolves.toBe(true);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: newUser.username, exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('data')).toBe('kasun'); // filters live in the URL
    const [download] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
    expect(download.suggestedFilename()).toMatch(/^Users_\d{4}-\d{2}-\d{2}.*\.xlsx$/);
    const path = await download.path();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(path) as never);
    const ws = wb.worksheets[0];
    const text: string[] = [];
    ws.eachRow((r) =>
      text.push(
        (r.values as unknown[])
          .slice(1)
          .map((v) => String(v ?? ''))
          .join('|'),
      ),
    );
    expect(text[0]).toContain('Users');
    expect(text.some((l) => /^On \d{4}-\d{2}-\d{2} .* by admin/.test(l))).toBe(true);
    expect(text.some((l) => l.startsWith('ID|Name|Email|Contact Number|Username|Branch|Status|Created At|Updated At'))).toBe(true);
    expect(text.some((l) => l.includes(newUser.username) && l.includes(newUser.email))).toBe(true);

    const [pdf] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as PDF')).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^Users_.*\.pdf$/);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await context.close();
  });
});
