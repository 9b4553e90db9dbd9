// Issue 22 in the browser: the admin's appointment screens against the real API. Add student on an
// appointment course with a payment link (the link mailed to the outbox, paid on the demo page, the
// Booking card shows it booked), and Move in the calendar (the old time offered again, the mail says
// the new time).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

const COURSE_NAME = `E2E portrait session ${Date.now()}`;
const DAY_MS = 86_400_000;

let http;
/** The appointment course made for these tests, its location's zone, and two students. */
let course;
let zone;
let students;

const studio = useDemoStudio({ outbox: true });

before(async () => {
  await studio.ready;
  http = await api();

  // An appointment course at a seeded course's place, with the same instructor available every day.
  const { activities } = await http.get('/api/admin/activities');
  const seeded = await http.get(`/api/admin/activities/${activities[0].activity_id}`);
  const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  // Closed today (in the studio's zone): the first free time is then tomorrow at 8:00, never one
  // that the clock passes while the test books it.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: seeded.Location.timezone.timeZoneId }).format(
    new Date(),
  );
  await http.put(`/api/admin/instructor/${seeded.instructor_id}/availability`, {
    weekly: Object.fromEntries(days.map((d) => [d, [{ start: '08:00', end: '20:00' }]])),
    overrides: [{ date: today, ranges: [] }],
  });
  const created = await http.post('/api/admin/activities', {
    name: COURSE_NAME,
    material: 'Ceramics',
    priceType: 'standard',
    price: 4500,
    description: 'One hour at the wheel with an instructor, at a time you pick.',
    capacity: 4,
    images: seeded.images.slice(0, 1),
    location_id: seeded.location_id,
    instructor_id: seeded.instructor_id,
    level: 'Beginner',
    activity_type: 'appointment',
    single_party: true,
    duration_mins: 60,
    start_time_increments_mins: 60,
  });
  assert.ok(created.activity_id, JSON.stringify(created));
  course = await http.get(`/api/admin/activities/${created.activity_id}`);
  zone = course.Location.timezone.timeZoneId;
  ({ students } = await http.get('/api/admin/student?limit=2'));
  assert.equal(students.length, 2, 'the demo seed has two students');
});

async function api() {
  const token = await ownerToken(studio.url);
  const call = async (method, path, body) => {
    const res = await fetch(`${studio.url}${path}`, {
      method,
      headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
  };
}

/** The free starts of the course in [from, to). */
async function freeStarts(from, to) {
  const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString() });
  const answer = await http.get(`/api/admin/activities/${course.activity_id}/slots?${query}`);
  assert.ok(answer.slots, JSON.stringify(answer));
  return answer.slots.map((s) => s.starts_at);
}

