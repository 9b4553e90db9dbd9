// Issue 23 in the browser: the owner checks a student in from the event drawer's enrollments grid
// with one click, undoes it, checks in again, and the CSV export has the Attendance column.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { downloadText, signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

let token;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  token = await ownerToken(studio.url);
});

const get = async (path) => (await fetch(`${studio.url}${path}`, { headers: { token } })).json();

test('the owner checks a student in from the event drawer, undoes it, checks in again, and exports the attendance', async () => {
  // An upcoming session of the demo with an enrolled student.
  let target;
  const { activities } = await get('/api/admin/activities');
  search: for (const activity of activities) {
    const { sessions } = await get(
      `/api/admin/activities/${activity.activity_id}/sessions?include_past=false&limit=10000`,
    );
    for (const session of sessions ?? []) {
      const { enrollments } = await get(`/api/admin/enrollment/event/${session.event_id}`);
      if (enrollments?.length) {
        target = { activity, session, enrollment: enrollments[0] };
        break search;
      }
    }
  }
  assert.ok(target, 'the demo has an upcoming session with a student');
  assert.equal(target.enrollment.attendance, 'not_checked_in');
  const label = `Attendance e2e ${Date.now()}`;
  const put = await fetch(`${studio.url}/api/admin/events/${target.session.event_id}`, {
    method: 'PUT',
    headers: { token, 'content-type': 'application/json' },
    body: JSON.stringify({
      price: target.session.price,
      capacity: target.session.capacity,
      internal_short_description: label,
    }),
  });
  assert.equal(put.status, 200);

  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.goto(`${studio.url}/admin/courses/${target.activity.activity_id}`);
  await page.getByRole('listitem').filter({ hasText: label }).click();
  const drawer = page.getByRole('dialog').filter({ has: page.getByRole('region', { name: 'Enrollments' }) });
  const grid = drawer.getByRole('region', { name: 'Enrollments' });
  const name = `${target.enrollment.Student.first_name} ${target.enrollment.Student.last_name}`;
  const attendanceOf = async () =>
    (await get(`/api/admin/enrollment/event/${target.session.event_id}`)).enrollments.find(
      (e) => e.enrollment_id === target.enrollment.enrollment_id,
    );

  // One click checks in; the row then offers Undo.
  await grid.getByRole('button', { name: `Check in ${name}` }).click();
  await grid.getByRole('button', { name: `Undo check-in of ${name}` }).waitFor();
  const checked = await attendanceOf();
  assert.equal(checked.attendance, 'checked_in');
  assert.ok(checked.checked_in_at);

  // Undo.
  await grid.getByRole('button', { name: `Undo check-in of ${name}` }).click();
  await grid.getByRole('button', { name: `Check in ${name}` }).waitFor();
  assert.equal((await attendanceOf()).checked_in_at, null);

  // Again.
  await grid.getByRole('button', { name: `Check in ${name}` }).click();
  await grid.getByRole('button', { name: `Undo check-in of ${name}` }).waitFor();
  assert.equal((await attendanceOf()).attendance, 'checked_in');

  // The export has the Attendance column, the student checked in.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    grid.getByRole('button', { name: /Export all/ }).click(),
  ]);
  const lines = (await downloadText(download))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  assert.match(lines[0], /,"Attendance"$/);
  const email = target.enrollment.Student.email;
  const row = lines.find((l) => l.includes(`"${email}"`));
  assert.ok(row, 'the student is in the export');
  assert.match(row, /,"Checked in"$/);

  assert.deepEqual(errors, []);
  await page.close();
});
