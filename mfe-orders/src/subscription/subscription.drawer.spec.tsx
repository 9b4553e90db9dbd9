import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type OkBodyOf,
} from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { SubscriptionDrawer } from './subscription.drawer';

type PATH = '/api/admin/subscription/{subscription_id}';
const URL = '/api/admin/subscription/sub1';

/** What GET /api/admin/subscription/{id} answers: an invented field fails the typecheck. */
const ACTIVE: OkBodyOf<PATH, 'get'> = {
  subscription_id: 'sub1',
  status: 'active',
  created_at: '2026-01-05T18:00:00Z',
  current_period_end: '2026-04-05T18:00:00Z',
  cancelled_at: null,
  order_id: 'o1',
  provider: 'stripe',
  provider_subscription_id: 'sub_123',
  plan: {
    name: 'Open Studio Membership',
    product_id: 'p1',
    amount: 4500,
    currency: 'usd',
    interval_unit: 'months',
    interval_count: 1,
  },
  Student: {
    student_id: 's1',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: null,
  },
  subscription_invoices: [
    {
      invoice_id: 'i3',
      provider_invoice_id: 'in_3',
      amount: 4500,
      currency: 'usd',
      paid_at: '2026-03-05T18:00:00Z',
      receipt_url: 'https://pay.example.test/in_3',
    },
    {
      invoice_id: 'i2',
      provider_invoice_id: 'in_2',
      amount: 4500,
      currency: 'usd',
      paid_at: '2026-02-05T18:00:00Z',
      receipt_url: 'https://pay.example.test/in_2',
    },
    {
      invoice_id: 'i1',
      provider_invoice_id: 'in_1',
      amount: 4500,
      currency: 'usd',
      paid_at: '2026-01-05T18:00:00Z',
      receipt_url: null,
    },
  ],
  activity: [],
};

const CANCELLED: OkBodyOf<PATH, 'delete'> = {
  ...ACTIVE,
  status: 'cancelled',
  cancelled_at: '2026-03-20T15:00:00Z',
  activity: [
    {
      activity_id: 'a1',
      action: 'subscription_cancelled',
      amount: null,
      detail: 'Open Studio Membership: cancelled now, no further payments',
      actor: 'Dana Owner',
      created_at: '2026-03-20T15:00:00Z',
    },
  ],
};

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

async function renderDrawer(routes: Parameters<typeof mockFetch>[0]) {
  const calls = mockFetch(routes);
  renderWithProviders(
    <>
      <OpenDrawer />
      <SubscriptionDrawer data={{ subscription_id: 'sub1' }} close={jest.fn()} />
    </>,
  );
  await screen.findByRole('heading', { name: 'Open Studio Membership' }, { timeout: 3000 });
  return calls;
}

/** Clicks Cancel subscription, then confirms in the dialog. */
async function cancelAndConfirm() {
  fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
  const dialog = await screen.findByRole('dialog');
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' })));
}

describe('SubscriptionDrawer', () => {
  it('shows the current plan, the customer and the billing history', async () => {
    await renderDrawer({ [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE) });
    const plan = screen.getByRole('region', { name: 'Current plan' });
    expect(plan).toHaveTextContent('$45.00 / month');
    expect(plan).toHaveTextContent('Active');
    expect(plan).toHaveTextContent('Current period ends');
    expect(screen.getByRole('region', { name: 'Customer' })).toHaveTextContent('ada@example.com');
    const billing = screen.getByRole('region', { name: 'Billing history' });
    expect(within(billing).getAllByText('$45.00')).toHaveLength(3);
    expect(
      within(billing)
        .getAllByRole('link', { name: 'View' })
        .map((a) => a.getAttribute('href')),
    ).toEqual(['https://pay.example.test/in_3', 'https://pay.example.test/in_2']);
    expect(screen.getByRole('region', { name: 'History' })).toHaveTextContent('Nothing recorded yet');
  });

  it("the customer's name opens the student drawer", async () => {
    await renderDrawer({ [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE) });
    fireEvent.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe(
      'student {"student_id":"s1"}',
    );
  });

  it('Cancel subscription asks first; Keep subscription changes nothing', async () => {
    const calls = await renderDrawer({ [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE) });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Benefits and future payments end now');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });

  it('a confirmed cancel toasts "Subscription cancelled" and shows the cancelled plan and who cancelled it', async () => {
    const calls = await renderDrawer({
      [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE),
      [`DELETE ${URL}`]: okBody<PATH, 'delete'>(CANCELLED),
    });
    await cancelAndConfirm();
    expect(await screen.findByText('Subscription cancelled')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Current plan' })).toHaveTextContent('Cancelled on'),
    );
    const history = screen.getByRole('region', { name: 'History' });
    expect(history).toHaveTextContent('Subscription cancelled');
    expect(history).toHaveTextContent('by Dana Owner');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([URL]);
  });

  it('the server refusing a cancelled subscription toasts "Subscription already cancelled"', async () => {
    await renderDrawer({
      [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE),
      [`DELETE ${URL}`]: errorBody(409, 'Subscription already cancelled'),
    });
    await cancelAndConfirm();
    expect(await screen.findByText('Subscription already cancelled')).toBeInTheDocument();
  });

  it('a subscription already cancelled has Cancel disabled, says so, and calls nothing', async () => {
    const calls = await renderDrawer({ [`GET ${URL}`]: okBody<PATH, 'get'>(CANCELLED) });
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText('Subscription already cancelled')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });

  it('an unknown subscription toasts "Failed to cancel subscription: subscription not found"', async () => {
    await renderDrawer({
      [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE),
      [`DELETE ${URL}`]: errorBody(404, 'Subscription not found'),
    });
    await cancelAndConfirm();
    expect(
      await screen.findByText('Failed to cancel subscription: subscription not found'),
    ).toBeInTheDocument();
  });

  it.each([
    ['the provider refusing', () => errorBody(502, 'Failed to cancel subscription')],
    ['a dropped connection', networkError],
  ])('%s toasts "Failed to cancel subscription"', async (_name, failure) => {
    await renderDrawer({ [`GET ${URL}`]: okBody<PATH, 'get'>(ACTIVE), [`DELETE ${URL}`]: failure() });
    await cancelAndConfirm();
    expect(await screen.findByText('Failed to cancel subscription')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Current plan' })).toHaveTextContent('Active');
  });

  it('a failed load shows the error state, and Retry loads the subscription', async () => {
    let fail = true;
    mockFetch({
      [`GET ${URL}`]: () => (fail ? errorBody(500, 'Internal server error') : okBody<PATH, 'get'>(ACTIVE)),
    });
    renderWithProviders(<SubscriptionDrawer data={{ subscription_id: 'sub1' }} close={jest.fn()} />);
    expect(await screen.findByText('Could not load this subscription')).toBeInTheDocument();
    fail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await waitFor(
      () => expect(screen.getByRole('heading', { name: 'Open Studio Membership' })).toBeInTheDocument(),
      { timeout: 3000 },
    );
  });
});
