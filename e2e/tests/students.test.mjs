// The student drawer in the browser against the real API (issue 10): orders, the points ledger and
// the Adjust loyalty points dialog, each read back from the API.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { chooseMenuItem, signIn } from '../support/browser.mjs';
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

/** A demo student with orders. */
async function studentWithOrders() {
  const { students } = await get('/api/admin/student?page=1&limit=20');
  for (const s of students) {
    const detail = await get(`/api/admin/student/${s.student_id}`);
    if (detail.new_orders.length > 0) return detail;
  }
  throw new Error('the demo seed has no student with orders');
}

/** A fresh session of a demo scheduled course with the student enrolled in it (so the test owns it). */
async function sessionWith(studentId, label) {
  const { activities } = await get('/api/admin/activities?limit=100');
  for (const summary of activities) {
    const course = await get(`/api/admin/activities/${summary.activity_id}`);
    if (course.activity_type !== 'scheduled') continue;
    const date = new Date(Date.now() + 41 * 86400000).toISOString().slice(0, 10);
    const created = await send('POST', '/api/admin/events', {
      activity_id: course.activity_id,
      dates: [{ date, time: '11:00', duration: 60 }],
      instructor_id: course.instructor_id,
      location_id: course.location_id,
      capacity: 8,
      internal_short_description: label,
    });
    assert.ok(created.event_id, `scheduled a session: ${JSON.stringify(created)}`);
    const enrolled = await send('POST', `/api/admin/orders/enroll/${studentId}`, {
      event_id: created.event_id,
    });
    assert.ok(enrolled.enrollment_id, `enrolled: ${JSON.stringify(enrolled)}`);
    return course;
  }
  throw new Error('the demo seed has no scheduled course');
}

test("student drawer: the student's orders open the order drawer, and points set to 1250 read '1,250' and back from the API", async () => {
  const student = await studentWithOrders();
  const label = `E2E student ${Date.now()}`;
  const course = await sessionWith(student.student_id, label);
  const { page, errors } = await newPage();

  // Opened from the enrollments grid: the student's name is a link to the student drawer.
  await page.goto(`${studio.url}/admin/courses/${course.activity_id}`);
  await page.getByRole('heading', { name: course.name }).first().waitFor();
  await page.getByRole('listitem').filter({ hasText: label }).click();
  const eventDrawer = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('region', { name: 'Event Details' }) });
  await eventDrawer.getByRole('button', { name: student.first_name, exact: true }).click();
  const drawer = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: `${student.first_name} ${student.last_name}` }) });
  await drawer.waitFor();

  // Orders, open by default: the newest first (the enrolment just made), with its number.
  const first = (await get(`/api/admin/student/${student.student_id}`)).new_orders[0];
  const orders = drawer.getByRole('list', { name: 'Orders' });
  await orders.getByRole('button', { name: `Order #${first.order_number}` }).waitFor();

  // Points: set to 1250 in the dialog; the balance reads 1,250 and the API agrees.
  await chooseMenuItem(drawer.getByRole('button', { name: 'Student actions' }), 'Edit points');
  const dialog = page.getByRole('dialog', { name: 'Adjust loyalty points' });
  await dialog.getByLabel('New points balance').fill('1250');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  // The save says so (issue 25: an owner saw no toast).
  await page.getByText('Loyalty points updated').waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await drawer.getByLabel('Points balance').filter({ hasText: '1,250' }).waitFor();
  const after = await get(`/api/admin/student/${student.student_id}`);
  assert.equal(after.LoyaltyBalance[0].balance, 1250);
  assert.equal(after.LoyaltyBalance[0].reason, 'adjusted');

  // An order row opens the order drawer of that order.
  await orders.getByRole('button', { name: `Order #${first.order_number}` }).click();
  await page.getByRole('heading', { name: `Order #${first.order_number}` }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('with the network off, the Students page says it could not load them, with Retry, never "No students"', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${studio.url}/admin/students`);
  const table = page.locator('.ant-table');
  await table.locator('tbody tr.ant-table-row').first().waitFor();
  // Offline, a search is a load that fails (issue 25: it was paused and read "No students match").
  await page.context().setOffline(true);
  await page.getByRole('searchbox', { name: 'Search students' }).fill('Lovelace');
  const banner = page.getByText('Could not load the students');
  await banner.waitFor({ timeout: 30000 });
  assert.equal(await page.getByText(/No students (yet|match)/).count(), 0);
  // Back online, Retry loads the list.
  await page.context().setOffline(false);
  await page.getByRole('button', { name: 'Retry' }).click();
  await banner.waitFor({ state: 'detached' });
  await page
    .getByText(/No students match|Lovelace/)
    .first()
    .waitFor();
  // The offline fetches logged their failures; no page error beyond them.
  assert.deepEqual(
    errors.filter((e) => !/fetch/i.test(e)),
    [],
  );
  await page.close();
});
