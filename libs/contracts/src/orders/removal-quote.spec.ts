import { REFUND_MESSAGES } from './refund.schema';
import { removalQuote, type RemovalQuoteInput } from './removal-quote';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 86_400_000;
const paid: NonNullable<RemovalQuoteInput['order']> = {
  order_id: 'o1',
  order_number: 12,
  status: 'paid',
  source: 'workbench',
  total: 4500,
  refunded_amount: 0,
  stripe_payment_intent_id: 'pi_1',
};
const quote = (overrides: Partial<RemovalQuoteInput>) =>
  removalQuote({
    order: paid,
    cancelPolicyId: 3,
    startsAt: new Date(NOW.getTime() + 18 * DAY),
    hasPaymentMethod: true,
    now: NOW,
    ...overrides,
  });

describe('removalQuote (Remove student on an appointment)', () => {
  it("suggests the course's cancellation policy share at this moment of what is left", () => {
    // Firm: half between 30 and 5 days before; all from 30 days; none within 5.
    expect(quote({})).toMatchObject({ refundable: 4500, suggested_amount: 2250, share: 0.5, refusal: null });
    expect(quote({ startsAt: new Date(NOW.getTime() + 31 * DAY) }).suggested_amount).toBe(4500);
    expect(quote({ startsAt: new Date(NOW.getTime() + 2 * DAY) }).suggested_amount).toBe(0);
    expect(quote({ order: { ...paid, status: 'partial_refund', refunded_amount: 3000 } })).toMatchObject({
      refundable: 1500,
      suggested_amount: 1500,
    });
    expect(quote({}).policy?.name).toBe('Firm');
  });

  it('says why an order cannot be refunded, and offers nothing then (a missing payment method still shows the amount)', () => {
    expect(quote({ order: { ...paid, source: 'eventbrite' } })).toMatchObject({
      refundable: 0,
      refusal: REFUND_MESSAGES.notWorkbench('eventbrite'),
    });
    expect(quote({ order: { ...paid, status: 'pending' } })).toMatchObject({
      refundable: 0,
      refusal: REFUND_MESSAGES.notRefundable,
    });
    expect(quote({ order: { ...paid, stripe_payment_intent_id: null } }).refusal).toBe(
      REFUND_MESSAGES.neverCharged,
    );
    expect(quote({ hasPaymentMethod: false })).toMatchObject({
      refundable: 4500,
      refusal: REFUND_MESSAGES.noPaymentMethod,
    });
    expect(quote({ order: null })).toMatchObject({
      order: null,
      refundable: 0,
      suggested_amount: 0,
      refusal: null,
    });
  });
});
