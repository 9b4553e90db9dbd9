// The built shell and its four remotes in chromium against the real API: sign-in, one drawer from
// each remote, and a remote whose entry cannot be reached.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

const SUPER = { email: 'super@demo.studio', password: 'demo-studio' };

const studio = useDemoStudio();

/** A fresh page that records uncaught errors, so a broken shell fails the test. */
async function newPage() {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

const drawer = (page) => page.getByRole('dialog');

async function courseWithUpcomingSession() {
  const token = await ownerToken(studio.url);
  const get = async (path) => (await fetch(`${studio.url}${path}`, { headers: { token } })).json();
  const { activities } = await get('/api/admin/activities');
  for (const course of activities) {
    const { sessions } = await get(
      `/api/admin/activities/${course.activity_id}/sessions?include_past=false&limit=10000`,
    );
    if (sessions?.length) return { ...course, firstEventId: sessions[0].event_id };
  }
  throw new Error('the demo seed has no course with an upcoming session');
}

async function waitForValue(locator, pattern, timeoutMs = 10000) {
  const started = Date.now();
  for (;;) {
    const value = await locator.inputValue();
    if (pattern.test(value)) return value;
    if (Date.now() - started > timeoutMs) assert.match(value, pattern);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('sign-in', () => {
  test('a wrong password shows the server message and stays on the sign-in page', async () => {
    const { page } = await newPage();
    await page.goto(`${studio.url}/admin/sign-in`);
    await page.evaluate(() => globalThis.localStorage.clear());
    await page.goto(`${studio.url}/admin/courses`);
    await page.waitForURL(/\/admin\/sign-in$/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Invalid email or password').waitFor();
    assert.match(page.url(), /\/admin\/sign-in$/);
    await page.close();
  });

  test('empty fields show the schema messages without calling the server', async () => {
    const { page } = await newPage();
    let logins = 0;
    page.on('request', (request) => request.url().endsWith('/api/auth/login') && logins++);
    await page.goto(`${studio.url}/admin/sign-in`);
    await page.evaluate(() => globalThis.localStorage.clear());
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('An email is required').waitFor();
    await page.getByText('A password is required').waitFor();
    assert.equal(logins, 0);
    await page.close();
  });

  test('the demo owner signs in, sees the menu, and the session survives a reload', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    const menu = page.getByRole('navigation', { name: 'Main' });
    for (const item of ['Courses', 'Orders', 'Students', 'Products', 'Discounts', 'Integrations']) {
      await menu.getByText(item, { exact: true }).waitFor();
    }
    assert.equal(await menu.getByText('Super Admin Settings').count(), 0);
    await page.reload();
    await page.getByRole('heading', { name: 'Courses' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });
});

describe('drawers from each remote', () => {
  test('courses: the share drawer links a seeded course, then its first date, and closes on navigation', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    await page.getByRole('button', { name: 'Share course' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Share course' }).waitFor();
    // A seeded course with future sessions, found through the API, chosen in the course picker.
    const course = await courseWithUpcomingSession();
    const link = panel.getByRole('textbox', { name: 'Checkout link' });
    await waitForValue(link, /\/activity\/[0-9a-f-]{36}$/);
    await panel.getByRole('combobox', { name: 'Course' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: course.name }).first().click();
    await waitForValue(link, new RegExp(`/activity/${course.activity_id}$`));
    const toggle = panel.getByRole('switch', { name: 'Link to a specific course date?' });
    await toggle.and(page.locator(':not([disabled])')).waitFor();
    await toggle.click();
    await waitForValue(link, new RegExp(`/checkout\\?event_id=${course.firstEventId}$`));
    await panel.getByRole('tab', { name: 'Checkout overlay' }).click();
    await waitForValue(
      panel.getByRole('textbox', { name: 'Checkout overlay link' }),
      /\/checkout\?event_id=[0-9a-f-]{36}&openModal=true$/,
    );
    // Navigation closes the drawer (the click reaches the menu under the drawer's mask directly).
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByText('Orders', { exact: true })
      .dispatchEvent('click');
    await page.waitForURL(/\/admin\/orders$/);
    await panel.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('students: the student drawer opens from /admin/students/{id} and shows a load failure inside', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    await page.goto(`${studio.url}/admin/students/${randomUUID()}`);
    const panel = drawer(page);
    await panel.getByText('Could not load this student').waitFor();
    await panel.getByRole('button', { name: 'Retry' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('integrations: the super admin switches organization and the page reloads', async () => {
    const { page, errors } = await newPage();
    await signIn(page, studio.url, SUPER.email, SUPER.password);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByText('Super Admin Settings').click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Super Admin Settings' }).waitFor();
    await panel.getByRole('combobox').click();
    const options = page.locator('.ant-select-item-option-content');
    await options.first().waitFor();
    const names = await options.allTextContents();
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.localeCompare(b)),
    );
    await options.filter({ hasText: 'Another Studio' }).click();
    // The reload after saving asks no "Leave site?" (issue 25: the saved form still counted as unsaved).
    const dialogs = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    const reloaded = page.waitForEvent('load');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Organization switched').waitFor();
    await reloaded;
    assert.deepEqual(dialogs, []);
    await page.getByRole('heading', { name: 'Another Studio', level: 4 }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an owner does not see the super admin switch on the integrations page', async () => {
    const { page } = await newPage();
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    await page.getByRole('navigation', { name: 'Main' }).getByText('Integrations', { exact: true }).click();
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByText('Sync providers are set up here.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Switch organization' }).count(), 0);
    await page.close();
  });
});

describe('a remote that cannot be reached', () => {
  test('shows an error in its own page while the other remotes keep working', async () => {
    const { page, errors } = await newPage();
    await page.route('**/mfe-manifest.json', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          courses: 'http://127.0.0.1:9/remoteEntry.js',
          orders: '/mfe/orders/remoteEntry.js',
          students: '/mfe/students/remoteEntry.js',
          integrations: '/mfe/integrations/remoteEntry.js',
        }),
      }),
    );
    // The Courses page is the courses remote's: signed in, its address shows why it is not there.
    await signIn(page, studio.url, OWNER.email, OWNER.password);
    await page.getByText('This page could not be loaded').waitFor();
    await page.getByText(/Could not reach mfe_courses/).waitFor();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main' });
    assert.equal(await menu.getByText('Courses', { exact: true }).count(), 0);

    // The other remotes' pages and drawers work.
    await menu.getByText('Discounts', { exact: true }).click();
    await page.getByRole('button', { name: 'New discount' }).click();
    await drawer(page).getByRole('heading', { name: 'New Discount' }).waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });
});
