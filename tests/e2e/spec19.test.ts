/**
 * Issue 19's screens in Chromium: Edit User of an auditor, Branch required on blur, a locked record's
 * edit page opened by URL, the app dashboard's remittance cards, and IPG Provider Currencies of a
 * route naming another provider.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asUser, newPage, screenshot, signIn, useServerAndBrowser, DEMO_PASSWORD } from './harness';

const live = useServerAndBrowser();

const as = (username: string, run: (page: Page) => Promise<void>) => asUser(live, 'spec19', username, run);

/** A call of the real API as `username` (what any client of the contract does). */
async function api(username: string, path: string, body: object) {
  const post = async (p: string, b: object, token?: string) =>
    (await fetch(`${live.server.url}/api/${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(b) })).json();
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
      const card = (label: string) => totals.getByTestId('stat-card').filter({ has: page.getByText(label, { exact: true }).filter({ visible: true }) }).first();
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
