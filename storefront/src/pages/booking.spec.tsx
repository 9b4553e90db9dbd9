import { fireEvent, screen } from '@testing-library/dom';
import type { PublicBooking } from '@studio/contracts';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { BookingPage } from './booking';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const TOKEN = `e_7d3f5e2a-1b4c-4d6e-8f90-a1b2c3d4e5f6_${'s'.repeat(43)}`;

function booking(overrides: Partial<PublicBooking> = {}): PublicBooking {
  return {
    kind: 'enrollment',
    status: 'active',
    store_name: 'Demo Studio',
    course_name: 'Raku firing',
    activity_id: '0b7c1f3e-2d4a-4b5c-8d6e-7f8091a2b3c4',
    starts_at: '2026-12-20T23:00:00.000Z',
    ends_at: '2026-12-21T01:00:00.000Z',
    timezone: 'America/New_York',
    location_name: 'Main Studio',
    address: '214 Kent Ave',
    online: false,
    party_size: 2,
    order_number: 1101,
    paid_cents: 9000,
    refunded_cents: 0,
    refund_status: 'none',
    cancel: {
      policy: {
        id: 3,
        name: 'Firm',
        rule: 'Full refund up to 30 days before, 50% up to 5 days before, none after',
      },
      allowed: true,
      share: 0.5,
      refund_cents: 4500,
      figure: 'Firm: 50% refund ($45.00) — 12 days before start',
    },
    reschedule: {
      policy: { id: 4, name: 'Agile', rule: 'Free until 24 hours before' },
      allowed: true,
      figure: '',
    },
    move_targets: [
      {
        event_id: '5a6b7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
        starts_at: '2027-01-03T23:00:00.000Z',
        ends_at: '2027-01-04T01:00:00.000Z',
        seats_left: 4,
      },
    ],
    use: null,
    ...overrides,
  };
}

function show(data: PublicBooking) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() => render(<BookingPage data={data} base={base} />, document.getElementById('app')!));
}

function storeAnswers(answer: unknown, ok = true) {
  const calls: { url: string; init?: RequestInit }[] = [];
  mockStore((call) => {
    const body = call.body === undefined ? {} : { body: JSON.stringify(call.body) };
    calls.push({ url: call.url, init: { method: call.method, ...body } });
    return { status: ok ? 200 : 409, body: answer };
  });
  return calls;
}

beforeEach(() => window.history.replaceState({}, '', `${base}/booking/${TOKEN}`));

it('shows the booking in the location’s zone, what was paid, and the policy’s refund', () => {
  show(booking());
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your booking');
  expect(screen.getByText(/6:00 PM – 8:00 PM EST/)).toBeInTheDocument();
  expect(screen.getByText('2 seats')).toBeInTheDocument();
  expect(screen.getByText('If you cancel now, $45.00 goes back to your payment.')).toBeInTheDocument();
});

it('cancels after a confirmation and says how much comes back', async () => {
  const calls = storeAnswers(booking({ status: 'cancelled', refunded_cents: 4500, refund_status: 'made' }));
  show(booking());
  act(() => {
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Refund to my card' }));
  });
  expect(
    await screen.findByRole('heading', { level: 1, name: 'This booking is cancelled' }),
  ).toBeInTheDocument();
  expect(screen.getByText('Refunded: $45.00.')).toBeInTheDocument();
  expect(calls).toEqual([
    { url: `/api/public/demo-studio/bookings/${encodeURIComponent(TOKEN)}/cancel`, init: { method: 'POST' } },
  ]);
});

it('the student may take the refund as store credit', async () => {
  const calls = storeAnswers(booking({ status: 'cancelled', refunded_cents: 4500, refund_status: 'made' }));
  show(booking());
  act(() => {
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
  });
  expect(screen.getByRole('button', { name: 'Refund to my card' })).toBeInTheDocument();
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Refund as store credit' }));
  });
  expect(
    await screen.findByRole('heading', { level: 1, name: 'This booking is cancelled' }),
  ).toBeInTheDocument();
  expect(calls).toHaveLength(1);
  expect(calls[0].init?.method).toBe('POST');
  expect(JSON.parse(String(calls[0].init?.body))).toEqual({ refund_to: 'store_credit' });
});

it('a booking covered by a pack says whether its class credit comes back; with nothing to refund, one confirmation', async () => {
  const use = {
    holding_id: 'h1',
    kind: 'pack',
    label: '5-class pack',
    unit: 'credits',
    amount: 1,
    returned: false,
  };
  show(
    booking({
      paid_cents: 0,
      cancel: {
        policy: { id: 1, name: 'Flexible', rule: 'Full refund until 1 day before start' },
        allowed: true,
        share: 0,
        refund_cents: 0,
        figure: '',
      },
      use: {
        ...use,
        returns: false,
        message: 'Your class credit is not given back after 1 day before start.',
      },
    }),
  );
  expect(
    screen.getByText('Your class credit is not given back after 1 day before start.'),
  ).toBeInTheDocument();
  act(() => {
    fireEvent.click(screen.getByRole('button', { name: 'Cancel booking' }));
  });
  expect(screen.getByRole('button', { name: 'Yes, cancel my booking' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Refund as store credit' })).not.toBeInTheDocument();
  show(
    booking({
      status: 'cancelled',
      use: { ...use, returned: true, returns: false, message: 'Your class credit was given back.' },
    }),
  );
  expect(screen.getByText('Your class credit was given back.')).toBeInTheDocument();
});

it('"Contact the studio" policies show that instead of a button', () => {
  show(
    booking({
      cancel: {
        policy: { id: 6, name: 'Contact the studio', rule: 'Students cannot cancel themselves' },
        allowed: false,
        share: 0,
        refund_cents: 0,
        figure: '',
      },
      reschedule: {
        policy: { id: 7, name: 'Contact the studio', rule: 'Students cannot reschedule themselves' },
        allowed: false,
        figure: '',
      },
    }),
  );
  expect(screen.queryByRole('button', { name: 'Cancel booking' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Move my booking' })).toBeNull();
  expect(screen.getAllByText('Contact the studio')).toHaveLength(2);
});

it('moves to another session and shows a refusal in the store’s words', async () => {
  const calls = storeAnswers({ message: 'That session is full. Pick another one.' }, false);
  show(booking());
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Move my booking' }));
  });
  expect(await screen.findByRole('alert')).toHaveTextContent('That session is full. Pick another one.');
  expect(JSON.parse(String(calls[0].init?.body))).toEqual({
    event_id: '5a6b7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
  });
});

it('a cancelled booking says so, with no actions', () => {
  show(booking({ status: 'cancelled' }));
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('This booking is cancelled');
  expect(screen.getByText('Nothing was refunded.')).toBeInTheDocument();
  expect(screen.queryByRole('button')).toBeNull();
});
