import { POLICY_IDS } from '../catalog/policies';
import { refundRefusal } from '../orders/refund-request-rule';
import {
  REFUND_MESSAGES,
  refundBodySchema,
  removeEnrollmentBodySchema,
} from '../orders/refund.schema';
import { sessionCancelSchema } from '../scheduling/session-cancel';
import {
  bookingUseOut,
  CREDIT_MESSAGES,
  refundDestinationText,
  refundSplit,
  useOutcomeText,
  useReturns,
} from './refund-credit';

const order = { total_cents: 9000, refunded_cents: 0, wallet_paid_cents: 0 };

describe('refundSplit: wallet money first, uses back only on a whole refund at once', () => {
  it('an order paid by card only: all to the destination', () => {
    expect(refundSplit({ ...order, amount_cents: 4000, refund_to: 'card' })).toEqual({
      wallet_cents: 0,
      return_uses: false,
      to_card_cents: 4000,
      to_credit_cents: 0,
    });
    expect(refundSplit({ ...order, amount_cents: 4000, refund_to: 'store_credit' })).toEqual({
      wallet_cents: 0,
      return_uses: false,
      to_card_cents: 0,
      to_credit_cents: 4000,
    });
  });

  it('the whole order at once gives each gift card its use back; the card gets the rest', () => {
    expect(refundSplit({ ...order, wallet_paid_cents: 3000, amount_cents: 9000, refund_to: 'card' })).toEqual(
      {
        wallet_cents: 3000,
        return_uses: true,
        to_card_cents: 6000,
        to_credit_cents: 0,
      },
    );
    expect(
      refundSplit({ ...order, wallet_paid_cents: 3000, amount_cents: 9000, refund_to: 'store_credit' }),
    ).toEqual({
      wallet_cents: 3000,
      return_uses: true,
      to_card_cents: 0,
      to_credit_cents: 6000,
    });
  });

  it('a partial refund takes the wallet part first and gives it as store credit', () => {
    expect(refundSplit({ ...order, wallet_paid_cents: 3000, amount_cents: 4000, refund_to: 'card' })).toEqual(
      {
        wallet_cents: 3000,
        return_uses: false,
        to_card_cents: 1000,
        to_credit_cents: 3000,
      },
    );
    expect(refundSplit({ ...order, wallet_paid_cents: 3000, amount_cents: 2000, refund_to: 'card' })).toEqual(
      {
        wallet_cents: 2000,
        return_uses: false,
        to_card_cents: 0,
        to_credit_cents: 2000,
      },
    );
  });

  it('earlier refunds took the wallet part first: the rest of the order is the card', () => {
    // $20.00 refunded before, of $30.00 wallet money: $10.00 of it is left.
    expect(
      refundSplit({
        ...order,
        refunded_cents: 2000,
        wallet_paid_cents: 3000,
        amount_cents: 7000,
        refund_to: 'card',
      }),
    ).toEqual({
      wallet_cents: 1000,
      return_uses: false,
      to_card_cents: 6000,
      to_credit_cents: 1000,
    });
    expect(
      refundSplit({
        ...order,
        refunded_cents: 5000,
        wallet_paid_cents: 3000,
        amount_cents: 4000,
        refund_to: 'card',
      }).wallet_cents,
    ).toBe(0);
  });

  it('never splits into more or less than the amount', () => {
    for (const wallet of [0, 1, 2999, 9000])
      for (const refunded of [0, 1000, 8999])
        for (const amount of [1, 500, 9000 - refunded])
          for (const to of ['card', 'store_credit'] as const) {
            const s = refundSplit({
              total_cents: 9000,
              refunded_cents: refunded,
              wallet_paid_cents: wallet,
              amount_cents: amount,
              refund_to: to,
            });
            const back = s.to_card_cents + s.to_credit_cents + (s.return_uses ? s.wallet_cents : 0);
            expect(back).toBe(amount);
            expect(Math.min(s.wallet_cents, s.to_card_cents, s.to_credit_cents)).toBeGreaterThanOrEqual(0);
          }
  });

  it('says where the money goes', () => {
    expect(refundDestinationText(refundSplit({ ...order, amount_cents: 9000, refund_to: 'card' }))).toBe(
      '$90.00 back to the card.',
    );
    expect(
      refundDestinationText(
        refundSplit({ ...order, wallet_paid_cents: 3000, amount_cents: 4000, refund_to: 'card' }),
      ),
    ).toBe('$10.00 back to the card, $30.00 as store credit.');
    expect(refundDestinationText(refundSplit({ ...order, amount_cents: 0, refund_to: 'card' }))).toBe(
      'Nothing is refunded.',
    );
  });
});

