// Issue 20, one remote released alone: the shell and three remotes from the normal build, and
// mfe-orders built again from a copy (a changed drawer label, a new drawer type in its registry, and
// its Discounts page renamed in its page registry), served from another origin and named in
// MFE_MANIFEST_JSON. The shell is not rebuilt.
// A copy built for a shared library range the shell cannot meet is refused in its own drawer.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, normalize, sep } from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, signIn } from '../support/browser.mjs';
import { createDatabase } from '../support/database.mjs';
import { ROOT, startServer } from '../support/server.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const webpack = require('webpack');

const OWNER = { email: 'owner@demo.studio', password: 'demo-studio' };
// Inside the checkout (gitignored /tmp/), so the copy resolves the workspace's node_modules.
const WORK = join(ROOT, 'tmp', `remote-release-${process.pid}`);

/**
 * Copies mfe-orders, lets `change` edit the copy's files, and builds it with the remotes' webpack
 * configuration (libs/ui/build/remote-config.js), as its team would. Resolves with its dist folder.
 */
async function buildOrdersCopy(name, change) {
  const dir = join(WORK, name);
  mkdirSync(dir, { recursive: true });
  for (const part of ['src', 'package.json'])
    cpSync(join(ROOT, 'mfe-orders', part), join(dir, part), { recursive: true });
  const edit = (file, replace) => {
    const path = join(dir, file);
    const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const after = replace(before);
    assert.notEqual(after, before, `${file} was changed`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, after);
  };
  change(edit);
  writeFileSync(
    join(dir, 'webpack.config.js'),
    `const { remoteConfig } = require(${JSON.stringify(join(ROOT, 'libs/ui/build/remote-config.js'))});\n` +
      `module.exports = (_env, argv) => remoteConfig({ dir: __dirname, name: 'mfe_orders', mode: argv.mode });\n`,
  );
  const config = require(join(dir, 'webpack.config.js'))({}, { mode: 'production' });
  const stats = await new Promise((resolve, reject) =>
    webpack(config, (error, result) => (error ? reject(error) : resolve(result))),
  );
  if (stats.hasErrors()) throw new Error(`${name}: ${stats.toString('errors-only')}`);
  return join(dir, 'dist');
}

