// Proof that React, antd and TanStack Query load once: with a drawer open from each of the four
// remotes, every script the browser fetched is inspected. React's code (its version string), antd's
// style engine (its data-css-hash attribute) and React Query's provider (its missing-client error
// text) come only from the shell, each file once; no remote brings a copy.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { launchBrowser, signIn } from '../support/browser.mjs';
import { createDatabase } from '../support/database.mjs';
import { ROOT, startServer } from '../support/server.mjs';

const require = createRequire(`${ROOT}/shell/package.json`);
const REACT_VERSION = require('react/package.json').version;
const ANTD_STYLE_ENGINE = 'data-css-hash';
const REACT_QUERY_PROVIDER = 'No QueryClient set, use QueryClientProvider to set one';

let database;
let server;
let browser;

before(async () => {
  database = createDatabase('studio_once');
  server = await startServer({ DATABASE_URL: database.url, SEED_DEMO: 'true' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  database?.drop();
});

test('React, antd and TanStack Query are loaded once, from the shell, while drawers of all four remotes are open', async () => {
  // Signed in on one page; the page load counted is another page's first and only one, so no
  // request of an earlier document (the sign-in page's, the landing page's late lazy loads on a busy
  // machine) can be counted into it.
  const signInPage = await browser.context.newPage();
  await signIn(signInPage, server.url, 'super@demo.studio', 'demo-studio');
  await signInPage.close();
  const page = await browser.context.newPage();
  // Every script comes from the network, so its body can be read.
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = [];
  // Scripts the browser received whole (a request cut off never arrived: not a second copy).
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.push({ url: new URL(request.url()).pathname, body: '' });
  });
  await page.goto(`${server.url}/admin/courses`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  const dialog = page.getByRole('dialog');
  // courses remote
  await page.getByRole('button', { name: 'Share course' }).click();
  await dialog.getByRole('heading', { name: 'Share course' }).waitFor();
  // orders remote
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByText('Discounts', { exact: true })
    .dispatchEvent('click');
  await page.getByRole('button', { name: 'New discount' }).click();
  await dialog.getByRole('heading', { name: 'New Discount' }).waitFor();
  // students remote
  // A client-side navigation (no reload), so every script counted belongs to one page load.
  await page.evaluate((path) => {
    globalThis.history.pushState({}, '', path);
    globalThis.dispatchEvent(new globalThis.PopStateEvent('popstate'));
  }, `/admin/students/${randomUUID()}`);
  await dialog.getByText('Could not load this student').waitFor();
  // integrations remote
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByText('Super Admin Settings')
    .dispatchEvent('click');
  await dialog.getByRole('heading', { name: 'Super Admin Settings' }).waitFor();

  // The same files, read from the server (a page's script bodies are not all readable after load).
  for (const script of scripts) script.body = await (await fetch(`${server.url}${script.url}`)).text();
  const remoteScripts = scripts.filter((s) => s.url.startsWith('/mfe/'));
  for (const remote of ['courses', 'orders', 'students', 'integrations']) {
    assert.ok(
      remoteScripts.some((s) => s.url === `/mfe/${remote}/remoteEntry.js`),
      `${remote} remote was loaded`,
    );
  }
  const withReact = scripts.filter((s) => s.body.includes(`"${REACT_VERSION}"`));
  const withAntd = scripts.filter((s) => s.body.includes(ANTD_STYLE_ENGINE));
  assert.ok(withReact.length > 0, 'React was found in the loaded scripts');
  assert.equal(
    withAntd.length,
    1,
    `antd's style engine is in exactly one file: ${withAntd.map((s) => s.url)}`,
  );
  const withReactQuery = scripts.filter((s) => s.body.includes(REACT_QUERY_PROVIDER));
  assert.equal(
    withReactQuery.length,
    1,
    `TanStack Query is in exactly one file: ${withReactQuery.map((s) => s.url)}`,
  );
  for (const s of [...withReact, ...withAntd, ...withReactQuery])
    assert.ok(!s.url.startsWith('/mfe/'), `${s.url} is a remote's copy`);
  const urls = scripts.map((s) => s.url);
  assert.equal(
    new Set(urls).size,
    urls.length,
    `no script was fetched twice: ${urls.filter((u, i) => urls.indexOf(u) !== i)}`,
  );
  await page.close();
});
