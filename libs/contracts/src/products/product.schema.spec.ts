import { PRODUCT_CASES, VALID_PRODUCT } from './product.cases';
import {
  describeProductGrant,
  describeProductPrice,
  packExpiresAt,
  loyaltyProgramIssue,
  normalizeProductPayload,
  PRODUCT_MESSAGES as M,
  productFormSchema,
  productPayloadSchema,
  productListQuerySchema,
} from './product.schema';
import { formatCents } from '../money';
import { describeCoverage } from '../wallet/wallet.schema';

function fieldErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('product rules (spec 000 §5)', () => {
  it.each(PRODUCT_CASES)('$name', ({ patch, errors }) => {
    expect(fieldErrors(productPayloadSchema.safeParse({ ...VALID_PRODUCT, ...patch }))).toEqual(errors);
  });

  it('status is published unless said otherwise (spec 000 §4)', () => {
    const { status: _status, ...withoutStatus } = VALID_PRODUCT;
    expect(productPayloadSchema.parse(withoutStatus).status).toBe('published');
  });

  it('rejects unknown fields', () => {
    expect(fieldErrors(productPayloadSchema.safeParse({ ...VALID_PRODUCT, organization_id: 'x' }))).toEqual({
      '': expect.stringContaining('organization_id'),
    });
  });

  it('keeps the interval only for a subscription and the reward only with points', () => {
    const oneTime = productPayloadSchema.parse({ ...VALID_PRODUCT, renewalIntervalUnits: 'months', renewalIntervalQuantity: 3, rewardAmount: 50 });
    expect(normalizeProductPayload(oneTime)).toMatchObject({ renewalIntervalUnits: null, renewalIntervalQuantity: null, rewardAmount: null });
  });

  it("checks a lead magnet's download address, and ignores one on another price type", () => {
    const leadMagnet = { ...VALID_PRODUCT, priceType: 'leadMagnet', amount: 0 };
    expect(fieldErrors(productPayloadSchema.safeParse({ ...leadMagnet, downloadUrl: 'ftp://x.example/a' }))).toEqual({
      downloadUrl: M.downloadUrl,
    });
    const kept = productPayloadSchema.parse({ ...leadMagnet, downloadUrl: 'https://clay.example/guide.pdf' });
    expect(normalizeProductPayload(kept).downloadUrl).toBe('https://clay.example/guide.pdf');
    const oneTime = productPayloadSchema.parse({ ...VALID_PRODUCT, downloadUrl: 'not a link' });
    expect(normalizeProductPayload(oneTime).downloadUrl).toBeNull();
  });
});

describe('product form', () => {
  const form = (patch: Record<string, unknown>, loyaltyProgramActive = true) =>
    productFormSchema({ loyaltyProgramActive }).safeParse({ ...VALID_PRODUCT, amount: '25.00', ...patch });

  it('reads dollars and gives the API cents', () => {
    const parsed = form({ amount: '19.99' });
    expect(parsed.success && parsed.data.amount).toBe(1999);
  });

  it('says the same messages as the API', () => {
    expect(fieldErrors(form({ amount: '0' }))).toEqual({ amount: M.amountPositive });
    expect(fieldErrors(form({ amount: '1.999' }))).toEqual({ amount: M.amountInvalid });
    expect(fieldErrors(form({ productName: '' }))).toEqual({ productName: M.nameRequired });
    expect(fieldErrors(form({ earnPoints: true, rewardAmount: '' }))).toEqual({ rewardAmount: M.rewardAmount });
  });

  it('refuses points while the loyalty programme is not active', () => {
    expect(fieldErrors(form({ earnPoints: true, rewardAmount: 100 }, false))).toEqual({ earnPoints: M.loyaltyProgramRequired });
    expect(fieldErrors(form({ earnPoints: true, rewardAmount: 100 }, true))).toEqual({});
    expect(fieldErrors(form({ earnPoints: false }, false))).toEqual({});
    expect(loyaltyProgramIssue(true, false)).toBe('You need to set up a loyalty program before enabling this feature.');
  });
});

describe('product list query', () => {
  it('answers the whole list by default and takes limit=10000 (spec 001 §7)', () => {
    expect(productListQuerySchema.parse({})).toEqual({ page: 1, limit: 10000 });
    expect(productListQuerySchema.parse({ limit: '10000' }).limit).toBe(10000);
    expect(productListQuerySchema.safeParse({ limit: '10001' }).success).toBe(false);
  });
});

