// Saving drawers, in the browser against the real API: each save is read back twice, from the
// drawer after it reloads and from the API, so a drawer cannot pass by checking its own form.
// (New Course, Edit Course and Schedule Course: courses.test.mjs and scheduling.test.mjs; the
// super admin switch: admin-ui.test.mjs.)
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

let get;
let send;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  const token = await ownerToken(studio.url);
  get = async (path) => (await fetch(`${studio.url}${path}`, { headers: { token } })).json();
  send = async (method, path, body) =>
    (
      await fetch(`${studio.url}${path}`, {
        method,
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
});

async function newPage() {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  return { page, errors };
}

/** A scheduled demo course with a fresh session of its own, so the test owns what it edits. */
async function freshSession(label) {
  const { activities } = await get('/api/admin/activities?limit=100');
  for (const summary of activities) {
    const course = await get(`/api/admin/activities/${summary.activity_id}`);
    if (course.activity_type !== 'scheduled' || !(course.prices?.[0]?.unit_price > 0)) continue;
    const date = new Date(Date.now() + 40 * 86400000).toISOString().slice(0, 10);
    const created = await send('POST', '/api/admin/events', {
      activity_id: course.activity_id,
      dates: [{ date, time: '10:00', duration: 60 }],
      instructor_id: course.instructor_id,
      location_id: course.location_id,
      capacity: 8,
      internal_short_description: label,
    });
    assert.ok(created.event_id, `scheduled a session: ${JSON.stringify(created)}`);
    return { course, eventId: created.event_id };
  }
  throw new Error('the demo seed has no paid scheduled course');
}

async function openSession(page, course, label) {
  await page.goto(`${studio.url}/admin/courses/${course.activity_id}`);
  await page.getByRole('heading', { name: course.name }).first().waitFor();
  await page.getByRole('listitem').filter({ hasText: label }).click();
  const drawer = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('region', { name: 'Event Details' }) });
  await drawer.getByRole('region', { name: 'Event Details' }).waitFor();
  return drawer;
}

test('event drawer: Edit event saves price, capacity and description, and they read back', async () => {
  const label = `E2E edit ${Date.now()}`;
  const { course, eventId } = await freshSession(label);
  const { page, errors } = await newPage();
  let drawer = await openSession(page, course, label);

  await drawer.getByRole('button', { name: 'Edit event' }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'Edit event' });
  await dialog.getByLabel('Capacity').fill('12');
  await dialog.getByLabel('Price').fill('45.50');
  const renamed = `${label} renamed`;
  await dialog.getByLabel('Internal short description').fill(renamed);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Course updated successfully').waitFor();
  await drawer.getByText(/^0 \/ 12$/).waitFor();
  await drawer.getByText('$45.50').waitFor();

  // Read back: from the API, and from a reopened drawer on a fresh page load.
  const event = await get(`/api/admin/events/${eventId}`);
  assert.equal(event.capacity, 12);
  assert.equal(event.price, 4550);
  assert.equal(event.internal_short_description, renamed);
  await page.reload();
  drawer = await openSession(page, course, renamed);
  await drawer.getByText(/^0 \/ 12$/).waitFor();
  await drawer.getByText('$45.50').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('event drawer: a new tag is created, attached, and still there after a reload', async () => {
  const label = `E2E tags ${Date.now()}`;
  const { course, eventId } = await freshSession(label);
  const { page, errors } = await newPage();
  let drawer = await openSession(page, course, label);
  const tagName = `Evening ${Date.now() % 100000}`;

  await drawer.getByRole('button', { name: 'New tag' }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'New tag' });
  await dialog.getByLabel('Tag name').fill(tagName);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page
    .getByText('Tag updated successfully')
    .or(page.getByText('Tags updated successfully'))
    .first()
    .waitFor();
  await drawer.getByRole('group', { name: 'Tags' }).getByText(tagName).waitFor();

  // Saved on the event, not only shown.
  for (let i = 0; i < 50; i++) {
    const { tags } = await get(`/api/admin/events/${eventId}/tags`);
    if (tags.some((t) => t.name === tagName)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const { tags } = await get(`/api/admin/events/${eventId}/tags`);
  assert.ok(
    tags.some((t) => t.name === tagName),
    `the event has the tag: ${JSON.stringify(tags)}`,
  );
  await page.reload();
  drawer = await openSession(page, course, label);
  await drawer.getByRole('group', { name: 'Tags' }).getByText(tagName).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('student drawer: a rename saves and reads back', async () => {
  const { students } = await get('/api/admin/student?limit=5');
  const student = students[0];
  assert.ok(student, 'the demo seed has students');
  const { page, errors } = await newPage();
  await page.goto(`${studio.url}/admin/students/${student.student_id}`);
  let drawer = page.getByRole('dialog');
  await drawer.getByText(student.email).first().waitFor();

  await drawer.getByRole('button', { name: 'Edit name' }).click();
  await drawer.getByLabel('First name').fill('Renamed');
  await drawer.getByLabel('Last name').fill(`Student${Date.now() % 1000}`);
  const last = await drawer.getByLabel('Last name').inputValue();
  await drawer.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Name updated successfully').waitFor();
  await drawer.getByText(`Renamed ${last}`).waitFor();

  const read = await get(`/api/admin/student/${student.student_id}`);
  assert.equal(read.first_name, 'Renamed');
  assert.equal(read.last_name, last);
  await page.reload();
  drawer = page.getByRole('dialog');
  await drawer.getByText(`Renamed ${last}`).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
