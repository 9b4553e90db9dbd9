// Issue 23's waitlist in the browser, on the built app, the demo seed and the built-in demo payment
// provider: a sold-out session, a student joins its waitlist in the store, the admin removes a
// student in the event drawer, the waitlisted student gets the claim mail (read from the mail
// outbox), follows it and books the held seat.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

const LABEL = `E2E waitlist ${Date.now()}`;
const WAITER = { name: 'Wren Waitlist', email: `wren.${Date.now()}@example.test` };

const studio = useDemoStudio({ outbox: true });

async function api() {
  const token = await ownerToken(studio.url);
  const call = async (method, path, body) => {
    const res = await fetch(`${studio.url}${path}`, {
      method,
      headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) };
}

/** A mail to `email` whose subject matches, read from the .eml files of the outbox (quoted-printable decoded). */
async function mailTo(email, subject) {
  const started = Date.now();
  for (;;) {
    for (const name of readdirSync(studio.outbox).filter((f) => f.endsWith('.eml'))) {
      const mail = readFileSync(join(studio.outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (mail.includes(`To: ${email}`) && subject.test(mail)) return mail;
    }
    if (Date.now() - started > 20000) throw new Error(`no mail ${subject} to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a student joins a sold-out session’s waitlist in the store, gets the claim mail when the admin removes a student, and books', async () => {
  const { get, post } = await api();
  const org = await get('/api/admin/org');
  const store = `/s/${org.slug}`;
  // A paid demo course the store lists, without a checkout form or waiver (the claim is the point here).
  const home = await fetch(`${studio.url}/api/public/${org.slug}`).then((r) => r.json());
  let course = null;
  for (const card of home.courses.filter((c) => c.activity_type === 'scheduled' && !c.free)) {
    const full = await fetch(`${studio.url}/api/public/${org.slug}/activities/${card.activity_id}`).then(
      (r) => r.json(),
    );
    if (!full.checkout_form && !full.requires_waiver) {
      course = await get(`/api/admin/activities/${card.activity_id}`);
      break;
    }
  }
  assert.ok(course, 'the demo store lists a paid course without a form or waiver');
  const date = new Date(Date.now() + 25 * 86400000).toISOString().slice(0, 10);
  const session = await post('/api/admin/events', {
    activity_id: course.activity_id,
    location_id: course.location_id,
    instructor_id: course.instructor_id,
    dates: [{ date, time: '18:00', duration: 120 }],
    capacity: 1,
    internal_short_description: LABEL,
  });
  assert.ok(session.event_id, JSON.stringify(session));
  // Its one seat is taken.
  const { students } = await get('/api/admin/student?limit=1');
  const seated = students[0];
  const enrolled = await post(`/api/admin/orders/enroll/${seated.student_id}`, {
    event_id: session.event_id,
  });
  assert.ok(enrolled.enrollment_id, JSON.stringify(enrolled));

  // The store: the session is sold out and offers its waitlist.
  const shopper = await studio.browser.context.newPage();
  const errors = [];
  shopper.on('pageerror', (error) => errors.push(error.message));
  await shopper.goto(`${studio.url}${store}/activity/${course.activity_id}`);
  const join = shopper.locator(`a[href$="waitlist?event_id=${session.event_id}"]`);
  await join.waitFor();
  assert.match(await join.innerText(), /Join the waitlist/);
  await join.click();
  await shopper.getByRole('heading', { level: 1, name: `Waitlist: ${course.name}` }).waitFor();
  await shopper.getByRole('textbox', { name: 'Name' }).fill(WAITER.name);
  await shopper.getByRole('textbox', { name: 'Email' }).fill(WAITER.email);
  await shopper.getByRole('button', { name: 'Join the waitlist' }).click();
  await shopper.getByText("You're on the waitlist. We'll email you if a seat frees up.").waitFor();
  assert.match(await mailTo(WAITER.email, /Subject: You're on the waitlist/), /number 1 in line/);

  // The admin sees the waitlist in the event drawer and removes the seated student.
  const page = await studio.browser.context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.goto(`${studio.url}/admin/courses/${course.activity_id}`);
  await page.getByRole('listitem').filter({ hasText: LABEL }).click();
  const drawer = page.getByRole('dialog').filter({ has: page.getByRole('region', { name: 'Enrollments' }) });
  const waitlist = drawer.getByRole('region', { name: 'Waitlist' });
  const entry = waitlist.getByRole('row').filter({ hasText: WAITER.email });
  await entry.getByText('Waiting').waitFor();
  const grid = drawer.getByRole('region', { name: 'Enrollments' });
  await grid.getByRole('button', { name: `Remove ${seated.first_name} ${seated.last_name}` }).click();
  const modal = page.getByRole('dialog', { name: 'Remove student' });
  await modal.getByRole('button', { name: 'Remove', exact: true }).click();
  await page.getByText('Student removed').waitFor();
  // The freed seat is offered to the waiting student (the outbox's relay runs within a second or so).
  for (let i = 0; i < 20 && !(await entry.getByText(/^Offered until/).count()); i++) {
    await page.waitForTimeout(500);
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: LABEL }).click();
  }
  await entry.getByText(/^Offered until/).waitFor();
  await drawer.getByText('1 / 1').waitFor();

  // The claim mail's link opens the checkout with the held seat; the student pays and is booked.
  const mail = await mailTo(WAITER.email, /Subject: A seat is free/);
  const link =
    /https?:\/\/\S+?\/checkout\?event_id=[0-9a-f-]{36}&claim=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(
      mail,
    )?.[0];
  assert.ok(link, 'the mail carries the claim link');
  const claimed = new URL(link);
  assert.equal(claimed.pathname, `${store}/checkout`);
  await shopper.goto(`${studio.url}${claimed.pathname}${claimed.search}`);
  await shopper.getByText(/A seat is held for you until/).waitFor();
  assert.equal(await shopper.getByRole('textbox', { name: 'Email' }).inputValue(), WAITER.email);
  await shopper.getByRole('button', { name: 'Continue to payment' }).click();
  await shopper.waitForURL(/\/api\/pay\/demo\//);
  await shopper.getByRole('button', { name: /^Pay/ }).click();
  await shopper.getByRole('link', { name: 'Continue' }).click();
  await shopper.waitForURL(/\/checkout\/complete\?order=/);
  await shopper.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();

  // Back in the drawer: the student holds the seat, the entry is claimed.
  await page.reload();
  await page.getByRole('listitem').filter({ hasText: LABEL }).click();
  await grid.getByText(WAITER.email).waitFor();
  await entry.getByText('Claimed').waitFor();
  await drawer.getByText('1 / 1').waitFor();
  // A second visit to the link says the offer was claimed.
  await shopper.goto(`${studio.url}${claimed.pathname}${claimed.search}`);
  await shopper.getByText('This offer has already been claimed.').waitFor();
  assert.deepEqual(errors, []);
});
