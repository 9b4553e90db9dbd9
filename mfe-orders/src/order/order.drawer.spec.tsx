import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { useDrawer, type OrderDetail } from '@studio/ui';
import { OrderDrawer } from './order.drawer';

/** What GET /api/admin/order/{order_id} answers: an invented field fails the typecheck. */
const ORDER: OrderDetail = {
  order_id: 'o1',
  order_number: 1042,
  status: 'partial_refund',
  source: 'workbench',
  description: 'Glaze kit, Intro to Wheel Throwing',
  total: 12500,
  refunded_amount: 2500,
  stripe_payment_intent_id: 'pi_123',
  paymentIntent: { charges: { receipt_url: 'https://pay.example.test/receipts/1' } },
  created_at: '2026-03-05T18:00:00Z',
  Subscription: [],
  submissions: [],
  Student: { student_id: 's1', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+1 555 0100' },
  lines: [
    {
      line_id: 'l1',
      kind: 'product',
      event_id: null,
      product_id: 'p1',
      product_price_id: null,
      description: 'Glaze kit',
      unit_price: 3500,
      quantity: 2,
      discount: 500,
      total: 6500,
      loyalty_points: 0,
    },
    {
      line_id: 'l2',
      kind: 'seat',
      event_id: 'e1',
      product_id: null,
      product_price_id: null,
      description: 'Intro to Wheel Throwing',
      unit_price: 6000,
      quantity: 1,
      discount: 0,
      total: 6000,
      loyalty_points: 0,
    },
  ],
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function OpenDrawer() {
  const { current } = useDrawer();
  return <output aria-label="open drawer">{current ? `${current.type} ${JSON.stringify(current.data)}` : ''}</output>;
}

async function renderDrawer(order: OrderDetail = ORDER) {
  const calls = mockFetch({ 'GET /api/admin/order/o1': okBody<'/api/admin/order/{order_id}', 'get'>(order) });
  renderWithProviders(
    <>
      <OpenDrawer />
      <OrderDrawer data={{ order_id: 'o1' }} close={jest.fn()} />
    </>,
  );
  await screen.findByRole('heading', { name: 'Order #1042' }, { timeout: 3000 });
  return calls;
}

const openMenu = () => fireEvent.click(screen.getByRole('button', { name: 'Order actions' }));

describe('OrderDrawer', () => {
  it('shows the order summary with lines, total, refunded, status; empty subscriptions and forms; the customer', async () => {
    await renderDrawer();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary).toHaveTextContent('#1042');
    expect(summary).toHaveTextContent('Partially refunded');
    expect(summary).toHaveTextContent('Glaze kit');
    expect(summary).toHaveTextContent('−$5.00');
    expect(summary).toHaveTextContent('$125.00');
    expect(summary).toHaveTextContent('$25.00');
    expect(screen.getByRole('region', { name: 'Subscriptions' })).toHaveTextContent('No subscriptions in this order');
    expect(screen.getByRole('region', { name: 'Checkout forms' })).toHaveTextContent('No checkout form answers');
    expect(screen.getByRole('region', { name: 'Customer' })).toHaveTextContent('ada@example.com');
  });

  it("the customer's name opens the student drawer", async () => {
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe('student {"student_id":"s1"}');
  });

  it('Share online receipt opens the receipt in a new tab; Refund payment is disabled as not available yet', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    const calls = await renderDrawer();
    openMenu();
    const refund = (await screen.findByText('Refund payment')).closest('li')!;
    expect(refund).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('Refunds are not available yet.')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Share online receipt'));
    expect(open).toHaveBeenCalledWith('https://pay.example.test/receipts/1', '_blank', 'noopener,noreferrer');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/admin/order/o1']);
  });

  it('says "Receipt URL not found" when the order has no receipt', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    await renderDrawer({ ...ORDER, paymentIntent: null, stripe_payment_intent_id: null });
    openMenu();
    fireEvent.click(await screen.findByText('Share online receipt'));
    expect(await screen.findByText('Receipt URL not found')).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it('an order sold through another source says so and its menu is disabled', async () => {
    await renderDrawer({ ...ORDER, source: 'eventbrite' });
    expect(screen.getByText('Sold through eventbrite')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Order actions' })).toBeDisabled();
  });

  it('a failed load shows the error state, and Retry loads the order', async () => {
    let fail = true;
    mockFetch({
      'GET /api/admin/order/o1': () =>
        fail ? errorBody(404, 'Order not found') : okBody<'/api/admin/order/{order_id}', 'get'>(ORDER),
    });
    renderWithProviders(<OrderDrawer data={{ order_id: 'o1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this order')).toBeInTheDocument();
    fail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Order #1042' })).toBeInTheDocument(), { timeout: 3000 });
  });
});
