// The checkout overlay in chromium (issue 21): a studio's own page, served from another origin,
// carries the snippet from Settings → Organization and store links with openModal=true. A click
// opens the store's page in a modal iframe (focus kept inside, the page behind still, the height
// following the store page); Escape closes it and gives focus back to the link; the checkout link
// books a seat, pays on the demo page inside the iframe, and the studio's page hears
// `studio:purchase-complete` with the order's number. The whole journey: two seats of the waiver
// course through the overlay with per-ticket answers, the waiver signed inside the checkout, a
// discount code and points proved by a mailed code; the confirmation mail with the course's own text
// and a calendar file; the admin's event and order drawers; a full refund gives the points back.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { chooseMenuItem, signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The studio's own site (studioSite), another origin than the app.
let own;
let org;
let course;
let session;
let token;
let glass;
let glassSession;

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

const studio = useDemoStudio({ outbox: true, stop: async () => own?.site.close() });

before(async () => {
  await studio.ready;
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  }).then((res) => res.json());
  token = login.token;
  org = await fetch(`${studio.url}/api/admin/org`, { headers: { token: login.token } }).then((res) =>
    res.json(),
  );
  const published = await fetch(`${studio.url}/api/public/${org.slug}`).then((res) => res.json());
  const first = published.courses.find((c) => c.activity_type === 'scheduled' && c.next_starts_at);
  course = await fetch(`${studio.url}/api/public/${org.slug}/activities/${first.activity_id}`).then((res) =>
    res.json(),
  );
  session = course.sessions.find((s) => s.seats_left >= 1 && s.price_cents > 0);
  assert.ok(session, 'the demo store has a paid session with a seat left');
  // The demo's waiver course (Glassblowing) asks one answer per seat and mails its own text.
  const details = await Promise.all(
    published.courses.map((c) =>
      fetch(`${studio.url}/api/public/${org.slug}/activities/${c.activity_id}`).then((res) => res.json()),
    ),
  );
  glass = details.find((c) => c.requires_waiver && c.checkout_form?.collection_type === 'ticket');
  assert.ok(glass, 'the demo store has a waiver course with a per-ticket checkout form');
  glassSession = glass.sessions.find((s) => s.seats_left >= 2 && s.price_cents > 0);
  assert.ok(glassSession, 'the waiver course has a paid session with two seats left');
  // The snippet as Settings → Organization shows it: the script on the app's address (the store's
  // address without /s/{slug}), the links on the store's address.
  const app = org.app_store_url.slice(0, -`/s/${org.slug}`.length);
  own = await studioSite(
    () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clay Corner</title>
<script src="${app}/checkout-overlay.js" defer></script></head>
<body><main><h1>Clay Corner</h1>
<p style="height:1200px">Welcome to our studio.</p>
<p><a id="course" href="${org.store_url}/activity/${course.activity_id}?openModal=true">${course.name}</a></p>
<p><a id="checkout" href="${org.store_url}/checkout?event_id=${session.event_id}&openModal=true">Book a seat</a></p>
<p><a id="glass" href="${org.store_url}/checkout?event_id=${glassSession.event_id}&openModal=true">Book glassblowing</a></p>
<p style="height:1200px">See you soon.</p></main></body></html>`,
  );
});

/** The admin API as the demo owner. */
async function admin(method, path, body) {
  const res = await fetch(`${studio.url}${path}`, {
    method,
    headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The mails to `email` in the outbox (.eml files, quoted-printable soft breaks joined), waiting for one matching. */
async function mailTo(email, matching) {
  const started = Date.now();
  for (;;) {
    for (const name of readdirSync(studio.outbox).filter((f) => f.endsWith('.eml'))) {
      const mail = readFileSync(join(studio.outbox, name), 'utf8').replace(/=\r?\n/g, '');
      if (mail.includes(`To: ${email}`) && matching.test(mail)) return mail;
    }
    if (Date.now() - started > 20000) throw new Error(`no mail to ${email} matching ${matching}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The course's checkout questions, if it asks any: every empty text field gets an answer of its type. */
async function answerQuestions(store) {
  const fields = store.locator(
    'form input:not([type]), form input[type="text"], form input[type="email"], form input[type="tel"], form textarea',
  );
  for (let i = 0; i < (await fields.count()); i++) {
    const field = fields.nth(i);
    if (
      (await field.inputValue()) !== '' ||
      ['discount_code', 'gift_card_code'].includes(await field.getAttribute('id'))
    )
      continue;
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
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(own.url);
  assert.notEqual(
    new URL(own.url).origin,
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
  const page = await studio.browser.context.newPage();
  await page.goto(own.url);
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
  assert.equal(new URL(page.url()).origin, new URL(own.url).origin);
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

test('the whole journey: two seats with answers, the waiver, a code and points through the overlay; the mail; the admin drawers; a refund gives the points back', async () => {
  // A returning student with 1,000 points who has not signed the waiver yet.
  const email = `journey.${Date.now()}@example.test`;
  const student = await admin('POST', '/api/admin/student', {
    first_name: 'Maya',
    last_name: 'Lindqvist',
    email,
  });
  await admin('POST', `/api/admin/student/${student.student_id}/loyalty-balance/set`, { amount: 1000 });
  const balance = async () =>
    (await admin('GET', `/api/admin/student/${student.student_id}`)).LoyaltyBalance[0];

  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(own.url);
  await page.waitForFunction(() => globalThis.studioCheckoutOverlay === true);
  await page.evaluate(() => {
    globalThis.purchases = [];
    globalThis.document.addEventListener('studio:purchase-complete', (event) =>
      globalThis.purchases.push(event.detail),
    );
  });
  await page.locator('#glass').click();
  const dialog = page.getByRole('dialog', { name: 'Book glassblowing' });
  await dialog.waitFor();
  const store = page.frameLocator('.studio-overlay iframe');
  await store.getByRole('heading', { level: 1, name: `Book ${glass.name}` }).waitFor();
  await store.locator('html[data-hydrated="true"]').waitFor();

  // Two seats, the buyer, one answer per ticket.
  await store.getByRole('combobox', { name: 'Seats' }).selectOption('2');
  await store.getByRole('textbox', { name: 'First name' }).fill('Maya');
  await store.getByRole('textbox', { name: 'Last name' }).fill('Lindqvist');
  await store.getByRole('textbox', { name: 'Email' }).fill(email);
  const label = glass.checkout_form.fields[0].label;
  await store.getByRole('group', { name: 'Ticket 1' }).getByRole('textbox', { name: label }).fill('Cobalt');
  await store.getByRole('group', { name: 'Ticket 2' }).getByRole('textbox', { name: label }).fill('Amber');

  // The waiver, read and signed inside the checkout (the demo signing page in its own frame).
  const pay = store.getByRole('button', { name: 'Continue to payment' });
  assert.equal(await pay.isDisabled(), true, 'Pay waits for the waiver');
  await store.getByRole('button', { name: 'Read and sign the waiver' }).click();
  const waiver = store.frameLocator('iframe[title="Waiver"]');
  await waiver.getByRole('textbox', { name: 'Type your full name to sign' }).fill('Maya Lindqvist');
  await waiver.getByRole('button', { name: 'Sign' }).click();
  await store.getByText('Waiver signed').waitFor();

  // A discount code, then points proved by the code mailed to the buyer.
  await store.getByRole('textbox', { name: 'Discount code (optional)' }).fill('WELCOME10');
  await store.getByRole('button', { name: 'Apply' }).click();
  await store.getByText('Discount (WELCOME10)').waitFor();
  await store.getByRole('button', { name: 'Send me a code' }).click();
  const code = /\b(\d{6})\b/.exec(await mailTo(email, /points code/))[1];
  await store.getByRole('textbox', { name: 'Email code' }).fill(code);
  await store.getByRole('button', { name: 'Check code' }).click();
  await store.getByText('1,000 points ($10.00)').waitFor();
  await store.getByRole('spinbutton', { name: 'Points to use' }).fill('500');
  const quote = await fetch(`${studio.url}/api/public/${org.slug}/checkout/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event_id: glassSession.event_id, party_size: 2, discount_code: 'WELCOME10' }),
  }).then((res) => res.json());
  const expected = quote.total_cents - 500;
  const money = (cents) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
  await store.locator('.checkout-total').getByText(money(expected), { exact: true }).waitFor();
  // The checkout with its waiver step done and its points section open: no serious violation.
  const checkoutFrame = page.frames().find((f) => f.url().includes('/checkout?event_id='));
  await checkoutFrame.evaluate(AXE_SOURCE);
  // This frame's document only (the waiver's own frame is the signing page, checked on its own).
  const violations = (
    await checkoutFrame.evaluate(() => globalThis.axe.run(globalThis.document, { iframes: false }))
  ).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  assert.deepEqual(violations, []);

  // Pay on the demo page inside the overlay.
  await pay.click();
  await store.getByText('Demo payment, no card is charged').waitFor();
  await store.getByRole('button', { name: /^Pay/ }).click();
  await store.getByRole('link', { name: 'Continue' }).click();
  await store.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  await store.getByText('2 seats').first().waitFor();
  const number = Number((await store.getByText(/^#\d+$/).textContent()).slice(1));
  await page.waitForFunction(() => globalThis.purchases.length > 0);
  assert.deepEqual(await page.evaluate(() => globalThis.purchases), [{ order_number: number }]);
  assert.deepEqual(errors, []);
  await page.close();

  // The confirmation mail: the course's own text, the answers and a calendar file.
  const confirmation = await mailTo(email, /You're booked/);
  assert.ok(
    confirmation.includes('Please arrive 10 minutes early'),
    "the course's auto_email text is in the mail",
  );
  assert.match(confirmation, /Content-Type: text\/calendar/);
  assert.match(confirmation, /filename=booking\.ics/);
  assert.ok(confirmation.includes('Cobalt') && confirmation.includes('Amber'), 'the answers are in the mail');
  assert.equal((await balance()).balance, 500, 'the points were spent');

  // The admin: the event drawer shows the buyer with one guest and a signed waiver.
  const admin_ = await studio.browser.context.newPage();
  await signIn(admin_, studio.url, OWNER.email, OWNER.password);
  const tag = `Journey ${Date.now()}`;
  const event = (
    await admin('GET', `/api/admin/activities/${glass.activity_id}/sessions?include_past=false&limit=10000`)
  ).sessions.find((s) => s.event_id === glassSession.event_id);
  await admin('PUT', `/api/admin/events/${glassSession.event_id}`, {
    price: event.price,
    capacity: event.capacity,
    internal_short_description: tag,
  });
  await admin_.goto(`${studio.url}/admin/courses/${glass.activity_id}`);
  await admin_.getByRole('listitem').filter({ hasText: tag }).click();
  const grid = admin_.getByRole('dialog').getByRole('region', { name: 'Enrollments' });
  await grid.getByRole('button', { name: 'Edit guests of Maya Lindqvist' }).getByText('1').waitFor();

  // The order drawer: the answers per ticket, the code and the points.
  const { orders } = await admin('GET', `/api/admin/orders?search=${number}&limit=10`);
  const order = orders.find((o) => o.order_number === number);
  await admin_.goto(`${studio.url}/admin/orders`);
  await admin_.getByRole('searchbox', { name: 'Search orders' }).fill(String(number));
  await admin_.locator('tbody tr.ant-table-row', { hasText: `#${number}` }).click();
  const drawer = admin_
    .getByRole('dialog')
    .filter({ has: admin_.getByRole('heading', { name: `Order #${number}` }) });
  const summary = drawer.getByRole('region', { name: 'Order summary' });
  await summary.getByText('WELCOME10').waitFor();
  await summary.getByText('500 points (−$5.00)').waitFor();
  const forms = drawer.getByRole('region', { name: 'Checkout forms' });
  await forms.getByText('Cobalt').waitFor();
  await forms.getByText('Amber').waitFor();

  // A full refund from the drawer gives the 500 points back.
  await chooseMenuItem(drawer.getByRole('button', { name: 'Order actions' }), 'Refund payment');
  const refund = admin_.getByRole('dialog', { name: 'Refund payment' });
  await refund.getByText('Refunds can take up to 10 days to appear').waitFor();
  await refund.getByRole('textbox', { name: 'Reason' }).fill('Studio closed that day');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await admin_.getByText('Order refunded successfully').waitFor();
  await summary.getByText('Refunded', { exact: true }).first().waitFor();
  const after = await admin('GET', `/api/admin/order/${order.order_id}`);
  assert.equal(after.status, 'refunded');
  const ledger = (await admin('GET', `/api/admin/student/${student.student_id}`)).LoyaltyBalance;
  assert.equal(ledger[0].balance, 1000, 'the points are back');
  assert.ok(
    ledger.some(
      (e) => e.reason === 'redemption_returned' && e.points === 500 && e.order_id === order.order_id,
    ),
    'the ledger says they were given back for the order',
  );
  await admin_.close();
});
