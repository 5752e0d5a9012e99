/**
 * Master data end to end in Chromium (spec 002 §2): one maker-checker round trip per area against
 * the real server — banks (with a logo upload), IPG provider currencies (rate inputs and the special
 * approval view), IPG providers, advertisements (countries picker, dates, an image slot), app users
 * (User Images, hold with a comment) and app versions (version boxes, platforms, force update).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Raster } from '../../src/server/seed/png';
import { asUser, menuOf, screenshot, signOut, useServerAndBrowser } from './harness';
import { craftedPng } from '../fixtures/craftedImages';

/** A day this many days from today (local), as yyyy-MM-dd: advertisement validity must lie within a year from today. */
const daysAhead = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const live = useServerAndBrowser();

const png = (w: number, h: number, color: [number, number, number]) => {
  const r = new Raster(w, h, color);
  r.roundRect(4, 4, w - 8, h - 8, 10, [255, 255, 255], 0.3);
  r.centredText('E2E', Math.round(h / 2) - 7, 2, [255, 255, 255]);
  return r.png();
};

const as = (username: string, run: (page: Page) => Promise<void>) => asUser(live, 'md', username, run);

/**
 * Goes to the list's last page until `target` shows there, as a person clicks Last page again when
 * the list reloads under them: after an approval the list is loaded again, and a click that lands
 * before that reply is on the last page of the rows before the new one.
 */
async function lastPageShows(page: Page, target: ReturnType<Page['getByRole']>) {
  await expect
    .poll(
      async () => {
        const last = page.getByRole('button', { name: 'Last page' });
        if (await last.isEnabled()) await last.click();
        return target.count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
}

/**
 * Opens the pending request of `action` (of the record titled `record`, where the demo data has other
 * requests by maker in the same panel) in the Change Requests panel and decides it.
 */
async function decide(page: Page, action: 'CREATE' | 'EDIT', decision: 'Approve' | 'Reject', check?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>, shot?: string, record?: string) {
  const panel = page.getByRole('region', { name: 'Change Requests' });
  const row = panel
    .getByRole('row')
    .filter({ hasText: action })
    .filter({ hasText: record ?? action })
    .first();
  await row.getByRole('button', { name: 'View' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  if (check) await check(dialog);
  if (shot) await screenshot(page, shot);
  await dialog.getByRole('button', { name: decision }).click();
}

describe('menus', () => {
  it('the master-data screens are in the menus of the accounts that may open them', async () => {
    await as('checker', async (page) => {
      const menu = await menuOf(page);
      for (const item of ['Banks', 'IPG Providers', 'Advertisements', 'App Users', 'App Versions']) expect(menu).toContain(item);
      // spec 002 §2: the screen shows the provider of the user's own branch; the checker's branch has none
      await expect.poll(() => menuOf(page), { timeout: 10_000 }).not.toContain('IPG Provider Currencies');
    });
    await as('admin', async (page) => {
      // hidden from super users, who reach it by route
      expect(await menuOf(page)).not.toContain('IPG Provider Currencies');
    });
    await as('kasun_herath', async (page) => {
      expect(await menuOf(page)).toContain('IPG Provider Currencies');
    });
  });
});

describe('banks: create with a logo upload, approved by the checker', () => {
  it('the maker uploads a logo; a file that is not a PNG or JPEG is refused', async () => {
    await as('maker', async (page) => {
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Banks', exact: true }).click();
      await page.getByRole('cell', { name: 'Bank of Ceylon', exact: true }).waitFor();
      await expect(page.locator('table img').first().isVisible()).resolves.toBe(true);
      await screenshot(page, 'md-banks-list');
      await page.getByRole('link', { name: 'Create Bank' }).click();
      await page.getByRole('heading', { name: 'Create Bank' }).waitFor();

      await page.getByLabel('Bank Code', { exact: true }).fill('LO');
      await page.getByLabel('Bank Code', { exact: true }).blur();
      await page.getByText("Bank Code can only have alphanumeric characters with '_' and should be at least 3 characters long").waitFor();
      await page.getByLabel('Bank Code', { exact: true }).fill('LOLC_E2E');
      await page.getByLabel('Bank Name', { exact: true }).fill('LOLC Finance');
      await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'logo.txt', mimeType: 'image/png', buffer: Buffer.from('not an image') });
      await page.getByText('Uploaded image is invalid').waitFor();
      // a header claiming 5000 x 4000 pixels (a decompression bomb) is refused before upload, saying why
      await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: craftedPng(5000, 4000) });
      await page.getByText('The image is 5000 x 4000 pixels; at most 4096 x 4096 and 16 megapixels are accepted').waitFor();
      await expect(page.getByRole('img', { name: 'Logo preview' }).count()).resolves.toBe(0);
      await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(300, 200, [30, 90, 170]) });
      await page.getByRole('img', { name: 'Logo preview' }).waitFor();
      await expect(page.getByText('Uploaded image is invalid').count()).resolves.toBe(0);
      await screenshot(page, 'md-bank-create');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Bank sent for approval').waitFor();
      expect(new URL(page.url()).pathname).toBe('/banks');
    });
  });

  it('the checker sees the logo in the approval modal and approves', async () => {
    await as('checker', async (page) => {
      await page.goto('/banks');
      await decide(
        page,
        'CREATE',
        'Approve',
        async (dialog) => {
          await dialog.getByText('LOLC_E2E').waitFor();
          await expect(dialog.locator('img').count()).resolves.toBeGreaterThan(0);
        },
        'md-bank-approval',
      );
      await page.getByText('Bank approved successfully').waitFor();
      await lastPageShows(page, page.getByRole('cell', { name: 'LOLC Finance', exact: true }));
    });
  });
});

