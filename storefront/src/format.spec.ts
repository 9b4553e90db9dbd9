import { productPriceText, seatsText, sessionWhen } from './format';
import { appLinks, storeBase } from './links';
import { product, session } from './testing/fixtures';

describe('what the store says about prices, seats and times', () => {
  it('prices a subscription per renewal, a lead magnet as free, a one-time product as its price', () => {
    expect(productPriceText(product())).toBe('$49.00 / month');
    expect(productPriceText(product({ renewal_interval_unit: 'weeks', renewal_interval_quantity: 2 }))).toBe(
      '$49.00 every 2 weeks',
    );
    expect(
      productPriceText(product({ kind: 'leadMagnet', price_cents: 0, renewal_interval_unit: null })),
    ).toBe('Free');
    expect(
      productPriceText(
        product({
          kind: 'oneTime',
          price_cents: 2500,
          renewal_interval_unit: null,
          renewal_interval_quantity: null,
        }),
      ),
    ).toBe('$25.00');
  });

  it('tells seats left, warns when few, and says Sold out when none', () => {
    expect(seatsText(session({ seats_left: 8 }))).toBe('8 seats left');
    expect(seatsText(session({ seats_left: 2 }))).toBe('Only 2 seats left');
    expect(seatsText(session({ seats_left: 1 }))).toBe('Only 1 seat left');
    expect(seatsText(session({ seats_left: 0, sold_out: true }))).toBe('Sold out');
  });

  it("shows a session in its location's zone, naming the zone", () => {
    expect(sessionWhen(session())).toEqual({
      date: expect.stringMatching(/^Tue, Dec 1/),
      time: '6:00 PM – 8:00 PM EST',
    });
    const paris = sessionWhen(
      session({
        timezone: 'Europe/Paris',
        starts_at: '2026-07-01T16:00:00.000Z',
        ends_at: '2026-07-01T18:00:00.000Z',
      }),
    );
    expect(paris.time).toBe('6:00 PM – 8:00 PM CEST');
    // A session over several days names its first and last day and when it starts.
    const weekend = sessionWhen(session({ ends_at: '2026-12-09T01:00:00.000Z' }));
    expect(weekend.date).toMatch(/^Tue, Dec 1(, 2026)? – Tue, Dec 8/);
    expect(weekend.time).toBe('Starts 6:00 PM EST');
  });

  it("makes links in the spec's shapes (spec 001 §2, Share), under this app's /s/{slug}", () => {
    const base = storeBase('Demo-Studio');
    expect(base).toBe('/s/demo-studio');
    expect(appLinks.course(base, 'a')).toBe('/s/demo-studio/activity/a');
    expect(appLinks.checkoutSession(base, 'e')).toBe('/s/demo-studio/checkout?event_id=e');
    expect(appLinks.checkoutProduct(base, 'p')).toBe('/s/demo-studio/checkout?product_id=p');
  });
});
