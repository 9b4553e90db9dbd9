// The online store in chromium against the built app and the demo seed (issue 21): the demo
// studio's store lists its published courses; a course page works on a 390 px phone (no sideways
// scroll, Book buttons in reach), hydrates without console errors and has no serious or critical
// accessibility violation (axe-core).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { before, test } from 'node:test';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let store;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  // The demo studio's address, as its owner sees it in Settings.
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  }).then((res) => res.json());
  const org = await fetch(`${studio.url}/api/admin/org`, { headers: { token: login.token } }).then((res) =>
    res.json(),
  );
  store = { slug: org.slug, path: `/s/${org.slug}` };
});

/** A page that records console errors and uncaught exceptions. */
async function watchedPage(viewport) {
  const page = await studio.browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}

/** axe-core's serious and critical violations on the page (its source evaluated, not a script tag: the CSP allows none). */
async function seriousViolations(page) {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => globalThis.axe.run(globalThis.document));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

test("the demo studio's store lists its published courses and products", async () => {
  assert.equal(store.slug, 'demo-studio');
  const published = await fetch(`${studio.url}/api/public/${store.slug}`).then((res) => res.json());
  assert.ok(published.courses.length >= 2, 'the demo seed publishes courses with upcoming sessions');
  const { page, errors } = await watchedPage();
  await page.goto(`${studio.url}${store.path}`);
  await page.getByRole('heading', { level: 1, name: 'Demo Studio' }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  const courses = page.getByRole('region', { name: 'Courses' });
  const titles = await courses.getByRole('heading', { level: 3 }).allTextContents();
  assert.deepEqual(
    titles,
    published.courses.map((c) => c.name),
  );
  const products = page.getByRole('region', { name: 'Products' });
  assert.deepEqual(
    await products.getByRole('heading', { level: 3 }).allTextContents(),
    published.products.map((p) => p.name),
  );
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a course page works at 390 px: readable, Book buttons in reach, hydrated, accessible', async () => {
  const published = await fetch(`${studio.url}/api/public/${store.slug}`).then((res) => res.json());
  const first = published.courses.find((c) => c.activity_type === 'scheduled' && c.next_starts_at);
  const course = await fetch(`${studio.url}/api/public/${store.slug}/activities/${first.activity_id}`).then(
    (res) => res.json(),
  );
  const { page, errors } = await watchedPage({ width: 390, height: 844 });
  // From the store home, as a visitor gets there.
  await page.goto(`${studio.url}${store.path}`);
  await page.getByRole('link', { name: course.name, exact: true }).click();
  await page.waitForURL(`**${store.path}/activity/${course.activity_id}`);
  await page.getByRole('heading', { level: 1, name: course.name }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  // Keyboard: the skip link is the first stop and leads to the content.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => globalThis.document.activeElement?.textContent), 'Skip to content');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#main$/);

  // No sideways scroll on a phone.
  const widths = await page.evaluate(() => ({
    scroll: globalThis.document.documentElement.scrollWidth,
    client: globalThis.document.documentElement.clientWidth,
  }));
  assert.ok(
    widths.scroll <= widths.client,
    `page is ${widths.scroll} px wide in a ${widths.client} px window`,
  );

  const sessions = page.getByRole('region', { name: 'Upcoming sessions' });
  const book = sessions.getByRole('link', { name: /^Book / });
  const open = course.sessions.filter((s) => !s.sold_out);
  assert.equal(await book.count(), open.length);
  assert.equal(await sessions.getByText('Sold out').count(), course.sessions.length - open.length);
  for (let i = 0; i < (await book.count()); i++) {
    const button = book.nth(i);
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `Book button ${i + 1} is inside the screen`);
    assert.ok(box.height >= 44, `Book button ${i + 1} is a 44 px touch target`);
  }
  assert.equal(
    new URL(await book.first().getAttribute('href'), studio.url).toString(),
    `${studio.url}${store.path}/checkout?event_id=${open[0].event_id}`,
  );
  // The time reads in the session location's zone, named.
  const abbreviation = new Intl.DateTimeFormat('en-US', { timeZone: open[0].timezone, timeZoneName: 'short' })
    .formatToParts(new Date(open[0].starts_at))
    .find((p) => p.type === 'timeZoneName').value;
  await sessions
    .getByText(new RegExp(`\\d{1,2}:\\d{2} [AP]M – \\d{1,2}:\\d{2} [AP]M ${abbreviation}`))
    .first()
    .waitFor();

  // Hydrated: the picture buttons work (when the course has several).
  if (course.images.length > 1) {
    await page.getByRole('button', { name: `Show picture 2 of ${course.images.length}` }).click();
    await page.getByRole('img', { name: `${course.name}, picture 2 of ${course.images.length}` }).waitFor();
  }

  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an unknown course is the 404 page in the same style', async () => {
  const { page } = await watchedPage();
  const response = await page.goto(
    `${studio.url}${store.path}/activity/00000000-0000-4000-8000-000000000000`,
  );
  assert.equal(response.status(), 404);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await page.getByRole('link', { name: 'See all courses' }).click();
  await page.getByRole('heading', { level: 1, name: 'Demo Studio' }).waitFor();
  await page.close();
});

test('a buyer books two seats from the course page: the form, the checkout form, the demo payment, the confirmation, and the admin sees them', async () => {
  const published = await fetch(`${studio.url}/api/public/${store.slug}`).then((res) => res.json());
  // A demo course with a checkout form (the demo seed gives Intro to Wheel Throwing one).
  const courses = await Promise.all(
    published.courses
      .filter((c) => c.activity_type === 'scheduled' && c.next_starts_at)
      .map((c) =>
        fetch(`${studio.url}/api/public/${store.slug}/activities/${c.activity_id}`).then((res) => res.json()),
      ),
  );
  const course = courses.find((c) => c.checkout_form);
  assert.ok(course, 'a demo course asks checkout form fields');
  assert.deepEqual(
    course.checkout_form.fields.map((f) => f.type),
    ['name', 'radio'],
  );
  const [nameField, radioField] = course.checkout_form.fields;
  const session = course.sessions.find((s) => s.seats_left >= 2 && s.price_cents > 0);
  assert.ok(session, 'the demo store has a paid session with two seats left');
  const { page, errors } = await watchedPage({ width: 390, height: 844 });
  await page.goto(`${studio.url}${store.path}/activity/${course.activity_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.locator(`a[href$="checkout?event_id=${session.event_id}"]`).click();
  await page.getByRole('heading', { level: 1, name: `Book ${course.name}` }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  assert.deepEqual(await seriousViolations(page), []);

  await page.getByRole('combobox', { name: 'Seats' }).selectOption('2');
  // The total is the server's quote for two seats.
  const twoSeats = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    (2 * session.price_cents) / 100,
  );
  await page.getByText(twoSeats).first().waitFor();
  const email = `store.buyer.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: 'First name' }).fill('Ines');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Okafor');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);

  // The course's checkout form, once for the order: Book first with it empty, the browser refuses.
  const questions = page.getByRole('group', {
    name: course.checkout_form.collection_type === 'ticket' ? 'Ticket 1' : 'A few questions from the studio',
  });
  const nameGroup = questions.getByRole('group', { name: nameField.label });
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await nameGroup.getByText(`${nameField.label} is required`).waitFor();
  assert.match(page.url(), /\/checkout\?event_id=/);
  assert.deepEqual(await seriousViolations(page), []);
  await nameGroup.getByRole('textbox', { name: 'First' }).fill('Ines');
  await nameGroup.getByRole('textbox', { name: 'Last' }).fill('Okafor');
  const choice = radioField.options[1];
  await questions
    .getByRole('radiogroup', { name: new RegExp(radioField.label.replace(/[?()]/g, '\\$&')) })
    .getByRole('radio', { name: choice.value })
    .check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // The demo payment page, then back to the booking's own page.
  await page.waitForURL(/\/api\/pay\/demo\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  await page.getByText('2 seats').waitFor();

  // The studio sees the student with a guest in the session.
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  }).then((res) => res.json());
  const enrollments = await fetch(`${studio.url}/api/admin/enrollment/event/${session.event_id}`, {
    headers: { token: login.token },
  }).then((res) => res.json());
  const booked = enrollments.enrollments.find((e) => e.Student.email === email);
  assert.equal(booked?.guestCount, 1);
  // The answers are kept with the order, under the labels the buyer read.
  const orderId = new URL(page.url()).searchParams.get('order');
  const order = await fetch(`${studio.url}/api/admin/order/${orderId}`, {
    headers: { token: login.token },
  }).then((res) => res.json());
  assert.deepEqual(
    order.submissions.map((s) => s.answers),
    [
      [
        { label: nameField.label, value: 'Ines Okafor' },
        { label: radioField.label, value: choice.value },
      ],
    ],
  );
  assert.deepEqual(errors, []);
  await page.close();
});

