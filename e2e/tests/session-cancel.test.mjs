// Issue 23 in the browser, on the demo data and the built-in demo payment provider: two students buy
// a session at the store and pay on the demo page; the owner cancels the session from the event
// drawer choosing "Refund everyone in full"; the drawer shows the progress until both are done, both
// orders show their refund, and both students got the cancellation mail (the .eml outbox).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const LABEL = `E2E cancel ${Date.now()}`;
const REASON = 'The kiln broke down';

let token;

const studio = useDemoStudio({
  env: {
    REDIS_PREFIX: `e2e_cancel_${Date.now()}`,
  },
  outbox: true,
});

before(async () => {
  await studio.ready;
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  ({ token } = await login.json());
});

const call = async (method, path, body, headers = { token }) => {
  const res = await fetch(`${studio.url}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};
const get = async (path) => {
  const res = await call('GET', path);
  assert.equal(res.status, 200, `${path} answered ${res.status}`);
  return res.body;
};

/** The mails to `email` whose subject starts with "Cancelled:", from the .eml files of the outbox (quoted-printable undone). */
function cancellationMailsTo(email) {
  return readdirSync(studio.outbox)
    .filter((f) => f.endsWith('.eml'))
    .map((name) =>
      readFileSync(join(studio.outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
    )
    .filter((mail) => mail.includes(`To: ${email}`) && /^Subject: Cancelled:/m.test(mail));
}

test('the owner cancels a session with two students, refunding everyone in full: both refunded and mailed', async () => {
  const { activities } = await get('/api/admin/activities');
  const courses = await Promise.all(activities.map((a) => get(`/api/admin/activities/${a.activity_id}`)));
  const course = courses.find((c) => c.activity_type === 'scheduled' && c.prices?.[0]?.unit_price > 0);
  assert.ok(course, 'the demo seed has a paid scheduled course');
  const date = new Date(Date.now() + 21 * 86400000).toISOString().slice(0, 10);
  const created = await call('POST', '/api/admin/events', {
    activity_id: course.activity_id,
    location_id: course.location_id,
    instructor_id: course.instructor_id,
    dates: [{ date, time: '18:00', duration: 120 }],
    capacity: 6,
    price: 4200,
    internal_short_description: LABEL,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const eventId = created.body.event_id;

  // Two students buy a seat at the store and pay on the demo page.
  const { slug } = await get('/api/admin/org');
  const buyers = [1, 2].map((n) => ({
    first_name: `Cancel${n}`,
    last_name: 'Buyer',
    email: `cancel${n}.${Date.now()}@example.test`,
  }));
  const orders = [];
  for (const buyer of buyers) {
    const checkout = await call('POST', `/api/public/${slug}/checkout`, { event_id: eventId, ...buyer }, {});
    assert.equal(checkout.status, 201, JSON.stringify(checkout.body));
    const pay = await fetch(`${studio.url}${new URL(checkout.body.payment_url).pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(pay.status, 200);
    orders.push(checkout.body.order_id);
  }
  for (let i = 0; i < 100; i++) {
    const { enrollments } = await get(`/api/admin/enrollment/event/${eventId}`);
    if (enrollments.length === 2) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const id of orders) assert.equal((await get(`/api/admin/order/${id}`)).status, 'paid');

  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.goto(`${studio.url}/admin/courses/${course.activity_id}`);
  await page.getByRole('heading', { name: course.name }).waitFor();
  await page.getByRole('listitem').filter({ hasText: LABEL }).click();
  const drawer = page.locator('.ant-drawer');
  const grid = drawer.getByRole('region', { name: 'Enrollments' });
  for (const buyer of buyers) await grid.getByText(buyer.email).waitFor();

  // Cancel course: the session has students, so it is cancelled (not deleted) with a refund choice and a reason.
  await drawer.getByRole('button', { name: 'Cancel course' }).click();
  const modal = page.locator('.ant-modal').last();
  await modal.getByText('Its 2 students are removed and mailed the reason.', { exact: false }).waitFor();
  await modal.getByRole('button', { name: 'Cancel session' }).click();
  await modal.getByText('Choose "Refund everyone in full" or "No refund".').waitFor();
  await modal.getByRole('radio', { name: 'Refund everyone in full' }).check();
  await modal.getByRole('textbox', { name: 'Reason' }).fill(REASON);
  await modal.getByRole('button', { name: 'Cancel session' }).click();
  await page.getByText('Session cancelled').waitFor();

  // The drawer shows the session cancelled and the server's progress until both students are processed.
  await drawer.getByText('Cancelled', { exact: true }).waitFor();
  const section = drawer.getByRole('region', { name: 'Cancellation' });
  await section.getByText('All 2 students processed').waitFor();
  assert.equal(await section.getByText('Removed, refunded $42.00').count(), 2);
  assert.equal(await drawer.getByRole('button', { name: 'Cancel course' }).count(), 0);
  assert.equal(await drawer.getByRole('button', { name: 'Add student' }).count(), 0);

  // Both orders show the refund, with the studio's reason.
  for (const id of orders) {
    const order = await get(`/api/admin/order/${id}`);
    assert.equal(order.status, 'refunded');
    assert.equal(order.refunded_amount, 4200);
    assert.equal(order.refunds.length, 1);
    assert.equal(order.refunds[0].reason, `The studio cancelled the session: ${REASON}`);
  }
  // The order drawer shows it too.
  await page.goto(`${studio.url}/admin/orders`);
  const first = await get(`/api/admin/order/${orders[0]}`);
  await page
    .getByRole('row')
    .filter({ hasText: `#${first.order_number}` })
    .first()
    .click();
  const orderDrawer = page.locator('.ant-drawer');
  await orderDrawer.getByText(`The studio cancelled the session: ${REASON}`).first().waitFor();

  // Both students got the mail: what was cancelled, the reason and the refund.
  for (const buyer of buyers) {
    let mails = [];
    for (let i = 0; i < 100 && mails.length === 0; i++) {
      mails = cancellationMailsTo(buyer.email);
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(mails.length, 1, `one cancellation mail to ${buyer.email}`);
    assert.match(mails[0], new RegExp(`Reason: ${REASON}`));
    assert.match(mails[0], /You are refunded \$42\.00 in full/);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
