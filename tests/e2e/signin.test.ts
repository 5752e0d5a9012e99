/**
 * Sign-in and sessions in the browser: the owner is shown, once, the failed attempts on
 * their account since their last sign-in; an account whose password was set by someone else is taken
 * to Reset Password and nowhere else until it has chosen a new one; the background refresh keeps two
 * tabs signed in although each refresh replaces the token.
 *
 * The server runs in this process on the built console (dist/) and an in-memory database, so that the
 * test can set an account's flag in SQL and move the server's clock.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { openDb, type Db } from '../../src/server/db/db';
import { migrate } from '../../src/server/db/migrate';
import { seedDemo } from '../../src/server/seed/demo';
import { DEMO_PASSWORD, launchBrowser, newPage, screenshot, signInThroughForm } from './harness';

let db: Db;
let app: FastifyInstance;
let url: string;
let browser: Browser;
let offsetMs = 0;

beforeAll(async () => {
  db = await openDb({});
  await migrate(db);
  await seedDemo(db, { scryptN: 2 ** 10 });
  app = await buildApp({ db, secret: randomBytes(32), scryptN: 2 ** 10, staticDir: join(process.cwd(), 'dist'), clock: () => new Date(Date.now() + offsetMs) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await db?.close();
});

const wrongSignIn = (username: string) =>
  fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'Wrong@Pass1' }) });

describe('sign-in in the browser', () => {
  it('shows the failed attempts since the last sign-in once, after the next sign-in', async () => {
    const { context, page } = await newPage(browser, url);
    try {
      for (let i = 0; i < 3; i++) expect((await wrongSignIn('checker')).status).toBe(401);
      await signInThroughForm(page, 'checker');
      const notice = page.getByText(/^3 failed sign-in attempts on your account since your last sign-in, the last at \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/);
      await notice.waitFor();
      await page.getByRole('button', { name: 'Dismiss' }).first().click();
      await notice.waitFor({ state: 'detached' });

      // the next sign-in has nothing to tell
      await page.getByTestId('username').click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // the sign-in's reply carries no count, and the console (which shows the notice before it leaves the sign-in page) shows none
      // the reply is read as it passes (a body read after the page navigated away is gone)
      let reply: { statusCode: number; data: { failedSignIns?: unknown } } | undefined;
      await page.route('**/api/auth/login', async (route) => {
        const response = await route.fetch();
        reply = (await response.json()) as typeof reply;
        await route.fulfill({ response });
      });
      await signInThroughForm(page, 'checker');
      if (!reply) throw new Error('no auth/login reply seen');
      expect(reply.statusCode).toBe(200);
      expect(reply.data.failedSignIns).toBeUndefined();
      expect(await page.getByText(/failed sign-in attempt/).count()).toBe(0);
    } catch (err) {
      await screenshot(page, 'signin-notice-failed').catch(() => {});
      throw err;
    } finally {
      await context.close();
    }
  });

  it('takes an account whose password was set by someone else to Reset Password, and nowhere else until it is changed', async () => {
    await db.query("UPDATE console_users SET must_change_password = 1 WHERE username = 'maker'");
    const { context, page } = await newPage(browser, url);
    try {
      await signInThroughForm(page, 'maker');
      await page.waitForURL('**/resetPassword');
      await page.getByText('Your password was set by someone else. Choose a new password to continue.').waitFor();
      // no menu, and any other route leads back here
      expect(await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').count()).toBe(0);
      for (const route of ['/dashboard', '/users', '/']) {
        await page.goto(route);
        await page.waitForURL('**/resetPassword');
      }
      // the new password must differ from the temporary one
      await page.getByLabel('Old Password').fill(DEMO_PASSWORD);
      await page.getByLabel('New Password').fill(DEMO_PASSWORD);
      await page.getByLabel('Confirm Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.getByText('The new password must be different from the old password').waitFor();

      await page.getByLabel('New Password').fill('Fresh@Pass12');
      await page.getByLabel('Confirm Password').fill('Fresh@Pass12');
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.getByText('Password reset successful').waitFor();
      await page.waitForURL((u) => !u.pathname.endsWith('/resetPassword'));
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').first().waitFor();
      expect(await db.one("SELECT must_change_password FROM console_users WHERE username = 'maker'")).toEqual({ must_change_password: 0 });
    } catch (err) {
      await screenshot(page, 'signin-forced-change-failed').catch(() => {});
      throw err;
    } finally {
      await context.close();
    }
  });

  it('the background refresh replaces the token and keeps two tabs signed in', async () => {
    const { context, page } = await newPage(browser, url);
    try {
      await signInThroughForm(page, 'admin');
      const second = await context.newPage();
      await second.goto('/users');
      await second.getByTestId('username').waitFor();
      const first = await page.evaluate(() => localStorage.getItem('token'));
      // move both the browser's and the server's clocks into the refresh margin (20 of the token's 30 minutes)
      offsetMs += 21 * 60_000;
      for (const p of [page, second]) {
        await p.clock.install({ time: new Date(Date.now() + offsetMs) });
        await p.clock.resume();
      }
      await page.waitForFunction((old) => localStorage.getItem('token') !== old, first, { timeout: 30_000 });
      // the replaced token is dead a few seconds later; both tabs go on with the new one
      offsetMs += 15_000;
      const dead = await fetch(`${url}/api/user/list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${first}` }, body: '{}' });
      expect(dead.status).toBe(401);
      for (const p of [page, second]) {
        await p.reload();
        await p.getByTestId('username').waitFor();
        expect(new URL(p.url()).pathname).not.toBe('/login');
      }
    } catch (err) {
      await screenshot(page, 'signin-refresh-failed').catch(() => {});
      throw err;
    } finally {
      await context.close();
    }
  });
});
