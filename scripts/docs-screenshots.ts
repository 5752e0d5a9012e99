/**
 * `npm run docs:screenshots`: the screenshots of docs/getting-started.md, taken from the real console
 * with fresh demo data (Debian's Chromium at /usr/bin/chromium, 1280x800, light theme unless named).
 * Builds nothing: run `npm run build` first. Writes docs/images/*.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startConsoleServer } from './consoleServer';
import { TOKEN_KEY } from '../src/console/session';

const OUT = join(process.cwd(), 'docs', 'images');
const PASSWORD = 'Demo@Pass1';

async function signIn(page: Page, username: string) {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByTestId('username').waitFor();
}

async function settle(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .locator('[role="progressbar"]')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(500);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/images/${name}.png`);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'docs-shots-'));
  const server = await startConsoleServer({ DATA_DIR: dataDir, DATABASE_URL: '', SEED_TRANSACTIONS: '3000', LOG_LEVEL: 'warn' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await context.addInitScript(() => localStorage.setItem('theme', 'light'));
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');

    await signIn(page, 'maker');
    await settle(page);
    await shot(page, 'dashboard');
    await page.goto('/transaction/ceft');
    await settle(page);
    await shot(page, 'send-money');
    await page.goto('/users/create');
    await settle(page);
    await shot(page, 'create-user');

    // a change request for the checker: a new bank made by the maker
    await page.goto('/banks');
    await settle(page);
    const token = await page.evaluate((key) => localStorage.getItem(key) ?? '', TOKEN_KEY);
    await page.request.post('/api/appVersion/create', { headers: { authorization: `Bearer ${token}` }, data: { appVersion: '9.1.0+910', platforms: 'ANDROID,IOS', forceUpdate: 0 } });
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.evaluate(() => localStorage.setItem('theme', 'light'));

    await signIn(page, 'checker');
    await page.goto('/approvals');
    await settle(page);
    await shot(page, 'approvals');

    const dark = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await dark.addInitScript(() => localStorage.setItem('theme', 'dark'));
    const darkPage = await dark.newPage();
    await signIn(darkPage, 'auditor');
    await settle(darkPage);
    await shot(darkPage, 'audit-dashboard-dark');
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
