import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { errorBody, mockFetch, okBody, renderWithProviders } from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import type { OrderDetail } from '../api/orders';
import { REFUND_MESSAGES } from '@studio/contracts';
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
  discount_code: null,
  points_redeemed: 0,
  Subscription: [],
  submissions: [],
  Student: {
    student_id: 's1',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 555 0100',
  },
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
  activity: [
    {
      activity_id: 'a1',
      action: 'refund',
      amount: 2500,
      detail: 'Class moved',
      actor: 'Mia Owner',
      created_at: '2026-03-06T10:00:00Z',
    },
    {
      activity_id: 'a2',
      action: 'refund_failed',
      amount: 1000,
      detail: 'Card issuer declined',
      actor: 'Mia Owner',
      created_at: '2026-03-07T10:00:00Z',
    },
  ],
  refunds: [
    {
      refund_id: 'r1',
      amount: 2500,
      reason: 'Class moved',
      actor: 'Mia Owner',
      status: 'succeeded',
      provider_refund_id: 're_1',
      origin: 'app',
      refund_to: 'card',
      created_at: '2026-03-06T10:00:00Z',
    },
  ],
};

const CARD = okBody<'/api/admin/payment-methods', 'get'>({
  provider: 'demo',
  payment_methods: [{ id: 'pm_1', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2029 }],
});
const NO_CARD = okBody<'/api/admin/payment-methods', 'get'>({ provider: 'demo', payment_methods: [] });

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

