import { PRODUCT_CASES, VALID_PRODUCT } from './product.cases';
import {
  describeProductPrice,
  loyaltyProgramIssue,
  normalizeProductPayload,
  PRODUCT_MESSAGES as M,
  productFormSchema,
  productPayloadSchema,
  productListQuerySchema,
} from './product.schema';
import { formatCents } from '../money';

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
