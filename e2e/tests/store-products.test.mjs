// Products at the store in chromium (issue 21), on the demo seed and the built-in demo provider:
// a one-time product paid on the demo payment page (the receipt on the complete page), the
// membership (active for the admin once paid), and a lead magnet (the email alone, then "Check
// your inbox", and the download link mailed to the outbox). axe-core on the product checkout page.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let token;
let store;

const studio = useDemoStudio({
  env: {
    REDIS_PREFIX: `e2e_products_${Date.now()}`,
  },
  outbox: true,
});

before(async () => {
  await studio.ready;
  ({ token } = await call('POST', '/api/auth/login', OWNER));
  const org = await call('GET', '/api/admin/org');
  store = { slug: org.slug, home: await call('GET', `/api/public/${org.slug}`) };
});

async function call(method, path, body) {
  const res = await fetch(`${studio.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.json();
}

const productOf = (kind) => store.home.products.find((p) => p.kind === kind);

async function openCheckout(productId) {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${studio.url}/s/${store.slug}/checkout?product_id=${productId}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  return { page, errors };
}

async function buyOnDemoPage(page, productId, heading) {
  await page.getByLabel('First name').fill('Mara');
  await page.getByLabel('Last name').fill(`Buyer${Date.now()}`);
  await page.getByLabel('Email').fill(`mara.${productId.slice(0, 8)}.${Date.now()}@example.test`);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByText('Demo payment, no card is charged').waitFor();
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.getByRole('link', { name: 'Continue' }).click();
  // The payment settles through the outbox; the page asks again until it has, without a reload.
  await page.waitForURL(/\/checkout\/complete\?order=/);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return new URL(page.url()).searchParams.get('order');
}

test('a one-time product: its page (accessible), paid on the demo page, the receipt on the complete page', async () => {
  const product = productOf('oneTime');
  const { page, errors } = await openCheckout(product.product_id);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  await page.getByText(product.description).waitFor();
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => globalThis.axe.run(globalThis.document));
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => v.id),
    [],
  );
  // Submitting without names: the reasons are announced under the fields.
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('alert').first().waitFor();
  assert.equal(await page.getByLabel('First name').getAttribute('aria-invalid'), 'true');

  await buyOnDemoPage(page, product.product_id, 'Thank you for your order');
  await page.getByRole('link', { name: 'See your receipt' }).waitFor();
  assert.equal(await page.getByRole('region', { name: 'Your booking' }).count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the membership: "/ month" on its page, paid on the demo page, active for the admin', async () => {
  const product = productOf('subscription');
  const { page } = await openCheckout(product.product_id);
  await page
    .getByText(/\/ month/)
    .first()
    .waitFor();
  const orderId = await buyOnDemoPage(page, product.product_id, 'Your membership is active');
  const started = Date.now();
  let order;
  do {
    order = await call('GET', `/api/admin/order/${orderId}`);
    if (order.Subscription?.length) break;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() - started < 15000);
  assert.equal(order.Subscription[0]?.status, 'active');
  await page.close();
});

test('a lead magnet: the email alone, "Check your inbox", the download link mailed', async () => {
  const created = await call('POST', '/api/admin/products', {
    productName: 'Glaze chart (PDF)',
    productDescription: 'Every glaze we fire, on one page.',
    priceType: 'leadMagnet',
    amount: 0,
    downloadUrl: 'https://files.example.test/glaze-chart.pdf',
  });
  const email = `lead.${Date.now()}@example.test`;
  const { page } = await openCheckout(created.product_id);
  assert.equal(await page.getByLabel('Last name').count(), 0);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send me the download' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  const started = Date.now();
  for (;;) {
    const mails = readdirSync(studio.outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((name) => readFileSync(join(studio.outbox, name), 'utf8').replace(/=\r?\n/g, ''))
      .filter((mail) => mail.includes(`To: ${email}`));
    if (mails.some((mail) => mail.includes('https://files.example.test/glaze-chart.pdf'))) break;
    if (Date.now() - started > 20000) throw new Error(`no download mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await page.close();
});