describe('IPG provider currencies: the bank edits rates, a super user approves in the currency table', () => {
  it('the IPG bank user edits rates entered from the right and saves the whole list', async () => {
    await as('kasun_herath', async (page) => {
      // the route with a trailing slash opens the provider of the user's own branch too
      await page.goto('/ipgProviderCurrencies/');
      await page.getByRole('heading', { name: 'IPG Provider Currencies: Bank of Ceylon IPG' }).waitFor();
      await page.goto('/dashboard');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'IPG Provider Currencies', exact: true }).click();
      await page.getByText("Today's rates are not updated").waitFor();
      await page.getByRole('button', { name: 'Enable Edit' }).click();

      const usd = page.getByLabel('USD transaction rate', { exact: true });
      await usd.click();
      await usd.press('Backspace');
      await expect(usd.inputValue()).resolves.toBe('0.0000');
      await usd.pressSequentially('3');
      await expect(usd.inputValue()).resolves.toBe('0.0003');
      await usd.pressSequentially('051234');
      await expect(usd.inputValue()).resolves.toBe('305.1234');
      await usd.pressSequentially('5x');
      await expect(usd.inputValue()).resolves.toBe('3,051.2345');
      await usd.press('Backspace');
      await usd.pressSequentially('3051234');
      await expect(usd.inputValue()).resolves.toBe('305.1234');

      // a zero transaction rate is refused with the specification's message
      const eur = page.getByLabel('EUR transaction rate', { exact: true });
      await eur.click();
      await eur.press('Backspace');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('value must be greater than 0.0001 and less than 9999999999').waitFor();
      await screenshot(page, 'md-currencies-editing');
      await eur.pressSequentially('3302500');
      await page.getByRole('switch', { name: 'JPY active' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('IPG provider currencies saved').waitFor();
      await page.getByLabel('Locked').first().waitFor();
      await expect(page.getByRole('button', { name: 'Enable Edit' }).count()).resolves.toBe(0);
      await screenshot(page, 'md-currencies-locked');
    });
  });

  it('the super user opens it from the providers list and approves in the currency table', async () => {
    await as('admin', async (page) => {
      await page.goto('/provider');
      await page.getByRole('row').filter({ hasText: 'Bank of Ceylon IPG' }).getByRole('button', { name: 'Currencies' }).click();
      await page.waitForURL(/\/ipgProviderCurrencies\/7010$/);
      await page.getByText("Today's rates are not updated").waitFor();
      await decide(
        page,
        'EDIT',
        'Approve',
        async (dialog) => {
          for (const header of ['currency_code', 'transaction_rate', 'settlement_rate', 'status']) await dialog.getByRole('columnheader', { name: header, exact: true }).waitFor();
          const headers = await dialog.getByRole('columnheader').allInnerTexts();
          expect(headers).toEqual(['currency_code', 'transaction_rate', 'settlement_rate', 'status']);
          const usdRow = dialog.getByRole('row').filter({ hasText: 'USD' });
          await usdRow.getByText('305.1234').waitFor();
          // the changed rate as old -> new, and only the changed rows while "Changes only" is on
          await expect(usdRow.locator('[data-old]').count()).resolves.toBeGreaterThan(0);
          await expect(usdRow.locator('[data-new]').first().innerText()).resolves.toBe('305.1234');
          const jpyRow = dialog.getByRole('row').filter({ hasText: 'JPY' });
          await jpyRow.getByText('Inactive').waitFor();
        },
        'md-currencies-approval',
      );
      await page.getByText('IPG Provider Currency approved successfully').waitFor();
      await expect.poll(() => page.getByText("Today's rates are not updated").count(), { timeout: 10_000 }).toBe(0);
      await page.getByRole('rowheader', { name: 'USD' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'USD' }).getByText('305.1234').waitFor();
      await screenshot(page, 'md-currencies-approved');
    });
  });
});

