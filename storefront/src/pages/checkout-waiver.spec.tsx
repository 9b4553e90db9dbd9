import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, session } from '../testing/fixtures';
import { browser, CheckoutPage } from './checkout';
import { waiverTimers } from './checkout-waiver';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const SIGN_URL = 'http://localhost/api/sign/demo/dsub_0123456789abcdef0123456789abcdef';
const TOKEN = 'T'.repeat(43);

function show() {
  document.body.innerHTML = '<div id="app"></div>';
  act(() =>
    render(
      <CheckoutPage
        data={{ store_name: 'Demo Studio', course: course({ requires_waiver: true }), session: session({ seats_left: 3 }) }}
        base={base}
      />,
      document.getElementById('app')!,
    ),
  );
}

/** fetch answering by "METHOD path" (the query dropped); every call is kept. */
function answer(routes: Record<string, () => { status: number; body: unknown }>) {
  return mockStore((call) => routes[`${call.method} ${call.url.split('?')[0]}`]());
}

const type = (name: string, value: string) =>
  act(() => {
    fireEvent.input(screen.getByRole('textbox', { name }), { target: { value } });
  });
const pay = () => screen.getByRole('button', { name: 'Continue to payment' }) as HTMLButtonElement;

describe('the checkout page: the waiver step', () => {
  let go: jest.SpyInstance;
  let ticks: (() => void)[];
  beforeEach(() => {
    go = jest.spyOn(browser, 'go').mockImplementation(() => undefined);
    ticks = [];
    jest.spyOn(waiverTimers, 'every').mockImplementation((fn) => ticks.push(fn) as number);
    jest.spyOn(waiverTimers, 'stop').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const buyer = () => {
    type('First name', 'Wren');
    type('Last name', 'Okafor');
    type('Email', 'wren@example.test');
  };

  it('keeps Pay disabled, saying why, until the waiver signed in the frame is confirmed by the store; the checkout carries its token', async () => {
    show();
    expect(pay().disabled).toBe(true);
    expect(pay()).toHaveAccessibleDescription('Sign the waiver to continue');
    // Nobody to sign for yet.
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Read and sign the waiver' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Enter your name and email, then sign the waiver');

    buyer();
    let signed = false;
    const calls = answer({
      'POST /api/public/demo-studio/waiver': () => ({
        status: 200,
        body: { signed: false, signing_url: SIGN_URL, waiver_token: TOKEN },
      }),
      'GET /api/public/demo-studio/waiver/status': () => ({
        status: 200,
        body: signed ? { status: 'completed', signed: true } : { status: 'pending', signed: false },
      }),
      'POST /api/public/demo-studio/checkout': () => ({
        status: 201,
        body: { payment_url: 'http://localhost/api/pay/demo/dcs_1', confirmation_url: 'x' },
      }),
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Read and sign the waiver' }));
    });
    const frame = (await screen.findByTitle('Waiver')) as HTMLIFrameElement;
    // The page listens and polls once the frame is there.
    await waitFor(() => expect(ticks).toHaveLength(1));
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.src).toBe(SIGN_URL);
    expect(calls[0].body).toEqual({
      event_id: session().event_id,
      first_name: 'Wren',
      last_name: 'Okafor',
      email: 'wren@example.test',
    });

    // A message from elsewhere (not the frame) is ignored; the store still says pending on the poll.
    await act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'studio:waiver-signed' }, origin: 'http://localhost' }));
      ticks[0]();
    });
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
    expect(screen.queryByText('Waiver signed')).not.toBeInTheDocument();
    expect(pay().disabled).toBe(true);

    // The frame's message: the store confirms, the step says so and Pay opens.
    signed = true;
    await act(async () => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'studio:waiver-signed' },
          origin: 'http://localhost',
          source: frame.contentWindow,
        }),
      );
    });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Waiver signed'));
    expect(pay().disabled).toBe(false);
    expect(screen.queryByText('Sign the waiver to continue')).not.toBeInTheDocument();

    await act(async () => {
      fireEvent.click(pay());
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://localhost/api/pay/demo/dcs_1'));
    const checkout = calls.find((c) => c.url.endsWith('/checkout'))!;
    expect(checkout.body).toMatchObject({ email: 'wren@example.test', waiver_token: TOKEN });
  });

  it('learns the signing by asking the store when no message comes, and starts again for another email', async () => {
    show();
    buyer();
    let signed = false;
    answer({
      'POST /api/public/demo-studio/waiver': () => ({
        status: 200,
        body: { signed: false, signing_url: SIGN_URL, waiver_token: TOKEN },
      }),
      'GET /api/public/demo-studio/waiver/status': () => ({
        status: 200,
        body: { status: signed ? 'completed' : 'pending', signed },
      }),
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Read and sign the waiver' }));
    });
    await screen.findByTitle('Waiver');
    await waitFor(() => expect(ticks).toHaveLength(1));
    signed = true;
    await act(async () => {
      ticks[ticks.length - 1]();
    });
    await waitFor(() => expect(screen.getByText('Waiver signed')).toBeInTheDocument());
    expect(pay().disabled).toBe(false);

    type('Email', 'someone.else@example.test');
    expect(screen.queryByText('Waiver signed')).not.toBeInTheDocument();
    expect(pay().disabled).toBe(true);
  });

  it('a buyer who proved the email and signed this waiver before has nothing to sign; the checkout carries the token', async () => {
    show();
    buyer();
    const calls = answer({
      'POST /api/public/demo-studio/points/code': () => ({ status: 202, body: { message: 'We sent a code.' } }),
      'POST /api/public/demo-studio/points/verify': () => ({
        status: 200,
        body: { points_token: 'proof', expires_at: '2026-11-27T12:00:00Z', points: 0, value_cents: 0, holdings: [] },
      }),
      'POST /api/public/demo-studio/checkout/quote': () => ({
        status: 200,
        body: {
          lines: [],
          subtotal_cents: 6500,
          discount_cents: 0,
          points_redeemed: 0,
          points_cents: 0,
          total_cents: 6500,
          covered_by: null,
          wallet_money: [],
          due_cents: 6500,
          discount_code: null,
          seats_left: 3,
        },
      }),
      'POST /api/public/demo-studio/waiver': () => ({
        status: 200,
        body: { signed: true, signing_url: null, waiver_token: TOKEN },
      }),
      'POST /api/public/demo-studio/checkout': () => ({
        status: 201,
        body: { payment_url: 'http://localhost/api/pay/demo/dcs_3', confirmation_url: 'x' },
      }),
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    });
    await screen.findByRole('textbox', { name: 'Email code' });
    type('Email code', '123456');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check code' }));
    });
    await waitFor(() => expect(screen.getByText('Nothing to use here yet.')).toBeInTheDocument());
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Read and sign the waiver' }));
    });
    await waitFor(() => expect(screen.getByText('Waiver signed')).toBeInTheDocument());
    expect(calls.find((c) => c.url.endsWith('/waiver'))!.body).toMatchObject({
      email: 'wren@example.test',
      points_token: 'proof',
    });
    expect(screen.queryByTitle('Waiver')).not.toBeInTheDocument();
    expect(pay().disabled).toBe(false);
    await act(async () => {
      fireEvent.click(pay());
    });
    await waitFor(() => expect(go).toHaveBeenCalledWith('http://localhost/api/pay/demo/dcs_3'));
    expect(calls.find((c) => c.url.endsWith('/checkout'))!.body).toMatchObject({ waiver_token: TOKEN });
  });
});