async function renderDrawer(order: OrderDetail = ORDER, routes: Parameters<typeof mockFetch>[0] = {}) {
  const calls = mockFetch({
    'GET /api/admin/order/o1': okBody<'/api/admin/order/{order_id}', 'get'>(order),
    'GET /api/admin/payment-methods': CARD,
    ...routes,
  });
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
    expect(screen.getByRole('region', { name: 'Subscriptions' })).toHaveTextContent(
      'No subscriptions in this order',
    );
    expect(screen.getByRole('region', { name: 'Checkout forms' })).toHaveTextContent(
      'No checkout form answers',
    );
    expect(screen.getByRole('region', { name: 'Customer' })).toHaveTextContent('ada@example.com');
  });

  it('shows the checkout form answers: per ticket under Ticket 1, Ticket 2; per order as one set', async () => {
    await renderDrawer({
      ...ORDER,
      submissions: [
        {
          submission_id: 'f1',
          created_at: '2026-03-05T18:00:00Z',
          ticket: 1,
          answers: [
            { label: 'Full name', value: 'Ines Okafor' },
            { label: 'Used a wheel before?', value: 'No' },
          ],
        },
        {
          submission_id: 'f2',
          created_at: '2026-03-05T18:00:00Z',
          ticket: 2,
          answers: [
            { label: 'Full name', value: 'Ada Lee' },
            { label: 'Used a wheel before?', value: '' },
          ],
        },
      ],
    });
    const forms = screen.getByRole('region', { name: 'Checkout forms' });
    expect(forms).not.toHaveTextContent('No checkout form answers');
    const first = within(forms).getByRole('group', { name: 'Ticket 1' });
    expect(first).toHaveTextContent('Ticket 1');
    expect(first).toHaveTextContent('Full name');
    expect(first).toHaveTextContent('Ines Okafor');
    expect(first).toHaveTextContent('Used a wheel before?No');
    const second = within(forms).getByRole('group', { name: 'Ticket 2' });
    expect(second).toHaveTextContent('Ada Lee');
    expect(second).toHaveTextContent('Used a wheel before?—');
  });

  it('shows the answers given once for the order without a ticket title', async () => {
    await renderDrawer({
      ...ORDER,
      submissions: [
        {
          submission_id: 'f1',
          created_at: '2026-03-05T18:00:00Z',
          ticket: null,
          answers: [{ label: 'Allergies', value: 'Latex\nNuts' }],
        },
      ],
    });
    const forms = screen.getByRole('region', { name: 'Checkout forms' });
    const answers = within(forms).getByRole('group', { name: 'Answers' });
    expect(answers).toHaveTextContent('Allergies');
    expect(answers).toHaveTextContent('Latex Nuts');
    expect(forms).not.toHaveTextContent('Ticket');
  });

  it('shows the discount code and the points a store buyer used, and neither when none', async () => {
    await renderDrawer({ ...ORDER, discount_code: 'WELCOME10', points_redeemed: 1250 });
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary).toHaveTextContent('Discount codeWELCOME10');
    expect(summary).toHaveTextContent('Points redeemed1,250 points (−$12.50)');
  });

  it('shows no discount code or points line on an order without them', async () => {
    await renderDrawer(ORDER);
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary).not.toHaveTextContent('Discount code');
    expect(summary).not.toHaveTextContent('Points redeemed');
  });

  it("the customer's name opens the student drawer", async () => {
    await renderDrawer();
    fireEvent.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe(
      'student {"student_id":"s1"}',
    );
  });

  it("the Subscriptions section lists the order's subscriptions, and one opens the subscription drawer", async () => {
    await renderDrawer({
      ...ORDER,
      Subscription: [
        {
          subscription_id: 'sub1',
          status: 'active',
          created_at: '2026-03-05T18:00:00Z',
          plan_name: 'Open Studio Membership',
        },
      ],
    });
    const section = screen.getByRole('region', { name: 'Subscriptions' });
    expect(section).toHaveTextContent('Active');
    fireEvent.click(within(section).getByRole('button', { name: 'Open Studio Membership' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe(
      'subscription {"subscription_id":"sub1"}',
    );
  });

  it('Share online receipt opens the receipt in a new tab', async () => {
    const open = jest.spyOn(window, 'open').mockImplementation(() => null);
    await renderDrawer();
    openMenu();
    fireEvent.click(await screen.findByText('Share online receipt'));
    expect(open).toHaveBeenCalledWith('https://pay.example.test/receipts/1', '_blank', 'noopener,noreferrer');
  });

  it('shows the refund history: date, amount, reason and who', async () => {
    await renderDrawer();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary).toHaveTextContent('Refunds');
    expect(summary).toHaveTextContent('Class moved');
    expect(summary).toHaveTextContent('Mia Owner');
    expect(summary).not.toHaveTextContent(REFUND_MESSAGES.madeAtProvider);
    // The money audit, failures included.
    expect(summary).toHaveTextContent('History');
    expect(summary).toHaveTextContent('Refund failed');
    expect(summary).toHaveTextContent('Card issuer declined');
  });

  it('a refund made in the Stripe dashboard says so where an admin would be named', async () => {
    await renderDrawer({
      ...ORDER,
      refunds: [
        ...ORDER.refunds,
        {
          refund_id: 'r2',
          amount: 1200,
          reason: '',
          actor: null,
          status: 'succeeded',
          provider_refund_id: 're_2',
          origin: 'provider',
          refund_to: 'card',
          created_at: '2026-03-08T10:00:00Z',
        },
      ],
    });
    const rows = within(screen.getByRole('region', { name: 'Order summary' })).getAllByRole('row');
    const dashboard = rows.find((row) => row.textContent?.includes('$12.00'));
    expect(dashboard).toHaveTextContent(REFUND_MESSAGES.madeAtProvider);
    expect(REFUND_MESSAGES.madeAtProvider).toBe('In Stripe');
  });

  it('each refund shows its status at the provider: a failed one reads Failed, not as money paid out', async () => {
    await renderDrawer({
      ...ORDER,
      refunds: [
        ...ORDER.refunds,
        {
          refund_id: 'r3',
          amount: 1000,
          reason: 'Duplicate',
          actor: 'Mia Owner',
          status: 'failed',
          provider_refund_id: 're_3',
          origin: 'app',
          refund_to: 'card',
          created_at: '2026-03-07T09:00:00Z',
        },
        {
          refund_id: 'r4',
          amount: 700,
          reason: 'Late',
          actor: 'Mia Owner',
          status: 'pending',
          provider_refund_id: 're_4',
          origin: 'app',
          refund_to: 'card',
          created_at: '2026-03-07T11:00:00Z',
        },
      ],
    });
    const rows = within(screen.getByRole('region', { name: 'Order summary' })).getAllByRole('row');
    const row = (amount: string) => rows.find((r) => r.textContent?.includes(amount));
    expect(row('$25.00')).toHaveTextContent('Refunded');
    expect(row('$10.00')).toHaveTextContent('Failed');
    expect(row('$10.00')).not.toHaveTextContent('Refunded');
    expect(row('$7.00')).toHaveTextContent('Pending');
  });

  it('a refund to store credit reads Store credit', async () => {
    await renderDrawer({
      ...ORDER,
      refunds: [
        ...ORDER.refunds,
        {
          refund_id: 'r5',
          amount: 1800,
          reason: 'Prefers credit',
          actor: 'Mia Owner',
          status: 'succeeded',
          provider_refund_id: null,
          origin: 'app',
          refund_to: 'store_credit',
          created_at: '2026-03-07T12:00:00Z',
        },
      ],
    });
    const rows = within(screen.getByRole('region', { name: 'Order summary' })).getAllByRole('row');
    const credit = rows.find((r) => r.textContent?.includes('$18.00'));
    expect(credit).toHaveTextContent('Store credit');
    expect(credit).not.toHaveTextContent('Refunded');
    expect(rows.find((r) => r.textContent?.includes('$25.00'))).toHaveTextContent('Refunded');
  });

  it.each([
    ['a pending order', { status: 'pending' as const, refunded_amount: 0 }, 'Order cannot be refunded'],
    [
      'a fully refunded order',
      { status: 'refunded' as const, refunded_amount: 12500 },
      'Order cannot be refunded',
    ],
    ['a $0.00 order', { status: 'paid' as const, total: 0, refunded_amount: 0 }, 'Order total is $0.00'],
    [
      'an order never charged',
      { status: 'paid' as const, stripe_payment_intent_id: null, refunded_amount: 0 },
      'Payment never charged',
    ],
  ])(
    'Refund payment on %s says why it cannot be refunded and opens no dialog',
    async (_name, change, text) => {
      const calls = await renderDrawer({ ...ORDER, ...change });
      await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/admin/payment-methods'));
      openMenu();
      fireEvent.click(await screen.findByText('Refund payment'));
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Refund payment' })).not.toBeInTheDocument();
    },
  );

  it('without a payment method on file the drawer says so, and Refund payment toasts it', async () => {
    await renderDrawer(ORDER, { 'GET /api/admin/payment-methods': NO_CARD });
    expect(await screen.findByText('Please add a payment method in billing settings')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Billing settings' })).toHaveAttribute(
      'href',
      '/admin/settings/billing',
    );
    openMenu();
    fireEvent.click(await screen.findByText('Refund payment'));
    await waitFor(() =>
      expect(screen.getAllByText('Please add a payment method in billing settings')).toHaveLength(2),
    );
    expect(screen.queryByRole('dialog', { name: 'Refund payment' })).not.toBeInTheDocument();
  });

  it('Refund payment opens the refund dialog; a refund updates the drawer', async () => {
    const refunded: OrderDetail = { ...ORDER, status: 'refunded', refunded_amount: 12500 };
    const calls = await renderDrawer(ORDER, {
      'POST /api/admin/order/o1/refund': okBody<'/api/admin/order/{order_id}/refund', 'post'>(refunded),
    });
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/admin/payment-methods'));
    openMenu();
    fireEvent.click(await screen.findByText('Refund payment'));
    const dialog = await screen.findByRole('dialog', { name: 'Refund payment' });
    expect(dialog).toHaveTextContent('Refunds can take up to 10 days to appear');
    fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), {
      target: { value: 'Class cancelled' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Order refunded successfully')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ reason: 'Class cancelled' });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Order summary' })).toHaveTextContent('Refunded'),
    );
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

  it('an external order never charged says what the API answers: sold elsewhere, refund it there', async () => {
    await renderDrawer({ ...ORDER, source: 'eventbrite', stripe_payment_intent_id: null, paymentIntent: null, refunded_amount: 0 });
    const actions = screen.getByRole('button', { name: 'Order actions' });
    expect(actions).toBeDisabled();
    // A disabled button gets no mouse events in React: its tooltip opens on the pointer's.
    fireEvent.pointerOver(actions);
    // The same message as POST /api/admin/order/{id}/refund (refunds.e2e-spec, external-refunds.e2e-spec).
    expect(await screen.findByText(REFUND_MESSAGES.notWorkbench('eventbrite'))).toBeInTheDocument();
    expect(screen.queryByText('Payment never charged')).not.toBeInTheDocument();
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
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Order #1042' })).toBeInTheDocument(), {
      timeout: 3000,
    });
  });
});