describe('IPG providers: deactivate, approved by the checker', () => {
  it('the maker sends the deactivation for approval and the checker approves', async () => {
    await as('maker', async (page) => {
      await page.goto('/provider');
      const row = page.getByRole('row').filter({ hasText: 'Sampath Bank IPG' });
      await row.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await page.getByText('IPG Provider sent for approval').waitFor();
      await row.getByLabel('Locked').waitFor();
      await screenshot(page, 'md-providers-list');
    });
    await as('checker', async (page) => {
      await page.goto('/provider');
      await decide(page, 'EDIT', 'Approve', async (dialog) => {
        await dialog.getByText('Not Active').waitFor();
      });
      await page.getByText('IPG Provider approved successfully').waitFor();
      await page.getByRole('row').filter({ hasText: 'Sampath Bank IPG' }).getByText('Inactive').waitFor();
    });
  });
});

describe('advertisements: create with countries, dates and an image', () => {
  it('the maker picks countries, dates that follow each other and an image with its link', async () => {
    await as('maker', async (page) => {
      await page.goto('/advertisements');
      await page.getByRole('link', { name: 'Create Advertisement' }).click();
      await page.getByRole('heading', { name: 'Create Advertisement' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Please select at least one country').waitFor();
      await page.getByText('Please select at least one image').waitFor();

      await page.getByLabel('Name', { exact: true }).fill('Poson Bonus Rate');
      const countries = page.getByLabel('Countries', { exact: true });
      await countries.selectOption({ label: 'United Arab Emirates (AE)' });
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await countries.selectOption({ label: 'Qatar (QA)' });
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await countries.selectOption({ label: 'Kuwait (KW)' });
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      // a country already added is not offered again
      await expect(countries.locator('option', { hasText: 'Qatar (QA)' }).count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Remove Kuwait (KW)' }).click();
      await expect(page.getByRole('list', { name: 'Countries added' }).getByRole('listitem').allInnerTexts()).resolves.toEqual([
        expect.stringContaining('United Arab Emirates (AE)'),
        expect.stringContaining('Qatar (QA)'),
      ]);

      await page.getByLabel('Valid To', { exact: true }).fill(daysAhead(200));
      await page.getByLabel('Valid From', { exact: true }).fill(daysAhead(210));
      // To follows From, and its minimum is From
      await expect(page.getByLabel('Valid To', { exact: true }).inputValue()).resolves.toBe(daysAhead(210));
      await expect(page.getByLabel('Valid To', { exact: true }).getAttribute('min')).resolves.toBe(daysAhead(210));
      await page.getByLabel('Valid To', { exact: true }).fill(daysAhead(240));

      await page.getByLabel('Image 1', { exact: true }).setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: png(200, 300, [200, 60, 90]) });
      await page.getByRole('img', { name: 'Image 1 preview' }).waitFor();
      await page.getByLabel('Link 1', { exact: true }).fill('not a link');
      await page.getByLabel('Link 1', { exact: true }).blur();
      await page.getByText('Please enter a valid URL').waitFor();
      await page.getByLabel('Link 1', { exact: true }).fill('https://www.remitops.lk/offers/poson');
      await screenshot(page, 'md-advertisement-create');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Advertisement sent for approval').waitFor();
    });
  });

  it('the checker sees the image and approves', async () => {
    await as('checker', async (page) => {
      await page.goto('/advertisements');
      await decide(
        page,
        'CREATE',
        'Approve',
        async (dialog) => {
          await dialog.getByText('Poson Bonus Rate').waitFor();
          await dialog.getByText('https://www.remitops.lk/offers/poson').waitFor();
          await expect(dialog.locator('img').count()).resolves.toBe(1);
        },
        'md-advertisement-approval',
      );
      await page.getByText('Advertisement approved successfully').waitFor();
      const row = page.getByRole('row').filter({ hasText: 'Poson Bonus Rate' });
      await lastPageShows(page, row);
      await row.getByText(`${daysAhead(210)} 00:00:01`).waitFor();
      await row.getByText(`${daysAhead(240)} 23:59:59`).waitFor();
      await screenshot(page, 'md-advertisements-list');
    });
  });
});

describe('app users: images, and a hold approved by the checker', () => {
  let uid = '';
  it('the maker searches, views the user images and sends a hold with a comment', async () => {
    await as('maker', async (page) => {
      await page.goto('/appUsers');
      // the countries come with the first reply
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('combobox', { name: 'Country', exact: true }).locator('option', { hasText: 'Saudi Arabia' }).waitFor({ state: 'attached' });
      await page.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Saudi Arabia' });
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/countryCode=SA/);
      // The table keeps the previous (all countries) rows until the Saudi Arabia reply arrives: wait
      // for a Saudi Arabia row, then act on the row found by its UID, never on whatever row is first.
      const candidate = page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'Saudi Arabia', exact: true }) })
        .filter({ has: page.getByRole('button', { name: 'Hold', exact: true }) })
        .filter({ has: page.getByText('Active', { exact: true }) })
        .first();
      await candidate.waitFor();
      uid = (await candidate.getByRole('cell').nth(4).innerText()).trim(); // UID: fifth, in its place (spec 002 §2)
      const first = page.getByRole('row').filter({ hasText: uid });
      await expect(first.getByRole('cell', { name: 'Saudi Arabia', exact: true }).count()).resolves.toBe(1);
      await first.getByRole('button', { name: 'Images' }).click();
      const images = page.getByRole('dialog', { name: 'User Images' });
      await images.getByText('Selfie').waitFor();
      await images.getByText('UID Front').waitFor();
      await screenshot(page, 'md-app-user-images');
      await images.getByRole('button', { name: 'Close' }).first().click();

      await first.getByRole('button', { name: 'Hold', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await dialog.getByText('Hold/Unhold comment is required.').waitFor();
      await dialog.getByLabel('Comment', { exact: true }).fill('Beneficiary account mismatch reported by the bank');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('App user sent for approval').waitFor();
      await page.getByLabel('UID/Email/Contact Number', { exact: true }).fill(uid);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('row').filter({ hasText: uid }).getByLabel('Locked').waitFor();
      await screenshot(page, 'md-app-users-list');
    });
  });

  it('the checker approves the hold; the auditor sees the list and images but no actions', async () => {
    await as('checker', async (page) => {
      await page.goto('/appUsers');
      await page.getByRole('button', { name: 'Search' }).click();
      await decide(page, 'EDIT', 'Approve', async (dialog) => {
        await dialog.getByText('Beneficiary account mismatch reported by the bank').first().waitFor();
      });
      await page.getByText('App user approved successfully').waitFor();
      await page.getByLabel('UID/Email/Contact Number', { exact: true }).fill(uid);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('row').filter({ hasText: uid }).getByText('On Hold').waitFor();
    });
    await as('auditor', async (page) => {
      await page.goto('/appUsers');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('button', { name: 'Images' }).first().waitFor();
      await expect(page.getByRole('button', { name: 'Hold', exact: true }).count()).resolves.toBe(0);
      await expect(page.getByRole('region', { name: 'Change Requests' }).count()).resolves.toBe(0);
    });
  });
});

