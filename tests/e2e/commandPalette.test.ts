/**
 * The command palette in Chromium: Ctrl+K opens it over any screen; typing part of a screen's name
 * and Enter goes there, with focus on the new screen's heading; Escape closes it and focus goes back
 * where it was; "Approve next" as the checker opens the oldest request the checker may decide in the
 * approvals inbox; a trace typed and Enter is looked up by the top-bar search, which lists the
 * transaction; an auditor is offered no create screen.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { newPage, screenshot, signIn, useServerAndBrowser } from './harness';

const live = useServerAndBrowser();

async function api<T>(path: string, body: unknown, token?: string): Promise<{ statusCode: number; data: T }> {
  const res = await fetch(`${live.server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { statusCode: number; data: T };
}

async function tokenOf(username: string): Promise<string> {
  return (await api<{ token: string }>('auth/login', { username, password: 'Demo@Pass1' })).data.token;
}

const hasFocus = (loc: Locator) => loc.evaluate((el) => el === document.activeElement);

/** Presses Ctrl+K and waits for the palette, its search box focused. */
async function openPalette(page: Page) {
  await page.keyboard.press('Control+k');
  return shownPalette(page);
}

/** Waits for the palette, its search box focused. */
async function shownPalette(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await dialog.waitFor();
  const box = dialog.getByRole('combobox');
  await expect.poll(() => hasFocus(box)).toBe(true);
  return { dialog, box, list: dialog.getByRole('listbox', { name: 'Commands' }) };
}

/** The labels of the options shown (each option also names its kind: 'Create', 'Reports', ...). */
async function optionLabels(list: Locator): Promise<string[]> {
  return list.getByRole('option').evaluateAll((options) => options.map((o) => o.querySelector('span')?.textContent ?? ''));
}

/** The label of the option the combobox names as active. */
async function activeOption(page: Page, box: Locator): Promise<string> {
  const id = await box.getAttribute('aria-activedescendant');
  expect(id).toBeTruthy();
  const option = page.locator(`[id="${id}"]`);
  expect(await option.getAttribute('role')).toBe('option');
  expect(await option.getAttribute('aria-selected')).toBe('true');
  return (await option.locator('span').first().innerText()).trim();
}

