import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  errorBody,
  mockFetch,
  networkError,
  okBody,
  renderWithProviders,
  type MockAnswer,
} from '@studio/ui/testing';
import type { OrderDetail } from '../api/orders';
import { RefundDialog } from './refund.dialog';

/** A paid order of $125.00 of which $25.00 was refunded: $100.00 is left. */
const ORDER: OrderDetail = {
  order_id: 'o1',
  order_number: 1042,
  status: 'partial_refund',
  source: 'workbench',
  description: 'Glaze kit',
  total: 12500,
  refunded_amount: 2500,
  stripe_payment_intent_id: 'pi_123',
  paymentIntent: { charges: { receipt_url: null } },
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
    phone: null,
  },
  lines: [],
  activity: [],
  refunds: [],
};

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function renderDialog(
  answer: MockAnswer = okBody<'/api/admin/order/{order_id}/refund', 'post'>({
    ...ORDER,
    refunded_amount: 12500,
    status: 'refunded',
  }),
) {
  const calls = mockFetch({ 'POST /api/admin/order/o1/refund': answer });
  const onRefunded = jest.fn();
  const onClose = jest.fn();
  renderWithProviders(<RefundDialog order={ORDER} onClose={onClose} onRefunded={onRefunded} />);
  return { calls, onRefunded, onClose };
}

const refundButton = () => screen.getByRole('button', { name: 'Refund' });
const reason = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: text } });
const partial = (text: string) => {
  fireEvent.click(screen.getByRole('radio', { name: 'Partial refund' }));
  fireEvent.change(screen.getByRole('textbox', { name: 'Refund amount' }), { target: { value: text } });
};

describe('RefundDialog', () => {
  it('says refunds can take up to 10 days, and needs a reason', () => {
    renderDialog();
    expect(screen.getByText('Refunds can take up to 10 days to appear')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Full refund ($100.00)' })).toBeChecked();
    expect(refundButton()).toBeDisabled();
    reason('   ');
    expect(refundButton()).toBeDisabled();
    reason('Class cancelled');
    expect(refundButton()).toBeEnabled();
  });

  it.each([
    ['empty', ''],
    ['zero', '0'],
    ['zero cents', '0.00'],
    ['three decimals', '10.001'],
    ['letters', '1O'],
    ['negative', '-5'],
    ['above what is left', '100.01'],
  ])('disables Refund for a partial amount that is %s', (_name, text) => {
    renderDialog();
    reason('Class cancelled');
    partial(text);
    expect(refundButton()).toBeDisabled();
  });

  it('refunds a partial amount in cents with the reason and one idempotency key', async () => {
    const { calls, onRefunded } = renderDialog();
    reason('Class cancelled');
    partial('100');
    expect(refundButton()).toBeEnabled();
    partial('12.5');
    fireEvent.click(refundButton());
    expect(await screen.findByText('Order refunded successfully')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ amount: 1250, reason: 'Class cancelled' });
    expect(calls[0].headers['idempotency-key']).toEqual(expect.any(String));
    expect(onRefunded).toHaveBeenCalledWith(expect.objectContaining({ status: 'refunded' }));
  });

  it('refunds as store credit when chosen: the body says so and the toast too', async () => {
    const { calls, onRefunded } = renderDialog();
    expect(screen.getByRole('radio', { name: 'Refund to card' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Refund as store credit' }));
    expect(screen.getByText("Added to the student's store credit at once; it pays at the store.")).toBeInTheDocument();
    expect(screen.queryByText('Refunds can take up to 10 days to appear')).not.toBeInTheDocument();
    reason('Prefers credit');
    fireEvent.click(refundButton());
    await waitFor(() => expect(onRefunded).toHaveBeenCalled());
    expect(calls[0].body).toEqual({ reason: 'Prefers credit', refund_to: 'store_credit' });
    expect(await screen.findByText('Refunded as store credit')).toBeInTheDocument();
  });

  it('a full refund sends no amount', async () => {
    const { calls } = renderDialog();
    reason('Duplicate');
    fireEvent.click(refundButton());
    await screen.findByText('Order refunded successfully');
    expect(calls[0].body).toEqual({ reason: 'Duplicate' });
  });

  it.each([
    ['the order is gone', errorBody(404, 'Order not found'), 'Failed to refund order: Order not found'],
    ['it cannot be refunded', errorBody(409, 'Order cannot be refunded'), 'Order cannot be refunded'],
    ['its total is $0.00', errorBody(409, 'Order total is $0.00'), 'Order total is $0.00'],
    ['it was never charged', errorBody(409, 'Payment never charged'), 'Payment never charged'],
    [
      'no payment method is on file',
      errorBody(409, 'Please add a payment method in billing settings'),
      'Please add a payment method in billing settings',
    ],
    [
      'the provider refuses',
      errorBody(409, 'Refund amount ($50.00) is greater than unrefunded amount on charge ($20.00)'),
      'Failed to refund order: Refund amount ($50.00) is greater than unrefunded amount on charge ($20.00)',
    ],
    ['the network fails', networkError(), 'Failed to refund order: Failed to fetch'],
  ])('when %s it toasts the reason and stays open', async (_name, answer, text) => {
    const { onRefunded } = renderDialog(answer);
    reason('Class cancelled');
    fireEvent.click(refundButton());
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(onRefunded).not.toHaveBeenCalled();
    await waitFor(() => expect(refundButton()).toBeEnabled());
  });
});
