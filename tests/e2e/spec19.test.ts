/**
 * Specification details in Chromium: Edit User of an auditor, Branch required on blur, a locked record's
 * edit page opened by URL, the app dashboard's remittance cards, and IPG Provider Currencies of a
 * route naming another provider, the Refunded tab's footer, and an export built from the reply's `fields`.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asUser, useServerAndBrowser, DEMO_PASSWORD } from './harness';
import { exportItem, readExportItem } from './exportMenu';
import { sheetLines } from './downloads';

const live = useServerAndBrowser();

const as = (username: string, run: (page: Page) => Promise<void>) => asUser(live, 'spec19', username, run);

/** A call of the real API as `username` (what any client of the contract does). */
async function api(username: string, path: string, body: object) {
  const post = async (p: string, b: object, token?: string) =>
    (
      await fetch(`${live.server.url}/api/${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(b) })
    ).json();
  const login = await post('auth/login', { username, password: DEMO_PASSWORD });
  return post(path, body, login.data.token);
}

const numberIn = (text: string) => Number(text.replace(/[^\d]/g, ''));

describe('user form', () => {
  it("Edit User of an auditor shows the record's type, its list, its role and permissions", async () => {
    const users = (await api('admin', 'user/list', { data: 'auditor', fetchCount: 10 })).data.users as { id: number; username: string }[];
    const id = users.find((u) => u.username === 'auditor')!.id;
    await as('admin', async (page) => {
      await page.goto(`${live.server.url}/users/edit/${id}`);
      const type = page.getByLabel('User Type');
      await expect.poll(() => type.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe('Auditor');
      await expect.poll(() => page.getByLabel('Auditor', { exact: true }).evaluate((s: HTMLSelectElement) => s.value)).toBe('AUDITOR');
      await expect.poll(() => page.getByLabel('Role', { exact: true }).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe('Auditor');
      expect(await page.getByRole('checkbox', { name: 'auditor-dashboard-view' }).isChecked()).toBe(true);

      // Save sends the record's own type, list value and role (the call is answered here: the record stays unlocked)
      let sent: Record<string, unknown> | undefined;
      await page.route('**/api/user/edit', async (route) => {
        sent = route.request().postDataJSON() as Record<string, unknown>;
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ statusCode: 200, data: { message: 'User sent for approval' } }) });
      });
      await page.getByLabel('Name', { exact: true }).fill('Demo Auditor Two');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => sent, { timeout: 10_000 }).toBeDefined();
      expect(sent).toMatchObject({ id, type: 'AUDITOR', branch_code: 'AUDITOR', name: 'Demo Auditor Two' });
      expect(typeof sent!.role === 'number' || typeof sent!.role === 'string').toBe(true);
      expect(String(sent!.role)).not.toBe('');
    });
  });

  it('Branch required shows on blur while other fields are still invalid', async () => {
    await as('admin', async (page) => {
      await page.goto(`${live.server.url}/users/create`);
      await page.getByLabel('User Type').selectOption('BACKEND');
      await page.getByLabel('Branch', { exact: true }).focus();
      await page.getByLabel('Branch', { exact: true }).blur();
      await page.getByText('Please select a branch').waitFor({ timeout: 10_000 });
    });
  });

  it('Branch required shows on Save with the other errors (an exchange house user: its own words)', async () => {
    await as('admin', async (page) => {
      await page.goto(`${live.server.url}/users/create`);
      await page.getByLabel('User Type').selectOption('EXCHANGEHOUSE');
      await page.getByLabel('Name', { exact: true }).fill('x');
      await page.getByLabel('Name', { exact: true }).press('Tab');
      // the Name rule (on blur) has shown, and nothing about the exchange house yet
      await page.getByText('Name can only have alphanumeric characters and should be at least 3 characters long').waitFor();
      expect(await page.getByText('Please select an exchange house').count()).toBe(0);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Please select an exchange house').waitFor({ timeout: 10_000 });
      // reported together with the other fields' errors, not once they are valid
      await page.getByText('Please select a role').waitFor();
      await page.getByText('Name can only have alphanumeric characters and should be at least 3 characters long').waitFor();
    });
  });
});

describe('a locked record opened by its URL', () => {
  it('says the record is locked and disables Save', async () => {
    const bank = (await api('maker', 'bank/list', {})).data.banks[0] as { id: number; bank_code: string; bank_name: string; logo: string; disabled: number };
    const sent = await api('maker', 'bank/edit', { id: bank.id, bank_code: bank.bank_code, bank_name: `${bank.bank_name} X`, logo: bank.logo, disabled: bank.disabled });
    expect(sent.statusCode).toBe(200);
    await as('maker', async (page) => {
      await page.goto(`${live.server.url}/banks/edit/${bank.id}`);
      await page.getByText('This record is locked: a change request for it is pending approval.').waitFor({ timeout: 10_000 });
      expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    });
  });
});

describe('app dashboard', () => {
  it('Total no of Remittance Transactions is the Remittances count; the four services are labelled as such', async () => {
    await as('admin', async (page) => {
      const totals = page.getByRole('region', { name: 'Totals', exact: true });
      const card = (label: string) =>
        totals
          .getByTestId('stat-card')
          .filter({ has: page.getByText(label, { exact: true }).filter({ visible: true }) })
          .first();
      /** The card's figure: its line that is a number alone. */
      const figure = async (label: string) => numberIn((await card(label).innerText()).split('\n').find((l) => /^\d[\d,]*$/.test(l.trim())) ?? '');
      await expect.poll(() => figure('Remittances'), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await figure('Total no of Remittance Transactions')).toBe(await figure('Remittances'));
      const totalsReply = (await api('admin', 'dashboard/totalCountsAndValues', {})).data;
      expect(await card('Total Value of Transactions (LKR)').innerText()).toContain(totalsReply.totalCeftValueLKR.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      expect(await totals.getByTestId('four-services-count').innerText()).toContain('together');
    });
  });
});

describe('IPG Provider Currencies', () => {
  it("a non-super user opening another provider's route sees their own provider, and is told which", async () => {
    await as('kasun_herath', async (page) => {
      await page.goto(`${live.server.url}/ipgProviderCurrencies/7056`);
      const note = page.getByTestId('own-provider-note');
      await note.waitFor({ timeout: 10_000 });
      expect(await note.innerText()).toContain('(provider bank code 7010), not those of 7056');
      expect(await page.getByRole('alert').filter({ hasText: 'own IPG provider' }).count()).toBe(0);
    });
  });
});

describe("the Refunded tab's footer", () => {
  it('says its totals are of refunded transactions in LKR, not of successful ones', async () => {
    await as('auditor', async (page) => {
      await page.goto(`${live.server.url}/AllCeftTransactions`);
      await page.getByRole('tab', { name: 'Refunded' }).click();
      await expect.poll(() => page.getByRole('tab', { name: 'Refunded' }).getAttribute('aria-selected')).toBe('true');
      const footer = page.locator('footer').filter({ hasText: 'Total Amount' });
      await footer.waitFor({ timeout: 15_000 });
      const text = await footer.innerText();
      expect(text).toContain('Displaying only the total value of refunded transactions, in LKR.');
      expect(text).toContain('LKR');
      expect(text).not.toContain('successful');
    });
  });
});

describe("exports are built from the reply's fields", () => {
  it("the Excel has the columns the server's reply names (header, dataKey, type), not the console's own", async () => {
    await as('admin', async (page) => {
      // a server that speaks the contract and sends other fields: two columns, one renamed
      const fields = [
        { header: 'Login Name', dataKey: 'username', type: 'STRING' },
        { header: 'Joined', dataKey: 'created_at', type: 'DATE' },
      ];
      await page.route('**/api/user/list', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { data: Record<string, unknown> };
        json.data.fields = fields;
        await route.fulfill({ response, body: JSON.stringify(json) });
      });
      const users = (await api('admin', 'user/list', { data: '', fetchCount: 10 })).data.users as { username: string }[];
      await page.goto(`${live.server.url}/users`);
      await expect.poll(() => readExportItem(page, 'Download as Excel', (i) => i.isEnabled()), { timeout: 30_000 }).toBe(true);
      const [download] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
      const lines = await sheetLines(download);
      const header = lines.findIndex((l) => l === 'Login Name|Joined');
      expect(header, lines.slice(0, 6).join('\n')).toBeGreaterThan(0);
      const body = lines.slice(header + 1);
      expect(body.length).toBeGreaterThan(0);
      for (const l of body) expect(l).toMatch(/^[^|]+\|\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(body.map((l) => l.split('|')[0])).toContain(users[0].username);
    });
  });
});
