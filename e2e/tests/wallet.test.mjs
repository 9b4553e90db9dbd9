// Issue 24 in chromium, on the demo seed and the built-in demo provider, one server for three
// stories: a student buys a 5-class pack and books two classes with it; a gift card bought for a
// friend pays part of the friend's order; a cancelled class refunded as store credit pays the next
// one. The store's pages throughout (product, checkout, demo payment, confirmation, manage link);
// codes and links are read from the mail outbox.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

let token;
let slug;
let course;
let day = 20;

const studio = useDemoStudio({ outbox: true });

before(async () => {
  await studio.ready;
  ({ token } = await call('POST', '/api/auth/login', OWNER));
  ({ slug } = await call('GET', '/api/admin/org'));
  // A Flexible course (full refund until 24 hours before): its sessions are what the stories book.
  const { locations } = await call('GET', '/api/admin/location');
  const { instructors } = await call('GET', '/api/admin/instructor');
  const courses = await call('GET', '/api/admin/activities');
  const list = courses.activities ?? courses.courses ?? courses;
  const withImage = await call('GET', `/api/admin/activities/${list[0].activity_id}`);
  course = await call('POST', '/api/admin/activities', {
    name: 'Slow flow yoga',
    material: 'Ceramics',
    priceType: 'standard',
    price: 3500,
    description: 'An hour of slow flow.',
    capacity: 8,
    images: withImage.images.slice(0, 1).map((i) => (typeof i === 'string' ? i : i.url)),
    location_id: locations[0].location_id,
    instructor_id: instructors[0].instructor_id,
    level: 'Beginner',
    cancel_policy_id: 1,
    reschedule_policy_id: 4,
  });
  course.location_id = locations[0].location_id;
  course.instructor_id = instructors[0].instructor_id;
});

