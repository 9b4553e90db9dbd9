import { PRODUCT_MESSAGES as M } from './product.schema';

/**
 * One table of good and bad product payloads (spec 000 §5), run against the schema (unit test) and
 * against POST /api/admin/products (backend e2e), so the browser and the API cannot drift apart.
 * Each patch applies to a valid one-time product; the e2e fills `images` with real uploads.
 */
export interface ProductCase {
  name: string;
  patch: Record<string, unknown>;
  /** Field -> message expected; empty means the payload is valid. */
  errors: Record<string, string>;
}

export const VALID_PRODUCT = {
  productName: 'Glaze sampler kit',
  productDescription: 'Twelve test tiles and six glazes.',
  priceType: 'oneTime',
  amount: 2500,
  images: [] as string[],
  earnPoints: false,
  status: 'published',
};

export const PRODUCT_CASES: ProductCase[] = [
  { name: 'a one-time product', patch: {}, errors: {} },
  { name: 'a product without a description or images', patch: { productDescription: undefined, images: undefined }, errors: {} },
  {
    name: 'a monthly subscription',
    patch: { priceType: 'subscription', renewalIntervalUnits: 'months', renewalIntervalQuantity: 1 },
    errors: {},
  },
  { name: 'a free lead magnet', patch: { priceType: 'leadMagnet', amount: 0 }, errors: {} },
  { name: 'a lead magnet with a price', patch: { priceType: 'leadMagnet', amount: 500 }, errors: {} },
  { name: 'an empty name', patch: { productName: '' }, errors: { productName: M.nameRequired } },
  { name: 'a blank name', patch: { productName: '   ' }, errors: { productName: M.nameRequired } },
  { name: 'a missing name', patch: { productName: undefined }, errors: { productName: M.nameRequired } },
  { name: 'a one-time amount of 0', patch: { amount: 0 }, errors: { amount: M.amountPositive } },
  {
    name: 'a subscription amount of 0',
    patch: { priceType: 'subscription', renewalIntervalUnits: 'weeks', renewalIntervalQuantity: 2, amount: 0 },
    errors: { amount: M.amountPositive },
  },
  { name: 'a negative amount', patch: { amount: -100 }, errors: { amount: M.amountInvalid } },
  { name: 'a fractional cent amount', patch: { amount: 10.5 }, errors: { amount: M.amountInvalid } },
  { name: 'a missing amount', patch: { amount: undefined }, errors: { amount: M.amountInvalid } },
  { name: 'an unknown price type', patch: { priceType: 'volume' }, errors: { priceType: M.priceType } },
  {
    name: 'a subscription without its interval',
    patch: { priceType: 'subscription' },
    errors: { renewalIntervalUnits: M.renewalUnit, renewalIntervalQuantity: M.renewalQuantity },
  },
  {
    name: 'a renewal interval of 0',
    patch: { priceType: 'subscription', renewalIntervalUnits: 'months', renewalIntervalQuantity: 0 },
    errors: { renewalIntervalQuantity: M.renewalQuantity },
  },
  {
    name: 'a fractional renewal interval',
    patch: { priceType: 'subscription', renewalIntervalUnits: 'months', renewalIntervalQuantity: 1.5 },
    errors: { renewalIntervalQuantity: M.renewalQuantity },
  },
  {
    name: 'an unknown renewal unit',
    patch: { priceType: 'subscription', renewalIntervalUnits: 'fortnights', renewalIntervalQuantity: 1 },
    errors: { renewalIntervalUnits: M.renewalUnit },
  },
  // A field that does not apply is ignored, not validated (issue 19).
  { name: 'points off with a reward amount of 0', patch: { earnPoints: false, rewardAmount: 0 }, errors: {} },
  { name: 'points off with a text reward amount', patch: { earnPoints: false, rewardAmount: 'lots' }, errors: {} },
  { name: 'points left out with a reward amount of 1', patch: { earnPoints: undefined, rewardAmount: 1 }, errors: {} },
  {
    name: 'a one-time product with a renewal interval of 0 and an unknown unit',
    patch: { renewalIntervalUnits: 'fortnights', renewalIntervalQuantity: 0 },
    errors: {},
  },
  {
    name: 'a lead magnet with a fractional renewal interval',
    patch: { priceType: 'leadMagnet', amount: 0, renewalIntervalUnits: 'months', renewalIntervalQuantity: 1.5 },
    errors: {},
  },
  { name: 'points without a reward amount', patch: { earnPoints: true }, errors: { rewardAmount: M.rewardAmount } },
  { name: 'a reward amount of 1', patch: { earnPoints: true, rewardAmount: 1 }, errors: { rewardAmount: M.rewardAmount } },
  { name: 'a fractional reward amount', patch: { earnPoints: true, rewardAmount: 2.5 }, errors: { rewardAmount: M.rewardAmount } },
  { name: 'a text reward amount', patch: { earnPoints: true, rewardAmount: 'lots' }, errors: { rewardAmount: M.rewardAmount } },
  { name: 'eleven images', patch: { images: Array.from({ length: 11 }, (_, i) => `/api/media/x/${i}.png`) }, errors: { images: M.imagesMax } },
];
