// Booking an appointment at the store (issue 22) in chromium against the built app: a visitor whose
// browser is in Tokyo opens a New York studio's appointment course, picks a day and a time shown in
// Tokyo's zone, books it through the checkout and the demo payment page, and sees the confirmation
// with the time in their zone and the studio's zone named; the confirmation mail in the outbox
// carries the calendar file at the booked instant; axe finds no serious violation on the calendar.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VISITOR_ZONE = 'Asia/Tokyo';
const STUDIO_ZONE = 'America/New_York';
const STUDIO_ZONE_TEXT = 'America/New York';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

let token;
let slug;
let course;

async function api(method, path, body) {
  const res = await fetch(`${studio.url}${path}`, {
    method,
    headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${path} answered ${res.status}: ${await res.clone().text()}`);
  return res.json();
}

const studio = useDemoStudio({ outbox: true, browser: { timezoneId: VISITOR_ZONE } });

before(async () => {
  await studio.ready;
  token = (
    await fetch(`${studio.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(OWNER),
    }).then((res) => res.json())
  ).token;
  slug = (await api('GET', '/api/admin/org')).slug;
  // A New York studio's appointment course: an hour, every hour from 9:00 to 17:00 every day.
  const location = await api('POST', '/api/admin/location', {
    name: 'Brooklyn studio',
    address: '12 Kiln Street, Brooklyn, NY',
    timezone: STUDIO_ZONE,
  });
  const instructor = await api('POST', '/api/admin/instructor', { first_name: 'Kenji' });
  await api('PUT', `/api/admin/instructor/${instructor.instructor_id}/availability`, {
    weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '09:00', end: '17:00' }]])),
  });
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'lesson.png');
  const upload = await fetch(`${studio.url}/api/admin/upload`, {
    method: 'POST',
    headers: { token },
    body: form,
  }).then((res) => res.json());
  const created = await api('POST', '/api/admin/activities', {
    name: 'Private wheel lesson',
    material: 'Ceramics',
    priceType: 'standard',
    price: 4000,
    description: 'One hour at the wheel with Kenji.',
    capacity: 2,
    images: [upload.url],
    location_id: location.location_id,
    instructor_id: instructor.instructor_id,
    level: 'Beginner',
    activity_type: 'appointment',
    single_party: true,
    duration_mins: 60,
    start_time_increments_mins: 60,
  });
  course = { id: created.activity_id, name: 'Private wheel lesson' };
});

/** axe-core's serious and critical violations on the page (its source evaluated: the CSP allows no script tag). */
async function seriousViolations(page) {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => globalThis.axe.run(globalThis.document));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/** "11:00 PM": an instant's time in a zone, as the store writes it. */
const timeIn = (instant, zone) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(
    new Date(instant),
  );

