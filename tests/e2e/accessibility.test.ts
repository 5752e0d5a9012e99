/**
 * Accessibility, end to end: axe-core (the WCAG 2.0, 2.1 and 2.2 A and AA rules and best practice) runs on every screen of the registry and on the main
 * modals, in the light and the dark theme, and a serious or critical violation fails the test with its
 * rule, its target and axe's help. One server and one browser for the whole file.
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { ARTEFACTS, openInApp, signIn, useServerAndBrowser } from './harness';
import { rowAction, rowActionCount } from './rowMenu';
import { TOKEN_KEY } from '../../src/console/session';

// MONEY_ACTION_APPROVAL_ABOVE_USD set (far above any demo amount, so every action still runs at once) so that
// Money Action Approvals, shown only while it is set, is audited with the rest
const live = useServerAndBrowser({ MONEY_ACTION_APPROVAL_ABOVE_USD: '100000000' });
const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

type Theme = 'light' | 'dark';
interface Finding {
  where: string;
  rule: string;
  impact: string;
  target: string;
  help: string;
}
const all: Finding[] = [];

/** Runs axe on the page as it is now; returns its serious and critical violations, one per node. */
async function audit(page: Page, where: string, include?: string): Promise<Finding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(context ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, include ?? null);
  const found = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.targets.map((target) => ({ where, rule: v.id, impact: v.impact, target, help: v.help })));
  all.push(...found);
  return found;
}

function report(found: Finding[]): string {
  return found.map((f) => `${f.where}: ${f.rule} (${f.impact}) at ${f.target}: ${f.help}`).join('\n');
}

/**
 * The requests each page has in flight, but the change-request event stream: Approvals keeps it open
 * for as long as the screen is shown, so Playwright's 'networkidle' never came there and each visit
 * waited out its 30 s timeout.
 */
