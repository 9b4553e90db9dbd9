// The online store on its own (issue 21): the standalone storefront server
// (storefront/dist/standalone.js) on its own origin, reading the built API started with the demo
// seed, whose PUBLIC_APP_URL names the store's origin (the confirmation link comes back to it).
// Its pages answer with their content in the HTML, hydrate, and book through the store's origin;
// an unknown course is the 404 page; the rate limit counts each client, not the store server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createDatabase } from '../support/database.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { freePort, ROOT, startServer } from '../support/server.mjs';

const REQUESTS_PER_MINUTE = 30;
const SLUG = 'demo-studio';

let database;
let api;
let store;
let storeUrl;
let browser;

/** Starts the standalone server and waits for its one line. */
async function startStore(env) {
  const child = spawn(process.execPath, [join(ROOT, 'storefront/dist/standalone.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes('Storefront listening')) resolve();
    });
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => reject(new Error(`the storefront exited with ${code}:\n${output}`)));
  });
  return { output: () => output, stop: () => child.kill('SIGTERM') };
}

before(async () => {
  database = createDatabase();
  const port = await freePort();
  storeUrl = `http://127.0.0.1:${port}`;
  api = await startServer({
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `store_standalone_${process.pid}`,
    SEED_DEMO: 'true',
    PUBLIC_APP_URL: storeUrl,
    // The store server is on this machine: its X-Forwarded-For names the client.
    TRUSTED_PROXIES: 'loopback',
    PUBLIC_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE),
  });
  store = await startStore({ PORT: String(port), STORE_API_URL: api.url });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  store?.stop();
  await api?.stop();
  database?.drop();
});

/** A GET of the store's origin as a client at `address` (its own rate-limit budget). */
const get = (path, address = '198.51.100.1', method = 'GET') =>
  fetch(`${storeUrl}${path}`, { method, headers: { 'x-forwarded-for': address } });

/** The demo's free course (Coffee Cupping Evening), read through the store's origin. */
async function freeCourse() {
  const home = await get(`/api/public/${SLUG}`).then((res) => res.json());
  const listed = home.courses.find((c) => c.name === 'Coffee Cupping Evening');
  assert.ok(listed, 'the demo store lists Coffee Cupping Evening');
  return get(`/api/public/${SLUG}/activities/${listed.activity_id}`).then((res) => res.json());
}

test("the store's pages and files on its own origin, the 404 page, and the API's paths through it", async () => {
  const home = await get(`/s/${SLUG}`);
  assert.equal(home.status, 200);
  assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(home.headers.get('cache-control'), 'no-cache');
  assert.match(home.headers.get('content-security-policy'), /frame-ancestors \*/);
  const homeHtml = await home.text();
  assert.match(homeHtml, /<h1[^>]*>Demo Studio<\/h1>/);
  assert.match(homeHtml, /Coffee Cupping Evening/);

  const course = await freeCourse();
  const page = await get(`/s/${SLUG}/activity/${course.activity_id}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<h1[^>]*>Coffee Cupping Evening<\/h1>/);
  assert.ok(
    html.includes(`/s/${SLUG}/checkout?event_id=${course.sessions[0].event_id}`),
    'a Book link per session',
  );
  assert.ok(
    html.includes(`<meta property="og:url" content="${storeUrl}/s/${SLUG}/activity/${course.activity_id}"`),
  );
  const head = await get(`/s/${SLUG}/activity/${course.activity_id}`, undefined, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');

  const missing = await get(`/s/${SLUG}/activity/00000000-0000-4000-8000-000000000000`);
  assert.equal(missing.status, 404);
  const missingHtml = await missing.text();
  assert.match(missingHtml, /Page not found/);
  assert.match(missingHtml, /Course not found\./);
  assert.match(await get('/s/no-such-studio').then((res) => res.text()), /Store not found\./);

  // The page's client files: hashed ones cached a year; the manifest not served.
  const script = html.match(/<script[^>]+src="(\/s-assets\/[^"]+\.js)"/)[1];
  const file = await get(script);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal((await get('/s-assets/manifest.json')).status, 404);

  // A session's checkout data (the Storefront API's sessions call), through the store's origin.
  const session = await get(`/api/public/${SLUG}/sessions/${course.sessions[0].event_id}`);
  assert.equal(session.status, 200);
  const checkout = await session.json();
  assert.equal(checkout.store_name, 'Demo Studio');
  assert.equal(checkout.session.event_id, course.sessions[0].event_id);
  const unknown = await get(`/api/public/${SLUG}/sessions/00000000-0000-4000-8000-000000000000`);
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).message, 'Session not found');
});

test('the rate limit counts each client of the store server, not the server', async () => {
  const path = `/s/${SLUG}`;
  const busy = `203.0.113.${1 + (process.pid % 200)}`;
  const statuses = [];
  for (let i = 0; i <= REQUESTS_PER_MINUTE; i++) statuses.push((await get(path, busy)).status);
  assert.deepEqual(statuses.slice(0, REQUESTS_PER_MINUTE), Array(REQUESTS_PER_MINUTE).fill(200));
  const limited = await get(path, busy);
  assert.equal(limited.status, 429);
  assert.equal(await limited.text(), 'Too many requests. Please wait a moment and try again.');
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  // Another client is not held back.
  assert.equal((await get(path, '192.0.2.9')).status, 200);
});

test('a buyer books the free course on the store origin: the course page, Book, Book now, booked', async () => {
  const course = await freeCourse();
  const session = course.sessions.find((s) => s.seats_left >= 1);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${storeUrl}/s/${SLUG}/activity/${course.activity_id}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.locator(`a[href$="checkout?event_id=${session.event_id}"]`).click();
  await page.getByRole('heading', { level: 1, name: 'Book Coffee Cupping Evening' }).waitFor();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByRole('textbox', { name: 'First name' }).fill('Noor');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Haddad');
  await page.getByRole('textbox', { name: 'Email' }).fill(`standalone.${Date.now()}@example.test`);
  await page.getByRole('button', { name: 'Book now' }).click();
  await page.waitForURL(`${storeUrl}/s/${SLUG}/checkout/complete?order=**`);
  await page.getByRole('heading', { level: 1, name: "You're booked" }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
