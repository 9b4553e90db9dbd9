import type { CheckoutQuote, PublicCourse, PublicProduct, PublicSession, PublicStore } from '@studio/contracts';

/** Answers shaped as the Storefront API gives them (store.schema.ts), for the page tests. */
export const COURSE_ID = '5f0c7a5e-3c1d-4a8e-9d55-0e6f1b2a3c4d';

export function session(overrides: Partial<PublicSession> = {}): PublicSession {
  return {
    event_id: '9a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    name: 'Intro to Wheel Throwing',
    // 6:00 PM to 8:00 PM in New York (EST) on Tue, Dec 1, 2026.
    starts_at: '2026-12-01T23:00:00.000Z',
    ends_at: '2026-12-02T01:00:00.000Z',
    timezone: 'America/New_York',
    price_cents: 6500,
    seats_left: 8,
    sold_out: false,
    location_name: 'Main studio',
    online: false,
    ...overrides,
  };
}

export function course(overrides: Partial<PublicCourse> = {}): PublicCourse {
  return {
    activity_id: COURSE_ID,
    name: 'Intro to Wheel Throwing',
    summary: 'Center clay, pull walls and throw your first cylinders.',
    activity_type: 'scheduled',
    level: 'Beginner',
    category: 'Ceramics',
    price_cents: 6500,
    free: false,
    image_url: '/api/media/wheel-1.png',
    location_name: 'Main studio',
    instructor_name: 'Mira Clay',
    next_starts_at: '2026-12-01T23:00:00.000Z',
    url: `https://app.example.test/s/demo-studio/activity/${COURSE_ID}`,
    description: 'Center clay, pull walls and throw your first cylinders.\n\nClay and one firing included.',
    tools: 'Apron, towel',
    images: ['/api/media/wheel-1.png', '/api/media/wheel-2.png'],
    single_party: false,
    duration_mins: null,
    booking_window_days: null,
    max_party_size: null,
    instructor: { name: 'Mira Clay', photo_url: '/api/media/mira.png' },
    location: {
      name: 'Main studio',
      address: '12 Kiln Street, Brooklyn, NY',
      timezone: 'America/New_York',
      online: false,
    },
    cancellation_policy: { name: 'Flexible', rule: 'Full refund up to 24 hours before the session.' },
    rescheduling_policy: { name: 'Anytime', rule: 'Move to another session up to 2 hours before it starts.' },
    requires_waiver: false,
    checkout_form: null,
    sessions: [session()],
    ...overrides,
  };
}

export function product(overrides: Partial<PublicProduct> = {}): PublicProduct {
  return {
    product_id: '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a',
    name: 'Studio membership',
    description: 'Open studio hours every week.',
    kind: 'subscription',
    price_cents: 4900,
    renewal_interval_unit: 'months',
    renewal_interval_quantity: 1,
    image_url: null,
    url: 'https://app.example.test/s/demo-studio/checkout?product_id=0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a',
    grant: 'none',
    grant_text: null,
    ...overrides,
  };
}

export function store(overrides: Partial<PublicStore> = {}): PublicStore {
  const {
    sessions: _sessions,
    description: _d,
    tools: _t,
    images: _i,
    single_party: _s,
    duration_mins: _m,
    instructor: _in,
    location: _l,
    cancellation_policy: _c,
    rescheduling_policy: _r,
    requires_waiver: _w,
    checkout_form: _f,
    ...card
  } = course();
  return {
    name: 'Demo Studio',
    slug: 'demo-studio',
    timezone: 'America/New_York',
    store_url: 'https://app.example.test/s/demo-studio',
    courses: [card],
    products: [product()],
    ...overrides,
  };
}

/** A checkout quote: nothing off and nothing covered unless said; the total and what is due follow from the parts. */
export function quote(overrides: Partial<CheckoutQuote> & Pick<CheckoutQuote, 'subtotal_cents'>): CheckoutQuote {
  const total = overrides.subtotal_cents - (overrides.discount_cents ?? 0) - (overrides.points_cents ?? 0);
  return {
    lines: [],
    discount_cents: 0,
    total_cents: total,
    covered_by: null,
    wallet_money: [],
    due_cents: total,
    discount_code: null,
    seats_left: 3,
    ...overrides,
  } as CheckoutQuote;
}
