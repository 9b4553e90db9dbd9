#!/usr/bin/env node
/**
 * Bundle budget (issues 2 and 12): gzip size of the JavaScript the shell loads before sign-in, and
 * of each remote's entry plus its first drawer (not its pages, which load when visited). Prints a table; exits 1 when a budget is exceeded.
 *
 * The shell's figure is measured twice and both must fit: from the chunk-group graph each build
 * writes to <workspace>/dist/chunk-graph.json (every chunk reachable from the entry except the
 * lazy admin area), and in chromium, which opens /admin/sign-in from the built folders (served the
 * way the API serves them, remotes and manifest included) and sums every script it fetched, from any
 * path, so a script the graph does not know about (another entry, a tag in index.html, a remote
 * entry loaded at start) still counts. Remotes are measured from their graphs.
 * The storefront's course page (issue 21: at most 60 KB gzip before it is interactive) is measured
 * from its build's manifest (storefront/dist/client/manifest.json: every script the page names) and
 * in chromium, which opens a course page rendered by the storefront's server build and served with
 * its client files the way the API serves them, waits until it has hydrated, and sums every script
 * it fetched; likewise a checkout page with a checkout form (at most 120 KB, the form's answer rules
 * included, which load when it opens). The checkout overlay's script (storefront/dist/overlay/checkout-overlay.js, served at
 * /checkout-overlay.js) must stay within 5 KB gzip.
 * `--shell-only` skips the remotes and the storefront; `--no-browser` skips the chromium measures
 * (not in `npm test`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KB = 1024;
// Issue 12: initial JavaScript before sign-in at most 200 KB gzip; each remote's entry plus its
// first drawer at most 60 KB gzip.
const SHELL_BUDGET = 200 * KB;
const REMOTE_BUDGET = 60 * KB;
const REMOTES = ['courses', 'orders', 'students', 'integrations'];
const STORE_PAGE_BUDGET = 60 * KB;
// Issue 21: the checkout (with a checkout form, whose answer rules load when the page opens).
const CHECKOUT_BUDGET = 120 * KB;
// Issue 21: the checkout overlay's script, which studios paste into their own sites.
const OVERLAY_BUDGET = 5 * KB;

function readGraph(workspace) {
  const file = path.join(root, workspace, 'dist', 'chunk-graph.json');
  if (!existsSync(file))
    throw new Error(`${file} is missing: run npm run build -w @studio/${workspace} first`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Files loaded from the start groups, following import() and shared-module consumes. A provided
 * shared module is only registered at start, its chunk loads when consumed, so those edges are
 * not followed; neither are groups the page does not open (the admin area, other drawers).
 */
function loadedFiles(graph, startIds, skip) {
  const byId = new Map(graph.map((group) => [group.id, group]));
  const files = new Set();
  const seen = new Set();
  const queue = [...startIds];
  while (queue.length) {
    const group = byId.get(queue.shift());
    if (!group || seen.has(group.id)) continue;
    seen.add(group.id);
    group.files.forEach((file) => files.add(file));
    for (const child of group.children) {
      const target = byId.get(child.id);
      if (child.via.every((via) => via === 'provide-module')) continue;
      if (target && skip(target)) continue;
      queue.push(child.id);
    }
  }
  return [...files];
}

function gzipBytes(workspace, files) {
  return files.reduce(
    (sum, file) => sum + gzipSize(readFileSync(path.join(root, workspace, 'dist', file))),
    0,
  );
}

const gzipSize = (buffer) => gzipSync(buffer, { level: 9 }).length;

const TYPES = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.json': 'application/json',
  '.css': 'text/css',
};

/** Serves the built shell and remotes as the API does (static-web.ts): files, else index.html. */
function serveBuild() {
  const send = (res, file) => {
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  };
  const isFile = (file) => existsSync(file) && statSync(file).isFile();
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (pathname === '/mfe-manifest.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Object.fromEntries(REMOTES.map((r) => [r, `/mfe/${r}/remoteEntry.js`]))));
      return;
    }
    const remote = /^\/mfe\/([a-z]+)(\/.*)$/.exec(pathname);
    const dir = remote ? path.join(root, `mfe-${remote[1]}`, 'dist') : path.join(root, 'shell', 'dist');
    const file = path.join(dir, path.normalize(remote ? remote[2] : pathname));
    if (file.startsWith(dir + path.sep) && isFile(file)) return send(res, file);
    if (pathname.startsWith('/api/') || remote) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, message: 'Not found' }));
      return;
    }
    send(res, path.join(root, 'shell', 'dist', 'index.html'));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * A course page as the API renders it (storefront/dist/server.js, a course with two sessions and two
 * pictures), with the client's files under /s-assets/.
 */
