import { LOYALTY_MESSAGES, centsToPoints, loyaltyProgramUpdateSchema, pointsToCents } from './loyalty.schema';

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
