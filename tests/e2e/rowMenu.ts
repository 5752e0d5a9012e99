/** A row's action in the table as a person finds it: a button of the row, or an item of its 'More actions' menu. */
import type { Locator, Page } from 'playwright-core';

/** How many of the row's actions are named `name`, as buttons or in its 'More actions' menu (closed again after looking). */
export async function rowActionCount(page: Page, row: Locator, name: string): Promise<number> {
  const inline = await row.getByRole('button', { name, exact: true }).count();
  const more = row.getByRole('button', { name: 'More actions' });
  if ((await more.count()) === 0) return inline;
  await more.click();
  const inMenu = await row.getByRole('menu').getByRole('menuitem', { name, exact: true }).count();
  await row.getByRole('menu').press('Escape');
  return inline + inMenu;
}

/** The row's action named `name`: its button, or its item with the 'More actions' menu opened. */
export async function rowAction(page: Page, row: Locator, name: string): Promise<Locator> {
  const inline = row.getByRole('button', { name, exact: true });
  if ((await inline.count()) > 0) return inline;
  await row.getByRole('button', { name: 'More actions' }).click();
  return row.getByRole('menu').getByRole('menuitem', { name, exact: true });
}