describe('describeProductPrice', () => {
  const price = (p: Partial<Parameters<typeof describeProductPrice>[0]>) =>
    describeProductPrice({ unit_price: 1500, category: 'oneTime', renewal_interval_unit: null, renewal_interval_quantity: null, ...p }, formatCents);
  it.each([
    [{}, '$15.00'],
    [{ category: 'subscription', renewal_interval_unit: 'months', renewal_interval_quantity: 1 }, '$15.00 every month'],
    [{ category: 'subscription', renewal_interval_unit: 'weeks', renewal_interval_quantity: 2 }, '$15.00 every 2 weeks'],
    [{ category: 'leadMagnet', unit_price: 0 }, 'Free'],
  ] as const)('%j reads %s', (patch, text) => {
    expect(price(patch)).toBe(text);
  });
});

describe('what a product grants (issue 24)', () => {
  const course = '3f1b7a52-9a0e-4c1e-9d1c-1b2a3c4d5e6f';
  const subscription = { ...VALID_PRODUCT, priceType: 'subscription', renewalIntervalUnits: 'months', renewalIntervalQuantity: 1 };
  const parse = (patch: Record<string, unknown>, base: Record<string, unknown> = VALID_PRODUCT) =>
    productPayloadSchema.safeParse({ ...base, ...patch });

  it('grants nothing unless said', () => {
    expect(normalizeProductPayload(productPayloadSchema.parse(VALID_PRODUCT))).toMatchObject({
      grant: 'none',
      membershipBookings: null,
      membershipUnlimited: false,
      packCredits: null,
      coversActivityIds: null,
      coversCategoryIds: null,
    });
  });

  it('a membership: a subscription with bookings a period or unlimited, for chosen courses and categories', () => {
    const eight = parse({ grant: 'membership', membershipBookings: 8, coversActivityIds: [course], coversCategoryIds: [4, 4, 1] }, subscription);
    expect(eight.success).toBe(true);
    expect(normalizeProductPayload(eight.data!)).toMatchObject({
      grant: 'membership',
      membershipBookings: 8,
      membershipUnlimited: false,
      coversActivityIds: [course],
      coversCategoryIds: [1, 4],
    });
    const unlimited = productPayloadSchema.parse({ ...subscription, grant: 'membership', membershipUnlimited: true, membershipBookings: 0 });
    expect(normalizeProductPayload(unlimited)).toMatchObject({ membershipUnlimited: true, membershipBookings: null });
  });

  it('refuses a membership without bookings, with too many, or on a one-time product', () => {
    expect(fieldErrors(parse({ grant: 'membership' }, subscription))).toEqual({ membershipBookings: M.membershipBookings });
    expect(fieldErrors(parse({ grant: 'membership', membershipBookings: 1001 }, subscription))).toEqual({ membershipBookings: M.membershipBookings });
    expect(fieldErrors(parse({ grant: 'membership', membershipBookings: 2.5 }, subscription))).toEqual({ membershipBookings: M.membershipBookings });
    expect(fieldErrors(parse({ grant: 'membership', membershipBookings: 8 }))).toEqual({ grant: M.grantMembershipNeedsSubscription });
  });

  it('a pack: credits and an optional validity, one-time only', () => {
    const pack = productPayloadSchema.parse({ ...VALID_PRODUCT, grant: 'pack', packCredits: 10, packExpiresAfterQuantity: 6, packExpiresAfterUnit: 'months' });
    expect(normalizeProductPayload(pack)).toMatchObject({ packCredits: 10, packExpiresAfterQuantity: 6, packExpiresAfterUnit: 'months' });
    const forever = productPayloadSchema.parse({ ...VALID_PRODUCT, grant: 'pack', packCredits: 5, packExpiresAfterQuantity: '', packExpiresAfterUnit: '' });
    expect(normalizeProductPayload(forever)).toMatchObject({ packExpiresAfterQuantity: null, packExpiresAfterUnit: null });
    expect(fieldErrors(parse({ grant: 'pack' }))).toEqual({ packCredits: M.packCredits });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 0 }))).toEqual({ packCredits: M.packCredits });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5, packExpiresAfterQuantity: 6 }))).toEqual({ packExpiresAfterUnit: M.packExpiryUnit });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5, packExpiresAfterUnit: 'weeks' }))).toEqual({ packExpiresAfterQuantity: M.packExpiryQuantity });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5, packExpiresAfterQuantity: 366, packExpiresAfterUnit: 'days' }))).toEqual({
      packExpiresAfterQuantity: M.packExpiryQuantity,
    });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5 }, subscription))).toEqual({ grant: M.grantPackNeedsOneTime });
  });

  it('a gift card: one-time only, its value is the price', () => {
    expect(parse({ grant: 'giftCard' }).success).toBe(true);
    expect(fieldErrors(parse({ grant: 'giftCard' }, subscription))).toEqual({ grant: M.grantGiftCardNeedsOneTime });
    expect(fieldErrors(parse({ grant: 'giftCard' }, { ...VALID_PRODUCT, priceType: 'leadMagnet', amount: 0 }))).toEqual({
      grant: M.grantGiftCardNeedsOneTime,
    });
  });

  it('refuses an unknown grant, bad course ids and categories outside 1..7', () => {
    expect(fieldErrors(parse({ grant: 'voucher' }))).toEqual({ grant: M.grant });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5, coversActivityIds: ['nope'] }))).toEqual({ 'coversActivityIds.0': M.coversCourseUnknown });
    expect(fieldErrors(parse({ grant: 'pack', packCredits: 5, coversCategoryIds: [8] }))).toEqual({ 'coversCategoryIds.0': M.coversCategories });
  });

  it("ignores a grant's fields when they do not apply", () => {
    const none = productPayloadSchema.parse({ ...VALID_PRODUCT, membershipBookings: 'x', packCredits: -1, coversCategoryIds: [99], packExpiresAfterUnit: 'eons' });
    expect(normalizeProductPayload(none)).toMatchObject({ grant: 'none', packCredits: null, coversCategoryIds: null });
    const unlimited = parse({ grant: 'membership', membershipUnlimited: true, membershipBookings: 'lots' }, subscription);
    expect(unlimited.success).toBe(true);
    const gift = productPayloadSchema.parse({ ...VALID_PRODUCT, grant: 'giftCard', packCredits: 'x', coversActivityIds: [course] });
    expect(normalizeProductPayload(gift)).toMatchObject({ grant: 'giftCard', packCredits: null, coversActivityIds: null });
  });
});

