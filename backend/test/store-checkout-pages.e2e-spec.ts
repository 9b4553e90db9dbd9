import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storefrontDist } from '../src/web/storefront-web';
import { schedulableCourse, scheduleSession } from './support/scheduling-fixtures';
import { startTestApp, TestApp } from './test-app';

/**
 * The store's checkout pages (issue 21), rendered by the API process from the storefront's build:
 * a session's checkout shows the session and the form before any script runs; the confirmation page
 * opens only with the order's token and follows the order from waiting to booked.
 */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

describe('storefront pages: the checkout and its confirmation', () => {
  let t: TestApp;
  let token: string;
  let slug: string;
  let course: Awaited<ReturnType<typeof schedulableCourse>>;

  beforeAll(async () => {
    t = await startTestApp({
      MEDIA_DIR: `/tmp/studio-media-test-checkout-pages-${process.pid}`,
      PUBLIC_APP_URL: 'http://studio.test',
      PUBLIC_REQUESTS_PER_MINUTE: '10000',
    });
    const dist = storefrontDist(t.config);
    if (!existsSync(join(dist, 'server.js')))
      throw new Error(`${dist} is missing: run npm run build -w @studio/storefront first`);
    ({ token } = await t.organizationWithUser('owner', 'Glaze Works'));
    slug = (await t.http.get('/api/admin/org').set('token', token).expect(200)).body.slug;
    course = await schedulableCourse(t, token, 6, { name: 'Glaze chemistry' });
  });
  afterAll(() => t.close());

  it('shows a session’s checkout with its time, price, seats and the booking form', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 3, price: 3500, daysFromNow: 9 });
    const page = await t.http.get(`/s/${slug}/checkout?event_id=${eventId}`).expect(200);
    const shown = text(page.text);
    expect(shown).toContain('Book Glaze chemistry');
    expect(shown).toMatch(/6:00 PM – 8:00 PM E[SD]T/);
    expect(shown).toContain('$35.00');
    expect(page.text).toMatch(/<select id="party_size"[^>]*>[\s\S]*3 seats[\s\S]*<\/select>/);
    for (const label of ['First name', 'Last name', 'Email', 'Discount code (optional)'])
      expect(shown).toContain(label);
    expect(page.text).toContain('<meta name="robots" content="noindex">');
  });

  it('answers the 404 page for a session that cannot be booked here', async () => {
    const other = await t.organizationWithUser('owner', 'Other Works');
    const theirs = await scheduleSession(t, other.token, await schedulableCourse(t, other.token));
    for (const url of [
      `/s/${slug}/checkout?event_id=${theirs}`,
      `/s/${slug}/checkout`,
      `/s/${slug}/checkout?event_id=nope`,
    ]) {
      const page = await t.http.get(url).expect(404);
      expect(text(page.text)).toContain('Session not found');
    }
  });

  it('opens the confirmation only with the order’s token, and follows it from waiting to booked', async () => {
    const eventId = await scheduleSession(t, token, course, { capacity: 4, price: 2000, daysFromNow: 10 });
    const res = await t.http
      .post(`/api/public/${slug}/checkout`)
      .send({
        event_id: eventId,
        party_size: 2,
        first_name: 'Ada',
        last_name: 'Potter',
        email: `ada.${Date.now()}@example.test`,
      })
      .expect(201);
    const confirmation = new URL(res.body.confirmation_url);
    const path = `${confirmation.pathname}${confirmation.search}`;
    expect(text((await t.http.get(path).expect(200)).text)).toContain('Waiting for your payment');

    await t.http
      .post(`${new URL(res.body.payment_url).pathname}/pay`)
      .type('form')
      .send('')
      .expect(200);
    const booked = text((await t.http.get(path).expect(200)).text);
    expect(booked).toContain("You're booked");
    expect(booked).toContain('2 seats');
    expect(booked).toContain('$40.00');

    confirmation.searchParams.set('token', 'x'.repeat(43));
    const refused = await t.http.get(`${confirmation.pathname}${confirmation.search}`).expect(404);
    expect(text(refused.text)).toContain('Order not found');
    expect(refused.text).not.toContain('Ada');
  });
});
