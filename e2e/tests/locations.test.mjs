// Settings > Locations in chromium against the real API: a location marked online is saved, listed
// with its Online tag, and read back from the server (after a reload) when edited again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const studio = useDemoStudio();

test('a location marked online is saved, listed as Online, and shown on when edited after a reload', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.goto(`${studio.url}/admin/settings/locations`);
  await page.getByRole('heading', { name: 'Locations' }).waitFor();

  const form = page.getByRole('form', { name: 'Location' });
  await form.getByLabel('Name').fill('Live stream room');
  await form.getByLabel('Address').fill('Streamed from 14 Kiln Street');
  const online = form.getByRole('switch', { name: 'Classes here happen online' });
  assert.equal(await online.getAttribute('aria-checked'), 'false');
  // Its words toggle it too (issue 25: clicking them did nothing).
  await form.getByText('Classes here happen online', { exact: true }).click();
  await form.getByRole('switch', { name: 'Classes here happen online', checked: true }).waitFor();
  await online.click();
  await online.click();
  await form.getByRole('button', { name: 'Add location' }).click();
  await page.getByText('Location saved').waitFor();

  await page.reload();
  const row = page.getByRole('row', { name: /Live stream room/ });
  await row.getByText('Online', { exact: true }).waitFor();
  await row.getByRole('button', { name: 'Edit Streamed from 14 Kiln Street' }).click();
  await form.getByRole('switch', { name: 'Classes here happen online', checked: true }).waitFor();
  assert.equal(await form.getByLabel('Name').inputValue(), 'Live stream room');
  assert.deepEqual(errors, []);
  await page.close();
});