describe('describeProductGrant and describeCoverage', () => {
  const price = {
    unit_price: 5000,
    renewal_interval_unit: null,
    renewal_interval_quantity: null,
    grant: 'none' as const,
    membership_bookings: null,
    membership_unlimited: false,
    pack_credits: null,
    pack_expires_after_quantity: null,
    pack_expires_after_unit: null,
  };
  const monthly = { renewal_interval_unit: 'months' as const, renewal_interval_quantity: 1 };

  it('says what it grants in words', () => {
    expect(describeProductGrant(price, formatCents)).toBeNull();
    expect(describeProductGrant({ ...price, grant: 'pack', pack_credits: 10, pack_expires_after_quantity: 6, pack_expires_after_unit: 'months' }, formatCents)).toBe(
      '10 classes, valid 6 months',
    );
    expect(describeProductGrant({ ...price, grant: 'pack', pack_credits: 1, pack_expires_after_quantity: 1, pack_expires_after_unit: 'years' }, formatCents)).toBe(
      '1 class, valid 1 year',
    );
    expect(describeProductGrant({ ...price, grant: 'pack', pack_credits: 5 }, formatCents)).toBe('5 classes, no expiry');
    expect(describeProductGrant({ ...price, ...monthly, grant: 'membership', membership_unlimited: true }, formatCents)).toBe('Unlimited classes every month');
    expect(describeProductGrant({ ...price, ...monthly, grant: 'membership', membership_bookings: 8 }, formatCents)).toBe('8 classes every month');
    expect(
      describeProductGrant({ ...price, renewal_interval_unit: 'weeks', renewal_interval_quantity: 2, grant: 'membership', membership_bookings: 1 }, formatCents),
    ).toBe('1 class every 2 weeks');
    expect(describeProductGrant({ ...price, grant: 'giftCard' }, formatCents)).toBe('Gift card worth $50.00');
  });

  it('says what a membership or pack covers', () => {
    const names = new Map([['a', 'Wheel throwing']]);
    expect(describeCoverage({ covers_activity_ids: null, covers_category_ids: null }, names)).toBe('All courses');
    expect(describeCoverage({ covers_activity_ids: ['a', 'gone'], covers_category_ids: [4, 6] }, names)).toBe('Wheel throwing, Ceramics, Wood courses');
    expect(describeCoverage({ covers_activity_ids: ['gone'], covers_category_ids: null }, { a: 'Wheel throwing' })).toBe('No current course');
  });
});

describe('packExpiresAt', () => {
  const paid = new Date('2026-01-31T10:00:00Z');
  it('adds the validity to the time of payment, or never expires', () => {
    expect(packExpiresAt(paid, 10, 'days')?.toISOString()).toBe('2026-02-10T10:00:00.000Z');
    expect(packExpiresAt(paid, 2, 'weeks')?.toISOString()).toBe('2026-02-14T10:00:00.000Z');
    expect(packExpiresAt(paid, 6, 'months')?.toISOString()).toBe('2026-07-31T10:00:00.000Z');
    expect(packExpiresAt(paid, 1, 'years')?.toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(packExpiresAt(paid, null, null)).toBeNull();
  });
});