async function serveStorePage() {
  const require = createRequire(import.meta.url);
  const dist = path.join(root, 'storefront', 'dist');
  const { render, pageAssets } = require(path.join(dist, 'server.js'));
  const assets = pageAssets(
    JSON.parse(readFileSync(path.join(dist, 'client', 'manifest.json'), 'utf8')),
    '/s-assets/',
  );
  const soon = (days) => new Date(Date.now() + days * 86400000).toISOString();
  const session = (id, days, seats) => ({
    event_id: `00000000-0000-4000-8000-00000000000${id}`,
    name: 'Wheel throwing',
    starts_at: soon(days),
    ends_at: soon(days + 0.1),
    timezone: 'America/New_York',
    price_cents: 6500,
    seats_left: seats,
    sold_out: seats === 0,
    location_name: 'Main studio',
    online: false,
  });
  const course = {
    activity_id: '00000000-0000-4000-8000-000000000100',
    name: 'Wheel throwing',
    summary: 'Center clay and throw a cylinder.',
    activity_type: 'scheduled',
    level: 'Beginner',
    category: 'Ceramics',
    price_cents: 6500,
    free: false,
    image_url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
    location_name: 'Main studio',
    instructor_name: 'Mira',
    next_starts_at: soon(3),
    url: '/s/demo/activity/00000000-0000-4000-8000-000000000100',
    description: 'Center clay and throw a cylinder.',
    tools: 'Apron',
    images: [
      'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yw=',
    ],
    single_party: false,
    duration_mins: null,
    instructor: { name: 'Mira', photo_url: null },
    location: { name: 'Main studio', address: '12 Kiln Street', timezone: 'America/New_York', online: false },
    cancellation_policy: { name: 'Flexible', rule: 'Full refund up to 24 hours before.' },
    rescheduling_policy: { name: 'Flexible', rule: 'Move up to 24 hours before.' },
    requires_waiver: false,
    sessions: [session(1, 3, 2), session(2, 10, 0)],
    checkout_form: {
      collection_type: 'ticket',
      fields: [
        { id: 'f1', type: 'name', label: 'Your name', placeholder: '', description: '', required: true, options: [] },
        { id: 'f2', type: 'email', label: 'Email', placeholder: '', description: '', required: true, options: [] },
        {
          id: 'f3',
          type: 'radio',
          label: 'Experience',
          placeholder: '',
          description: '',
          required: false,
          options: [
            { id: 'o1', value: 'None' },
            { id: 'o2', value: 'Some' },
          ],
        },
      ],
    },
  };
  const checkoutUrl = '/s/demo/checkout';
  const client = path.join(dist, 'client');
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    if (pathname.startsWith('/s-assets/')) {
      const file = path.join(client, path.normalize(pathname.slice('/s-assets/'.length)));
      if (file.startsWith(client + path.sep) && existsSync(file)) {
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        return res.end(readFileSync(file));
      }
    }
    if (pathname === course.url || pathname === checkoutUrl) {
      const checkout = pathname === checkoutUrl;
      const html = render({
        page: checkout ? 'checkout' : 'course',
        data: checkout ? { store_name: 'Demo', course, session: course.sessions[0] } : course,
        base: '/s/demo',
        pageUrl: `http://${req.headers.host}${pathname}`,
        origin: `http://${req.headers.host}`,
        assets,
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(html);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { server, url: `${origin}${course.url}`, checkoutUrl: `${origin}${checkoutUrl}` };
}

/**
 * Opens a store course page, then a checkout page (each in a fresh page), in chromium until each has
 * hydrated and gone quiet; every script response of each, path and gzip size.
 */
async function storePageScripts() {
  const { chromium } = await import('playwright-core');
  const { server, url, checkoutUrl } = await serveStorePage();
  const profile = mkdtempSync(path.join(tmpdir(), 'bundle-budget-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const scriptsOf = async (address) => {
    const page = await context.newPage();
    const responses = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') responses.push(response);
    });
    await page.goto(address, { waitUntil: 'networkidle' });
    // Interactive: the client has hydrated the server's HTML.
    await page.locator('html[data-hydrated="true"]').waitFor({ timeout: 20000 });
    await page.waitForLoadState('networkidle');
    const scripts = [];
    for (const response of responses) {
      scripts.push({ path: new URL(response.url()).pathname, bytes: gzipSize(await response.body()) });
    }
    await page.close();
    return scripts;
  };
  try {
    return { course: await scriptsOf(url), checkout: await scriptsOf(checkoutUrl) };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

/** Opens the sign-in page signed out in chromium; every script response, its path and gzip size. */
async function signInPageScripts() {
  const { chromium } = await import('playwright-core');
  const server = await serveBuild();
  const profile = mkdtempSync(path.join(tmpdir(), 'bundle-budget-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await context.newPage();
    const responses = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') responses.push(response);
    });
    const url = `http://127.0.0.1:${server.address().port}/admin/sign-in`;
    await page.goto(url, { waitUntil: 'networkidle' });
    // The page must be the working sign-in form, not an error screen that loaded less.
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ timeout: 20000 });
    await page.waitForLoadState('networkidle');
    const scripts = [];
    for (const response of responses) {
      scripts.push({ path: new URL(response.url()).pathname, bytes: gzipSize(await response.body()) });
    }
    return scripts;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

const rows = [];

const shell = readGraph('shell');
const shellStart = shell.filter((group) => group.name === 'main').map((group) => group.id);
const shellFiles = loadedFiles(shell, shellStart, (group) => group.name === 'admin');
rows.push({
  what: 'shell before sign-in, chunk graph',
  files: shellFiles.length,
  bytes: gzipBytes('shell', shellFiles),
  budget: SHELL_BUDGET,
});
if (!process.argv.includes('--no-browser')) {
  const scripts = await signInPageScripts();
  rows.push({
    what: 'shell before sign-in, in chromium',
    files: scripts.length,
    bytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    budget: SHELL_BUDGET,
  });
}

for (const remote of REMOTES) {
  const workspace = `mfe-${remote}`;
  if (process.argv.includes('--shell-only')) break;
  const graph = readGraph(workspace);
  const entry = graph.find((group) => group.name === `mfe_${remote}`);
  // The first drawer of the registry (src/drawers.ts) names its chunk "drawer-<type>".
  const registry = readFileSync(path.join(root, workspace, 'src', 'drawers.ts'), 'utf8');
  const firstName = /webpackChunkName:\s*"(drawer-[^"]+)"/.exec(registry)?.[1];
  const first = graph.find((group) => group.name === firstName);
  if (!entry || !first) throw new Error(`${workspace}: no remote entry or drawer chunk in the build`);
  // The './drawers' expose is the one that loads the first drawer; './pages' (a remote's list
  // pages, issue 20) loads when a page is visited, not when a drawer opens.
  const byId = new Map(graph.map((group) => [group.id, group]));
  const exposeIds = entry.children
    .map((child) => child.id)
    .filter((id) => byId.get(id)?.children.some((child) => child.id === first.id));
  const files = loadedFiles(
    graph,
    [entry.id, ...exposeIds, first.id],
    (group) => (group.name?.startsWith('drawer-') && group !== first) || group.name?.startsWith('page-'),
  );
  rows.push({
    what: `${workspace} entry + ${first.name}`,
    files: files.length,
    bytes: gzipBytes(workspace, files),
    budget: REMOTE_BUDGET,
  });
}

if (!process.argv.includes('--shell-only')) {
  const manifestFile = path.join(root, 'storefront', 'dist', 'client', 'manifest.json');
  if (!existsSync(manifestFile))
    throw new Error(`${manifestFile} is missing: run npm run build -w @studio/storefront first`);
  const { scripts } = JSON.parse(readFileSync(manifestFile, 'utf8'));
  rows.push({
    what: 'storefront course page, build manifest',
    files: scripts.length,
    bytes: scripts.reduce(
      (sum, file) => sum + gzipSize(readFileSync(path.join(root, 'storefront', 'dist', 'client', file))),
      0,
    ),
    budget: STORE_PAGE_BUDGET,
  });
  const overlayFile = path.join(root, 'storefront', 'dist', 'overlay', 'checkout-overlay.js');
  if (!existsSync(overlayFile))
    throw new Error(`${overlayFile} is missing: run npm run build -w @studio/storefront first`);
  rows.push({
    what: 'checkout overlay script',
    files: 1,
    bytes: gzipSize(readFileSync(overlayFile)),
    budget: OVERLAY_BUDGET,
  });
  if (!process.argv.includes('--no-browser')) {
    const loaded = await storePageScripts();
    rows.push({
      what: 'storefront course page, in chromium',
      files: loaded.course.length,
      bytes: loaded.course.reduce((sum, script) => sum + script.bytes, 0),
      budget: STORE_PAGE_BUDGET,
    });
    rows.push({
      what: 'storefront checkout + form, in chromium',
      files: loaded.checkout.length,
      bytes: loaded.checkout.reduce((sum, script) => sum + script.bytes, 0),
      budget: CHECKOUT_BUDGET,
    });
  }
}

const pad = (text, width) => String(text).padEnd(width);
console.log(`${pad('bundle', 44)}${pad('files', 7)}${pad('gzip KB', 10)}${pad('budget KB', 11)}result`);
let over = false;
for (const row of rows) {
  const ok = row.bytes <= row.budget;
  over ||= !ok;
  console.log(
    `${pad(row.what, 44)}${pad(row.files, 7)}${pad((row.bytes / KB).toFixed(1), 10)}${pad(row.budget / KB, 11)}${ok ? 'ok' : 'OVER BUDGET'}`,
  );
}
process.exit(over ? 1 : 0);
