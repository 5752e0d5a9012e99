/**
 * Browser tests: start the real server (`src/server/main.ts`, as `npm start` does) on a free port with a
 * fresh embedded database, and drive Debian's Chromium with Playwright.
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_START_MS, startConsoleServer, type ConsoleServer } from '../../scripts/consoleServer';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const DEMO_PASSWORD = 'Demo@Pass1';
export const ARTEFACTS = join(process.cwd(), 'test-results');


export type RunningServer = ConsoleServer;

/** The real server with a fresh embedded database (removed on stop), plus any environment given. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'remit-e2e-'));
  const server = await startConsoleServer({ DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: '', ...env });
  return {
    url: server.url,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts a server and a browser before the file's tests and stops both after them. */
export function useServerAndBrowser(env: Record<string, string> = {}): { readonly server: RunningServer; readonly browser: Browser } {
  const live = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    live.server = await startServer(env);
    live.browser = await launchBrowser();
  }, SERVER_START_MS + 60_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
  return live;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  return { context, page };
}

export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByTestId('username').waitFor();
}

export async function signOut(page: Page) {
  await page.getByTestId('username').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
}

export async function menuOf(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').allInnerTexts();
}

/**
 * Runs `run` in a fresh browser context signed in as `username`; on failure keeps a screenshot named
 * `${prefix}-failed-${username}`; the context is closed either way.
 */
export async function asUser(live: { readonly server: RunningServer; readonly browser: Browser }, prefix: string, username: string, run: (page: Page) => Promise<void>) {
  const { context, page } = await newPage(live.browser, live.server.url);
  try {
    await signIn(page, username);
    await run(page);
  } catch (err) {
    await screenshot(page, `${prefix}-failed-${username}`).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
}
