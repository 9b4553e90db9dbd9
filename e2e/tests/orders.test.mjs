// Orders in chromium against the real API and the demo data: the Orders page lists the demo orders
// with their status badges, search finds one by number, a row opens the order drawer with its
// summary and customer, and an Eventbrite order says "Sold through eventbrite" with its menu disabled.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, useDemoStudio } from '../support/studio.mjs';

let token;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
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

test('the demo has orders in every status, from the workbench and from eventbrite, one partly refunded', async () => {
  const { orders, totalCount } = await get('/api/admin/orders?limit=100');
  assert.ok(totalCount > 50, `${totalCount} demo orders`);
  for (const status of ['pending', 'failed', 'paid', 'refunded', 'partial_refund', 'fraudulent']) {
    assert.ok(
      (await get(`/api/admin/orders?status=${status}&limit=1`)).totalCount > 0,
      `an order is ${status}`,
    );
  }
  assert.ok((await get('/api/admin/orders?source=eventbrite&limit=1')).totalCount > 0);
  const partial = (await get('/api/admin/orders?status=partial_refund&limit=1')).orders[0];
  assert.ok(partial.refunded_amount > 0 && partial.refunded_amount < partial.total);
  assert.ok(orders.every((o) => o.Student.email));
});

test('the Orders page lists, searches and opens an order; an eventbrite order is sold through eventbrite', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Orders', { exact: true }).click();
  await page.waitForURL(/\/admin\/orders$/);

  const table = page.locator('.ant-table');
  await table.locator('tbody tr.ant-table-row').first().waitFor();
  assert.equal(await page.getByText('No orders yet').count(), 0);
  assert.match(await page.getByText(/^\d+ orders$/).innerText(), /^\d{2,} orders$/);
  // Status badges: the newest demo orders include a pending one and paid ones.
  await table.locator('.ant-tag', { hasText: 'Pending' }).first().waitFor();
  await table.locator('.ant-tag', { hasText: 'Paid' }).first().waitFor();

  // Search by number finds exactly that order.
  const partial = (await get('/api/admin/orders?status=partial_refund&limit=1')).orders[0];
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(String(partial.order_number));
  const row = page.locator('tbody tr.ant-table-row', { hasText: `#${partial.order_number}` });
  await row.waitFor();
  await page.getByText('1 order', { exact: true }).waitFor();
  await row.getByText('Partially refunded').waitFor();

  // The row opens the order drawer: summary and customer.
  await row.click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: `Order #${partial.order_number}` }).waitFor();
  const summary = dialog.getByRole('region', { name: 'Order summary' });
  await summary.getByText('Partially refunded').waitFor();
  const dollars = (cents) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
  await summary.getByText(dollars(partial.total), { exact: true }).first().waitFor();
  await summary.getByText(dollars(partial.refunded_amount), { exact: true }).first().waitFor();
  const customer = dialog.getByRole('region', { name: 'Customer' });
  await customer.getByText(partial.Student.email).waitFor();
  await customer
    .getByRole('button', { name: `${partial.Student.first_name} ${partial.Student.last_name}` })
    .waitFor();
  // Workbench: the actions menu works; the order was paid through the demo provider, so Share
  // online receipt opens its receipt in a new tab.
  const receipt = (await get(`/api/admin/order/${partial.order_id}`)).paymentIntent?.charges.receipt_url;
  assert.ok(receipt, 'the demo partly refunded order has a receipt');
  await dialog.getByRole('button', { name: 'Order actions' }).click();
  await page.getByRole('menuitem', { name: 'Refund payment' }).waitFor();
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('menuitem', { name: 'Share online receipt' }).click(),
  ]);
  assert.equal(tab.url(), receipt);
  await tab.close();
  await page.locator('.ant-drawer-close').click();
  await dialog
    .getByRole('heading', { name: `Order #${partial.order_number}` })
    .waitFor({ state: 'detached' });

  // An eventbrite order: "Sold through eventbrite", the menu disabled.
  await page.getByRole('searchbox', { name: 'Search orders' }).fill('');
  await page.getByRole('combobox', { name: 'Filter by source' }).click();
  await page.locator('.ant-select-item-option[title="Eventbrite"]').click();
  const synced = page.locator('tbody tr.ant-table-row', { hasText: 'eventbrite' }).first();
  await synced.waitFor();
  assert.equal(await page.locator('tbody tr.ant-table-row', { hasText: 'This studio' }).count(), 0);
  await synced.click();
  const drawer = page.getByRole('dialog');
  await drawer.getByText('Sold through eventbrite').waitFor();
  assert.equal(await drawer.getByRole('button', { name: 'Order actions' }).isDisabled(), true);

  assert.deepEqual(errors, []);
  await page.close();
});

test('a fully refunded order offers no refund: Refund payment is disabled and says why; its source reads "This studio"', async () => {
  const refunded = (await get('/api/admin/orders?status=refunded&source=workbench&limit=1')).orders[0];
  assert.ok(refunded, 'the demo has a refunded order of the studio');
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Orders', { exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(String(refunded.order_number));
  const row = page.locator('tbody tr.ant-table-row', { hasText: `#${refunded.order_number}` });
  await row.getByText('This studio', { exact: true }).waitFor();
  await row.click();
  const drawer = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: `Order #${refunded.order_number}` }) });
  await drawer.getByRole('button', { name: 'Order actions' }).click();
  const item = page.getByRole('menuitem', { name: /Refund payment/ });
  await item.getByText('Order cannot be refunded').waitFor();
  assert.equal(await item.getAttribute('aria-disabled'), 'true');
  await item.click({ force: true });
  assert.equal(await page.getByRole('dialog', { name: 'Refund payment' }).count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