const inFlight = new WeakMap<Page, Set<Request>>();
function trackRequests(page: Page) {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (r) => {
    if (!r.url().includes('/api/changeRequest/events')) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** Waits until the page has had no request in flight (the event stream aside) for `quietMs` (at most `timeout`). */
async function networkQuiet(page: Page, quietMs = 300, timeout = 15_000) {
  const open = inFlight.get(page);
  if (!open) throw new Error('networkQuiet: the page was not made by pageIn');
  const end = Date.now() + timeout;
  let quietSince = open.size === 0 ? Date.now() : Infinity;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    if (open.size > 0) quietSince = Infinity;
    else if (quietSince === Infinity) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
  }
}

/** A signed-in page in the given theme (the console's own choice, stored before the app starts). */
async function pageIn(browser: Browser, theme: Theme, username: string) {
  // reduced motion: colours are judged at rest, not half-way through a button's 150 ms fade from disabled to enabled
  const context = await browser.newContext({
    bypassCSP: true,
    baseURL: live.server.url,
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'reduce',
    colorScheme: theme === 'dark' ? 'light' : 'dark',
  });
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  const page = await context.newPage();
  trackRequests(page);
  await signIn(page, username);
  return { context, page };
}

/** Waits for the screen's heading and for its loaders to go. */
async function settle(page: Page) {
  await page.locator('h1').first().waitFor();
  await networkQuiet(page);
  await page
    .locator('[role="progressbar"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

/** The screens an administrator opens (every screen of the registry but the auditor's), ids from the demo data. */
const adminRoutes = [
  '/dashboard',
  '/users',
  '/users/create',
  '/users/edit/1',
  '/roles',
  '/roles/create',
  '/roles/edit/1',
  '/transaction/ceft',
  '/transaction/bill',
  '/transaction/eChannelling',
  '/transaction/insurance',
  '/transaction/thyaga',
  '/AllCeftTransactions',
  '/kyc',
  '/activityLogs',
  '/userActivityLogs',
  '/settlementReport',
  '/instantSettlementReport',
  '/banks',
  '/banks/create',
  '/banks/edit/1',
  '/provider',
  '/ipgProviderCurrencies',
  '/ipgProviderCurrencies/7083',
  '/advertisements',
  '/advertisements/create',
  '/advertisements/edit/1',
  '/appUsers',
  '/appVersions',
  '/appVersions/create',
  '/resetPassword',
  '/approvals',
  '/my-requests',
  '/transactions/money-approvals',
  '/reports/segregation-of-duties',
];
const auditorRoutes = ['/AuditDashboard', '/AuditerEChanneling', '/AuditerBillPayments', '/AuditerThyaga'];

describe.each(['light', 'dark'] as const)('no serious or critical axe violation, %s theme', (theme) => {
  it('the sign-in page', async () => {
    const context = await live.browser.newContext({ bypassCSP: true, baseURL: live.server.url, reducedMotion: 'reduce' });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const found = await audit(page, `${theme} /login`);
    await context.close();
    expect(found, report(found)).toEqual([]);
  });

  it("every administrator's screen", async () => {
    const { context, page } = await pageIn(live.browser, theme, 'admin');
    const found: Finding[] = [];
    for (const route of adminRoutes) {
      await openInApp(page, route);
      await settle(page);
      found.push(...(await audit(page, `${theme} ${route}`)));
    }
    await context.close();
    expect(found, report(found)).toEqual([]);
  }, 240_000);

  it("every auditor's screen, and View Chart", async () => {
    const { context, page } = await pageIn(live.browser, theme, 'auditor');
    const found: Finding[] = [];
    for (const route of auditorRoutes) {
      await openInApp(page, route);
      await settle(page);
      found.push(...(await audit(page, `${theme} ${route}`)));
    }
    await openInApp(page, '/AuditDashboard');
    await settle(page);
    await page
      .getByRole('button', { name: /^View Chart/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await audit(page, `${theme} View Chart`)));
    await context.close();
    expect(found, report(found)).toEqual([]);
  }, 120_000);

  it('the row drawer, the column chooser, the command palette and the top-bar search results', async () => {
    const { context, page } = await pageIn(live.browser, theme, 'admin');
    const found: Finding[] = [];
    await page.goto('/transaction/ceft');
    await settle(page);
    const first = page.locator('tbody tr').first();
    const trace = (await first.locator('td').nth(1).innerText()).trim();
    await first.locator('td').first().click();
    await page.getByRole('dialog').waitFor();
    await networkQuiet(page);
    found.push(...(await audit(page, `${theme} row drawer`)));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await audit(page, `${theme} column chooser`)));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // the command palette (Ctrl+K), open; the trace typed there goes to the top-bar search
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
    found.push(...(await audit(page, `${theme} command palette`)));
    await page.keyboard.type(trace);
    await page.keyboard.press('Enter');
    await page.getByText(`Trace ${trace}`).first().waitFor();
    found.push(...(await audit(page, `${theme} search results`)));
    await context.close();
    expect(found, report(found)).toEqual([]);
  }, 120_000);

  it('the confirmation, Images and KYC review modals', async () => {
    const { context, page } = await pageIn(live.browser, theme, 'admin');
    const found: Finding[] = [];
    await page.goto('/provider');
    await settle(page);
    await page
      .getByRole('button', { name: /^(Activate|Deactivate)$/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await audit(page, `${theme} confirmation`)));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    // a money action's confirmation: the sentence, the summary, the reason box and the danger verb button
    await page.goto('/transaction/ceft');
    await settle(page);
    // the last week's pending transactions (at any hour: just after midnight, today has few): their fund transfer can be held
    const from = page.getByLabel('From', { exact: true });
    const weekBack = new Date(`${(await from.inputValue()).slice(0, 10)}T00:00:00Z`);
    weekBack.setUTCDate(weekBack.getUTCDate() - 7);
    await from.fill(`${weekBack.toISOString().slice(0, 10)} 00:00:00`);
    await from.press('Tab');
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('PENDING');
    await page.getByRole('button', { name: 'Search' }).click();
    await settle(page);
    // the first row the filter kept that can be held (a button of the row, or in its More actions menu)
    const rows = page.locator('tbody tr');
    let holdable = -1;
    for (let i = 0; i < (await rows.count()) && holdable < 0; i++) if ((await rowActionCount(page, rows.nth(i), 'Hold')) > 0) holdable = i;
    expect(holdable, 'a pending transaction of the last week that can be held').toBeGreaterThanOrEqual(0);
    await (await rowAction(page, rows.nth(holdable), 'Hold')).click();
    await page.getByRole('dialog', { name: 'Warning!' }).getByLabel('Reason (optional)').waitFor();
    found.push(...(await audit(page, `${theme} money confirmation`)));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/appUsers');
    await settle(page);
    await page.getByRole('button', { name: 'Images' }).first().click();
    await page.getByRole('dialog').waitFor();
    await networkQuiet(page);
    found.push(...(await audit(page, `${theme} Images`)));

    await page.goto('/kyc');
    await settle(page);
    await page.getByRole('button', { name: 'Review' }).first().click();
    await page.getByRole('dialog').waitFor();
    await networkQuiet(page);
    found.push(...(await audit(page, `${theme} KYC review`)));
    await context.close();
    expect(found, report(found)).toEqual([]);
  }, 120_000);

  it('the KYC review of a re-submission: its changed fields marked, and with Changed only', async () => {
    const { context, page } = await pageIn(live.browser, theme, 'checker');
    const reply = await page.evaluate(async (key) => {
      const token = localStorage.getItem(key);
      const res = await fetch('/api/kyc/get-all', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ kycStatus: 'PENDING', fetchCount: 99999999 }),
      });
      return (await res.json()) as { data: { kycList: { uid: string; submittedData: unknown }[] } };
    }, TOKEN_KEY);
    const target = reply.data.kycList.find((r) => r.submittedData !== null)!;
    expect(target).toBeDefined();
    await page.goto(`/kyc?data=${encodeURIComponent(target.uid)}&kycStatus=&fetchCount=10`);
    await settle(page);
    await page.getByRole('row').filter({ hasText: target.uid }).getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'Changed only' }).waitFor();
    await networkQuiet(page);
    const found = await audit(page, `${theme} KYC review of a re-submission`);
    await dialog.getByRole('checkbox', { name: 'Changed only' }).check();
    await networkQuiet(page);
    found.push(...(await audit(page, `${theme} KYC review, Changed only`)));
    await context.close();
    expect(found, report(found)).toEqual([]);
  }, 120_000);
});

