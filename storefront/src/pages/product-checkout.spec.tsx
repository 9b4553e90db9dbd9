import { fireEvent, screen } from '@testing-library/dom';
import { GIFT_CARD_MESSAGES } from '@studio/contracts/src/wallet/gift-card';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { product } from '../testing/fixtures';
import { productBrowser, ProductCheckoutPage } from './product-checkout';
import { mockStore } from '../testing/store-fetch';

const base = '/s/demo-studio';
const CHECKOUT = 'POST /api/public/demo-studio/checkout';

function show(overrides: Parameters<typeof product>[0]) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() =>
    render(<ProductCheckoutPage data={{ store_name: 'Demo Studio', product: product(overrides) }} base={base} />, document.getElementById('app')!),
  );
}

/** fetch answering by "METHOD path"; every call's body is kept. */
function answer(routes: Record<string, { status: number; body: unknown }>) {
  return mockStore((call) => routes[`${call.method} ${call.url}`]);
}

const type = (name: string, value: string) =>
  act(() => {
    fireEvent.input(screen.getByRole('textbox', { name }), { target: { value } });
  });

describe('a product page says what it grants (issue 24)', () => {
  it('a class pack: its words, and no recipient asked; gift cards and credit may pay it', () => {
    show({ kind: 'oneTime', price_cents: 15000, renewal_interval_unit: null, grant: 'pack', grant_text: '10 classes, valid 6 months' });
    expect(screen.getByRole('region', { name: 'Your product' })).toHaveTextContent('10 classes, valid 6 months');
    expect(screen.queryByRole('textbox', { name: "Recipient's email" })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Gift card code (optional)' })).toBeInTheDocument();
  });

  it('a gift card is paid by card: no gift card code nor store credit offered', () => {
    show({ kind: 'oneTime', price_cents: 5000, renewal_interval_unit: null, grant: 'giftCard', grant_text: 'Gift card worth $50.00' });
    expect(screen.queryByRole('textbox', { name: 'Gift card code (optional)' })).toBeNull();
  });

  it('a gift card asks for its recipient before anything is sent, then sends them with the message', async () => {
    show({ kind: 'oneTime', price_cents: 5000, renewal_interval_unit: null, grant: 'giftCard', grant_text: 'Gift card worth $50.00' });
    expect(screen.getByRole('region', { name: 'Your product' })).toHaveTextContent('Gift card worth $50.00');
    const calls = answer({
      [CHECKOUT]: { status: 201, body: { order_id: 'o1', status: 'pending', payment_url: 'https://pay.example.test/x', confirmation_url: 'c' } },
    });
    type('First name', 'Ines');
    type('Last name', 'Buyer');
    type('Email', 'ines@example.test');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(GIFT_CARD_MESSAGES.recipientEmail);
    expect(calls).toHaveLength(0);

    jest.spyOn(productBrowser, 'go').mockImplementation(() => undefined);
    type("Recipient's name", 'Flora Friend');
    type("Recipient's email", 'flora@example.test');
    type('Message (optional)', 'Happy birthday!');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }));
    });
    expect(calls[0].body).toEqual({
      product_id: product().product_id,
      first_name: 'Ines',
      last_name: 'Buyer',
      email: 'ines@example.test',
      recipient_name: 'Flora Friend',
      recipient_email: 'flora@example.test',
      gift_message: 'Happy birthday!',
    });
  });
});