describe('app versions: create with version boxes, platforms and force update', () => {
  it('the maker creates a version, the checker approves it', async () => {
    await as('maker', async (page) => {
      await page.goto('/appVersions');
      await page.getByRole('link', { name: 'Create App Version' }).click();
      await page.getByRole('heading', { name: 'Create App Version' }).waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Please enter a value').waitFor();
      await page.getByText('Please select at least one platform').waitFor();
      await page.getByLabel('Major', { exact: true }).fill('2');
      await page.getByLabel('Minor', { exact: true }).fill('6');
      await page.getByLabel('Patch', { exact: true }).fill('0');
      await page.getByLabel('Build', { exact: true }).pressSequentially('61x23');
      await expect(page.getByLabel('Build', { exact: true }).inputValue()).resolves.toBe('6123');
      await page.getByRole('button', { name: 'Android' }).click();
      await page.getByRole('button', { name: 'Huawei' }).click();
      await expect(page.getByRole('button', { name: 'Android' }).getAttribute('aria-pressed')).resolves.toBe('true');
      await page.getByRole('switch', { name: 'Force Update' }).click();
      await screenshot(page, 'md-app-version-create');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('AppVersion sent for approval').waitFor();
    });
    await as('checker', async (page) => {
      await page.goto('/appVersions');
      await decide(
        page,
        'CREATE',
        'Approve',
        async (dialog) => {
          await dialog.getByText('2.6.0+6123').waitFor();
          await dialog.getByText('HUAWEI').waitFor();
        },
        undefined,
        '2.6.0+6123',
      );
      await page.getByText('AppVersion approved successfully').waitFor();
      const row = page.getByRole('row').filter({ hasText: '2.6.0+6123' });
      await row.getByText('Yes').waitFor();
      await screenshot(page, 'md-app-versions-list');
    });
  });
});

describe('signing out', () => {
  it('works from a master-data screen', async () => {
    await as('maker', async (page) => {
      await page.goto('/banks');
      await signOut(page);
    });
  });
});