/** The demo's free course (Coffee Cupping Evening) as the store shows it. */
async function freeCourse() {
  const published = await fetch(`${studio.url}/api/public/${store.slug}`).then((res) => res.json());
  const listed = published.courses.find((c) => c.free && c.next_starts_at);
  assert.ok(listed, 'the demo store lists a free course with sessions');
  return fetch(`${studio.url}/api/public/${store.slug}/activities/${listed.activity_id}`).then((res) =>
    res.json(),
  );
}

/** Books `seats` of a session through the Storefront API, as another buyer would. */
async function bookThroughApi(eventId, seats, who) {
  const res = await fetch(`${studio.url}/api/public/${store.slug}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `${who}-${eventId}` },
    body: JSON.stringify({
      event_id: eventId,
      party_size: seats,
      first_name: 'Other',
      last_name: 'Buyer',
      email: `${who}@example.test`,
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
}

test('a free course books without a payment page: Book now, then the confirmation', async () => {
  const course = await freeCourse();
  const session = course.sessions.find((s) => s.seats_left >= 1);
  const { page, errors } = await watchedPage();
  await page.goto(`${studio.url}${store.path}/checkout?event_id=${session.event_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  // Nothing is due: no discount code to ask, and the button says so.
  assert.equal(await page.getByRole('textbox', { name: 'Discount code (optional)' }).count(), 0);
  await page.getByText('Free').first().waitFor();
  await page.getByRole('textbox', { name: 'First name' }).fill('Noor');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Haddad');
  await page.getByRole('textbox', { name: 'Email' }).fill(`free.buyer.${Date.now()}@example.test`);
  await page.getByRole('button', { name: 'Book now' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  await page.getByText('1 seat').first().waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  // The seat is taken: the course page counts it.
  const after = await fetch(`${studio.url}/api/public/${store.slug}/activities/${course.activity_id}`).then(
    (res) => res.json(),
  );
  assert.equal(
    after.sessions.find((s) => s.event_id === session.event_id).seats_left,
    session.seats_left - 1,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a session sold out under the buyer: "Sold out" said at Book, nothing booked, the pages show it sold out', async () => {
  const course = await freeCourse();
  const session = course.sessions.at(-1);
  // Others book all but one seat; the buyer opens the checkout with one seat left.
  await bookThroughApi(session.event_id, session.seats_left - 1, `crowd.${Date.now()}`);
  const { page, errors } = await watchedPage();
  await page.goto(`${studio.url}${store.path}/checkout?event_id=${session.event_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByText('1 seat left').first().waitFor();
  const email = `late.buyer.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: 'First name' }).fill('Late');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Buyer');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  // While the buyer types, someone else takes the last seat.
  await bookThroughApi(session.event_id, 1, `quicker.${Date.now()}`);
  await page.getByRole('button', { name: 'Book now' }).click();
  await page.getByRole('alert').filter({ hasText: 'Sold out' }).first().waitFor();
  assert.match(page.url(), /\/checkout\?event_id=/, 'the buyer stays on the checkout');

  // Nothing was booked for the buyer, and the pages now say sold out.
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  }).then((res) => res.json());
  const enrollments = await fetch(`${studio.url}/api/admin/enrollment/event/${session.event_id}`, {
    headers: { token: login.token },
  }).then((res) => res.json());
  assert.equal(enrollments.enrollments.filter((e) => e.Student.email === email).length, 0);
  await page.reload();
  await page.getByRole('status').filter({ hasText: 'This session is sold out.' }).waitFor();
  await page.goto(`${studio.url}${store.path}/activity/${course.activity_id}`);
  const sessions = page.getByRole('region', { name: 'Upcoming sessions' });
  await sessions.getByText('Sold out').first().waitFor();
  assert.equal(
    await page.locator(`a[href$="checkout?event_id=${session.event_id}"]`).count(),
    0,
    'no Book button for the sold-out session',
  );
  assert.deepEqual(await seriousViolations(page), []);
  // The refused booking's 409 is the browser's only complaint.
  assert.deepEqual(
    errors.filter((e) => !e.includes('status of 409')),
    [],
  );
  await page.close();
});

test('the 404 page has no serious accessibility violation', async () => {
  const { page } = await watchedPage();
  await page.goto(`${studio.url}${store.path}/activity/00000000-0000-4000-8000-000000000000`);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});
