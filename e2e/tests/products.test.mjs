// Products in chromium against the real API: create a subscription product with an image in the
// Product drawer, edit its price, open Share from the drawer and copy its overlay link, then read
// the product back through the API.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { chooseOption, signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

// A 1x1 PNG: the server judges uploads by their bytes, so it must be a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let token;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  await studio.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: studio.url,
  });
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

const pick = (page, dialog, name, title) => chooseOption(dialog.getByRole('combobox', { name }), title);

async function waitForValue(locator, pattern) {
  await locator
    .page()
    .waitForFunction(
      ([el, source]) => new RegExp(source).test(el.value),
      [await locator.elementHandle(), pattern.source],
    );
  return locator.inputValue();
}

test('the demo has products of all three kinds, one earning points, each with an image', async () => {
  const { products } = await get('/api/admin/products?limit=10000');
  assert.deepEqual(
    new Set(products.map((p) => p.category)),
    new Set(['oneTime', 'subscription', 'leadMagnet']),
  );
  assert.ok(products.every((p) => p.image));
  assert.equal(products.filter((p) => p.earned_loyalty_points > 1).length, 1);
});

test('create a subscription with an image, edit its price, share its overlay link, read it back', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = `Kiln membership ${randomUUID().slice(0, 8)}`;

  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Products', { exact: true }).click();
  await page.waitForURL(/\/admin\/products$/);
  await page.getByRole('button', { name: 'New product' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'New Product' }).waitFor();

  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Description', { exact: true }).fill('Kiln shelf space and two firings a month.');
  await dialog.getByRole('radio', { name: 'Subscription' }).check();
  await dialog.getByLabel('Amount', { exact: true }).fill('39.00');
  await dialog.getByLabel('Renews every', { exact: true }).fill('1');
  await pick(page, dialog, 'Renewal unit', 'months');
  await dialog
    .getByTestId('product-image-input')
    .setInputFiles({ name: 'kiln.png', mimeType: 'image/png', buffer: PNG });
  await dialog.getByRole('img', { name: 'Product image 1' }).waitFor();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Product added').first().waitFor();
  await dialog.waitFor({ state: 'detached' });

  // The list reads again: the new row shows its price with the interval, its category and image.
  const cell = page.getByRole('button', { name, exact: true });
  await cell.waitFor();
  const row = cell.locator('xpath=ancestor::tr');
  await row.getByText('$39.00 every month').waitFor();
  assert.equal(await row.getByText('Subscription').count(), 1);
  assert.match((await row.locator('img').getAttribute('src')) ?? '', /^\/api\/media\//);

  // Edit its price: a new current price.
  await cell.click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Edit Product' }).waitFor();
  const amount = dialog.getByLabel('Amount', { exact: true });
  assert.equal(await amount.inputValue(), '39.00');
  await amount.fill('42.50');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row.getByText('$42.50 every month').waitFor();

  // Share from the drawer: the overlay link names this product.
  await cell.click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Edit Product' }).waitFor();
  await dialog.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('heading', { name: 'Share product' }).waitFor();
  const share = page.getByRole('dialog');
  const product = (await get('/api/admin/products?limit=10000')).products.find((p) => p.name === name);
  assert.ok(product, 'the product is in the list');
  await share.getByRole('tab', { name: 'Checkout overlay' }).click();
  const overlay = share.getByRole('textbox', { name: 'Checkout overlay link' });
  const link = await waitForValue(
    overlay,
    new RegExp(`/checkout\\?product_id=${product.product_id}&openModal=true$`),
  );
  await share.getByRole('button', { name: /Copy/ }).filter({ visible: true }).click();
  await share.getByRole('button', { name: /Copied!/ }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);

  // The docs link leads to the studio's own overlay snippet (Settings → Organization).
  const docsHref = await share.getByRole('link', { name: 'Read the docs' }).getAttribute('href');
  const docs = new URL(docsHref, studio.url);
  assert.equal(`${docs.pathname}${docs.hash}`, '/admin/settings/organization#checkout-overlay');

  // Read back through the API.
  const detail = await get(`/api/admin/products/${product.product_id}`);
  assert.equal(detail.name, name);
  assert.equal(detail.status, 'published');
  assert.equal(detail.images.length, 1);
  assert.deepEqual(
    { ...detail.MainVariant.current_price, price_id: undefined, created_at: undefined },
    {
      price_id: undefined,
      created_at: undefined,
      unit_price: 4250,
      category: 'subscription',
      renewal_interval_unit: 'months',
      renewal_interval_quantity: 1,
      earned_loyalty_points: null,
      // What it grants (issue 24): nothing, unless chosen.
      grant: 'none',
      membership_bookings: null,
      membership_unlimited: false,
      pack_credits: null,
      pack_expires_after_quantity: null,
      pack_expires_after_unit: null,
      covers_activity_ids: null,
      covers_category_ids: null,
    },
  );
  assert.deepEqual(errors, []);
  await page.close();
});
