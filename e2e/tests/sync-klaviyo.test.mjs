// Klaviyo end to end in chromium (issue 11, "A browser test against the fakes"): against the Klaviyo
// fake started here, with the app's workers on, the admin connects Klaviyo through the PKCE flow,
// picks a list in the drawer, turns on "Sync all customers" and saves; the fake then receives every
// student of the organization on that list, each profile created once, and the drawer shows the
// last sync. Only clicks drive the app; the database is read only to know the expected students.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../support/server.mjs';
import { chooseOption, signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const require = createRequire(import.meta.url);
const { startFakeKlaviyo } = require(join(ROOT, 'backend/dist/sync-fakes/klaviyo.js'));

let klaviyo;

/** The emails of the owner's organization's students, read from the database. */
function studentEmails() {
  const sql = `select s.email from student s join app_user u on u.organization_id = s.organization_id
               where u.email = '${OWNER.email}' order by s.email`;
  const result = spawnSync(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-d', studio.database.name, '-At', '-c', sql],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

const studio = useDemoStudio({
  env: async () => {
    klaviyo = await startFakeKlaviyo({
      clientId: 'studio-klaviyo',
      clientSecret: 'klaviyo-secret',
      lists: ['Newsletter', 'Studio students'],
    });
    return {
      REDIS_PREFIX: `e2e-klaviyo-${process.pid}`,
      RUN_WORKER: 'true',
      SYNC_TOKEN_KEY: Buffer.alloc(32, 1).toString('base64'),
      KLAVIYO_BASE_URL: klaviyo.url,
      KLAVIYO_CLIENT_ID: 'studio-klaviyo',
      KLAVIYO_CLIENT_SECRET: 'klaviyo-secret',
    };
  },
  stop: () => klaviyo?.close(),
});

test('connect Klaviyo (PKCE), pick a list, sync all customers: the fake receives every student once', async () => {
  const expected = studentEmails();
  assert.ok(expected.length > 0, 'the demo organization has students');

  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Integrations', { exact: true }).click();
  await page.getByRole('heading', { name: 'Integrations' }).waitFor();

  const dialog = page.getByRole('dialog');
  await page.getByRole('button', { name: 'Klaviyo settings' }).click();
  await dialog.getByText('Klaviyo is not connected.').waitFor();
  await dialog.getByText('Last sync: not synced yet').waitFor();
  await dialog.getByRole('button', { name: 'Connect' }).click();

  // PKCE: the fake's authorize page approves at once and sends the browser back to the callback.
  await page.waitForURL(/\/admin\/integrations\/klaviyo\/callback\?/);
  await dialog.getByText('Klaviyo is connected.').waitFor({ timeout: 20000 });
  const asked = klaviyo.oauth.authorizeRequests.at(-1);
  assert.equal(asked.get('code_challenge_method'), 'S256');
  assert.equal(await page.evaluate(() => localStorage.getItem('studio.sync.pkce.klaviyo')), null);

  // The list picker is filled from Klaviyo's lists once connected.
  const list = dialog.getByRole('combobox', { name: 'Klaviyo list' });
  await chooseOption(list, 'Studio students');
  const toggle = dialog.getByRole('switch', { name: 'Sync all customers' });
  assert.equal(await toggle.getAttribute('aria-checked'), 'false');
  await toggle.click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Klaviyo settings saved').waitFor();

  // The worker backfills every student onto the chosen list.
  const target = [...klaviyo.state.lists.values()].find((l) => l.name === 'Studio students');
  const deadline = Date.now() + 60000;
  for (;;) {
    const onList = new Set(klaviyo.state.listEmails(target.id));
    if (expected.every((email) => onList.has(email))) break;
    if (Date.now() > deadline)
      assert.fail(`after 60 s the list has ${onList.size} of ${expected.length} students`);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(klaviyo.state.listEmails(target.id).sort(), expected);
  const created = klaviyo.state.createdByEmail();
  for (const email of expected) assert.equal(created.get(email), 1, `${email} was created once`);
  assert.equal(klaviyo.state.profiles.size, expected.length, 'no duplicate profiles');
  const other = [...klaviyo.state.lists.values()].find((l) => l.name === 'Newsletter');
  assert.equal(other.profileIds.size, 0, 'the other list is untouched');

  // The drawer, opened on a fresh load of the Integrations page, reads the last sync from the server.
  await page.goto(`${studio.url}/admin/settings/integrations`);
  await page.getByRole('heading', { name: 'Integrations' }).waitFor();
  await page.getByRole('button', { name: 'Klaviyo settings' }).click();
  await dialog.getByText('Klaviyo is connected.').waitFor();
  await dialog.getByText(/^Last sync: (?!not synced yet)/).waitFor();
  await dialog.getByText('No failed syncs').waitFor();
  await dialog.getByRole('switch', { name: 'Sync all customers', checked: true }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
