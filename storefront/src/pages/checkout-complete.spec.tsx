import { screen } from '@testing-library/dom';
import type { PublicOrder } from '@studio/contracts';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { CheckoutCompletePage, PENDING_POLL_LIMIT_MS, PENDING_POLL_MS } from './checkout-complete';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const ORDER_ID = '7d3f5e2a-1b4c-4d6e-8f90-a1b2c3d4e5f6';
const TOKEN = 't'.repeat(43);

function order(overrides: Partial<PublicOrder> = {}): PublicOrder {
  return {
    order_number: 1101,
    status: 'pending',
    store_name: 'Demo Studio',
    buyer: { first_name: 'Ines', email: 'ines@example.test' },
    lines: [{ description: 'Intro to Wheel Throwing', quantity: 2, unit_price_cents: 6500, discount_cents: 0 }],
    subtotal_cents: 13000,
    discount_cents: 0,
    points_cents: 0,
    total_cents: 13000,
    session: {
      name: 'Intro to Wheel Throwing',
      starts_at: '2026-12-01T23:00:00.000Z',
      ends_at: '2026-12-02T01:00:00.000Z',
      timezone: 'America/New_York',
      location_name: 'Main Studio',
      address: '214 Kent Ave',
      online: false,
      party_size: 2,
    },
    appointment: null,
    product: null,
    receipt_url: null,
    paid_with: [],
    card_cents: 13000,
    answers: [],
    ...overrides,
  };
}

function show(data: PublicOrder) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() => render(<CheckoutCompletePage data={data} base={base} />, document.getElementById('app')!));
}

/** The store's answers to the page's reads of the order, in turn (the last one repeats). */
function storeAnswers(...answers: PublicOrder[]) {
  const urls: string[] = [];
  mockStore((call) => {
    urls.push(call.url);
    return { status: 200, body: answers[Math.min(urls.length - 1, answers.length - 1)] };
  });
  return urls;
}

/** The clock moved on, and the page's read answered (the typed client takes a few turns to). */
const tick = (ms: number) =>
  act(async () => {
    jest.advanceTimersByTime(ms);
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  });

beforeEach(() => {
  jest.useFakeTimers();
  window.history.replaceState({}, '', `${base}/checkout/complete?order=${ORDER_ID}&token=${TOKEN}`);
});
afterEach(() => jest.useRealTimers());

it('a buyer back before the payment settled sees it become booked without reloading', async () => {
  const urls = storeAnswers(order(), order({ status: 'paid' }));
  show(order());
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Waiting for your payment');
  await tick(PENDING_POLL_MS);
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Waiting for your payment');
  await tick(PENDING_POLL_MS);
  expect(await screen.findByRole('heading', { level: 1, name: "You're booked" })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('A confirmation is on its way to ines@example.test');
  expect(urls).toEqual([
    `/api/public/demo-studio/orders/${ORDER_ID}?token=${TOKEN}`,
    `/api/public/demo-studio/orders/${ORDER_ID}?token=${TOKEN}`,
  ]);
  // Settled: the page asks no more.
  await tick(PENDING_POLL_MS * 5);
  expect(urls).toHaveLength(2);
});

it('a settled order is not asked for again, and a payment that never settles stops being asked after the limit', async () => {
  const urls = storeAnswers(order());
  show(order({ status: 'paid' }));
  await tick(PENDING_POLL_MS * 3);
  expect(urls).toHaveLength(0);

  show(order());
  for (let waited = 0; waited < PENDING_POLL_LIMIT_MS + PENDING_POLL_MS * 3; waited += PENDING_POLL_MS)
    await tick(PENDING_POLL_MS);
  const asked = urls.length;
  expect(asked).toBe(PENDING_POLL_LIMIT_MS / PENDING_POLL_MS);
  for (let i = 0; i < 10; i++) await tick(PENDING_POLL_MS);
  expect(urls).toHaveLength(asked);
  expect(screen.getByText('Refresh this page')).toBeInTheDocument();
});

it('shows a booked appointment: its course, its time in the visitor’s zone and the studio’s, where, the party', async () => {
  jest.useRealTimers();
  const real = Intl.DateTimeFormat.prototype.resolvedOptions;
  const zone = jest
    .spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions')
    .mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...real.call(this), timeZone: 'Asia/Tokyo' };
    });
  try {
    show(
      order({
        status: 'paid',
        session: null,
        appointment: {
          course_name: 'Wheel lesson',
          starts_at: '2026-12-01T15:00:00.000Z',
          ends_at: '2026-12-01T16:00:00.000Z',
          timezone: 'America/New_York',
          location_name: 'Main Studio',
          address: '214 Kent Ave',
          online: false,
          party_size: 2,
          status: 'booked',
        },
      }),
    );
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.getByRole('heading', { level: 1, name: "You're booked" })).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Your appointment' });
    expect(summary).toHaveTextContent('Wheel lesson');
    expect(summary).toHaveTextContent('Wed, Dec 2 12:00 AM GMT+9');
    expect(summary).toHaveTextContent('Times are in Asia/Tokyo. The studio is in America/New York. There it is Tue, Dec 1 10:00 AM EST.');
    expect(summary).toHaveTextContent('Main Studio, 214 Kent Ave');
    expect(summary).toHaveTextContent('2 people');
  } finally {
    zone.mockRestore();
  }
});