/** A static server on its own port (another origin than the admin) with CORS, as a CDN would be. */
function serveFolders(folders) {
  const server = createServer((req, res) => {
    const [, prefix, ...rest] = new URL(req.url, 'http://x').pathname.split('/');
    const dir = folders[prefix];
    const file = dir && join(dir, normalize(rest.join('/')));
    if (!file || !file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.js')
      ? 'text/javascript'
      : file.endsWith('.json')
        ? 'application/json'
        : 'text/plain';
    res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let database;
let cdn;
let cdnUrl;
let browser;

before(async () => {
  const [released, refused] = await Promise.all([
    buildOrdersCopy('released', (edit) => {
      edit('package.json', (text) => text.replace('"version": "0.1.0"', '"version": "2.0.0"'));
      edit('src/discount/discount.drawer.tsx', (text) =>
        text
          .replace("'New Discount'", "'New discount code'")
          .replace(/^/, "import { Button as ReportButton, useDrawer as useDrawerHost } from '@studio/ui';\n")
          .replace('  const title = ', '  const openDrawer = useDrawerHost().open;\n  const title = ')
          // A footer button of its own, beside the form drawer's Cancel and Save.
          .replace(
            '      close={close}\n      submitting=',
            "      close={close}\n      actions={<ReportButton onClick={() => openDrawer('discount_report', {})}>Discount report</ReportButton>}\n      submitting=",
          ),
      );
      // Its own page, renamed in its page registry and on the page: the shell's menu follows.
      edit('src/pages.ts', (text) => text.replace("label: 'Discounts'", "label: 'Discount codes'"));
      edit('src/pages/discounts.page.tsx', (text) =>
        text.replace('title="Discounts"', 'title="Discount codes"'),
      );
      edit('src/report/report.drawer.tsx', () =>
        [
          "import { DrawerShell } from '@studio/ui';",
          'export function ReportDrawer() {',
          '  return <DrawerShell title="Discount report"><p>Released with mfe-orders 2.0.0 alone.</p></DrawerShell>;',
          '}',
          '',
        ].join('\n'),
      );
      edit('src/drawers.ts', (text) =>
        text.replace(
          /\n};\s*$/,
          '\n  discount_report: lazy(() =>\n    import(/* webpackChunkName: "drawer-discount_report" */ \'./report/report.drawer\').then((m) => ({ default: m.ReportDrawer })),\n  ),\n};\n',
        ),
      );
    }),
    // Built for a react-hook-form the shell does not have.
    buildOrdersCopy('refused', (edit) =>
      edit('package.json', (text) =>
        text.replace(/"react-hook-form": "[^"]+"/, '"react-hook-form": "^99.0.0"'),
      ),
    ),
  ]);
  cdn = await serveFolders({ released, refused });
  cdnUrl = `http://127.0.0.1:${cdn.address().port}`;
  database = createDatabase('studio_release');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  cdn?.close();
  database?.drop();
  rmSync(WORK, { recursive: true, force: true });
});

async function withServer(manifest, run) {
  const server = await startServer({
    DATABASE_URL: database.url,
    SEED_DEMO: 'true',
    MFE_MANIFEST_JSON: JSON.stringify(manifest),
  });
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await run(server, page, errors);
  } finally {
    await page.close();
    await server.stop();
  }
}

async function openNewDiscount(page, menuLabel = 'Discounts') {
  await page.getByRole('navigation', { name: 'Main' }).getByText(menuLabel, { exact: true }).click();
  await page.getByRole('button', { name: 'New discount' }).click();
}

describe('a remote released alone', () => {
  test('its changed label and its new drawer type open from the unchanged shell', async () => {
    const entry = `${cdnUrl}/released/remoteEntry.js`;
    const descriptor = JSON.parse(readFileSync(join(WORK, 'released', 'dist', 'mfe.json'), 'utf8'));
    assert.deepEqual(descriptor.drawers, ['discount', 'product', 'order', 'subscription', 'discount_report']);
    // Only orders is named: the three other remotes keep their default same-origin entries.
    const discounts = descriptor.pages.find((page) => page.path === '/admin/discounts');
    assert.equal(discounts.label, 'Discount codes');
    const manifest = {
      orders: { entry, version: descriptor.version, drawers: descriptor.drawers, pages: descriptor.pages },
    };
    await withServer(manifest, async (server, page, errors) => {
      const served = await (await fetch(`${server.url}/mfe-manifest.json`)).json();
      assert.deepEqual(served.orders, {
        entry,
        version: '2.0.0',
        drawers: descriptor.drawers,
        pages: descriptor.pages,
      });
      assert.equal(served.courses.entry, '/mfe/courses/remoteEntry.js');

      const requested = [];
      page.on('request', (request) => requested.push(request.url()));
      await signIn(page, server.url, OWNER.email, OWNER.password);
      await openNewDiscount(page, 'Discount codes');
      await page.getByRole('heading', { name: 'Discount codes', level: 2 }).waitFor();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'New discount code' }).waitFor();
      assert.ok(requested.includes(entry), 'the orders remote came from the other origin');
      assert.ok(
        !requested.some((url) => url.includes('/mfe/orders/')),
        'the built-in orders remote was not loaded',
      );

      await dialog.getByRole('button', { name: 'Discount report' }).click();
      await dialog.getByRole('heading', { name: 'Discount report' }).waitFor();
      await dialog.getByText('Released with mfe-orders 2.0.0 alone.').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // The other remotes, from this origin, still open.
      await page.getByRole('navigation', { name: 'Main' }).getByText('Courses', { exact: true }).click();
      await page.getByRole('button', { name: 'Share course' }).first().click();
      await dialog.getByRole('heading', { name: 'Share course' }).waitFor();
      assert.deepEqual(errors, []);
    });
  });

  test('a remote built for a shared library the shell cannot meet is refused in its drawer; the rest works', async () => {
    // The old manifest shape: the drawers come from the mfe.json beside that entry.
    await withServer({ orders: `${cdnUrl}/refused/remoteEntry.js` }, async (server, page, errors) => {
      await signIn(page, server.url, OWNER.email, OWNER.password);
      await openNewDiscount(page);
      const dialog = page.getByRole('dialog');
      await dialog.getByText('This panel needs a newer version of the admin').waitFor();
      await dialog
        .getByText(/needs react-hook-form \^99\.0\.0, but this admin offers \d+\.\d+\.\d+/)
        .waitFor();
      assert.equal(await dialog.getByRole('heading', { name: 'New Discount' }).count(), 0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await page.getByRole('navigation', { name: 'Main' }).getByText('Courses', { exact: true }).click();
      await page.getByRole('button', { name: 'Share course' }).first().click();
      await dialog.getByRole('heading', { name: 'Share course' }).waitFor();
      assert.deepEqual(errors, []);
    });
  });
});
