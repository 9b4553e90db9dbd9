// Waivers in chromium against the real API and the demo data (issue 10): a student's drawer shows
// their orders and waivers; points are set to 1,250; a reminder is sent ("Reminder sent"); the
// pending waiver is signed on the demo signing page; the drawer then shows it Completed, and the
// Waivers settings page counts it.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { chooseMenuItem, signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

let token;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  const login = await fetch(`${studio.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  ({ token } = await login.json());
});

const get = async (path) => {
  const res = await fetch(`${studio.url}${path}`, { headers: { token } });
  assert.equal(res.status, 200, `${path} answered ${res.status}`);
  return res.json();
};

/** A demo student with orders and a pending waiver (the demo waiver course has both states). */
async function studentWithPendingWaiver() {
  const { students } = await get('/api/admin/student?limit=100');
  for (const s of students) {
    const detail = await get(`/api/admin/student/${s.student_id}`);
    if (
      detail.new_orders.length > 0 &&
      detail.Submission.some((w) => w.status === 'pending') &&
      detail.Submission.length === 1
    )
      return detail;
  }
  throw new Error('no demo student with orders and one pending waiver');
}

test('a student drawer shows orders and waivers; points to 1,250; a reminder; signing on the demo page makes it Completed', async () => {
  const student = await studentWithPendingWaiver();
  const [waiver] = student.Submission;
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);

  await page.goto(`${studio.url}/admin/students/${student.student_id}`);
  const drawer = page.getByRole('dialog');
  await drawer
    .getByRole('heading', { name: `${student.first_name} ${student.last_name}`, exact: true })
    .waitFor();
  // Orders are open by default.
  await drawer
    .getByRole('list', { name: 'Orders' })
    .getByRole('button', { name: `Order #${student.new_orders[0].order_number}` })
    .waitFor();

  // Waivers: closed by default, one Pending row.
  assert.equal(await drawer.getByRole('list', { name: 'Waivers' }).count(), 0);
  await drawer.getByText('Waivers', { exact: true }).click();
  const row = drawer.getByRole('list', { name: 'Waivers' }).getByRole('listitem').first();
  await row.getByText(waiver.DocusealTemplate.name).waitFor();
  await row.getByText('Pending', { exact: true }).waitFor();
  await row.getByText(/^Sent on /).waitFor();

  // Points to 1,250.
  await chooseMenuItem(drawer.getByRole('button', { name: 'Student actions' }), 'Edit points');
  const dialog = page.getByRole('dialog', { name: 'Adjust loyalty points' });
  await dialog.getByLabel('New points balance').fill('1250');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await drawer.getByLabel('Points balance').getByText('1,250').waitFor();

  // Send reminder.
  const actions = row.getByRole('button', { name: `Actions for ${waiver.DocusealTemplate.name}` });
  await actions.click();
  await page.getByRole('menuitem', { name: 'View submission url' }).waitFor();
  await chooseMenuItem(actions, 'Send reminder');
  await page.getByText('Reminder sent', { exact: true }).waitFor();

  // Sign on the demo signing page (the row's link, in a new tab).
  const link = row.getByRole('link', { name: waiver.DocusealTemplate.name });
  assert.equal(await link.getAttribute('target'), '_blank');
  const signUrl = new URL(await link.getAttribute('href'));
  const signing = await studio.browser.context.newPage();
  await signing.goto(`${studio.url}${signUrl.pathname}`);
  await signing.getByText('Demo signing page', { exact: true }).waitFor();
  await signing.getByLabel('Type your full name to sign').fill(`${student.first_name} ${student.last_name}`);
  await signing.getByRole('button', { name: 'Sign' }).click();
  await signing
    .getByText(/Signed/)
    .first()
    .waitFor();
  await signing.close();

  // Back in the drawer (read again): Completed, signed on a date.
  await page.reload();
  await page.getByRole('dialog').getByText('Waivers', { exact: true }).click();
  const signedRow = page
    .getByRole('dialog')
    .getByRole('list', { name: 'Waivers' })
    .getByRole('listitem')
    .first();
  await signedRow.getByText('Completed', { exact: true }).waitFor();
  await signedRow.getByText(/^Signed on /).waitFor();
  const after = await get(`/api/admin/student/${student.student_id}`);
  assert.equal(after.Submission[0].status, 'completed');

  assert.deepEqual(errors, []);
  await page.close();
});

test('the Waivers settings page counts pending and completed submissions of the demo waiver', async () => {
  const { templates } = await get('/api/admin/submission/summary');
  const demo = templates.find((t) => t.completed > 0 && t.pending > 0);
  assert.ok(demo, 'the demo waiver has both states');
  const page = await studio.browser.context.newPage();
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Waivers', { exact: true }).click();
  await page.waitForURL(/\/admin\/settings\/waivers$/);
  await page.getByLabel(`${demo.name} pending`).getByText(String(demo.pending), { exact: true }).waitFor();
  await page
    .getByLabel(`${demo.name} completed`)
    .getByText(String(demo.completed), { exact: true })
    .waitFor();

  // A new waiver is listed when the page comes back, without a reload (issue 25).
  const name = `Studio rules ${Date.now()}`;
  await page.getByRole('button', { name: 'New waiver' }).click();
  const form = page.getByRole('form', { name: 'New waiver' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Waiver text').fill('I will follow the studio rules.');
  await form.getByRole('button', { name: 'Save waiver' }).click();
  await page.waitForURL(/\/admin\/settings\/waivers$/);
  await page.getByText(name).waitFor();
  await page.close();
});