describe('the command palette', () => {
  it('goes to a screen by part of its name, focus on its heading; arrows move, Escape gives focus back', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    await page.locator('main h1').first().waitFor();

    // Escape: focus goes back to the element that had it
    const theme = page.getByRole('button', { name: /^Theme:/ });
    await theme.focus();
    let palette = await openPalette(page);
    expect(await palette.box.getAttribute('aria-expanded')).toBe('true');
    expect(await palette.box.getAttribute('aria-controls')).toBe(await palette.list.getAttribute('id'));
    await screenshot(page, 'command-palette');
    await page.keyboard.press('Escape');
    await palette.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(theme)).toBe(true);

    // the top bar's button opens it too
    await page.getByRole('button', { name: 'Command palette' }).click();
    palette = await shownPalette(page);
    await page.keyboard.press('Escape');
    await palette.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(page.getByRole('button', { name: 'Command palette' }))).toBe(true);

    // type part of a name: the matches, best first; Down and Up move the active option
    palette = await openPalette(page);
    await page.keyboard.type('adver');
    await expect.poll(() => optionLabels(palette.list)).toEqual(['Advertisements', 'New advertisement', 'Find transaction “adver”']);
    expect(await activeOption(page, palette.box)).toBe('Advertisements');
    await page.keyboard.press('ArrowDown');
    expect(await activeOption(page, palette.box)).toBe('New advertisement');
    await page.keyboard.press('ArrowDown');
    expect(await activeOption(page, palette.box)).toBe('Find transaction “adver”');
    await page.keyboard.press('ArrowDown');
    expect(await activeOption(page, palette.box)).toBe('Advertisements');
    await page.keyboard.press('ArrowUp');
    expect(await activeOption(page, palette.box)).toBe('Find transaction “adver”');
    await page.keyboard.press('ArrowDown');

    // Enter goes there, and focus lands on the new screen's heading
    await page.keyboard.press('Enter');
    await palette.dialog.waitFor({ state: 'detached' });
    await page.waitForURL((u) => u.pathname === '/advertisements');
    const heading = page.locator('main h1').first();
    await expect.poll(() => heading.innerText()).toBe('Advertisements');
    await expect.poll(() => hasFocus(heading)).toBe(true);

    // a create screen
    palette = await openPalette(page);
    await page.keyboard.type('new user');
    expect(await activeOption(page, palette.box)).toBe('New user');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/users/create');
    await expect.poll(() => heading.innerText()).toBe('Create User');
    await expect.poll(() => hasFocus(heading)).toBe(true);
    await context.close();
  }, 120_000);

  it('an auditor is offered their screens and no create screen', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'auditor');
    const palette = await openPalette(page);
    const options = await optionLabels(palette.list);
    expect(options.filter((o) => o.startsWith('New '))).toEqual([]);
    expect(options).not.toContain('Approve next');
    expect(options).toContain('Bill Payments');
    expect(options).toContain('Find transaction…');
    await page.keyboard.type('new user');
    await palette.list.getByRole('option').first().waitFor({ state: 'detached' });
    await palette.dialog.getByText('Nothing matches.').waitFor();
    await context.close();
  }, 60_000);

  it('Approve next, as the checker, opens the oldest request the checker may decide', async () => {
    const checker = await tokenOf('checker');
    const inbox = await api<{ requests: { changeRequestId: number; type: string; record: string; requestedBy: string }[]; total: number }>('changeRequest/inbox', { limit: 1 }, checker);
    expect(inbox.statusCode).toBe(200);
    const oldest = inbox.data.requests[0];
    expect(oldest, 'the demo data has a pending request the checker may decide').toBeDefined();
    expect(oldest.requestedBy).toBe('maker');

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'checker');
    const palette = await openPalette(page);
    await page.keyboard.type('approve');
    expect(await activeOption(page, palette.box)).toBe('Approve next');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/approvals' && u.searchParams.get('request') === String(oldest.changeRequestId));
    const modal = page.getByRole('dialog', { name: new RegExp(`^${oldest.type}`) });
    await modal.waitFor();
    await modal.getByText(`Requested by ${oldest.requestedBy} at`).waitFor();
    // the inbox behind it lists the same request first
    await expect.poll(() => page.locator('tr[data-request]').first().getAttribute('data-request')).toBe(String(oldest.changeRequestId));
    expect(await page.locator(`tr[data-request="${oldest.changeRequestId}"]`).innerText()).toContain(oldest.record);
    await screenshot(page, 'command-palette-approve-next');
    // closed: the URL forgets the request, a reload does not open it again
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => new URL(page.url()).searchParams.get('request')).toBeNull();
    await context.close();
  }, 90_000);

  it('Find transaction: a trace typed and Enter shows what the top-bar search finds', async () => {
    const maker = await tokenOf('maker');
    const found = await api<{ matches: { service: string; row: { id: number; trace: string } }[] }>('Transaction/find', { value: '1', service: 'ceft', by: 'id' }, maker);
    const row = found.data.matches[0].row;
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'maker');
    const palette = await openPalette(page);
    await page.keyboard.type(row.trace);
    await expect.poll(async () => (await optionLabels(palette.list))[0]).toBe(`Find transaction “${row.trace}”`);
    await page.keyboard.press('Enter');
    // the top-bar search has the trace, focus and its results, as when typed there
    const search = page.getByRole('combobox', { name: 'Find a transaction by trace, ID or UID' });
    await expect.poll(() => hasFocus(search)).toBe(true);
    expect(await search.inputValue()).toBe(row.trace);
    const results = page.getByRole('listbox', { name: 'Transactions found' });
    const option = results.getByRole('option').filter({ hasText: `ID ${row.id}` });
    await option.waitFor();
    expect(await option.innerText()).toContain(`Trace ${row.trace}`);
    // and Enter opens it, as there
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Send Money Transactions: ID ${row.id}` }).waitFor();
    await context.close();
  }, 90_000);
});
