import { STORE_MESSAGES, VALID_PRODUCT } from '@studio/contracts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storefrontDist } from '../src/web/storefront-web';
import { addStudent, schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The online store's pages (issue 21), rendered by the API process from the storefront's build
 * (`nx run-many -t build` runs before these tests): what a browser, a link preview or a search
 * engine reads before any script runs, the 404 page, the store's own framing policy, escaping,
 * and the rate limit the Storefront API has.
 */

const PUBLIC_APP_URL = 'https://app.example.test';

function requireBuild(config: TestApp['config']) {
  const dist = storefrontDist(config);
  if (!existsSync(join(dist, 'server.js')) || !existsSync(join(dist, 'client', 'manifest.json')))
    throw new Error(`${dist} is missing: run npm run build -w @studio/storefront first`);
}

/** The content of each <script> of that type, e.g. application/ld+json. */
const scripts = (html: string, type: string) =>
  [
    ...html.matchAll(
      new RegExp(`<script type="${type.replace('+', '\\+')}"[^>]*>([\\s\\S]*?)</script>`, 'g'),
    ),
  ].map((m) => m[1]);

const meta = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];

/** The page's text as a reader sees it: tags dropped, entities decoded. */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('storefront pages: server-rendered store and course pages', () => {
  let t: TestApp;
  let token: string;
  let slug: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;
  const sessions: Record<'open' | 'few' | 'full', string> = { open: '', few: '', full: '' };

  beforeAll(async () => {
    t = await startTestApp({
      MEDIA_DIR: `/tmp/studio-media-test-storefront-pages-${process.pid}`,
      PUBLIC_APP_URL,
      PUBLIC_REQUESTS_PER_MINUTE: '10000',
    });
    requireBuild(t.config);
    ({ token } = await t.organizationWithUser('owner', 'Kiln House'));
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    // The studio is in New York; this location is in Paris, where its sessions' times are read.
    const paris = await t.http
      .post('/api/admin/location')
      .set('token', token)
      .send({ name: 'Atelier Paris', address: '3 Rue des Potiers, Paris', timezone: 'Europe/Paris' })
      .expect(201);
    course = await schedulableCourse(t, token, 8, {
      name: 'Raku & Smoke',
      description: 'Fire raku pots outdoors.\n\nGlazes and one firing included.',
      location_id: paris.body.location_id,
    });
    course.location_id = paris.body.location_id;
    sessions.open = await scheduleSession(t, token, course, { capacity: 8, daysFromNow: 20, price: 7000 });
    sessions.few = await scheduleSession(t, token, course, { capacity: 3, daysFromNow: 10, price: 6500 });
    sessions.full = await scheduleSession(t, token, course, { capacity: 1, daysFromNow: 5, price: 6500 });
    for (const [event, count] of [
      [sessions.few, 2],
      [sessions.full, 1],
    ] as const)
      for (let i = 0; i < count; i++) {
        const student = await addStudent(t, token);
        await t.http
          .post(`/api/admin/orders/enroll/${student}`)
          .set('token', token)
          .send({ event_id: event })
          .expect(201);
      }
    await t.http
      .post('/api/admin/products')
      .set('token', token)
      .send({ ...VALID_PRODUCT })
      .expect(201);
  });
  afterAll(() => t.close());

  it('writes the course page with its content before any script: sessions in the location’s zone, seats, Book links', async () => {
    const res = await t.http.get(`/s/${slug}/activity/${course.activity_id}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<h1>Raku &amp; Smoke</h1>');
    const page = text(html);
    // 18:00 in Paris, named: CET in winter, CEST in summer.
    expect(page).toMatch(/6:00 PM – 8:00 PM CES?T/);
    expect(page).toContain('Atelier Paris');
    expect(page).toContain('Only 1 seat left');
    expect(page).toContain('8 seats left');
    expect(page).toContain('Sold out');
    expect(page).toContain('Glazes and one firing included.');
    // A Book link for each session with seats, none for the sold-out one; under this app.
    const book = [...html.matchAll(/<a href="([^"]+)" class="button">Book/g)].map((m) =>
      m[1].replace(/&amp;/g, '&'),
    );
    expect(book.sort()).toEqual(
      [sessions.few, sessions.open].map((id) => `/s/${slug}/checkout?event_id=${id}`).sort(),
    );
    // The data it was rendered from, for hydration: JSON, not a running script.
    const [data] = scripts(html, 'application/json');
    expect(JSON.parse(data)).toMatchObject({
      page: 'course',
      base: `/s/${slug}`,
      data: { name: 'Raku & Smoke' },
    });
  });

  it('gives link previews and search engines Open Graph tags and JSON-LD Events with offers', async () => {
    const html = (await t.http.get(`/s/${slug}/activity/${course.activity_id}`).expect(200)).text;
    const pageUrl = `${PUBLIC_APP_URL}/s/${slug}/activity/${course.activity_id}`;
    expect(html).toContain('<title>Raku &amp; Smoke</title>');
    expect(html).toContain(
      '<meta name="description" content="Fire raku pots outdoors. Glazes and one firing included.">',
    );
    expect(meta(html, 'og:title')).toBe('Raku &amp; Smoke');
    expect(meta(html, 'og:type')).toBe('website');
    expect(meta(html, 'og:url')).toBe(pageUrl);
    expect(meta(html, 'og:description')).toContain('Fire raku pots outdoors.');
    expect(meta(html, 'og:image')).toMatch(new RegExp(`^${PUBLIC_APP_URL}/api/media/`));

    const [ld] = scripts(html, 'application/ld+json');
    const events = JSON.parse(ld) as {
      startDate: string;
      endDate: string;
      offers: { url: string; availability: string };
    }[];
    expect(events).toHaveLength(3);
    const byEvent = (id: string) => events.find((e) => e.offers.url.endsWith(`event_id=${id}`))!;
    for (const event of events) {
      expect(event).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: 'Raku & Smoke',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: { '@type': 'Place', name: 'Atelier Paris', address: '3 Rue des Potiers, Paris' },
        offers: { '@type': 'Offer', priceCurrency: 'USD' },
      });
      expect(new Date(event.endDate).getTime()).toBeGreaterThan(new Date(event.startDate).getTime());
    }
    expect(byEvent(sessions.full).offers).toMatchObject({
      price: '65.00',
      availability: 'https://schema.org/SoldOut',
    });
    expect(byEvent(sessions.few).offers.availability).toBe('https://schema.org/InStock');
    expect(byEvent(sessions.open).offers).toMatchObject({
      price: '70.00',
      availability: 'https://schema.org/InStock',
      url: `${PUBLIC_APP_URL}/s/${slug}/checkout?event_id=${sessions.open}`,
    });
  });

  it('lists the published courses and the products on the store home, and answers HEAD', async () => {
    const html = (await t.http.get(`/s/${slug}`).expect(200)).text;
    expect(html).toContain('<h1>Kiln House</h1>');
    expect(html).toContain(`<a href="/s/${slug}/activity/${course.activity_id}">Raku &amp; Smoke</a>`);
    expect(text(html)).toContain('Glaze sampler kit');
    const head = await t.http.head(`/s/${slug}/activity/${course.activity_id}`).expect(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers the 404 page for another organization’s course under this slug, an unknown store or a bad id', async () => {
    const other = await t.organizationWithUser('owner', 'Other Kiln');
    const theirs = await schedulableCourse(t, other.token, 4, { name: 'Their course' });
    await scheduleSession(t, other.token, theirs);
    const otherSlug = (await t.http.get('/api/admin/org').set('token', other.token).expect(200)).body.slug;
    await t.http.get(`/s/${otherSlug}/activity/${theirs.activity_id}`).expect(200);

    for (const path of [`/s/${slug}/activity/${theirs.activity_id}`, `/s/${slug}/activity/not-a-uuid`]) {
      const res = await t.http.get(path).expect(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(text(res.text)).toContain(`${STORE_MESSAGES.courseNotFound}.`);
      expect(res.text).not.toContain('Their course');
      expect(res.text).toContain(`<a href="/s/${slug}">See all courses</a>`);
    }
    const unknown = await t.http.get('/s/no-such-studio-here').expect(404);
    expect(text(unknown.text)).toContain(`${STORE_MESSAGES.storeNotFound}.`);
    // The store's paths are never the admin's page (SHELL_ROUTES) nor the API's JSON.
    expect(unknown.text).toContain('<meta name="robots" content="noindex">');
  });

  it('lets any site frame the store pages with their own CSP, while the admin keeps frame-ancestors none', async () => {
    for (const path of [
      `/s/${slug}`,
      `/s/${slug}/activity/${course.activity_id}`,
      '/s/no-such-studio-here',
    ]) {
      const res = await t.http.get(path);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain('frame-ancestors *');
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
    for (const path of ['/admin', '/admin/courses', '/api/health', `/api/public/${slug}`]) {
      const res = await t.http.get(path);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('writes markup in a course name as text, never as a script', async () => {
    const named = await schedulableCourse(t, token, 4, {
      name: '</script><script>alert(1)</script>',
      description: '<img src=x onerror=alert(2)> "quoted" & more',
    });
    await scheduleSession(t, token, named);
    for (const path of [`/s/${slug}/activity/${named.activity_id}`, `/s/${slug}`]) {
      const html = (await t.http.get(path).expect(200)).text;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<img src=x');
      // Only the page's own script elements: its data, its JSON-LD (course page), its bundle.
      const tags = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
      for (const tag of tags) expect(tag).toMatch(/type="application\/(ld\+)?json"|defer src="\/s-assets\//);
      expect(text(html)).toContain('</script><script>alert(1)</script>');
    }
    const page = (await t.http.get(`/s/${slug}/activity/${named.activity_id}`).expect(200)).text;
    const [ld] = scripts(page, 'application/ld+json');
    expect(ld).not.toContain('<');
    expect(JSON.parse(ld)[0].name).toBe('</script><script>alert(1)</script>');
  });

  it('serves the client files named in the page, cached for a year', async () => {
    const html = (await t.http.get(`/s/${slug}`).expect(200)).text;
    const src = /<script defer src="(\/s-assets\/[^"]+\.js)">/.exec(html)?.[1];
    const href = /<link rel="stylesheet" href="(\/s-assets\/[^"]+\.css)">/.exec(html)?.[1];
    expect(src).toBeDefined();
    expect(href).toBeDefined();
    const js = await t.http.get(src!).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
    const css = await t.http.get(href!).expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    await t.http.get('/s-assets/manifest.json').expect(404);
  });
});

describe('storefront pages: the rate limit per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_REQUESTS_PER_MINUTE: '3' });
    requireBuild(t.config);
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the budget, as the Storefront API does', async () => {
    const { token } = await t.organizationWithUser('owner', 'Busy Kiln');
    const slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    for (let i = 0; i < 3; i++) await t.http.get(`/s/${slug}`).expect(200);
    const refused = await t.http.get(`/s/${slug}`).expect(429);
    expect(refused.text).toBe(STORE_MESSAGES.tooManyRequests);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.http.get('/api/admin/org').set('token', token).expect(200);
  });
});
