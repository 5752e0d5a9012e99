import { launchBrowser, newPage, signIn, startServer, screenshot } from './tests/e2e/harness';
const server = await startServer({ PAYMENT_SIMULATOR_FAILURE_RATE: '0' });
const browser = await launchBrowser();
try {
  const { page } = await newPage(browser, server.url);
  page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
  page.on('pageerror', (e) => console.log('pageerror', e.message.slice(0, 500)));
  await signIn(page, 'maker');
  console.log('menu', await page.getByRole('navigation', { name: 'Main menu' }).innerText());
  await page.goto('/transaction/ceft');
  await page.waitForTimeout(5000);
  console.log('url', page.url());
  await screenshot(page, 'dbg-ceft');
  console.log((await page.locator('main').innerText()).slice(0, 1500));
} finally {
  await browser.close();
  await server.stop();
}
