// Debian's chromium driven by playwright-core (STACK.md: never a downloaded browser). Under the
// browser tests' runner one Chromium serves a whole group (launched by run-browser-tests.mjs, its
// endpoint in E2E_BROWSER_WS): each file connects and gets its own fresh context (no cookies, storage
// or cache from another file), which spares every file a browser start. A file run alone launches its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** How every test Chromium is started (headless Debian chromium, nothing that calls home). */
export const CHROMIUM_LAUNCH = {
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
    // Renderers forked by the browser itself, not by a zygote whose children end up reparented to
    // init: then every renderer's CPU is counted in the test step that used it (`times` in npm test's
    // table). With the zygote, about 60% of Chromium's CPU (10 to 15 CPU-minutes of a CI run) was
    // counted in no step. Needs --no-sandbox, which the tests run with anyway.
    '--no-zygote',
  ],
};

/** Starts the group's one Chromium for the runner; files reach it through `wsEndpoint()`. */
export function launchBrowserServer() {
  return chromium.launchServer(CHROMIUM_LAUNCH);
}

/**
 * A browser context for one test file. `options`: more of newContext's, e.g.
 * `{ timezoneId: 'Asia/Tokyo' }` for a visitor in another zone.
 */
export async function launchBrowser(options = {}) {
  const contextOptions = { viewport: { width: 1400, height: 900 }, ...options };
  const shared = process.env.E2E_BROWSER_WS;
  if (shared) {
    const browser = await chromium.connect(shared);
    const context = await browser.newContext(contextOptions);
    context.setDefaultTimeout(20000);
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        // Disconnects this file; the group's Chromium goes on serving the next one.
        await browser.close();
      },
    };
  }
  const profile = mkdtempSync(join(tmpdir(), 'studio-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM_LAUNCH, ...contextOptions });
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

/**
 * Chooses an option of one antd Select (a `combobox` locator): the option with that title, or
 * with no title the first. The options are looked up only in this select's own popup (the one
 * holding the listbox its `aria-controls` names while it is open), so a neighbour's dropdown that
 * is still closing cannot take the click. Resolves with the chosen title once the select has
 * closed showing it; a click swallowed by the opening animation on a loaded machine is tried
 * again, up to 3 times.
 */
export async function chooseOption(combobox, title) {
  const page = combobox.page();
  const select = combobox.locator(
    'xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-select ")][1]',
  );
  let lastError;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if ((await combobox.getAttribute('aria-expanded')) !== 'true') await combobox.click();
    await page.waitForFunction(
      (el) => el.getAttribute('aria-expanded') === 'true',
      await combobox.elementHandle(),
    );
    const listId = await combobox.getAttribute('aria-controls');
    const popup = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${listId}"]`) });
    const option = title
      ? popup.locator(`.ant-select-item-option[title="${title}"]`)
      : popup.locator('.ant-select-item-option').first();
    const chosen = title ?? (await option.getAttribute('title'));
    await option.click();
    try {
      await page.waitForFunction(
        ([el, root, text]) => el.getAttribute('aria-expanded') !== 'true' && root.textContent.includes(text),
        [await combobox.elementHandle(), await select.elementHandle(), chosen ?? ''],
        { timeout: 5000 },
      );
      return chosen;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * Chooses an item of an antd Dropdown menu (`trigger`: the button that opens it), opening it first
 * unless it is open. The item is clicked only once the popup's opening motion has ended: while it
 * moves, playwright retries its click with a forced scrollIntoView, and behind a drawer that scrolls
 * the page under the popup (portaled into the body) until antd realigns it, sometimes between
 * mousedown and mouseup, so the click is lost while the action reports success. antd closes the
 * menu once an item is chosen; a menu still open after the click was missed, and is tried again,
 * up to 3 times (a missed click chose nothing, so trying again does not choose twice).
 */
export async function chooseMenuItem(trigger, name) {
  const page = trigger.page();
  // The open popup holding that item (not a hidden one, nor one closing).
  const open = page
    .locator('.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-leave"])')
    .filter({ has: page.getByRole('menuitem', { name, exact: true }) });
  let lastError;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // A trigger already open (antd marks it ant-dropdown-open) is not clicked: that would close it.
    const expanded = /\bant-dropdown-open\b/.test((await trigger.getAttribute('class')) ?? '');
    if (!expanded && !(await open.isVisible())) await trigger.click();
    await open.waitFor();
    await page.waitForFunction(
      (el) => ![...el.classList].some((c) => /-(appear|enter)(-|$)/.test(c)),
      await open.elementHandle(),
    );
    await open.getByRole('menuitem', { name, exact: true }).click();
    try {
      await open.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * A finished download's text. Read through its stream: on the group's shared Chromium (connected
 * remotely) playwright has no local path for it.
 */
export async function downloadText(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