describe('no serious or critical axe violation in the password and approval modals', () => {
  it.each(['light', 'dark'] as const)(
    'Change Password (maker) and the approval modal (checker), %s theme',
    async (theme) => {
      const found: Finding[] = [];
      const maker = await pageIn(live.browser, theme, 'maker');
      // two accounts whose reset waits for a checker (each theme's own request, so neither relies on the other)
      const username = theme === 'light' ? 'nimal_perera' : 'sunil_jayasinghe';
      await maker.page.goto('/users');
      await maker.page.getByLabel('Username/Email/Contact Number', { exact: true }).fill(username);
      await maker.page.getByRole('button', { name: 'Search' }).click();
      const row = maker.page.getByRole('row').filter({ has: maker.page.getByRole('cell', { name: username, exact: true }) });
      await row.getByRole('button', { name: 'Change Password' }).click();
      const dialog = maker.page.getByRole('dialog');
      await dialog.waitFor();
      found.push(...(await audit(maker.page, `${theme} Change Password`)));
      await dialog.getByRole('button', { name: 'Generate' }).click();
      await dialog.getByRole('button', { name: 'Change' }).click();
      await maker.page.getByText(`Password reset for user "${username}" sent for approval`).waitFor();
      await maker.context.close();

      const checker = await pageIn(live.browser, theme, 'checker');
      await checker.page.goto('/users');
      const panel = checker.page.getByRole('region', { name: 'Change Requests' });
      await panel.getByRole('row').filter({ hasText: username }).getByRole('button', { name: 'View' }).click();
      await checker.page.getByRole('dialog').waitFor();
      found.push(...(await audit(checker.page, `${theme} approval`)));
      await checker.context.close();
      expect(found, report(found)).toEqual([]);
    },
    120_000,
  );
});

