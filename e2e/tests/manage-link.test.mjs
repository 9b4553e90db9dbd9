// The manage link in chromium (issue 23), on the demo seed and the built-in demo provider: a student
// books a session of a Firm course (12 days ahead) in the store and pays on the demo page, opens the
// link from the confirmation email (read from the mail outbox), cancels, and is refunded by the
// policy: the page says $45.00 of $90.00 came back; the admin's order drawer shows the refund with
// its reason "Cancelled by the student" and the order partially refunded.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

let token;

const studio = useDemoStudio({ outbox: true });

before(async () => {
  await studio.ready;
  ({ token } = await call('POST', '/api/auth/login', OWNER));
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

/** The mails in the outbox to `email`, quoted-printable soft breaks joined. */
const mailsTo = (email) =>
  readdirSync(studio.outbox)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((name) =>
      readFileSync(join(studio.outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((mail) => mail.includes(`To: ${email}`));

test('a student cancels from the link in the confirmation email and is refunded by the policy', async () => {
  // A Firm course (50% back between 30 and 5 days before) with one session 12 days ahead at $90.00.
  const { locations } = await call('GET', '/api/admin/location');
  const { instructors } = await call('GET', '/api/admin/instructor');
  const courses = await call('GET', '/api/admin/activities');
  const list = courses.activities ?? courses.courses ?? courses;
  const withImage = await call('GET', `/api/admin/activities/${list[0].activity_id}`);
  const course = await call('POST', '/api/admin/activities', {
    name: 'Raku evening',
    material: 'Ceramics',
    priceType: 'standard',
    price: 9000,
    description: 'Fire your own raku piece in the yard kiln.',
    capacity: 6,
    images: withImage.images.slice(0, 1).map((i) => (typeof i === 'string' ? i : i.url)),
    location_id: locations[0].location_id,
    instructor_id: instructors[0].instructor_id,
    level: 'Beginner',
    cancel_policy_id: 3,
    reschedule_policy_id: 4,
  });
  const date = new Date(Date.now() + 12 * 86400000 + 12 * 3600000).toISOString().slice(0, 10);
  const { event_id } = await call('POST', '/api/admin/events', {
    activity_id: course.activity_id,
    location_id: locations[0].location_id,
    instructor_id: instructors[0].instructor_id,
    dates: [{ date, time: '18:00', duration: 120 }],
    price: 9000,
    capacity: 6,
  });
  const { slug } = await call('GET', '/api/admin/org');

  // The student books and pays in the store.
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${studio.url}/s/${slug}/checkout?event_id=${event_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  const email = `manage.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: 'First name' }).fill('Lena');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Okoro');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/api\/pay\/demo\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  const orderId = new URL(page.url()).searchParams.get('order');

  // The confirmation mail carries the manage link.
  let link;
  const started = Date.now();
  while (!link) {
    const found = mailsTo(email)
      .map((mail) => /Manage your booking: (\S+)/.exec(mail)?.[1])
      .find(Boolean);
    if (found) link = found;
    else if (Date.now() - started > 30000) throw new Error(`no manage link mailed to ${email}`);
    else await new Promise((r) => setTimeout(r, 200));
  }
  assert.match(link, new RegExp(`/s/${slug}/booking/e_`));

  // The booking's page: the policy's refund, then Cancel.
  const manage = new URL(link);
  await page.goto(`${studio.url}${manage.pathname}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
  await page.getByText('Raku evening').first().waitFor();
  await page.getByText('If you cancel now, $45.00 goes back to your payment.').waitFor();
  await page.getByRole('button', { name: 'Cancel booking' }).click();
  await page.getByRole('button', { name: 'Refund to my card' }).click();
  await page.getByRole('heading', { level: 1, name: 'This booking is cancelled' }).waitFor();
  await page.getByText('Refunded: $45.00.').waitFor();
  // Opened again later, it still says so.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'This booking is cancelled' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Cancel booking' }).count(), 0);
  assert.deepEqual(errors, []);

  // The admin's order: partially refunded, the refund with its reason.
  const order = await call('GET', `/api/admin/order/${orderId}`);
  assert.equal(order.status, 'partial_refund');
  assert.equal(order.refunded_amount, 4500);
  const admin = await studio.browser.context.newPage();
  await signIn(admin, studio.url, OWNER.email, OWNER.password);
  await admin.getByRole('navigation', { name: 'Main' }).getByText('Orders', { exact: true }).click();
  await admin.getByRole('searchbox', { name: 'Search orders' }).fill(String(order.order_number));
  const row = admin.locator('tbody tr.ant-table-row', { hasText: `#${order.order_number}` });
  await row.waitFor();
  await row.click();
  const drawer = admin
    .getByRole('dialog')
    .filter({ has: admin.getByRole('heading', { name: `Order #${order.order_number}` }) });
  const refundRow = drawer.getByRole('row', { name: /Cancelled by the student/ }).first();
  await refundRow.waitFor();
  assert.match(await refundRow.innerText(), /\$45\.00/);
  await drawer.getByText('Partially refunded').first().waitFor();
  await admin.close();
  await page.close();
});
