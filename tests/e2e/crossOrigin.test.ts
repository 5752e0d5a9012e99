/**
 * The built console served from one origin, the API on another: the console reads config.json (served
 * beside it, naming the API base) before its first call, and everything (sign-in, lists, images, the
 * live counts, a server export's download) goes to the API's origin, which allows the console's origin
 * (CORS_ORIGINS). The console's own origin is a plain static file server, as a bank's web server would be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, startServer, type RunningServer } from './harness';
import { freePort } from '../../src/server/freePort';

const DIST = join(process.cwd(), 'dist');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.woff2': 'font/woff2' };

let api: RunningServer;
let browser: Browser;
let site: Server;
let consoleUrl: string;

/** A static file server for dist/ with history routing, and a config.json naming the API's address. */
function staticSite(apiBase: string): Server {
  return createServer((req, res) => {
    void (async () => {
      const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, '');
      if (path === '/config.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(JSON.stringify({ apiBase, timeoutMs: 90000 }));
        return;
      }
      const file = extname(path) ? join(DIST, path) : join(DIST, 'index.html');
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end('not found');
      }
    })();
  });
}

beforeAll(async () => {
  const port = await freePort();
  consoleUrl = `http://127.0.0.1:${port}`;
  api = await startServer({ CORS_ORIGINS: consoleUrl });
  // the API by another name than the console's host: another origin, whatever the ports
  const apiBase = api.url.replace('127.0.0.1', 'localhost');
  site = staticSite(apiBase);
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
  browser = await launchBrowser();
}, 480_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await api?.stop();
});

describe('the console on one origin, the API on another', () => {
  it('signs in through the form, lists banks with their logos, and every call goes to the API origin', async () => {
    const { context, page } = await newPage(browser, consoleUrl);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) calls.push(new URL(r.url()).origin);
    });
    const failed: string[] = [];
    // a request the next page load cancels is not a failure (net::ERR_ABORTED); one the browser refuses (CORS) is
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${r.url()}: ${r.failure()?.errorText}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') failed.push(m.text());
    });

    await page.goto('/login');
    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('Demo@Pass1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByTestId('username').waitFor();
    expect(new URL(page.url()).origin).toBe(consoleUrl);

    await page.goto('/banks');
    await page.getByRole('heading', { name: 'Banks' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    await page.getByRole('row', { name: '1 7010 Bank of Ceylon Active' }).waitFor();
    await page.getByRole('row', { name: /^10 7278 Sampath Bank/ }).waitFor();
    // a logo comes from the API's origin and is shown
    const logo = page.locator('tbody img').first();
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && !img.src.startsWith('data:'))).toBe(true);
    expect(new URL(await logo.evaluate((img: HTMLImageElement) => img.src)).origin).toBe(api.url.replace('127.0.0.1', 'localhost'));

    const apiOrigin = new URL(api.url.replace('127.0.0.1', 'localhost')).origin;
    expect(calls.length).toBeGreaterThan(2);
    expect(new Set(calls)).toEqual(new Set([apiOrigin]));
    expect(failed).toEqual([]);
    await context.close();
  }, 180_000);

  it("without the console's origin in CORS_ORIGINS the browser keeps the API's replies from it", async () => {
    const other = await startServer();
    const port = await freePort();
    const site2 = staticSite(other.url.replace('127.0.0.1', 'localhost'));
    await new Promise<void>((resolve) => site2.listen(port, '127.0.0.1', resolve));
    try {
      const { context, page } = await newPage(browser, `http://127.0.0.1:${port}`);
      await page.goto('/login');
      await page.getByLabel('Username', { exact: true }).fill('admin');
      await page.getByLabel('Password', { exact: true }).fill('Demo@Pass1');
      await page.getByRole('button', { name: 'Login' }).click();
      // the sign-in's reply never reaches the page: it says it could not reach the server
      await page.getByRole('alert').first().waitFor();
      expect(await page.getByTestId('username').count()).toBe(0);
      await context.close();
    } finally {
      await new Promise<void>((resolve) => site2.close(() => resolve()));
      await other.stop();
    }
  }, 480_000);
});
