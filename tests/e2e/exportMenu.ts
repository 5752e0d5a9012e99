/** The list's 'Export' menu as a person uses it: open it, then choose (or read) one of its items. */
import type { Locator, Page } from 'playwright-core';

/** The 'Export' menu button of the list on the page. */
export function exportButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Export', exact: true });
}

/** The Export menu's item named `name`, with the menu opened (choosing an item closes it again). */
export async function exportItem(page: Page, name: string | RegExp, exact?: boolean): Promise<Locator> {
  const trigger = exportButton(page);
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  return page.getByRole('menu').getByRole('menuitem', { name, exact });
}

/** Reads something of the Export menu's item named `name` (its text, whether it is enabled, how many), then closes the menu. */
export async function readExportItem<T>(page: Page, name: string | RegExp, read: (item: Locator) => Promise<T>, exact?: boolean): Promise<T> {
  const item = await exportItem(page, name, exact);
  try {
    return await read(item);
  } finally {
    await page.getByRole('menu').press('Escape');
  }
}