describe('dialogs', () => {
  /** Whether the element the locator finds is the focused one. */
  const hasFocus = (loc: import('playwright-core').Locator) => loc.evaluate((el) => el === document.activeElement);

  it('Escape cancels a confirmation, and focus returns to the button that opened it', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'admin');
    await page.goto('/provider');
    await settle(page);
    const button = page.getByRole('button', { name: /^(Activate|Deactivate)$/ }).first();
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(button)).toBe(true);
    // Cancel too
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => hasFocus(button)).toBe(true);
    await context.close();
  });

  it('the KYC review: a long body is a labelled tab stop, Escape closes it, and focus returns to Review', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'admin');
    await page.goto('/kyc');
    await settle(page);
    const review = page.getByRole('button', { name: 'Review' }).first();
    await review.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const body = dialog.locator('[data-dialog-body]');
    await expect.poll(() => body.getAttribute('tabindex')).toBe('0');
    expect(await body.getAttribute('role')).toBe('region');
    expect(await body.getAttribute('aria-labelledby')).toBeTruthy();
    await body.focus();
    await page.keyboard.press('PageDown');
    await expect.poll(() => body.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(review)).toBe(true);
    await context.close();
  });

  it('View Chart and Change Password give focus back; the close button shows its ring when focused by script', async () => {
    const auditor = await pageIn(live.browser, 'dark', 'auditor');
    await auditor.page.goto('/AuditDashboard');
    await settle(auditor.page);
    const chart = auditor.page.getByRole('button', { name: /^View Chart/ }).first();
    await chart.click();
    const close = auditor.page.getByRole('dialog').getByRole('button', { name: 'Close' });
    await close.evaluate((el) => (el as HTMLElement).focus());
    const outline = await close.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    await auditor.page.keyboard.press('Enter');
    await auditor.page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(chart)).toBe(true);
    await auditor.context.close();

    const admin = await pageIn(live.browser, 'light', 'admin');
    await admin.page.goto('/users');
    await settle(admin.page);
    const change = admin.page.getByRole('button', { name: 'Change Password' }).first();
    await change.click();
    await admin.page.getByRole('dialog').waitFor();
    await admin.page.keyboard.press('Escape');
    await admin.page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(change)).toBe(true);
    await admin.context.close();
  });
});

describe('the date-time filter field', () => {
  it('keeps what is typed part by part, takes a paste, refuses an impossible date, and Search sends what the field shows', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'admin');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: live.server.url });
    await page.goto('/transaction/ceft');
    await settle(page);
    const from = page.getByLabel('From', { exact: true });
    await from.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    for (const part of ['2026', '-11', '-20', ' 00', ':00', ':01']) {
      await page.keyboard.type(part);
      expect(await from.inputValue()).toMatch(new RegExp(`${part.replace(/[-:]/g, '.')}$`));
    }
    expect(await from.inputValue()).toBe('2026-11-20 00:00:01');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from_date')).toBe('2026-11-20T00:00:01');
    expect(await from.inputValue()).toBe('2026-11-20 00:00:01');

    // an impossible date says so and changes nothing
    await from.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2026-02-30 10:00:00');
    await page.getByRole('alert').filter({ hasText: 'There is no date 2026-02-30' }).waitFor();
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    expect(await from.inputValue()).toBe('2026-02-30 10:00:00');

    // a paste
    await page.evaluate(() => navigator.clipboard.writeText('2026-11-21T08:30:00'));
    await from.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('ControlOrMeta+V');
    expect(await from.inputValue()).toBe('2026-11-21T08:30:00');
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    // Search sends From at second 01, and the field shows that
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from_date')).toBe('2026-11-21T08:30:01');
    expect(await from.inputValue()).toBe('2026-11-21 08:30:01');
    await context.close();
  });
});

