// Discount codes in the browser against the real API (issue 8): the Discounts page lists the demo
// codes; a percentage code limited to a course is created in the drawer, seen on the page,
// reopened, edited, and read back through the API, so the drawer cannot pass by checking itself.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

let get;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  const token = await ownerToken(studio.url);
  get = async (path) => (await fetch(`${studio.url}${path}`, { headers: { token } })).json();
});

/** Picks an option of an antd Select by typing it and clicking its exact text ("1:00 AM" is in "11:00 AM"). */
async function choose(page, combobox, text) {
  await combobox.click();
  await combobox.fill(text);
  const option = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${text}$`) });
  await option.first().click();
}

/** Types a date into an antd DatePicker, then leaves the field so its calendar closes. */
async function typeDate(page, input, date) {
  await input.click();
  await input.fill(date);
  await input.press('Enter');
  await input.press('Tab');
  await page
    .locator('.ant-picker-dropdown:visible')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

test('a percentage code limited to a course: created in the drawer, listed, reopened, edited, read back from the API', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);

  // The demo codes are listed with their status.
  await page.getByRole('navigation', { name: 'Main' }).getByText('Discounts', { exact: true }).click();
  await page.waitForURL(/\/admin\/discounts$/);
  const welcome = page.getByRole('row', { name: 'Open WELCOME10' });
  await welcome.getByText('Active').waitFor();
  await page.getByRole('row', { name: 'Open SUMMER25' }).getByText('Expired').waitFor();
  await page.getByRole('row', { name: 'Open HOLIDAY20' }).getByText('Scheduled').waitFor();

  const code = `WHEEL${Date.now() % 100000}`;
  const year = new Date().getUTCFullYear() + 1;
  const { activities } = await get('/api/admin/activities');
  const wheel = activities.find((c) => c.name === 'Intro to Wheel Throwing');
  assert.ok(wheel, 'the demo has the wheel throwing course');

  // New Discount.
  await page.getByRole('button', { name: 'New discount' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('heading', { name: 'New Discount' }).waitFor();
  await drawer.getByLabel('Label').fill('Wheel week');
  await drawer.getByLabel('Code').fill(code);
  await drawer.getByRole('radio', { name: 'Percentage' }).check();
  await drawer.getByLabel('Value').fill('20');
  await drawer.getByRole('switch', { name: 'Limit to one course' }).click();
  await choose(page, drawer.getByRole('combobox', { name: 'Course' }), 'Intro to Wheel Throwing');
  await drawer.getByRole('switch', { name: 'Set start date' }).click();
  await typeDate(page, drawer.getByRole('textbox', { name: 'Start date' }), `${year}-01-10`);
  await choose(page, drawer.getByRole('combobox', { name: 'Start date time' }), '9:00 AM');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Discount added', { exact: true }).waitFor();
  await drawer.waitFor({ state: 'detached' });

  // On the Discounts page (the list read again after the save).
  const row = page.getByRole('row', { name: `Open ${code}` });
  await row.getByText('20% off the order').waitFor();
  await row.getByText('Scheduled').waitFor();
  assert.match(await row.innerText(), new RegExp(`From \\w{3}, Jan 10, ${year} 9:00 AM`));

  // Reopen: the drawer shows what was saved.
  await row.click();
  await drawer.getByRole('heading', { name: 'Edit Discount' }).waitFor();
  assert.equal(await drawer.getByLabel('Code').inputValue(), code);
  assert.equal(await drawer.getByLabel('Value').inputValue(), '20');
  assert.equal(await drawer.getByRole('radio', { name: 'Percentage' }).isChecked(), true);
  await drawer.locator('.ant-select').filter({ hasText: 'Intro to Wheel Throwing' }).waitFor();
  // The date field reads like every date in the product ("Sat, Jan 10, 2027").
  assert.equal(
    await drawer.getByRole('textbox', { name: 'Start date' }).inputValue(),
    new Date(`${year}-01-10T12:00:00Z`).toLocaleDateString('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  );

  // Edit: another value, each ticket, and an end date at 11 PM.
  await drawer.getByLabel('Value').fill('25');
  await drawer.getByRole('radio', { name: 'To each item' }).check();
  await drawer.getByRole('switch', { name: 'Set end date' }).click();
  await typeDate(page, drawer.getByRole('textbox', { name: 'End date' }), `${year}-01-20`);
  await choose(page, drawer.getByRole('combobox', { name: 'End date time' }), '11:00 PM');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Discount added', { exact: true }).first().waitFor();
  await drawer.waitFor({ state: 'detached' });
  await row.getByText('25% off each item').waitFor();

  // Read back through the API: the wall clock in New York (EST in January) stored as instants.
  const { promo_codes: found } = await get(`/api/admin/promo-code?search=${code}`);
  assert.equal(found.length, 1);
  const saved = await get(`/api/admin/promo-code/${found[0].id}`);
  assert.deepEqual(
    {
      label: saved.label,
      code: saved.code,
      type: saved.type,
      value: saved.value,
      activity_id: saved.activity_id,
      apply_logic: saved.apply_logic,
      start_date: saved.start_date,
      expiration_date: saved.expiration_date,
      status: saved.status,
      times_used: saved.times_used,
    },
    {
      label: 'Wheel week',
      code,
      type: 'percentage',
      value: 25,
      activity_id: wheel.activity_id,
      apply_logic: 'each',
      start_date: `${year}-01-10T14:00:00.000Z`,
      expiration_date: `${year}-01-21T04:00:00.000Z`,
      status: 'scheduled',
      times_used: 0,
    },
  );
  assert.deepEqual(errors, []);
  await page.close();
});
