import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { browser, CheckoutPage, type CheckoutData } from './checkout';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const EVENT = session().event_id;
const TOKEN = `${'1'.repeat(8)}-1111-4111-8111-111111111111.${'A'.repeat(43)}`;
const CLAIM = `GET /api/public/demo-studio/waitlist/claim?token=${encodeURIComponent(TOKEN)}`;

function show() {
  document.body.innerHTML = '<div id="app"></div>';
  // The offer holds the seats: the session itself shows sold out.
  const value: CheckoutData = {
    store_name: 'Demo Studio',
    course: course(),
    session: session({ seats_left: 0, sold_out: true }),
    claim_token: TOKEN,
  };
  act(() => render(<CheckoutPage data={value} base={base} />, document.getElementById('app')!));
}

function answer(routes: Record<string, { status: number; body: unknown }>) {
  return mockStore(
    (call) => routes[`${call.method} ${call.url}`] ?? { status: 404, body: { message: 'Not found' } },
  );
}

const offer = (patch: object = {}) => ({
  status: 'offered',
  event_id: EVENT,
  party_size: 2,
  name: 'Wanda May Wait',
  email: 'wanda@example.test',
  offered_until: '2026-12-01T17:00:00.000Z',
  message: null,
  ...patch,
});

describe('the checkout of a waitlist claim link', () => {
  let go: jest.SpyInstance;
  beforeEach(() => {
    go = jest.spyOn(browser, 'go').mockImplementation(() => undefined);
  });
  afterEach(() => go.mockRestore());

  it('books the offered seats: the party is the offer’s, the buyer prefilled, and the claim sent', async () => {
    const calls = answer({
      [CLAIM]: { status: 200, body: offer() },
      'POST /api/public/demo-studio/checkout': {
        status: 201,
        body: { payment_url: 'http://pay.test/1', confirmation_url: 'http://done.test/1' },
      },
    });
    show();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your offer…');
    await waitFor(() => expect(screen.getByText(/2 seats are held for you until/)).toBeInTheDocument());
    expect(screen.getByText(/Dec 1.* 12:00 PM EST/)).toBeInTheDocument();
    const seats = screen.getByRole('combobox', { name: 'Seats' }) as HTMLSelectElement;
    expect([...seats.options].map((o) => o.text)).toEqual(['2 seats']);
    expect(seats).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Wanda');
    expect(screen.getByRole('textbox', { name: 'Last name' })).toHaveValue('May Wait');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('wanda@example.test');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://pay.test/1'));
    expect(calls.find((c) => c.url.endsWith('/checkout'))?.body).toEqual({
      event_id: EVENT,
      party_size: 2,
      first_name: 'Wanda',
      last_name: 'May Wait',
      email: 'wanda@example.test',
      claim_token: TOKEN,
    });
  });

  it('says the offer ended after its time, and offers no form', async () => {
    answer({
      [CLAIM]: {
        status: 200,
        body: offer({ status: 'ended', offered_until: null, message: 'This offer has ended' }),
      },
    });
    show();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('This offer has ended.'));
    expect(screen.queryByRole('button', { name: /payment|Book/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'See the other sessions' })).toBeInTheDocument();
  });

  it('says an unknown link’s offer ended', async () => {
    answer({ [CLAIM]: { status: 404, body: { statusCode: 404, message: 'This offer has ended' } } });
    show();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('This offer has ended.'));
  });
});
