import { pointsWithValue } from '../loyalty/points';
import { CHECKOUT_MESSAGES, checkoutQuoteSchema, pointsVerifySchema, priceParty, redeemPoints } from './checkout.schema';

const AT = new Date('2026-11-27T12:00:00Z');
const party = (redeem?: number, rule: Parameters<typeof priceParty>[0]['rule'] = null) =>
  priceParty({
    description: 'Raku firing',
    activityId: '00000000-0000-4000-8000-000000000001',
    unitPriceCents: 4000,
    partySize: 2,
    rule,
    at: AT,
    redeemPoints: redeem,
  });

describe('the points step of the one pricing function (100 points = $1.00)', () => {
  it('takes 1 cent a point off the total, after the discount', () => {
    expect(party(1250)).toMatchObject({ subtotal: 8000, discount: 0, pointsRedeemed: 1250, pointsCents: 1250, total: 6750 });
    const tenOff = {
      type: 'dollar' as const,
      value: 1000,
      activity_id: null,
      apply_logic: 'once' as const,
      start_date: null,
      expiration_date: null,
    };
    expect(party(500, tenOff)).toMatchObject({ discount: 1000, pointsCents: 500, total: 6500 });
  });

  it('never makes the total below $0.00: the points spent are capped at the total after the discount', () => {
    expect(party(20000)).toMatchObject({ pointsRedeemed: 8000, pointsCents: 8000, total: 0 });
    expect(redeemPoints(0, 500)).toEqual({ pointsRedeemed: 0, pointsCents: 0 });
  });

  it('spends nothing without points, and whole points only', () => {
    expect(party()).toMatchObject({ pointsRedeemed: 0, pointsCents: 0, total: 8000 });
    expect(party(0)).toMatchObject({ pointsRedeemed: 0, total: 8000 });
    expect(redeemPoints(1000, 99.9)).toEqual({ pointsRedeemed: 99, pointsCents: 99 });
  });

  it('reads points and a token only when sent, and refuses a negative or fractional amount', () => {
    const base = { event_id: '00000000-0000-4000-8000-000000000002' };
    expect(checkoutQuoteSchema.parse(base)).not.toHaveProperty('redeem_points');
    expect(checkoutQuoteSchema.parse({ ...base, points_token: '', redeem_points: 300 })).toMatchObject({ points_token: undefined, redeem_points: 300 });
    for (const bad of [-1, 1.5, '100'])
      expect(checkoutQuoteSchema.safeParse({ ...base, redeem_points: bad }).error?.issues[0].message).toBe(CHECKOUT_MESSAGES.pointsAmount);
  });

  it('takes a 6-digit code, and shows a balance with its value', () => {
    expect(pointsVerifySchema.safeParse({ email: 'a@b.test', code: '12345' }).error?.issues[0].message).toBe(CHECKOUT_MESSAGES.pointsCodeFormat);
    expect(pointsVerifySchema.parse({ email: 'a@b.test', code: ' 012345 ' }).code).toBe('012345');
    expect(pointsWithValue(1250)).toBe('1,250 points ($12.50)');
    expect(pointsWithValue(1)).toBe('1 point ($0.01)');
  });
});
