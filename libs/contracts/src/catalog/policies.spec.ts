import { isRescheduleFree, POLICY_IDS, refundableShare } from './policies';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

describe('cancellation policies at their boundaries', () => {
  it('Flexible: full refund until exactly 1 day before', () => {
    expect(refundableShare(POLICY_IDS.flexible, DAY)).toBe(1);
    expect(refundableShare(POLICY_IDS.flexible, DAY - 1)).toBe(0);
  });

  it('Moderate: full refund until exactly 5 days before', () => {
    expect(refundableShare(POLICY_IDS.moderate, 5 * DAY)).toBe(1);
    expect(refundableShare(POLICY_IDS.moderate, 5 * DAY - 1)).toBe(0);
  });

  it('Firm: full until 30 days, half until 5 days, none after', () => {
    expect(refundableShare(POLICY_IDS.firm, 30 * DAY)).toBe(1);
    expect(refundableShare(POLICY_IDS.firm, 30 * DAY - 1)).toBe(0.5);
    expect(refundableShare(POLICY_IDS.firm, 5 * DAY)).toBe(0.5);
    expect(refundableShare(POLICY_IDS.firm, 5 * DAY - 1)).toBe(0);
    expect(refundableShare(POLICY_IDS.firm, -HOUR)).toBe(0);
  });

  it('refuses a rescheduling policy id', () => {
    expect(() => refundableShare(POLICY_IDS.agile, DAY)).toThrow(RangeError);
  });
});

describe('rescheduling policies at their boundaries', () => {
  it('Agile: free until exactly 24 hours before', () => {
    expect(isRescheduleFree(POLICY_IDS.agile, 24 * HOUR)).toBe(true);
    expect(isRescheduleFree(POLICY_IDS.agile, 24 * HOUR - 1)).toBe(false);
  });

  it('Fixed: free until exactly 5 days before', () => {
    expect(isRescheduleFree(POLICY_IDS.fixed, 5 * DAY)).toBe(true);
    expect(isRescheduleFree(POLICY_IDS.fixed, 5 * DAY - 1)).toBe(false);
  });
});
