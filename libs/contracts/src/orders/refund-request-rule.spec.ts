import { CREDIT_MESSAGES } from '../wallet/refund-credit-rules';
import { REFUND_REFUSAL_KINDS, refundRefusal, type RefundRefusalCode, type RefundRequest } from './refund-request-rule';
import { REFUND_MESSAGES as M } from './refund.schema';

/* The one refund request rule (issue 33): every refusal, in the order it is checked. */

const paid = { source: 'workbench', status: 'paid', total: 10000, refunded_amount: 2500, stripe_payment_intent_id: 'pi_1' };
const ask = (order: Partial<RefundRequest['order']>, rest: Omit<RefundRequest, 'order'> = {}) => refundRefusal({ order: { ...paid, ...order }, ...rest });

describe('refundRefusal', () => {
  it('lets a paid workbench order with a charge be refunded, with or without knowing the payment method yet', () => {
    expect(ask({}, { has_payment_method: true })).toBeNull();
    expect(ask({})).toBeNull();
    expect(ask({ status: 'partial_refund' }, { amount_cents: 7500, has_payment_method: true })).toBeNull();
  });

  it.each<[string, Partial<RefundRequest['order']>, Omit<RefundRequest, 'order'>, RefundRefusalCode, string]>([
    ['an order sold elsewhere', { source: 'eventbrite' }, {}, 'not_workbench', 'Sold through eventbrite: refund it there.'],
    ['a pending order', { status: 'pending' }, {}, 'not_refundable', M.notRefundable],
    ['a refunded order', { status: 'refunded' }, {}, 'not_refundable', M.notRefundable],
    ['a failed order', { status: 'failed' }, {}, 'not_refundable', M.notRefundable],
    ['a $0.00 order', { total: 0, refunded_amount: 0 }, {}, 'zero_total', M.zeroTotal],
    ['an order never charged', { stripe_payment_intent_id: null }, {}, 'never_charged', M.neverCharged],
    ['a partial refund with nothing left', { status: 'partial_refund', refunded_amount: 10000 }, {}, 'nothing_left', M.notRefundable],
    ['an amount above what is left', {}, { amount_cents: 7501 }, 'exceeds_remaining', 'Refund amount cannot exceed the remaining amount of $75.00'],
    ['a card refund of an order paid by wallet money only', { stripe_payment_intent_id: null, refunded_amount: 0 }, { wallet_paid_cents: 4000 }, 'card_never_charged', CREDIT_MESSAGES.neverChargedCard],
    ['no payment method on file', {}, { has_payment_method: false }, 'no_payment_method', M.noPaymentMethod],
  ])('refuses %s', (_name, order, rest, code, message) => {
    expect(ask(order, rest)).toEqual({ code, message, ...(code === 'exceeds_remaining' ? { field: 'amount' } : {}) });
  });

  it('judges an external order that was never charged by its source first, as the spec says (the drawer and the API agree)', () => {
    expect(ask({ source: 'eventbrite', stripe_payment_intent_id: null, refunded_amount: 0 }, { has_payment_method: false })).toEqual({
      code: 'not_workbench',
      message: M.notWorkbench('eventbrite'),
    });
  });

  it('checks in order: status before total, total before charge, charge before what is left, the amount before the card', () => {
    expect(ask({ status: 'pending', total: 0, stripe_payment_intent_id: null })?.code).toBe('not_refundable');
    expect(ask({ total: 0, refunded_amount: 0, stripe_payment_intent_id: null })?.code).toBe('zero_total');
    expect(ask({ stripe_payment_intent_id: null, status: 'partial_refund', refunded_amount: 10000 })?.code).toBe('never_charged');
    expect(ask({}, { amount_cents: 9000, has_payment_method: false })?.code).toBe('exceeds_remaining');
  });

  it('store credit needs no payment method and no card charge, but some charge', () => {
    const never = { stripe_payment_intent_id: null, refunded_amount: 0 };
    expect(ask({}, { refund_to: 'store_credit', has_payment_method: false })).toBeNull();
    expect(ask(never, { refund_to: 'store_credit', wallet_paid_cents: 4000 })).toBeNull();
    expect(ask(never, { refund_to: 'store_credit' })?.code).toBe('never_charged');
  });

  it('the wallet part needs no card: an order paid by wallet money alone goes back to it by card refund too', () => {
    expect(ask({ stripe_payment_intent_id: null, refunded_amount: 0 }, { wallet_paid_cents: 10000, has_payment_method: false })).toBeNull();
    expect(ask({}, { wallet_paid_cents: 10000, amount_cents: 7500, has_payment_method: false })).toBeNull();
  });

  it('a refused amount is bad input; every other refusal conflicts with the order', () => {
    expect(Object.entries(REFUND_REFUSAL_KINDS).filter(([, kind]) => kind !== 'conflict')).toEqual([['exceeds_remaining', 'invalid']]);
  });
});