describe('a use that covered a booking', () => {
  it('comes back by who cancels', () => {
    expect(useReturns({ kind: 'student', share: 1 })).toBe(true);
    expect(useReturns({ kind: 'student', share: 0.5 })).toBe(false);
    expect(useReturns({ kind: 'student', share: 0 })).toBe(false);
    expect(useReturns({ kind: 'session_cancel' })).toBe(true);
    expect(useReturns({ kind: 'admin' })).toBe(true);
    expect(useReturns({ kind: 'admin', keep_use: true })).toBe(false);
  });

  it("the page's words: given back, or forfeited after the policy's limit", () => {
    expect(useOutcomeText('credits', true)).toBe('Your class credit is given back.');
    expect(useOutcomeText('bookings', true)).toBe('Your membership booking is given back.');
    expect(useOutcomeText('credits', false, POLICY_IDS.flexible)).toBe(
      'Your class credit is not given back after 1 day before start.',
    );
    expect(useOutcomeText('credits', false, POLICY_IDS.firm)).toBe(
      'Your class credit is not given back after 30 days before start.',
    );
    expect(useOutcomeText('credits', false, POLICY_IDS.noSelfCancel)).toBe(
      'Your class credit is not given back.',
    );
    const use = {
      holding_id: 'h',
      kind: 'pack' as const,
      label: '5-class pack',
      unit: 'credits' as const,
      amount: 1,
      returned: false,
    };
    expect(bookingUseOut(null, true)).toBeNull();
    expect(bookingUseOut(use, true)).toMatchObject({
      returns: true,
      message: 'Your class credit is given back.',
    });
    expect(bookingUseOut({ ...use, returned: true }, true)).toMatchObject({
      returns: false,
      message: 'Your class credit was given back.',
    });
  });
});

describe('the bodies take refund_to', () => {
  it('card or store_credit, nothing else', () => {
    expect(refundBodySchema.parse({ refund_to: 'store_credit' })).toEqual({ refund_to: 'store_credit' });
    const bad = refundBodySchema.safeParse({ refund_to: 'cash' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe(CREDIT_MESSAGES.refundToInvalid);
    expect(
      removeEnrollmentBodySchema.parse({
        refund: { amount: 100, reason: 'Other', refund_to: 'card' },
        keep_use: true,
      }),
    ).toMatchObject({ keep_use: true });
    expect(
      sessionCancelSchema.safeParse({ refund: 'full', reason: 'x', refund_to: 'store_credit' }).success,
    ).toBe(true);
  });

  it('store credit refunds an order never charged by card only when wallet money paid it', () => {
    const never = { source: 'workbench', status: 'paid', total: 9000, refunded_amount: 0, stripe_payment_intent_id: null };
    const credit = (order: typeof never, wallet_paid_cents: number) =>
      refundRefusal({ order, wallet_paid_cents, refund_to: 'store_credit' })?.message ?? null;
    expect(credit(never, 0)).toBe(REFUND_MESSAGES.neverCharged);
    expect(credit(never, 9000)).toBeNull();
    expect(credit({ ...never, total: 0 }, 0)).toBe(REFUND_MESSAGES.zeroTotal);
    expect(credit({ ...never, status: 'refunded' }, 9000)).toBe(REFUND_MESSAGES.notRefundable);
    expect(credit({ ...never, refunded_amount: 9000 }, 9000)).toBe(REFUND_MESSAGES.notRefundable);
  });
});