describe('toasts', () => {
  it('a failure is an alert that stays until dismissed, clear of the header', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'maker');
    await page.clock.install();
    await page.goto('/resetPassword');
    await settle(page);
    await page.getByLabel('Old Password', { exact: true }).fill('Wrong@Pass99');
    await page.getByLabel('New Password', { exact: true }).fill('Newer@Pass77');
    await page.getByLabel('Confirm Password', { exact: true }).fill('Newer@Pass77');
    await page.getByRole('button', { name: 'Reset' }).click();
    const failure = page.getByRole('alert').locator('[data-toast]').filter({ hasText: 'Old password is invalid!' });
    await failure.waitFor();
    await page.clock.runFor(30_000);
    expect(await failure.isVisible()).toBe(true);
    // covers none of the header's buttons
    const toastBox = (await failure.boundingBox())!;
    for (const button of await page.locator('header button').all()) {
      const b = (await button.boundingBox())!;
      const overlaps = b.x < toastBox.x + toastBox.width && toastBox.x < b.x + b.width && b.y < toastBox.y + toastBox.height && toastBox.y < b.y + b.height;
      expect(overlaps).toBe(false);
    }
    await failure.getByRole('button', { name: 'Dismiss' }).click();
    await failure.waitFor({ state: 'detached' });
    await context.close();
  });

  it('a success toast is announced politely, pauses on hover and on focus, and then goes', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'admin');
    await page.clock.install();
    await page.goto('/provider');
    await settle(page);
    await page
      .getByRole('button', { name: /^(Activate|Deactivate)$/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    const success = page.getByRole('status').locator('[data-toast="success"]').first();
    await success.waitFor();
    await success.hover();
    await page.clock.runFor(10_000);
    expect(await success.isVisible()).toBe(true);
    await success.getByRole('button', { name: 'Dismiss' }).focus();
    await page.mouse.move(5, 5);
    await page.clock.runFor(10_000);
    expect(await success.isVisible()).toBe(true);
    await success.getByRole('button', { name: 'Dismiss' }).blur();
    await page.clock.runFor(5_000);
    await success.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('the unsaved-changes guard', () => {
  it('leaving a dirty form asks (stay or leave), closing the tab asks, Cancel does not', async () => {
    const { context, page } = await pageIn(live.browser, 'light', 'admin');
    const menuLink = (name: string) => page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name, exact: true });
    await page.goto('/banks');
    await settle(page);
    await page.getByRole('link', { name: 'Create Bank' }).click();
    await page.getByLabel('Bank Code', { exact: true }).fill('7999');

    await menuLink('Users').click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Unsaved changes' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe('/banks/create');
    expect(await page.getByLabel('Bank Code', { exact: true }).inputValue()).toBe('7999');

    // closing or reloading the tab asks through the browser
    const asked = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())));
    await page.reload({ timeout: 2_000 }).catch(() => undefined);
    expect(await asked).toBe('beforeunload');

    await menuLink('Users').click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();

    // Cancel is deliberate: no question
    await page.goto('/banks');
    await settle(page);
    await page.getByRole('link', { name: 'Create Bank' }).click();
    await page.getByLabel('Bank Code', { exact: true }).fill('7999');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Banks', level: 1 }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Cancel returns to the list even when the form was opened by its address (no page of the app before it)
    await page.goto('/banks/create');
    await page.getByLabel('Bank Code', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Banks', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/banks');
    await context.close();
  });
});

