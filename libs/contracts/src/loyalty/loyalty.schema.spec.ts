import {
  LOYALTY_BALANCE_MESSAGES,
  LOYALTY_MESSAGES,
  MAX_POINTS_BALANCE,
  centsToPoints,
  isPointsInput,
  loyaltyBalanceSetSchema,
  loyaltyProgramUpdateSchema,
  parsePointsInput,
  pointsToCents,
} from './loyalty.schema';

describe('loyalty programme rules (spec 000 §9: 100 points = $1.00)', () => {
  it('states the rule as the settings page shows it', () => {
    expect(LOYALTY_MESSAGES.rule).toBe('100 points = $1.00');
  });

  it.each([
    [100, 100],
    [150, 150],
    [1, 1],
    [0, 0],
    [2500, 2500],
  ])('%i points are worth %i cents', (points, cents) => {
    expect(pointsToCents(points)).toBe(cents);
  });

  it('turns cents into whole points, rounding down', () => {
    expect(centsToPoints(100)).toBe(100);
    expect(centsToPoints(4599)).toBe(4599);
  });

  it('takes only active or disabled, and nothing else', () => {
    expect(loyaltyProgramUpdateSchema.safeParse({ status: 'active' }).success).toBe(true);
    expect(loyaltyProgramUpdateSchema.safeParse({ status: 'paused' }).success).toBe(false);
    expect(loyaltyProgramUpdateSchema.safeParse({ status: 'active', unit: 'stars' }).success).toBe(false);
  });
});

describe('points input (spec 001 §5) and loyalty-balance/set body', () => {
  it.each(['', '0', '12', '12.', '12.7', '12.75', '1250'])('accepts %j while typing', (text) => {
    expect(isPointsInput(text)).toBe(true);
  });

  it.each(['-1', '12.755', '1e3', '12a', ' 12', '.5', '1,250'])('refuses %j', (text) => {
    expect(isPointsInput(text)).toBe(false);
  });

  it('sends the integer parsed from the text, and nothing for an empty field', () => {
    expect(parsePointsInput('12.75')).toBe(12);
    expect(parsePointsInput('1250')).toBe(1250);
    expect(parsePointsInput('')).toBeNull();
    expect(parsePointsInput('abc')).toBeNull();
  });

  it('the API takes a whole number from 0 to the maximum, and refuses a negative one', () => {
    expect(loyaltyBalanceSetSchema.safeParse({ amount: 0 }).success).toBe(true);
    expect(loyaltyBalanceSetSchema.safeParse({ amount: MAX_POINTS_BALANCE }).success).toBe(true);
    expect(loyaltyBalanceSetSchema.safeParse({ amount: -1 }).error?.issues[0].message).toBe(
      LOYALTY_BALANCE_MESSAGES.amountInvalid,
    );
    expect(loyaltyBalanceSetSchema.safeParse({ amount: 1.5 }).success).toBe(false);
    expect(
      loyaltyBalanceSetSchema.safeParse({ amount: MAX_POINTS_BALANCE + 1 }).error?.issues[0].message,
    ).toBe(LOYALTY_BALANCE_MESSAGES.amountTooLarge);
  });
});
