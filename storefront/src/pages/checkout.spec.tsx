import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, quote, session } from '../testing/fixtures';
import { browser, CheckoutPage, type CheckoutData } from './checkout';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';

function show(data: Partial<CheckoutData> = {}) {
  document.body.innerHTML = '<div id="app"></div>';
  const value: CheckoutData = {
    store_name: 'Demo Studio',
    course: course(),
    session: session({ seats_left: 3 }),
    ...data,
  };
  act(() => render(<CheckoutPage data={value} base={base} />, document.getElementById('app')!));
}

/** fetch answering by "METHOD path" with a status and a body; every call is kept. */
function answer(routes: Record<string, { status: number; body: unknown }>) {
  return mockStore((call) => routes[`${call.method} ${call.url}`]);
}

describe('the checkout page', () => {
  let assign: jest.SpyInstance;
  beforeEach(() => {
    assign = jest.spyOn(browser, 'go').mockImplementation(() => undefined);
  });
  afterEach(() => assign.mockRestore());

  it('offers seats up to those left, and shows the server’s total for a code', async () => {
    show();
    const seats = screen.getByRole('combobox', { name: 'Seats' });
    expect([...(seats as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      '1 seat',
      '2 seats',
      '3 seats',
    ]);
    const calls = answer({
      'POST /api/public/demo-studio/checkout/quote': {
        status: 200,
        body: quote({ subtotal_cents: 13000, discount_cents: 1300, discount_code: 'SPRING10' }),
      },
    });
    act(() => {
      fireEvent.input(screen.getByRole('textbox', { name: 'Discount code (optional)' }), {
        target: { value: ' spring10 ' },
      });
    });
    await act(async () => {
      fireEvent.change(seats, { target: { value: '2' } });
    });
    await waitFor(() => expect(screen.getByText('$117.00')).toBeInTheDocument());
    expect(screen.getByText('Discount (SPRING10)')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ event_id: session().event_id, party_size: 2, discount_code: 'spring10' });
  });

  it('puts a refused code’s reason under the code', async () => {
    show();
    answer({
      'POST /api/public/demo-studio/checkout/quote': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'This code has expired',
          errors: { discount_code: 'This code has expired' },
        },
      },
    });
    fireEvent.input(screen.getByRole('textbox', { name: 'Discount code (optional)' }), {
      target: { value: 'OLD' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This code has expired'));
    expect(screen.getByRole('textbox', { name: 'Discount code (optional)' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('books with an idempotency key and goes to the payment page; a refusal shows the store’s words', async () => {
    show();
    const calls = answer({
      'POST /api/public/demo-studio/checkout': {
        status: 409,
        body: { statusCode: 409, message: 'Only 1 seat left', errors: { party_size: 'Only 1 seat left' } },
      },
    });
    fireEvent.input(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Ada' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Last name' }), { target: { value: 'Potter' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Email' }), {
      target: { value: 'ada@example.test' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain('Only 1 seat left'),
    );
    expect(assign).not.toHaveBeenCalled();
    expect(calls[0].headers['idempotency-key']).toMatch(/.{10,}/);

    answer({
      'POST /api/public/demo-studio/checkout': {
        status: 201,
        body: {
          payment_url: '/api/pay/demo/dcs_1',
          confirmation_url: '/s/demo-studio/checkout/complete?order=o&token=t',
        },
      },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/pay/demo/dcs_1'));
  });

  it('uses points: a code mailed to the email, checked, the balance shown, the points line in the summary and the booking', async () => {
    show();
    const sendCode = screen.getByRole('button', { name: 'Send me a code' });
    act(() => {
      fireEvent.click(sendCode);
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your email above first');

    act(() => {
      fireEvent.input(screen.getByRole('textbox', { name: 'Email' }), {
        target: { value: 'ada@example.test' },
      });
    });
    const calls = answer({
      'POST /api/public/demo-studio/points/code': { status: 202, body: { message: 'We sent a code.' } },
      'POST /api/public/demo-studio/points/verify': {
        status: 400,
        body: { statusCode: 400, message: 'This code is wrong', errors: { code: 'This code is wrong' } },
      },
    });
    await act(async () => {
      fireEvent.click(sendCode);
    });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('We sent a code.'));
    expect(calls[0].body).toEqual({ email: 'ada@example.test' });
    const codeField = screen.getByRole('textbox', { name: 'Email code' });
    act(() => {
      fireEvent.input(codeField, { target: { value: '123456' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check code' }));
    });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This code is wrong'));
    expect(codeField).toHaveAttribute('aria-invalid', 'true');

    const later = answer({
      'POST /api/public/demo-studio/points/verify': {
        status: 200,
        body: {
          points_token: 'proof',
          expires_at: '2026-11-27T12:00:00Z',
          points: 1250,
          value_cents: 1250,
          holdings: [],
        },
      },
      'POST /api/public/demo-studio/checkout/quote': {
        status: 200,
        body: quote({ subtotal_cents: 6500, points_redeemed: 500, points_cents: 500 }),
      },
      'POST /api/public/demo-studio/checkout': {
        status: 201,
        body: {
          payment_url: '/api/pay/demo/dcs_2',
          confirmation_url: '/s/demo-studio/checkout/complete?order=o&token=t',
        },
      },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check code' }));
    });
    await waitFor(() => expect(screen.getByText('You have 1,250 points ($12.50).')).toBeInTheDocument());
    const pointsField = screen.getByRole('spinbutton', { name: 'Points to use' });
    expect(pointsField).toHaveAttribute('max', '1250');

    // More than the balance is refused on the page, announced under the field.
    act(() => {
      fireEvent.input(pointsField, { target: { value: '2000' } });
    });
    expect(screen.getByRole('alert')).toHaveTextContent('You have only 1,250 points');
    expect(pointsField).toHaveAttribute('aria-invalid', 'true');

    await act(async () => {
      fireEvent.input(pointsField, { target: { value: '500' } });
    });
    await waitFor(() => expect(screen.getByText('Points (500)')).toBeInTheDocument());
    expect(screen.getByText('−$5.00')).toBeInTheDocument();
    expect(screen.getByText('$60.00')).toBeInTheDocument();
    const quoted = later.filter((c) => c.url.endsWith('/checkout/quote')).at(-1)!;
    expect(quoted.body).toMatchObject({ points_token: 'proof', redeem_points: 500 });

    act(() => {
      fireEvent.input(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Ada' } });
      fireEvent.input(screen.getByRole('textbox', { name: 'Last name' }), { target: { value: 'Potter' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/pay/demo/dcs_2'));
    expect(later.find((c) => c.url.endsWith('/checkout'))!.body).toMatchObject({
      points_token: 'proof',
      redeem_points: 500,
    });
  });

  it('books on a class pack and lets a gift card pay (issue 24): what the email holds, the choices sent, the summary', async () => {
    show();
    act(() => {
      fireEvent.input(screen.getByRole('textbox', { name: 'Email' }), {
        target: { value: 'ada@example.test' },
      });
    });
    const calls = answer({
      'POST /api/public/demo-studio/points/code': { status: 202, body: { message: 'We sent a code.' } },
      'POST /api/public/demo-studio/points/verify': {
        status: 200,
        body: {
          points_token: 'proof',
          expires_at: '2026-11-27T12:00:00Z',
          points: 0,
          value_cents: 0,
          holdings: [
            {
              holding_id: 'h1',
              kind: 'pack',
              label: '5-class pack',
              balance_text: '3 credits',
              balance: 3,
              expires_at: null,
            },
            {
              holding_id: 'h2',
              kind: 'gift_card',
              label: 'Gift card',
              balance_text: '$20.00',
              balance: 2000,
              expires_at: null,
            },
          ],
        },
      },
      'POST /api/public/demo-studio/checkout/quote': {
        status: 200,
        body: quote({
          subtotal_cents: 6500,
          points_redeemed: 0,
          points_cents: 0,
          total_cents: 0,
          due_cents: 0,
          covered_by: { holding_id: 'h1', kind: 'pack', label: '5-class pack', amount: 1 },
        }),
      },
      'POST /api/public/demo-studio/checkout': {
        status: 201,
        body: { payment_url: null, confirmation_url: '/s/demo-studio/checkout/complete?order=o&token=t' },
      },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    });
    const codeField = await screen.findByRole('textbox', { name: 'Email code' });
    act(() => {
      fireEvent.input(codeField, { target: { value: '123456' } });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check code' }));
    });
    await waitFor(() => expect(screen.getByText('Covered by 5-class pack')).toBeInTheDocument());
    const held = screen.getByRole('list', { name: 'What you hold here' });
    expect(held).toHaveTextContent('5-class pack: 3 credits');
    expect(held).toHaveTextContent('Gift card: $20.00');
    expect(screen.queryByRole('spinbutton', { name: 'Points to use' })).toBeNull();
    const asked = calls.find((c) => c.url.endsWith('/checkout/quote'))!;
    expect(asked.body).toMatchObject({ points_token: 'proof', cover_booking: true, use_wallet_money: true });
    expect(asked.body).not.toHaveProperty('redeem_points');

    // Unticking the pack asks again without it.
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Book with my membership or class pack' }));
    });
    const again = calls.filter((c) => c.url.endsWith('/checkout/quote')).at(-1)!;
    expect(again.body).toMatchObject({ points_token: 'proof', use_wallet_money: true });
    expect(again.body).not.toHaveProperty('cover_booking');
  });

  it('says a sold-out session is sold out, with no form', () => {
    show({ session: session({ seats_left: 0, sold_out: true }) });
    expect(screen.getByRole('status')).toHaveTextContent('This session is sold out.');
    expect(screen.queryByRole('button', { name: /payment|Book now/ })).not.toBeInTheDocument();
  });

  describe('of an appointment course’s time (issue 22)', () => {
    const startsAt = '2026-12-01T15:00:00.000Z'; // 10:00 AM in New York, midnight in Tokyo
    let zone: jest.SpyInstance;
    beforeEach(() => {
      const real = Intl.DateTimeFormat.prototype.resolvedOptions;
      zone = jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
        this: Intl.DateTimeFormat,
      ) {
        return { ...real.call(this), timeZone: 'Asia/Tokyo' };
      });
    });
    afterEach(() => zone.mockRestore());

    const showAppointment = async (appointment: { starts_at: string; ends_at: string } | null) => {
      document.body.innerHTML = '<div id="app"></div>';
      const data: CheckoutData = {
        store_name: 'Demo Studio',
        course: course({
          activity_type: 'appointment',
          duration_mins: 60,
          booking_window_days: 60,
          max_party_size: 3,
          sessions: [],
        }),
        appointment,
      };
      await act(async () => {
        render(<CheckoutPage data={data} base={base} />, document.getElementById('app')!);
      });
    };

    it('shows the time in the visitor’s zone with both zones named, offers the party up to the course’s, and books it', async () => {
      await showAppointment({ starts_at: startsAt, ends_at: '2026-12-01T16:00:00.000Z' });
      const summary = screen.getByRole('region', { name: 'Your appointment' });
      expect(summary).toHaveTextContent('Wed, Dec 2 12:00 AM GMT+9');
      expect(summary).toHaveTextContent('Times are in Asia/Tokyo. The studio is in America/New York.');
      const people = screen.getByRole('combobox', { name: 'People' });
      expect([...(people as HTMLSelectElement).options].map((o) => o.text)).toEqual([
        '1 person',
        '2 people',
        '3 people',
      ]);
      const calls = answer({
        'POST /api/public/demo-studio/checkout/quote': {
          status: 200,
          body: quote({ subtotal_cents: 13000 }),
        },
        'POST /api/public/demo-studio/checkout': {
          status: 201,
          body: {
            payment_url: '/api/pay/demo/dcs_9',
            confirmation_url: '/s/demo-studio/checkout/complete?order=o&token=t',
          },
        },
      });
      await act(async () => {
        fireEvent.change(people, { target: { value: '2' } });
      });
      expect(calls[0].body).toEqual({
        activity_id: course().activity_id,
        starts_at: startsAt,
        party_size: 2,
      });
      for (const [name, value] of [
        ['First name', 'Aiko'],
        ['Last name', 'Sato'],
        ['Email', 'aiko@example.test'],
      ])
        act(() => {
          fireEvent.input(screen.getByRole('textbox', { name }), { target: { value } });
        });
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
      });
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/pay/demo/dcs_9'));
      expect(calls[1].body).toMatchObject({
        activity_id: course().activity_id,
        starts_at: startsAt,
        party_size: 2,
        first_name: 'Aiko',
        email: 'aiko@example.test',
      });
      expect(calls[1].body).not.toHaveProperty('event_id');
    });

    it('says a start that is not a time of the course is not open, with a way back to the calendar', async () => {
      await showAppointment(null);
      expect(screen.getByRole('status')).toHaveTextContent(
        'This time is not open for booking. Please pick another.',
      );
      expect(screen.getByRole('link', { name: 'Choose a time' })).toHaveAttribute(
        'href',
        `${base}/activity/${course().activity_id}`,
      );
      expect(screen.queryByRole('button', { name: /payment|Book now/ })).not.toBeInTheDocument();
    });
  });
});