/** The mails to `email` whose text matches, from the .eml files of the outbox (quoted-printable undone). */
async function mailTo(email, pattern) {
  const started = Date.now();
  for (;;) {
    for (const name of readdirSync(studio.outbox).filter((f) => f.endsWith('.eml'))) {
      const mail = readFileSync(join(studio.outbox, name), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
      if (mail.includes(`To: ${email}`) && pattern.test(mail)) return mail;
    }
    if (Date.now() - started > 20000) throw new Error(`no mail to ${email} matching ${pattern}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const fullName = (s) => `${s.first_name} ${s.last_name}`;
// Intl may put a narrow no-break space before AM/PM; the product's formatter writes a plain space.
const timeLabel = (iso, timeZone) =>
  new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' })
    .format(new Date(iso))
    .replace(/\s/g, ' ');
const dayLabel = (iso, timeZone) =>
  new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric' }).format(
    new Date(iso),
  );

async function adminPage() {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  return { page, errors };
}

test('Add student on an appointment course with a payment link; paid on the demo page, the Booking card shows it booked', async () => {
  const student = students[0];
  const { page, errors } = await adminPage();
  await page.goto(`${studio.url}/admin/courses/${course.activity_id}`);
  await page.getByRole('heading', { name: COURSE_NAME }).waitFor();
  const booking = page.getByRole('region', { name: 'Booking' });
  await booking.getByText('No upcoming appointments').waitFor();

  await booking.getByRole('button', { name: 'Add student' }).click();
  const modal = page.locator('.ant-modal').last();
  await modal.getByRole('button', { name: 'Send payment link' }).waitFor();
  const picker = modal.getByRole('combobox', { name: 'Student' });
  await picker.click();
  await picker.fill(student.email);
  await page.locator('.ant-select-item-option').filter({ hasText: student.email }).first().click();
  // The first day with a free time is picked; its times are the location's.
  await modal.getByText(`Times in ${zone}`).waitFor();
  const time = modal.locator('.ant-radio-button-wrapper').first();
  const label = (await time.innerText()).trim();
  await time.click();
  await modal.getByRole('button', { name: 'Send payment link' }).click();
  await page.getByText('Payment link sent to student.').waitFor();

  // Held for the student until the link is paid.
  const row = booking.getByRole('row').filter({ hasText: fullName(student) });
  await row.getByText('Held').waitFor();
  assert.match(await row.innerText(), new RegExp(label.replace(/ /g, '\\s')));

  // The student opens the mail's link and pays on the demo page.
  const mail = await mailTo(student.email, /\/api\/pay\/demo\/dcs_[a-f0-9]{32}/);
  const link = /https?:\/\/\S+?\/api\/pay\/demo\/dcs_[a-f0-9]{32}/.exec(mail)[0];
  const payer = await studio.browser.context.newPage();
  await payer.goto(`${studio.url}${new URL(link).pathname}`);
  await payer.getByText('Demo payment, no card is charged').waitFor();
  await payer.getByRole('button', { name: 'Pay' }).click();
  await payer.getByText('This payment is complete.').waitFor();
  await payer.close();

  // Back on the course: booked, with its order.
  await page.reload();
  await row.getByText('Booked').waitFor();
  assert.match(await row.innerText(), /#\d+/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Move an appointment in the calendar: the old time is offered again and the mail says the new time', async () => {
  const student = students[1];
  // A booked appointment two days ahead or later, made over the API.
  const soon = new Date(Date.now() + 2 * DAY_MS);
  const starts = await freeStarts(soon, new Date(soon.getTime() + 7 * DAY_MS));
  const first = starts[0];
  const held = await http.post(`/api/admin/activities/${course.activity_id}/appointments`, {
    student_id: student.student_id,
    starts_at: first,
  });
  assert.ok(held.id, JSON.stringify(held));
  const enrolled = await http.post(`/api/admin/orders/enroll/${student.student_id}`, {
    appointment_id: held.id,
  });
  assert.ok(enrolled.order_id, JSON.stringify(enrolled));
  const dayStart = new Date(new Date(first).getTime() - 12 * 3_600_000);
  const dayEnd = new Date(new Date(first).getTime() + 12 * 3_600_000);
  assert.ok(!(await freeStarts(dayStart, dayEnd)).includes(first), 'the booked time is not offered');

  const { page, errors } = await adminPage();
  await page.goto(`${studio.url}/admin/calendar`);
  await page.getByRole('heading', { name: 'Calendar' }).waitFor();
  // The day view, moved forward to the appointment's day.
  await page.getByText('Week', { exact: true }).waitFor();
  await page.locator('label').filter({ hasText: /^Day$/ }).click();
  const { time_zone: orgZone } = await http.get(
    `/api/admin/calendar?${new URLSearchParams({ from: new Date().toISOString(), to: new Date(Date.now() + DAY_MS).toISOString() })}`,
  );
  const appointmentDay = dayLabel(first, orgZone);
  for (
    let i = 0;
    i < 10 && !(await page.getByRole('region', { name: new RegExp(`^${appointmentDay}`) }).count());
    i++
  )
    await page.getByRole('button', { name: 'Next day' }).click();
  const item = page.getByRole('button', { name: new RegExp(`^Appointment: ${fullName(student)}`) });
  await item.click();

  const panel = page.locator('.ant-drawer').filter({ hasText: 'Appointment' });
  await panel.getByText(student.email).waitFor();
  await panel.getByRole('button', { name: 'Move' }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'Move appointment' });
  await dialog.getByText(`Times in ${zone}`).waitFor();
  // Another time of the same day (the appointment's own is not offered).
  const other = dialog.locator('.ant-radio-button-wrapper').first();
  const newLabel = (await other.innerText()).trim();
  assert.notEqual(newLabel, timeLabel(first, zone));
  await other.click();
  await dialog.getByRole('button', { name: 'Move' }).click();
  await page.getByText('Appointment moved').waitFor();

  const moved = await http.get(`/api/admin/appointments/${held.id}`);
  assert.notEqual(moved.starts_at, first);
  assert.equal(timeLabel(moved.starts_at, zone), newLabel);
  // The old time is free again; the new one is not.
  const after = await freeStarts(dayStart, dayEnd);
  assert.ok(after.includes(first), 'the old time is offered again');
  assert.ok(!after.includes(moved.starts_at));
  // The calendar shows it at its new time; the student's mail says the new time.
  await page
    .getByRole('button', {
      name: new RegExp(`^Appointment: ${fullName(student)}, .*${timeLabel(moved.starts_at, orgZone)} –`),
    })
    .waitFor();
  const mail = await mailTo(student.email, /New time:/);
  assert.ok(mail.includes(newLabel), `the mail names ${newLabel}`);
  assert.ok(mail.includes(dayLabel(moved.starts_at, zone)), 'the mail names the day');
  assert.deepEqual(errors, []);
  await page.close();
});
