// The checkout overlay in chromium (issue 21): a studio's own page, served from another origin,
// carries the snippet from Settings → Organization and store links with openModal=true. A click
// opens the store's page in a modal iframe (focus kept inside, the page behind still, the height
// following the store page); Escape closes it and gives focus back to the link; the checkout link
// books a seat, pays on the demo page inside the iframe, and the studio's page hears
// `studio:purchase-complete` with the order's number.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { createDatabase } from '../support/database.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { startServer } from '../support/server.mjs';

const OWNER = { email: 'owner@demo.studio', password: 'demo-studio' };

let database;
let server;
let browser;
let studio;
let org;
let course;
let session;

/** The studio's own site: one page with the header code and two overlay links, tall enough to scroll. */
function studioSite(html) {
  const site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html());
  });
  return new Promise((resolve) =>
    site.listen(0, '127.0.0.1', () => resolve({ site, url: `http://127.0.0.1:${site.address().port}/` })),
  );
}

before(async () => {
  database = createDatabase();
  server = await startServer({
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    SEED_DEMO: 'true',
    DEMO_EMAIL: OWNER.email,
    DEMO_PASSWORD: OWNER.password,
  });
  browser = await launchBrowser();
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  }).then((res) => res.json());
  org = await fetch(`${server.url}/api/admin/org`, { headers: { token: login.token } }).then((res) =>
    res.json(),
  );
  const published = await fetch(`${server.url}/api/public/${org.slug}`).then((res) => res.json());
  const first = published.courses.find((c) => c.activity_type === 'scheduled' && c.next_starts_at);
  course = await fetch(`${server.url}/api/public/${org.slug}/activities/${first.activity_id}`).then((res) =>
    res.json(),
  );
  session = course.sessions.find((s) => s.seats_left >= 1 && s.price_cents > 0);
  assert.ok(session, 'the demo store has a paid session with a seat left');
  // The snippet as Settings → Organization shows it: the script on the app's address (the store's
  // address without /s/{slug}), the links on the store's address.
  const app = org.app_store_url.slice(0, -`/s/${org.slug}`.length);
  studio = await studioSite(
    () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clay Corner</title>
<script src="${app}/checkout-overlay.js" defer></script></head>
<body><main><h1>Clay Corner</h1>
<p style="height:1200px">Welcome to our studio.</p>
<p><a id="course" href="${org.store_url}/activity/${course.activity_id}?openModal=true">${course.name}</a></p>
<p><a id="checkout" href="${org.store_url}/checkout?event_id=${session.event_id}&openModal=true">Book a seat</a></p>
<p style="height:1200px">See you soon.</p></main></body></html>`,
  );
});

after(async () => {
  await browser?.close();
  studio?.site.close();
  await server?.stop();
  database?.drop();
});

/** The course's checkout questions, if it asks any: every empty text field gets an answer of its type. */
async function answerQuestions(store) {
  const fields = store.locator(
    'form input:not([type]), form input[type="text"], form input[type="email"], form input[type="tel"], form textarea',
  );
  for (let i = 0; i < (await fields.count()); i++) {
    const field = fields.nth(i);
    if ((await field.inputValue()) !== '' || (await field.getAttribute('id')) === 'discount_code') continue;
    const type = await field.getAttribute('type');
    await field.fill(type === 'email' ? 'ada@example.test' : type === 'tel' ? '5555550100' : 'Ada');
  }
}

/** Where focus is on the studio's page: the link, the close button, the iframe, or elsewhere. */
const focusOf = (page) =>
  page.evaluate(() => {
    const active = globalThis.document.activeElement;
    if (!active || active === globalThis.document.body) return 'body';
    if (active.tagName === 'IFRAME') return 'frame';
    if (active.getAttribute('aria-label') === 'Close') return 'close';
    if (active.closest('.studio-overlay')) return 'overlay';
    return active.id || active.tagName;
  });

test('a course link opens in the overlay: a labelled modal, focus kept inside, Escape closes it where it was', async () => {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(studio.url);
  assert.notEqual(
    new URL(studio.url).origin,
    new URL(org.store_url).origin,
    'the studio page is another origin',
  );
  await page.waitForFunction(() => globalThis.studioCheckoutOverlay === true);
  const link = page.locator('#course');
  await link.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => globalThis.scrollY);
  assert.ok(scrolled > 0, 'the link is down the page');
  await link.click();

  const dialog = page.getByRole('dialog', { name: course.name });
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('aria-modal'), 'true');
  const iframe = dialog.locator('iframe');
  assert.equal(
    await iframe.getAttribute('src'),
    `${org.store_url}/activity/${course.activity_id}?openModal=true`,
  );
  const store = page.frameLocator('.studio-overlay iframe');
  await store.getByRole('heading', { level: 1, name: course.name }).waitFor();
  await store.locator('html[data-hydrated="true"]').waitFor();
  assert.equal(await focusOf(page), 'close');

  // The iframe is as tall as the store page (its messages), not a box with its own scrollbar.
  const frame = page.frames().find((f) => f.url().startsWith(`${org.store_url}/activity/`));
  await page.waitForFunction(
    (expected) => {
      const box = globalThis.document.querySelector('.studio-overlay iframe').getBoundingClientRect();
      return Math.abs(box.height - expected) <= 1;
    },
    await frame.evaluate(() => Math.ceil(globalThis.document.documentElement.getBoundingClientRect().height)),
  );

  // Tab and Shift+Tab go round the close button and the store page, never to the page behind.
  const seen = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focusOf(page));
  }
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Shift+Tab');
    seen.push(await focusOf(page));
  }
  assert.deepEqual(
    seen.filter((where) => where !== 'close' && where !== 'frame'),
    [],
    `focus left the overlay: ${seen.join(', ')}`,
  );
  const backToClose = seen.indexOf('close', seen.indexOf('frame'));
  assert.ok(backToClose > 0, `Tab wraps from the store page to the close button: ${seen.join(', ')}`);

  // The page behind does not scroll while the overlay is open.
  await page.mouse.move(20, 20);
  await page.mouse.wheel(0, 800);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => globalThis.scrollY), scrolled);

  // Escape (pressed in the store page or on the close button) closes it; focus is back on the link
  // and the page has not moved.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await focusOf(page), 'course');
  assert.equal(await page.evaluate(() => globalThis.scrollY), scrolled);
  assert.equal(
    await page.evaluate(() => globalThis.document.querySelector('main').hasAttribute('inert')),
    false,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the checkout link books a seat and pays on the demo page inside the overlay; the page hears studio:purchase-complete', async () => {
  const page = await browser.context.newPage();
  await page.goto(studio.url);
  await page.waitForFunction(() => globalThis.studioCheckoutOverlay === true);
  await page.evaluate(() => {
    globalThis.purchases = [];
    globalThis.document.addEventListener('studio:purchase-complete', (event) =>
      globalThis.purchases.push(event.detail),
    );
  });
  await page.locator('#checkout').click();
  const dialog = page.getByRole('dialog', { name: 'Book a seat' });
  await dialog.waitFor();
  const store = page.frameLocator('.studio-overlay iframe');
  await store.getByRole('heading', { level: 1, name: `Book ${course.name}` }).waitFor();
  await store.locator('html[data-hydrated="true"]').waitFor();
  const email = `overlay.buyer.${Date.now()}@example.test`;
  await store.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await store.getByRole('textbox', { name: 'Last name' }).fill('Moreau');
  await store.getByRole('textbox', { name: 'Email' }).fill(email);
  await answerQuestions(store);
  await store.getByRole('button', { name: 'Continue to payment' }).click();

  // The demo payment page, inside the iframe (the studio's page stays where it is).
  await store.getByText('Demo payment, no card is charged').waitFor();
  assert.equal(new URL(page.url()).origin, new URL(studio.url).origin);
  await store.getByRole('button', { name: /^Pay/ }).click();
  await store.getByRole('link', { name: 'Continue' }).click();
  await store.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  const shown = await store.getByText(/^#\d+$/).textContent();

  await page.waitForFunction(() => globalThis.purchases.length > 0);
  assert.deepEqual(await page.evaluate(() => globalThis.purchases), [
    { order_number: Number(shown.slice(1)) },
  ]);

  // The close button closes it; focus is back on the link.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await focusOf(page), 'checkout');
  await page.close();
});
