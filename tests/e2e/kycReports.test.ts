/**
 * KYC review and the reports, end to end in Chromium: a checker reviews a KYC submission, rejects one
 * group with a reason and sees the status change; an operator generates today's settlement (confirming
 * yesterday's rates when today's are not approved) and exports it; the activity log shows both.
 */
import { readFileSync } from 'node:fs';
import { format } from 'date-fns';
import { sheetLines } from './downloads';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot, signIn, DEMO_PASSWORD, useServerAndBrowser } from './harness';
import { exportItem } from './exportMenu';

// the operator generates today's scheduled batch by hand: the server's own schedule (07:30) would have made it at start
const live = useServerAndBrowser({ SETTLEMENT_SCHEDULE: 'off' });

async function api(path: string, body: unknown, username = 'admin') {
  const login = await fetch(`${live.server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const res = await fetch(`${live.server.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return (await res.json()) as { statusCode: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function toast(page: Page, text: string) {
  await page.locator('[data-toast]').filter({ hasText: text }).first().waitFor();
}

describe('KYC review', () => {
  it('a checker rejects one group of a first submission with a reason and sees the status change', async () => {
    const pending = (await api('kyc/get-all', { kycStatus: 'PENDING', fetchCount: 99999999 })).data.kycList as { kycId: number; uid: string; submittedData: unknown }[];
    const target = pending.find((r) => r.submittedData === null)!;
    expect(target).toBeDefined();

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'checker');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'KYC', exact: true }).click();
    await page.getByRole('heading', { name: 'KYC User Information' }).waitFor();
    await page.getByLabel('UID/Email/Contact Number', { exact: true }).fill(`  ${target.uid} `);
    await page.getByLabel('UID/Email/Contact Number', { exact: true }).blur();
    expect(await page.getByLabel('UID/Email/Contact Number', { exact: true }).inputValue()).toBe(target.uid); // trimmed on blur
    await page.getByRole('combobox', { name: 'KYC Status', exact: true }).selectOption({ label: 'Pending' });
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: target.uid });
    await row.getByText('PENDING', { exact: true }).waitFor();
    await screenshot(page, 'kyc-list');

    await row.getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'KYC Information' });
    await dialog.getByText(`UID: ${target.uid}`).waitFor();
    // the document images load through the signed URLs the list handed out (a refused one falls back to the placeholder)
    const documents = dialog.getByRole('img', { name: /^(Passport\/Other Document Front Image|Other Document Back Image|Selfie Image)$/ });
    await expect.poll(() => documents.count()).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < (await documents.count()); i++) {
      await expect
        .poll(() => documents.nth(i).evaluate((img: HTMLImageElement) => (img.complete ? `${img.naturalWidth > 0} ${img.getAttribute('src')?.split('?')[0]}` : 'loading')))
        .toMatch(/^true \/images\/kyc\//);
      expect(await documents.nth(i).getAttribute('src')).toMatch(/[?&]exp=\d+&sig=[A-Za-z0-9_-]+/);
    }
    // no earlier submission: nothing to compare, so no "Changed only" and no field marked
    await expect(dialog.getByRole('checkbox', { name: 'Changed only' }).count()).resolves.toBe(0);
    await expect(dialog.getByText('Changed', { exact: true }).count()).resolves.toBe(0);
    // a first submission: every field starts rejected, so only Reject is offered
    await expect(dialog.getByRole('button', { name: 'Approve', exact: true }).count()).resolves.toBe(0);
    const switches = dialog.getByRole('switch');
    const n = await switches.count();
    for (let i = 0; i < n; i++) if ((await switches.nth(i).getAttribute('aria-checked')) === 'false') await switches.nth(i).click();
    // the UID switch also approved both document images
    await expect(dialog.getByRole('switch', { name: 'Other Document Back Image', exact: true }).getAttribute('aria-checked')).resolves.toBe('true');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).waitFor();

    await dialog.getByRole('switch', { name: 'Address', exact: true }).click();
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await toast(page, 'Reject reason is required for fields marked as rejected.');
    // the message stays until dismissed, so it must cover none of the dialog's buttons
    const message = (await page.locator('[data-toast]').filter({ hasText: 'Reject reason is required' }).boundingBox())!;
    for (const button of await dialog.getByRole('button').all()) {
      const b = await button.boundingBox();
      if (!b) continue;
      const overlaps = b.x < message.x + message.width && message.x < b.x + b.width && b.y < message.y + message.height && message.y < b.y + b.height;
      expect(overlaps, `the message covers ${await button.textContent()}`).toBe(false);
    }
    await expect(page.getByRole('heading', { name: 'Reject the KYC Information!' }).count()).resolves.toBe(0);

    await dialog.getByLabel('Address Reject Reason', { exact: true }).fill('Address is incomplete: please add the street');
    await screenshot(page, 'kyc-review');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Reject the KYC Information!' });
    await confirm.getByText('Do you want Reject the KYC information?').waitFor();
    await confirm.getByRole('button', { name: 'Reject', exact: true }).click();
    await toast(page, 'KYC request created');
    await page.getByRole('dialog').filter({ hasText: 'KYC Information' }).waitFor({ state: 'detached' });

    // the list reloads: the record is no longer pending
    await page.getByRole('combobox', { name: 'KYC Status', exact: true }).selectOption({ label: 'All' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row').filter({ hasText: target.uid }).getByText('REJECTED', { exact: true }).waitFor();
    await screenshot(page, 'kyc-after-reject');

    const after = (await api('kyc/get-all', { data: target.uid, fetchCount: 10 })).data.kycList[0];
    expect(after.status).toBe('REJECTED');
    expect(after.currentData.city).toMatchObject({ approved: false, reason: 'Address is incomplete: please add the street' });
    expect(after.currentData.addressLine1.reason).toBe('Address is incomplete: please add the street');
    expect(after.currentData.uid.approved).toBe(true);
    await context.close();
  });

  it('shows a re-submission beside the earlier one, read-only', async () => {
    const rows = (await api('kyc/get-all', { kycStatus: 'PENDING', fetchCount: 99999999 })).data.kycList as { kycId: number; uid: string; submittedData: unknown }[];
    const target = rows.find((r) => r.submittedData !== null)!;
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'checker');
    await page.goto(`/kyc?data=${encodeURIComponent(target.uid)}&kycStatus=&fetchCount=10`);
    await page.getByRole('row').filter({ hasText: target.uid }).getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'KYC Information' });
    await dialog.getByRole('heading', { name: 'Earlier Submission read-only' }).waitFor();
    await expect(dialog.getByRole('switch', { name: 'Earlier Contact', exact: true }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'kyc-review-resubmission');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await context.close();
  });

  it('marks the fields a re-submission changed, with the earlier value struck through, and Changed only hides the rest', async () => {
    type Fields = Record<string, { title: string; value: string | null }>;
    const rows = (await api('kyc/get-all', { kycStatus: 'PENDING', fetchCount: 99999999 })).data.kycList as { uid: string; currentData: Fields; submittedData: Fields | null }[];
    // as a reviewer compares: white space and "nothing given" alike, an image by the path its signed URL stands for
    const plain = (v: string | null | undefined) => (v ?? '').trim().replace(/\?exp=\d+&sig=[\w-]+$/, '');
    const changedOf = (r: (typeof rows)[number]) => Object.keys(r.currentData).filter((k) => plain(r.currentData[k].value) !== plain(r.submittedData?.[k]?.value));
    const images = ['uidFrontImage', 'uidBackImage', 'userImage'];
    const target = rows.find((r) => r.submittedData !== null && changedOf(r).some((k) => !images.includes(k)))!;
    expect(target, 'a pending re-submission with a changed text field in the demo data').toBeDefined();
    const changed = changedOf(target);
    const earlier = target.submittedData!;
    const itemOf = (k: string) =>
      ['dialCode', 'phoneNo'].includes(k) ? 'contact' : ['uidType', 'uid'].includes(k) ? 'uid' : ['country', 'city', 'addressLine1', 'addressLine2'].includes(k) ? 'address' : k;
    const changedItems = new Set(changed.map(itemOf));
    expect(changedItems.has('firstName')).toBe(false);

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'checker');
    await page.goto(`/kyc?data=${encodeURIComponent(target.uid)}&kycStatus=&fetchCount=10`);
    await page.getByRole('row').filter({ hasText: target.uid }).getByRole('button', { name: 'Review' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'KYC Information' });
    await dialog.getByRole('heading', { name: 'Earlier Submission read-only' }).waitFor();
    const current = dialog.locator('[data-submission="current"]');
    const item = (id: string) => current.locator(`[data-kyc-item="${id}"]`);

    await dialog.getByText(`${changed.length} changed`, { exact: true }).waitFor();
    // one "Changed" tag per changed field in the current column, none on an unchanged one
    await expect(current.getByText('Changed', { exact: true }).count()).resolves.toBe(changed.length);
    await expect(item('firstName').getByText('Changed', { exact: true }).count()).resolves.toBe(0);
    for (const k of changed) {
      const title = target.currentData[k].title;
      if (images.includes(k)) {
        await item(k).getByText('Changed', { exact: true }).waitFor();
        await item(k)
          .getByRole('img', { name: new RegExp(`^Earlier ${title.replace(/[/]/g, '\\/')}`) })
          .waitFor();
        continue;
      }
      const field = item(itemOf(k))
        .locator('[data-field-changed="true"]')
        .filter({ hasText: itemOf(k) === k ? 'Value' : title });
      await field.getByText('Changed', { exact: true }).waitFor();
      const old = earlier[k]?.value?.trim();
      const before = field.locator('[data-earlier-value]');
      if (old) {
        expect(await before.innerText()).toBe(`Earlier: ${old}`);
        // struck through, so old and new never look alike
        expect(await before.locator('.line-through').evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('line-through');
      } else {
        expect(await before.innerText()).toBe('Earlier: none given');
      }
    }
    await screenshot(page, 'kyc-review-changes');

    // Changed only, by keyboard: the unchanged items go from both columns, the changed stay
    const toggle = dialog.getByRole('checkbox', { name: 'Changed only' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(true);
    await dialog.getByText(`${changed.length} changed · unchanged fields hidden`, { exact: true }).waitFor();
    await item('firstName').waitFor({ state: 'detached' });
    await expect(dialog.locator('[data-submission="earlier"] [data-kyc-item="firstName"]').count()).resolves.toBe(0);
    const shown = await current.locator('[data-kyc-item]').evaluateAll((els) => els.map((el) => el.getAttribute('data-kyc-item')));
    expect(new Set(shown)).toEqual(changedItems);
    const shownEarlier = await dialog.locator('[data-submission="earlier"] [data-kyc-item]').evaluateAll((els) => els.map((el) => el.getAttribute('data-kyc-item')));
    expect(new Set(shownEarlier)).toEqual(changedItems);
    await screenshot(page, 'kyc-review-changed-only');

    await page.keyboard.press('Space');
    await item('firstName').waitFor();
    await dialog.getByText(`${changed.length} changed`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await context.close();
  });
});

describe('scheduled settlement report', () => {
  it("generates today's settlement and exports it", async () => {
    const today = format(new Date(), 'yyyy-MM-dd');
    const before = (await api('report/get-settlement-report', { date: today, fetchCount: 10 })).data;
    expect(before.transactions).toEqual([]);

    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settlement Report', exact: true }).click();
    await page.getByRole('heading', { name: 'Scheduled Settlement Report' }).waitFor();
    await page.getByText('No settlement records found.').waitFor();
    for (const m of before.messages as string[]) await page.getByText(m, { exact: true }).first().waitFor();
    if (!before.hasRatesUpdated) await page.getByRole('alert').filter({ hasText: "Today's Currency Rates has not been updated yet!" }).waitFor();
    await screenshot(page, 'settlement-before');

    await page.getByRole('button', { name: 'Generate Report' }).click();
    if (!before.hasRatesUpdated) {
      const confirm = page.getByRole('dialog').filter({ hasText: "Today's Currency Rates has not been updated yet!" });
      await confirm.getByText("yesterday's settlement rates will be used").waitFor();
      await screenshot(page, 'settlement-confirm');
      await confirm.getByRole('button', { name: 'Continue' }).click();
    }
    await toast(page, 'Settlement report generated successfully');
    await page.getByRole('button', { name: 'Generate Report' }).waitFor({ state: 'detached' });
    const after = (await api('report/get-settlement-report', { date: today, fetchCount: 10 })).data.transactions as { id: number; account_number: string; lkr_amount: number }[];
    expect(after.length).toBeGreaterThan(0);
    await page.getByRole('cell', { name: after[0].account_number, exact: true }).waitFor();
    await screenshot(page, 'settlement-after');

    const [xlsx] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as Excel')).click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^Scheduled_Settlement_Report_.*\.xlsx$/);
    const lines = await sheetLines(xlsx);
    expect(lines[0]).toContain('Scheduled Settlement Report');
    expect(lines.some((l) => l.startsWith('ID|Tran Date|Batch Date|Currency|Account Number|FC Amount|FC Commission|FC Net Amount|Rate|LKR Amount|Created At|Updated At'))).toBe(true);
    for (const r of after) expect(lines.some((l) => l.startsWith(`${r.id}|`) && l.includes(`|${r.account_number}|`) && l.includes(String(r.lkr_amount)))).toBe(true);

    const [pdf] = await Promise.all([page.waitForEvent('download'), (await exportItem(page, 'Download as PDF')).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^Scheduled_Settlement_Report_.*\.pdf$/);
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await context.close();

    // both exports are in the activity log
    const logs = (await api('report/get-activity-report', { from: `${today}T00:00:01`, to: `${today}T23:59:00`, fetchCount: 100, username: 'admin' })).data.logs as {
      type: string;
      description: string;
    }[];
    expect(logs.filter((l) => l.type === 'EXPORT' && l.description.includes('of Scheduled Settlement Report as Scheduled_Settlement_Report_'))).toHaveLength(2);
    expect(logs.some((l) => l.type === 'SETTLEMENT_GENERATED' && l.description.includes(`scheduled settlement report for ${today}`))).toBe(true);
  });
});

describe('activity log report', () => {
  it('lists the KYC decision and the sign-ins of today', async () => {
    const { context, page } = await newPage(live.browser, live.server.url);
    await signIn(page, 'admin');
    await page.goto('/activityLogs');
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill('checker');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'KYC_REJECTED', exact: true }).first().waitFor();
    await screenshot(page, 'activity-logs');
    const day = format(new Date(), 'yyyy-MM-dd');
    const latest = (await api('Report/get-mobile-activity-report', { from: `${day}T00:00:01`, to: `${day}T23:59:00`, fetchCount: 10, searchParameter: '' })).data.filteredList[0];
    await page.goto('/userActivityLogs');
    await page.getByRole('button', { name: 'Search' }).click();
    if (latest) await page.getByRole('row').filter({ hasText: latest.mobile_user_email }).filter({ hasText: latest.event_description }).first().waitFor();
    await screenshot(page, 'user-activity-logs');
    await context.close();
  });
});