async function call(method, path, body) {
  const res = await fetch(`${studio.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.status === 204 ? null : res.json();
}

/** A session of the course `++day` days ahead, at $35.00. */
async function session() {
  const date = new Date(Date.now() + ++day * 86400000).toISOString().slice(0, 10);
  const { event_id } = await call('POST', '/api/admin/events', {
    activity_id: course.activity_id,
    location_id: course.location_id,
    instructor_id: course.instructor_id,
    dates: [{ date, time: '09:00', duration: 60 }],
    price: 3500,
    capacity: 8,
  });
  return event_id;
}

/** The newest mail to `email` whose text matches, waited for; quoted-printable soft breaks joined. */
async function mailTo(email, matching) {
  const started = Date.now();
  for (;;) {
    const found = readdirSync(studio.outbox)
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .reverse()
      .map((name) =>
        readFileSync(join(studio.outbox, name), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '='),
      )
      .find((mail) => mail.includes(`To: ${email}`) && matching.test(mail));
    if (found) return found;
    if (Date.now() - started > 30000) throw new Error(`no mail to ${email} matching ${matching}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The buyer's name and email on a checkout page. */
async function fillBuyer(page, buyer) {
  await page.getByRole('textbox', { name: 'First name' }).fill(buyer.first);
  await page.getByRole('textbox', { name: 'Last name' }).fill(buyer.last);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(buyer.email);
}

/** Proves the buyer's email with the mailed code; answers the list of what it holds. */
async function proveEmail(page, email) {
  const sentBefore = readdirSync(studio.outbox).length;
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByRole('textbox', { name: 'Email code' }).waitFor();
  let code;
  const started = Date.now();
  while (!code) {
    const names = readdirSync(studio.outbox)
      .filter((f) => f.endsWith('.eml'))
      .sort();
    if (names.length > sentBefore) {
      const mail = await mailTo(email, /checkout: \d{6}/);
      code = /checkout: (\d{6})/.exec(mail)[1];
    } else if (Date.now() - started > 30000) throw new Error(`no code mailed to ${email}`);
    else await new Promise((r) => setTimeout(r, 200));
  }
  await page.getByRole('textbox', { name: 'Email code' }).fill(code);
  await page.getByRole('button', { name: 'Check code' }).click();
  const held = page.getByRole('list', { name: 'What you hold here' });
  await held.waitFor();
  return held;
}

/** Pays the demo payment page and lands on the booking's confirmation. */
async function payOnDemoPage(page, amount) {
  await page.waitForURL(/\/api\/pay\/demo\//);
  await page.getByText(amount).first().waitFor();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
}

const student = (name) => ({
  first: name,
  last: 'Rivera',
  email: `${name.toLowerCase()}.${Date.now()}@example.test`,
});

test('a student buys a 5-class pack and books two classes with it', async () => {
  const pack = await call('POST', '/api/admin/products', {
    productName: '5-class pack',
    priceType: 'oneTime',
    amount: 15000,
    grant: 'pack',
    packCredits: 5,
    packExpiresAfterQuantity: 6,
    packExpiresAfterUnit: 'months',
  });
  const [first, second] = [await session(), await session()];
  const buyer = student('Maya');
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // The pack, bought on its page: the store says what it grants.
  await page.goto(`${studio.url}/s/${slug}/checkout?product_id=${pack.id ?? pack.product_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByText('5 classes, valid 6 months').first().waitFor();
  await fillBuyer(page, buyer);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payOnDemoPage(page, '$150.00');

  // Two classes booked on it: nothing to pay, one credit each.
  for (const [eventId, left] of [
    [first, '5 credits'],
    [second, '4 credits'],
  ]) {
    await page.goto(`${studio.url}/s/${slug}/checkout?event_id=${eventId}`);
    await page.locator('html[data-hydrated="true"]').waitFor();
    await fillBuyer(page, buyer);
    const held = await proveEmail(page, buyer.email);
    await held.getByText(`5-class pack: ${left}`).waitFor();
    await page.getByText('Covered by 5-class pack').waitFor();
    await page.getByRole('button', { name: 'Book now' }).click();
    await page.waitForURL(/\/checkout\/complete\?order=/);
    await page.getByText('Paid with 5-class pack').waitFor();
    await page.getByText('1 credit', { exact: true }).waitFor();
  }
  const students = await call('GET', `/api/admin/student?search=${encodeURIComponent(buyer.email)}`);
  const id = (students.students ?? students)[0].student_id ?? (students.students ?? students)[0].id;
  const wallet = await call('GET', `/api/admin/student/${id}/wallet`);
  assert.deepEqual(
    wallet.holdings.map((h) => [h.label, h.balance]),
    [['5-class pack', 3]],
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('a gift card bought for a friend pays part of the friend’s order', async () => {
  const card = await call('POST', '/api/admin/products', {
    productName: 'Gift card $20',
    priceType: 'oneTime',
    amount: 2000,
    grant: 'giftCard',
  });
  const buyer = student('Ana');
  const friend = student('Bea');
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${studio.url}/s/${slug}/checkout?product_id=${card.id ?? card.product_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await fillBuyer(page, buyer);
  await page.getByRole('textbox', { name: "Recipient's name" }).fill(`${friend.first} ${friend.last}`);
  await page.getByRole('textbox', { name: "Recipient's email" }).fill(friend.email);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payOnDemoPage(page, '$20.00');
  // The friend is mailed the card: its code and balance.
  const gift = await mailTo(friend.email, /\$20\.00/);
  assert.match(gift, /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);

  // The friend books a $35.00 class: the card pays $20.00, the card on file the $15.00 left.
  const eventId = await session();
  await page.goto(`${studio.url}/s/${slug}/checkout?event_id=${eventId}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await fillBuyer(page, friend);
  const held = await proveEmail(page, friend.email);
  await held.getByText(/Gift card.*\$20\.00/).waitFor();
  await page.getByText('To pay by card').waitFor();
  await page.locator('.checkout-total').getByText('$15.00', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payOnDemoPage(page, '$15.00');
  await page.getByText(/Paid with Gift card/).waitFor();
  await page.getByText('Paid by card').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a cancelled class refunded as store credit pays the next one', async () => {
  const [first, next] = [await session(), await session()];
  const buyer = student('Cleo');
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${studio.url}/s/${slug}/checkout?event_id=${first}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await fillBuyer(page, buyer);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payOnDemoPage(page, '$35.00');

  // The student cancels from the link in the confirmation, refunded as store credit.
  const link = /Manage your booking: (\S+)/.exec(await mailTo(buyer.email, /Manage your booking: /))[1];
  await page.goto(`${studio.url}${new URL(link).pathname}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('button', { name: 'Refund as store credit' }).click();
  await page.getByRole('heading', { level: 1, name: 'This booking is cancelled' }).waitFor();

  // The next class: the credit pays it all.
  await page.goto(`${studio.url}/s/${slug}/checkout?event_id=${next}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await fillBuyer(page, buyer);
  const held = await proveEmail(page, buyer.email);
  await held.getByText('Store credit: $35.00').waitFor();
  await page.getByRole('button', { name: 'Book now' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByText('Paid with Store credit').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