describe('print', () => {
  const shown = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((els) => els.filter((el) => getComputedStyle(el).display !== 'none' && (el as HTMLElement).offsetParent !== null).length);

  it('a list prints without menu, header, filters and buttons, its table not cut; the KYC review prints alone and whole', async () => {
    const { context, page } = await pageIn(live.browser, 'dark', 'admin');
    await page.goto('/users');
    await settle(page);
    await page.emulateMedia({ media: 'print' });
    expect(await shown(page, 'header, nav, button, [role="search"]')).toBe(0);
    expect(await shown(page, 'table')).toBeGreaterThanOrEqual(1);
    const cut = await page
      .locator('table')
      .last()
      .evaluate((table) => {
        let el: HTMLElement | null = table.parentElement;
        while (el) {
          if (el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible') return true;
          el = el.parentElement;
        }
        return false;
      });
    expect(cut).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(0, 0, 0)');

    await page.emulateMedia({ media: 'screen' });
    await page.goto('/kyc');
    await settle(page);
    await page.getByRole('button', { name: 'Review' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#root').evaluate((el) => getComputedStyle(el).display)).toBe('none');
    expect(await shown(page, '[role="dialog"] button')).toBe(0);
    const body = dialog.locator('[data-dialog-body]');
    expect(await body.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 || getComputedStyle(el).overflowY === 'visible')).toBe(true);
    await context.close();
  });
});

describe('keyboard only', () => {
  interface Focus {
    tag: string;
    text: string;
    id: string;
    label: string;
    /** The text of the table row that holds the element, if any. */
    rowText: string;
  }
  const focus = (page: Page): Promise<Focus> =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        tag: el?.tagName ?? '',
        text: (el?.innerText ?? '').trim(),
        id: el?.id ?? '',
        label: el?.getAttribute('aria-label') ?? '',
        rowText: (el?.closest('tr') as HTMLElement | null)?.innerText ?? '',
      };
    });
  /** Presses Tab until the focused element matches (at most `max` times); returns it. */
  async function tabTo(page: Page, match: (f: Focus) => boolean, max = 120, key = 'Tab'): Promise<Focus> {
    for (let i = 0; i < max; i++) {
      const f = await focus(page);
      if (match(f)) return f;
      await page.keyboard.press(key);
    }
    throw new Error(`never reached by Tab; ended on ${JSON.stringify(await focus(page))}`);
  }

  it('signs in, opens a screen from the menu, filters with a typed date, sorts, cancels and confirms a row action, signs out', async () => {
    const context = await live.browser.newContext({ baseURL: live.server.url, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    trackRequests(page);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await focus(page)).toMatchObject({ id: 'username' });
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Demo@Pass1');
    await page.keyboard.press('Enter');
    await page.getByTestId('username').waitFor();

    // the menu: Tab to Send Money, Enter; focus lands on the new heading
    await tabTo(page, (f) => f.tag === 'A' && f.text === 'Send Money');
    await page.keyboard.press('Enter');
    await expect.poll(() => focus(page)).toMatchObject({ tag: 'H1' });
    await settle(page);

    // a typed date, and Enter searches
    await tabTo(page, (f) => f.id === 'filter-from_date');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2026-11-20 00:00:01');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('from_date')).toBe('2026-11-20T00:00:01');
    expect(await focus(page)).toMatchObject({ id: 'filter-from_date' });

    // sort by a column from the keyboard
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text.startsWith('ID'));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('th[aria-sort]').count()).toBeGreaterThan(0);

    // a row action: Escape cancels, Enter on Yes confirms; focus returns to the row's button
    await page.goto('/provider');
    await settle(page);
    const action = await tabTo(page, (f) => f.tag === 'BUTTON' && /^(Activate|Deactivate)$/.test(f.text));
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focus(page)).toMatchObject({ tag: 'BUTTON', text: action.text });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Yes', 5);
    await page.keyboard.press('Enter');
    await page.locator('[data-toast="success"]').first().waitFor();

    // sign out through the user menu
    await page.goto('/dashboard');
    await page.locator('h1').first().waitFor();
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text.includes('admin'), 60, 'Shift+Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focus(page)).toMatchObject({ text: 'Logout' });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await context.close();
  }, 120_000);

  it('a checker opens a pending change request from the Approvals inbox and approves it, with a comment typed', async () => {
    const login = await fetch(`${live.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'maker', password: 'Demo@Pass1' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const made = await fetch(`${live.server.url}/api/role/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ role_name: 'Keyboard Approved Role', user_type: 'BACKEND', user_level: 1, permissions: ['send-money-report-view'], disabled: 0 }),
    });
    expect(made.status).toBe(200);

    const context = await live.browser.newContext({ baseURL: live.server.url, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    trackRequests(page);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.type('checker');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Demo@Pass1');
    await page.keyboard.press('Enter');
    await page.getByTestId('username').waitFor();

    // the menu's Approvals entry, then the request's View button
    await tabTo(page, (f) => f.tag === 'A' && f.text.startsWith('Approvals'));
    await page.keyboard.press('Enter');
    await expect.poll(() => focus(page)).toMatchObject({ tag: 'H1' });
    const row = page.getByRole('row').filter({ hasText: 'Keyboard Approved Role' });
    await row.waitFor();
    const view = await tabTo(page, (f) => f.tag === 'BUTTON' && (f.label || f.text).startsWith('View') && f.rowText.includes('Keyboard Approved Role'));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Keyboard Approved Role').first().waitFor();

    // Tab to the comment, type it, Tab to Approve, Enter
    await tabTo(page, (f) => f.tag === 'TEXTAREA', 40);
    await page.keyboard.type('Checked by keyboard');
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Approve', 10);
    await page.keyboard.press('Enter');
    await page.getByText('Role approved successfully').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row.count()).toBe(0);
    // the row and its View button are gone: focus is not lost to the page's body but goes to the heading
    await expect.poll(() => focus(page)).toMatchObject({ tag: 'H1' });
    expect(view.tag).toBe('BUTTON');
    await context.close();
  }, 120_000);
});

describe('the summary', () => {
  it('writes the findings by rule to test-results/axe.json', () => {
    const byRule: Record<string, number> = {};
    for (const f of all) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
    mkdirSync(ARTEFACTS, { recursive: true });
    writeFileSync(join(ARTEFACTS, 'axe.json'), JSON.stringify({ byRule, findings: all }, null, 2));
    console.log('axe serious/critical by rule:', byRule);
    // each screen's test fails on its own findings; this one says so for the whole run
    expect(byRule).toEqual({});
  });
});
