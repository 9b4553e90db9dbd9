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

/** Every policy exactly at its boundary, one minute before it (more time left) and one minute after (less). */
describe('every policy at its boundary, a minute either side', () => {
  const MINUTE = 60_000;
  const cases: [string, number, number, number, number][] = [
    // name, policy, boundary (ms before start), share with a minute more, share with a minute less
    ['Flexible 1 day', POLICY_IDS.flexible, DAY, 1, 0],
    ['Moderate 5 days', POLICY_IDS.moderate, 5 * DAY, 1, 0],
    ['Firm 30 days', POLICY_IDS.firm, 30 * DAY, 1, 0.5],
    ['Firm 5 days', POLICY_IDS.firm, 5 * DAY, 0.5, 0],
  ];
  it.each(cases)('%s', (_name, policy, boundary, more, less) => {
    expect(refundableShare(policy, boundary + MINUTE)).toBe(more);
    expect(refundableShare(policy, boundary)).toBe(more);
    expect(refundableShare(policy, boundary - MINUTE)).toBe(less);
  });

  it.each([
    ['Agile 24 hours', POLICY_IDS.agile, 24 * HOUR],
    ['Fixed 5 days', POLICY_IDS.fixed, 5 * DAY],
  ] as const)('%s', (_name, policy, boundary) => {
    expect(isRescheduleFree(policy, boundary + MINUTE)).toBe(true);
    expect(isRescheduleFree(policy, boundary)).toBe(true);
    expect(isRescheduleFree(policy, boundary - MINUTE)).toBe(false);
  });

  it('"Contact the studio" gives nothing back and never reschedules freely, however early', () => {
    expect(refundableShare(POLICY_IDS.noSelfCancel, 365 * DAY)).toBe(0);
    expect(isRescheduleFree(POLICY_IDS.noSelfReschedule, 365 * DAY)).toBe(false);
  });
});
