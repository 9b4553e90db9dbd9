/* global document, getComputedStyle, window -- read inside page.evaluate callbacks, which run in the browser */
// Issue 7 §7 in chromium against the real API: the Students page (search, open the drawer, New
// student saved through the API), the Courses list (search, sort and paging by the server), a
// 390 px phone (course title and menu wrap by word, not letter by letter) and the sign-in page's
// font and frame.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { signIn } from '../support/browser.mjs';
import { OWNER, ownerToken, useDemoStudio } from '../support/studio.mjs';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let get;
let send;

const studio = useDemoStudio();

before(async () => {
  await studio.ready;
  const token = await ownerToken(studio.url);
  get = async (path) => (await fetch(`${studio.url}${path}`, { headers: { token } })).json();
  send = async (method, path, body) => {
    const res = await fetch(`${studio.url}${path}`, {
      method,
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${path} answered ${res.status}`);
    return res.json();
  };
});

/** A course made through the API (with an uploaded image, as the API requires). */
async function createCourse(name, price) {
  const { locations } = await get('/api/admin/location');
  const { instructors } = await get('/api/admin/instructor');
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'c.png');
  const upload = await fetch(`${studio.url}/api/admin/upload`, {
    method: 'POST',
    headers: { token: await loginToken() },
    body: form,
  });
  assert.ok(upload.ok, `upload answered ${upload.status}`);
  const { url } = await upload.json();
  const created = await send('POST', '/api/admin/activities', {
    name,
    material: 'Ceramics',
    priceType: 'standard',
    price,
    description: 'A course made by the lists browser test.',
    capacity: 8,
    images: [url],
    location_id: locations[0].location_id,
    instructor_id: instructors[0].instructor_id,
    level: 'Beginner',
  });
  return created.activity_id;
}

/** Courses whose prices do not follow their names, created in name order. */
async function createCourses(prefix, count) {
  const names = [];
  for (let i = 1; i <= count; i++) {
    const name = `${prefix} ${String(i).padStart(2, '0')}`;
    await createCourse(name, 3700 + ((i * 7) % count) * 100);
    names.push(name);
  }
  return names;
}

let cachedToken;
async function loginToken() {
  if (cachedToken) return cachedToken;
  cachedToken = await ownerToken(studio.url);
  return cachedToken;
}

const rowNames = (page) =>
  page
    .locator('.ant-table-tbody tr.ant-table-row')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('a')?.textContent ?? ''));

test('Students page: New student saves through the API and appears; search finds them and a row opens the student drawer', async () => {
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const suffix = randomUUID().slice(0, 8);
  const email = `nova.${suffix}@clay.test`;

  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Students', { exact: true }).click();
  await page.waitForURL(/\/admin\/students$/);
  // A list from the API, not a pasted-id box.
  await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  assert.equal(await page.getByLabel('Student id').count(), 0);
  const total = (await get('/api/admin/student?limit=1')).totalCount;
  await page.getByText(`${total} students`).waitFor();

  await page.getByRole('button', { name: 'New student' }).click();
  const dialog = page.getByRole('dialog', { name: 'New student' });
  await dialog.getByLabel('First name').fill('Nova');
  await dialog.getByLabel('Last name').fill(`Kiln${suffix}`);
  await dialog.getByLabel('Email').fill(email.toUpperCase());
  await dialog.getByRole('button', { name: 'Add student' }).click();
  await page.getByText('Student added').waitFor();
  await dialog.waitFor({ state: 'hidden' });

  // Saved by the API (the email lower-cased), and shown in the list.
  const saved = await get(`/api/admin/student?search=${encodeURIComponent(email)}`);
  assert.equal(saved.totalCount, 1);
  assert.equal(saved.students[0].email, email);
  assert.equal(saved.students[0].last_name, `Kiln${suffix}`);
  await page.getByRole('cell', { name: email }).waitFor();

  // The same email again: the API's 409 message on the field, nothing added.
  await page.getByRole('button', { name: 'New student' }).click();
  await dialog.getByLabel('First name').fill('Nova');
  await dialog.getByLabel('Last name').fill('Again');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Add student' }).click();
  await dialog.getByText('A student with this email already exists.').waitFor();
  assert.equal((await get(`/api/admin/student?search=${encodeURIComponent(email)}`)).totalCount, 1);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // Search by part of the last name, then open the drawer from the row.
  const search = page.getByRole('searchbox', { name: 'Search students' });
  await search.fill('');
  await search.fill(`kiln${suffix}`);
  await page.getByText('1 student', { exact: true }).waitFor();
  await page.getByRole('cell', { name: `Nova Kiln${suffix}` }).click();
  await page.waitForURL(new RegExp(`/admin/students/${saved.students[0].student_id}$`));
  const drawer = page.getByRole('dialog');
  await drawer.getByText(email).waitFor();
  await drawer.getByText(`Kiln${suffix}`, { exact: false }).first().waitFor();

  assert.deepEqual(errors, []);
  await page.close();
});

test('Courses list: search, sort and paging come from the server', async () => {
  const prefix = `Glaze lab ${randomUUID().slice(0, 6)}`;
  const names = await createCourses(prefix, 23);
  const page = await studio.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const listCalls = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/admin/activities?')) listCalls.push(new URL(request.url()).searchParams);
  });

  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('searchbox', { name: 'Search courses' }).fill(prefix.toUpperCase());
  await page.getByText('23 courses').waitFor();
  // Newest first, 20 a page.
  await page.waitForFunction(
    (first) => document.querySelector('.ant-table-tbody tr.ant-table-row a')?.textContent === first,
    names.at(-1),
  );
  assert.equal((await rowNames(page)).length, 20);

  await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
  await page.waitForFunction(
    () => document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length === 3,
  );
  assert.deepEqual(await rowNames(page), [names[2], names[1], names[0]]);
  const pageTwo = listCalls.at(-1);
  assert.equal(pageTwo.get('page'), '2');
  assert.equal(pageTwo.get('search')?.toLowerCase(), prefix.toLowerCase());

  // Sorting by price (highest first) reads the whole list from the server, from page 1.
  const price = page.getByRole('columnheader', { name: /Price/ });
  await price.click();
  await price.click();
  await page.waitForFunction(
    () => document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length === 20,
  );
  const expected = (
    await get(
      `/api/admin/activities?search=${encodeURIComponent(prefix)}&sortField=unit_price&sortOrder=desc&limit=20`,
    )
  ).activities.map((c) => c.name);
  await page.waitForFunction(
    (first) => document.querySelector('.ant-table-tbody tr.ant-table-row a')?.textContent === first,
    expected[0],
  );
  assert.deepEqual(await rowNames(page), expected);
  const sorted = listCalls.at(-1);
  assert.equal(sorted.get('sortField'), 'unit_price');
  assert.equal(sorted.get('sortOrder'), 'desc');
  assert.equal(sorted.get('page'), '1');

  assert.deepEqual(errors, []);
  await page.close();
});

/** Lines each word of an element's text spans (1 everywhere when nothing breaks inside a word). */
const wordLines = (locator) =>
  locator.evaluate((el) => {
    const text =
      el.firstChild && el.firstChild.nodeType === 3
        ? el.firstChild
        : [...el.childNodes].find((n) => n.nodeType === 3);
    const node = text ?? el;
    const content = node.textContent ?? '';
    const result = [];
    let at = 0;
    for (const word of content.split(/\s+/).filter(Boolean)) {
      const start = content.indexOf(word, at);
      at = start + word.length;
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + word.length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      result.push({ word, lines: tops.size });
    }
    const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
    return {
      words: result,
      lines: Math.round(el.getBoundingClientRect().height / lineHeight),
      width: el.getBoundingClientRect().width,
    };
  });

test('a 390 px phone: the course title and the menu wrap by word, never letter by letter', async () => {
  const longName = 'Wheel throwing for complete beginners weekend';
  const courseId = await createCourse(longName, 4500);
  const page = await studio.browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));

  // The sign-in page: the app's font, and no white frame around its background.
  // Pages of one profile share localStorage: sign out any earlier session to see the sign-in page.
  await page.goto(`${studio.url}/admin/sign-in`);
  await page.evaluate(() => globalThis.localStorage.clear());
  await page.goto(`${studio.url}/admin/sign-in`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  const look = await page.evaluate(() => {
    const body = getComputedStyle(document.body);
    const heading = getComputedStyle(document.querySelector('h1'));
    const button = getComputedStyle(document.querySelector('button[type="submit"]'));
    return {
      margin: body.margin,
      bodyFont: body.fontFamily,
      heading: heading.fontFamily,
      button: button.fontFamily,
    };
  });
  assert.equal(look.margin, '0px');
  assert.match(look.bodyFont, /Segoe UI/);
  assert.equal(look.heading, look.bodyFont);
  assert.equal(look.button, look.bodyFont);

  // signIn waits for the desktop menu; the phone layout is checked after it.
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${studio.url}/admin/courses/${courseId}`);
  const title = page.getByRole('heading', { name: longName, exact: true });
  await title.waitFor();
  const measured = await wordLines(title);
  for (const { word, lines } of measured.words)
    assert.equal(lines, 1, `"${word}" breaks across ${lines} lines`);
  // Six words on at most as many lines, in a box wider than a few letters.
  assert.ok(measured.lines <= 6, `the title takes ${measured.lines} lines`);
  assert.ok(measured.width > 200, `the title is ${measured.width}px wide`);

  // The menu folds behind a Menu button and opens over the page; each item stays on one line.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('button', { name: 'Menu' }).click();
  for (const label of ['Courses', 'Students', 'Integrations', 'Instructors']) {
    const item = nav.getByText(label, { exact: true });
    await item.waitFor();
    const { lines, words } = await wordLines(item);
    assert.equal(lines, 1, `menu item ${label} takes ${lines} lines`);
    assert.ok(words.every((w) => w.lines === 1));
  }
  await nav.getByText('Students', { exact: true }).click();
  await page.waitForURL(/\/admin\/students$/);
  await page.getByRole('heading', { name: 'Students', exact: true }).waitFor();

  assert.deepEqual(errors, []);
  await page.close();
});

test('New Course drawer: the footer never covers a field, and unsaved changes ask before closing', async () => {
  const page = await studio.browser.context.newPage();
  await page.setViewportSize({ width: 1400, height: 700 });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, studio.url, OWNER.email, OWNER.password);
  await page.getByRole('button', { name: 'New course' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'New Course' }).waitFor();

  const layout = () =>
    page.evaluate(() => {
      const scroller = document.querySelector('[data-drawer-scroll]');
      const footer = document.querySelector('[data-drawer-shell] [aria-label="Drawer actions"]');
      const fields = [...scroller.querySelectorAll('input, textarea, .ant-select')].filter(
        (f) => f.getBoundingClientRect().height > 0,
      );
      const last = fields.at(-1).getBoundingClientRect();
      return {
        scrolls: scroller.scrollHeight > scroller.clientHeight,
        scrollerBottom: scroller.getBoundingClientRect().bottom,
        footerTop: footer.getBoundingClientRect().top,
        footerBottom: footer.getBoundingClientRect().bottom,
        lastBottom: last.bottom,
        viewport: window.innerHeight,
      };
    });
  const top = await layout();
  assert.ok(top.scrolls, 'the New Course form is longer than the drawer');
  // The scrolling box ends where the footer starts: nothing scrolls under the footer.
  assert.ok(
    top.scrollerBottom <= top.footerTop + 1,
    `scroll box ends at ${top.scrollerBottom}, footer starts at ${top.footerTop}`,
  );
  assert.ok(top.footerBottom <= top.viewport + 1);
  await page.evaluate(() => {
    const scroller = document.querySelector('[data-drawer-scroll]');
    scroller.scrollTop = scroller.scrollHeight;
  });
  const bottom = await layout();
  assert.ok(
    bottom.lastBottom <= bottom.footerTop,
    `the last field ends at ${bottom.lastBottom}, under the footer at ${bottom.footerTop}`,
  );

  // Unsaved changes: Escape and Cancel ask; Keep editing keeps the text; the close button and Discard close.
  await dialog.getByLabel('Name', { exact: true }).fill('Half-typed course');
  await page.keyboard.press('Escape');
  const confirm = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await confirm.waitFor({ state: 'hidden' });
  assert.equal(await dialog.getByLabel('Name', { exact: true }).inputValue(), 'Half-typed course');
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await confirm.waitFor({ state: 'hidden' });
  assert.equal(await dialog.getByLabel('Name', { exact: true }).inputValue(), 'Half-typed course');
  await page.locator('.ant-drawer-close').click();
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('heading', { name: 'New Course' }).waitFor({ state: 'detached' });

  assert.deepEqual(errors, []);
  await page.close();
});