/** The confirmation mailed to `email`, read from the outbox's .eml files, with its calendar file decoded. */
async function confirmationTo(email) {
  const started = Date.now();
  for (;;) {
    for (const name of readdirSync(studio.outbox).filter((f) => f.endsWith('.eml'))) {
      const mail = readFileSync(join(studio.outbox, name), 'utf8');
      if (!mail.includes(`To: ${email}`) || !mail.includes('booking.ics')) continue;
      const part = mail.slice(mail.indexOf('booking.ics'));
      const body = part
        .slice(part.search(/\r?\n\r?\n/))
        .trim()
        .split(/\r?\n--/)[0];
      const ics = /BEGIN:VCALENDAR/.test(body)
        ? body.replace(/=\r?\n/g, '')
        : Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      return { mail, ics };
    }
    if (Date.now() - started > 20000) throw new Error(`no confirmation mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a visitor in Tokyo books a New York appointment in their own zone, pays, and gets the confirmation with the .ics', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The browser's own favicon.ico request (the demo payment page names none) is not the store's.
  page.on('console', (message) => {
    const where = message.location()?.url ?? '';
    if (message.type() === 'error' && !where.endsWith('/favicon.ico'))
      errors.push(`${message.text()} ${where}`);
  });
  await page.goto(`${studio.url}/s/${slug}/activity/${course.id}`);
  await page.getByRole('heading', { level: 1, name: course.name }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  const booking = page.getByRole('region', { name: 'Book a time' });
  await booking.getByText(`Times are in ${VISITOR_ZONE}. The studio is in ${STUDIO_ZONE_TEXT}.`).waitFor();

  const grid = booking.getByRole('grid');
  const freeDays = grid.getByRole('button', { disabled: false });
  await grid.waitFor();
  await booking.getByText(/^Loading times/).waitFor({ state: 'detached' });
  // No month before this one.
  assert.equal(await booking.getByRole('button', { name: 'Previous month' }).isDisabled(), true);
  // Next month's first free day: never today, whose first time may pass the course's notice while
  // the test books it (it did once, near 8:30 in New York), and always inside the 60-day window.
  await booking.getByRole('button', { name: 'Next month' }).click();
  await booking.getByText(/^Loading times/).waitFor({ state: 'detached' });
  const day = freeDays.first();
  const dayName = await day.getAttribute('aria-label');
  assert.match(dayName, /, \d+ times? free$/);
  // Keyboard: the free day takes focus and Enter chooses it.
  await day.focus();
  await page.keyboard.press('Enter');
  const times = booking.getByRole('region', { name: /^Times on / });
  await times.waitFor();
  const first = times.getByRole('button').first();
  await first.click();
  const book = booking.getByRole('link', { name: /^Book / });
  const href = new URL(await book.getAttribute('href'), studio.url);
  const startsAt = href.searchParams.get('starts_at');
  assert.equal(href.pathname, `/s/${slug}/checkout`);
  assert.equal(href.searchParams.get('activity_id'), course.id);
  // The times read in Tokyo's zone (9:00 AM in New York is 11:00 PM there).
  assert.ok(
    (await first.textContent()).startsWith(timeIn(startsAt, VISITOR_ZONE)),
    `${await first.textContent()} is ${startsAt} in ${VISITOR_ZONE}`,
  );
  assert.notEqual(timeIn(startsAt, VISITOR_ZONE), timeIn(startsAt, STUDIO_ZONE));
  assert.deepEqual(await seriousViolations(page), []);

  await book.click();
  await page.getByRole('heading', { level: 1, name: `Book ${course.name}` }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  const summary = page.getByRole('region', { name: 'Your appointment' });
  await summary.getByText(new RegExp(timeIn(startsAt, VISITOR_ZONE))).waitFor();
  await summary.getByText(`Times are in ${VISITOR_ZONE}. The studio is in ${STUDIO_ZONE_TEXT}.`).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('combobox', { name: 'People' }).selectOption('2');
  await page.getByText('$80.00').first().waitFor();
  const email = `tokyo.visitor.${Date.now()}@example.test`;
  await page.getByRole('textbox', { name: 'First name' }).fill('Aiko');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Sato');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  await page.waitForURL(/\/api\/pay\/demo\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  const booked = page.getByRole('region', { name: 'Your appointment' });
  await booked
    .getByText(new RegExp(timeIn(startsAt, VISITOR_ZONE)))
    .first()
    .waitFor();
  await booked.getByText(`The studio is in ${STUDIO_ZONE_TEXT}.`, { exact: false }).waitFor();
  await booked.getByText('2 people').waitFor();

  // The slot is no longer offered to anyone.
  const after = await fetch(
    `${studio.url}/api/public/${slug}/activities/${course.id}/slots?from=${encodeURIComponent(startsAt)}&to=${encodeURIComponent(new Date(new Date(startsAt).getTime() + 60_000).toISOString())}`,
  ).then((res) => res.json());
  assert.deepEqual(after.slots, []);

  // The confirmation in the outbox: the calendar file at the booked instant, in UTC.
  const { ics } = await confirmationTo(email);
  const stamp = (iso) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  assert.match(ics, /BEGIN:VEVENT/);
  assert.ok(ics.includes(`DTSTART:${stamp(new Date(startsAt).toISOString())}`), ics);
  assert.ok(
    ics.includes(`DTEND:${stamp(new Date(new Date(startsAt).getTime() + 3_600_000).toISOString())}`),
    ics,
  );
  assert.deepEqual(errors, []);
  await page.close();
});
