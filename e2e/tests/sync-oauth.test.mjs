// Connecting Klaviyo in chromium through the PKCE flow (spec 001 §7) against the local fake of
// Klaviyo (its OAuth server, and the account call the driver makes after the exchange): Connect keeps the verifier in local storage and sends the challenge, the fake's
// authorize page approves and redirects back, the callback page posts code + state + verifier and
// shows "Klaviyo is connected."; Disconnect revokes the token at the fake and forgets it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../support/server.mjs';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const require = createRequire(import.meta.url);
const { startFakeKlaviyo } = require(join(ROOT, 'backend/dist/sync-fakes/klaviyo.js'));

const SCOPES = 'accounts:read lists:read lists:write profiles:read profiles:write';

let fake;
let klaviyo;
let oauth;

const studio = useDemoStudio({
  env: async () => {
    fake = await startFakeKlaviyo({ clientId: 'studio-klaviyo', clientSecret: 'klaviyo-secret' });
    ({ server: klaviyo, oauth } = fake);
    return {
      SYNC_TOKEN_KEY: Buffer.alloc(32, 1).toString('base64'),
      KLAVIYO_BASE_URL: fake.url,
      KLAVIYO_CLIENT_ID: 'studio-klaviyo',
      KLAVIYO_CLIENT_SECRET: 'klaviyo-secret',
    };
  },
  stop: () => fake?.close(),
});

test('connects Klaviyo through PKCE, sees "Klaviyo is connected.", then disconnects (revoked at Klaviyo)', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Integrations', { exact: true }).click();
  await page.getByRole('heading', { name: 'Integrations' }).waitFor();

  // Zoom has no client credentials here: its panel names the env vars instead of Connect.
  const dialog = page.getByRole('dialog');
  await page.getByRole('button', { name: 'Zoom settings' }).click();
  await dialog
    .getByText('Zoom is not set up on this server: set ZOOM_CLIENT_ID and ZOOM_CLIENT_SECRET.')
    .waitFor();
  assert.equal(await dialog.getByRole('button', { name: 'Connect' }).count(), 0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: 'Klaviyo settings' }).click();
  await dialog.getByText('Klaviyo is not connected.').waitFor();
  await dialog.getByRole('button', { name: 'Connect' }).click();

  // The fake approved at once and sent the browser back to the app's callback page.
  await page.waitForURL(/\/admin\/integrations\/klaviyo\/callback\?/);
  await page.getByText('Klaviyo is connected.').first().waitFor({ timeout: 20000 });
  await dialog.getByText('Klaviyo is connected.').waitFor();

  const asked = oauth.authorizeRequests.at(-1);
  assert.equal(asked.get('scope'), SCOPES);
  assert.equal(asked.get('code_challenge_method'), 'S256');
  assert.match(asked.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/);
  assert.equal(asked.get('redirect_uri'), `${studio.url}/admin/integrations/klaviyo/callback`);
  // The verifier was used once and removed from local storage.
  assert.equal(await page.evaluate(() => localStorage.getItem('studio.sync.pkce.klaviyo')), null);
  const exchange = klaviyo.requests.find((r) => r.path === '/oauth/token');
  assert.match(exchange.body.code_verifier, /^[A-Za-z0-9_-]{43,128}$/);
  const live = [...oauth.tokens.values()].filter((t) => !t.revoked);
  assert.equal(live.length, 1);

  // Disconnect: confirm, then the token is dead at Klaviyo and the panel says not connected.
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await dialog.getByRole('button', { name: 'Yes, disconnect' }).click();
  await page.getByText('Klaviyo is disconnected.').waitFor();
  await dialog.getByText('Klaviyo is not connected.').waitFor();
  assert.equal(live[0].revoked, true);
  assert.ok(klaviyo.requests.some((r) => r.path === '/oauth/revoke'));
  assert.deepEqual(errors, []);
  await page.close();
});
