// The hardened browser: the admin and Swagger UI work under the Content-Security-Policy (no
// violation anywhere), and "Sign out everywhere" signs every browser of the account out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const studio = useDemoStudio();

/** A fresh page that records uncaught errors and every CSP violation the browser reports. */
async function newPage() {
  const page = await studio.browser.context.newPage();
  const errors = [];
  const violations = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    globalThis.document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      );
    });
  });
  return { page, errors, violations };
}

async function apiLogin() {
  const res = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  assert.equal(res.status, 200);
  return (await res.json()).token;
}

describe('Content-Security-Policy', () => {
  test('the admin renders antd and loads a remote drawer with no CSP violation', async () => {
    const { page, errors, violations } = await newPage();
    const response = await page.goto(`${studio.url}/admin/sign-in`);
    const headers = response.headers();
    assert.match(headers['content-security-policy'], /script-src 'self'/);
    assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['referrer-policy'], 'no-referrer');

    await signIn(page, studio.url, OWNER.email, OWNER.password);
    // antd's styles were injected: a primary button is coloured, not the browser's default grey.
    const shareButton = page.getByRole('button', { name: 'Share course' });
    await shareButton.waitFor();
    const background = await page
      .locator('.ant-btn-primary')
      .first()
      .evaluate((el) => globalThis.getComputedStyle(el).backgroundColor);
    assert.notEqual(background, 'rgba(0, 0, 0, 0)');
    assert.notEqual(background, 'rgb(239, 239, 239)');
    // A drawer of the courses remote (loaded through the federation runtime).
    await shareButton.click();
    await page.getByRole('dialog').getByRole('heading', { name: 'Share course' }).waitFor();
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Swagger UI at /api/docs renders the operations with no CSP violation', async () => {
    const { page, errors, violations } = await newPage();
    await page.goto(`${studio.url}/api/docs`);
    await page.getByText('Studio admin API').first().waitFor();
    await page.locator('.opblock').first().waitFor();
    assert.ok((await page.locator('.opblock').count()) > 10);
    assert.deepEqual(violations, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('sessions', () => {
  test('Sign out everywhere returns to sign-in and revokes the other sessions of the account', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    const elsewhere = await apiLogin();
    const sessionOf = (token) => fetch(`${studio.url}/api/auth/session`, { headers: { token } });
    assert.equal((await sessionOf(elsewhere)).status, 200);

    await page.getByRole('button', { name: OWNER.email }).click();
    await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(/\/admin\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal((await sessionOf(elsewhere)).status, 401);
    assert.equal(await page.evaluate(() => globalThis.localStorage.getItem('studio_token')), null);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('Sign out signs out this browser only', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    const elsewhere = await apiLogin();
    await page.getByRole('button', { name: OWNER.email }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/admin\/sign-in$/);
    const res = await fetch(`${studio.url}/api/auth/session`, { headers: { token: elsewhere } });
    assert.equal(res.status, 200);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
