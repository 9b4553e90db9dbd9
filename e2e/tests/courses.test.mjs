// The course catalog in chromium against the real API: create a course with an uploaded image
// from the New Course drawer, find it on the courses page, edit it, see the change on its page.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { chooseOption, signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

// A 1x1 PNG: the server judges uploads by their bytes, so it must be a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const studio = useDemoStudio();

/** Chooses an option of the drawer's select with that label (the first option with no title). */
const pick = (page, dialog, name, title) => chooseOption(dialog.getByRole('combobox', { name }), title);

test('create a course with an image, find it, edit it and see the change on its page', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const suffix = randomUUID().slice(0, 8);
  const name = `Raku firing ${suffix}`;
  const renamed = `Raku firing weekend ${suffix}`;

  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('button', { name: 'New course' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'New Course' }).waitFor();

  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Description', { exact: true }).fill('Fire your own raku pots outdoors.');
  await dialog.getByLabel('Price', { exact: true }).fill('65.50');
  await dialog.getByLabel('Capacity', { exact: true }).fill('6');
  await dialog
    .getByTestId('course-image-input')
    .setInputFiles({ name: 'raku.png', mimeType: 'image/png', buffer: PNG });
  await dialog.getByRole('img', { name: 'Course image 1' }).waitFor();
  await pick(page, dialog, 'Location');
  await pick(page, dialog, 'Instructor');
  await pick(page, dialog, 'Category', 'Ceramics');
  await pick(page, dialog, 'Level', 'Beginner');
  await dialog.getByRole('button', { name: 'Create course' }).click();
  await page.getByText('Course created successfully').waitFor();
  await dialog.waitFor({ state: 'detached' });

  // The list reloads when the drawer closes.
  const link = page.getByRole('link', { name, exact: true });
  await link.waitFor();
  const row = link.locator('xpath=ancestor::tr');
  assert.equal(await row.getByText('$65.50').count(), 1);
  assert.equal(await row.getByText('Unlisted').count(), 1);
  assert.match((await row.locator('img').getAttribute('src')) ?? '', /\S/);

  await link.click();
  await page.waitForURL(/\/admin\/courses\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name, exact: true }).waitFor();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog');
  await edit.getByRole('heading', { name: 'Edit Course' }).waitFor();
  const nameInput = edit.getByLabel('Name', { exact: true });
  assert.equal(await nameInput.inputValue(), name);
  await nameInput.fill(renamed);
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Course updated', { exact: true }).waitFor();
  await edit.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: renamed, exact: true }).waitFor();

  assert.deepEqual(errors, []);
  await page.close();
});
