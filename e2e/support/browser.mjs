// Debian's chromium driven by playwright-core on a fresh profile (STACK.md: never a downloaded browser).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'studio-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
  context.setDefaultTimeout(20000);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Signs in through the form and waits for the admin area. */
export async function signIn(page, baseUrl, email, password) {
  // Pages of one persistent profile share localStorage: drop any earlier session first.
  await page.goto(`${baseUrl}/admin/sign-in`);
  await page.evaluate(() => globalThis.localStorage.clear());
  await page.goto(`${baseUrl}/admin/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/courses$/);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
