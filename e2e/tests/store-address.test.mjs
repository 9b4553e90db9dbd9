/* global document -- read inside page.waitForFunction callbacks, which run in the browser */
// Issue 21 in chromium against the real API: the owner opens Settings → Organization from the menu,
// changes the store address and saves; without a reload the course detail page's Preview and the
// Share drawer's link start with the new store address; after a reload the page reads it back.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const studio = useDemoStudio();

async function waitForValue(locator, pattern, timeoutMs = 10000) {
  const started = Date.now();
  for (;;) {
    const value = await locator.inputValue();
    if (pattern.test(value)) return value;
    if (Date.now() - started > timeoutMs) assert.match(value, pattern);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('Settings → Organization: a new store address is saved, read back, and used by Preview and Share at once', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);

  // The menu lists Organization right after Integrations, and opens the page.
  const menu = page.getByRole('navigation', { name: 'Main' });
  const items = (await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim());
  assert.equal(items.indexOf('Organization'), items.indexOf('Integrations') + 1, items.join(', '));
  await menu.getByText('Organization', { exact: true }).click();
  await page.waitForURL(/\/admin\/settings\/organization$/);
  await page.getByRole('heading', { name: 'Organization' }).waitFor();

  const storeLink = page.getByRole('link', { name: 'Open your store' });
  const oldStore = await storeLink.getAttribute('href');
  assert.match(oldStore, /\/s\/demo-studio$/);
  assert.equal(await storeLink.getAttribute('target'), '_blank');
  const slugInput = page.getByLabel('Store address');
  assert.equal(await slugInput.inputValue(), 'demo-studio');

  const slug = `clay-${randomUUID().slice(0, 8)}`;
  const newStore = oldStore.replace(/demo-studio$/, slug);
  await slugInput.fill(slug);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Store address saved').waitFor();
  await page.waitForFunction(
    (href) => document.querySelector('a[aria-label="Open your store"]')?.getAttribute('href') === href,
    newStore,
  );

  // Without a reload: a course's Preview opens it in the store at its new address.
  await menu.getByText('Courses', { exact: true }).click();
  await page.waitForURL(/\/admin\/courses$/);
  const firstCourse = page.locator('.ant-table-tbody tr.ant-table-row a').first();
  await firstCourse.waitFor();
  await firstCourse.click();
  await page.waitForURL(/\/admin\/courses\/[0-9a-f-]{36}$/);
  const activityId = page.url().split('/').pop();
  const preview = page.getByRole('link', { name: 'Preview' });
  await preview.waitFor();
  assert.equal(await preview.getAttribute('href'), `${newStore}/activity/${activityId}`);

  // The Share drawer's checkout link starts with the new store address too.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Share course' }).waitFor();
  const link = await waitForValue(
    dialog.getByRole('textbox', { name: 'Checkout link' }),
    new RegExp(`^${escape(newStore)}/activity/${activityId}$`),
  );
  assert.ok(link.startsWith(`${newStore}/`), link);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // The store answers at its new address, and no longer at the old one.
  const local = (url) => `${studio.url}${new URL(url).pathname}`;
  assert.equal((await fetch(local(newStore))).status, 200);
  assert.equal((await fetch(local(oldStore))).status, 404);

  // After a reload the page reads the new address back.
  await page.goto(`${studio.url}/admin/settings/organization`);
  await page.getByRole('heading', { name: 'Organization' }).waitFor();
  await storeLink.waitFor();
  assert.equal(await storeLink.getAttribute('href'), newStore);
  assert.equal(await slugInput.inputValue(), slug);

  assert.deepEqual(errors, []);
  await page.close();
});
