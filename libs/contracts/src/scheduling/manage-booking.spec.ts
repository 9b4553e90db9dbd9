import { POLICY_IDS } from '../catalog/policies';
import { cancelTerms, rescheduleSchema, rescheduleTerms, timeLeftText } from './manage-booking';

const DAY = 24 * 3600_000;
const MINUTE = 60_000;

describe('cancel terms: the policy applied to the time left and what was paid', () => {
  it('Firm between 30 and 5 days: half of what was paid, in words', () => {
    const terms = cancelTerms(POLICY_IDS.firm, 12 * DAY + 5 * MINUTE, 9000);
    expect(terms).toMatchObject({ allowed: true, share: 0.5, refund_cents: 4500 });
    expect(terms.figure).toBe('Firm: 50% refund ($45.00) — 12 days before start');
  });

  it('Flexible a minute before and after its day', () => {
    expect(cancelTerms(POLICY_IDS.flexible, DAY + MINUTE, 5000)).toMatchObject({ refund_cents: 5000, allowed: true });
    expect(cancelTerms(POLICY_IDS.flexible, DAY - MINUTE, 5000)).toMatchObject({ refund_cents: 0, allowed: true });
    expect(cancelTerms(POLICY_IDS.flexible, DAY - MINUTE, 5000).figure).toBe('Flexible: No refund ($0.00) — 23 hours before start');
  });

  it('a started booking cannot be cancelled and gives nothing back', () => {
    expect(cancelTerms(POLICY_IDS.flexible, -MINUTE, 5000)).toMatchObject({ allowed: false, refund_cents: 0 });
  });

  it('"Contact the studio" is never allowed and says so', () => {
    const terms = cancelTerms(POLICY_IDS.noSelfCancel, 60 * DAY, 5000);
    expect(terms.allowed).toBe(false);
    expect(terms.figure).toMatch(/^Contact the studio/);
  });
});

describe('reschedule terms', () => {
  it('Agile: free a minute before 24 hours, refused a minute after, with the rule', () => {
    expect(rescheduleTerms(POLICY_IDS.agile, DAY + MINUTE).allowed).toBe(true);
    const late = rescheduleTerms(POLICY_IDS.agile, DAY - MINUTE);
    expect(late.allowed).toBe(false);
    expect(late.figure).toContain('Free until 24 hours before');
  });
  it('"Contact the studio" is never allowed', () => {
    expect(rescheduleTerms(POLICY_IDS.noSelfReschedule, 90 * DAY).allowed).toBe(false);
  });
});

describe('time left', () => {
  it('in days, hours, minutes', () => {
    expect(timeLeftText(5 * DAY)).toBe('5 days before start');
    expect(timeLeftText(DAY)).toBe('1 day before start');
    expect(timeLeftText(2 * 3600_000 + MINUTE)).toBe('2 hours before start');
    expect(timeLeftText(30 * MINUTE)).toBe('30 minutes before start');
    expect(timeLeftText(0)).toBe('started');
  });
});

describe('the reschedule body', () => {
  it('takes a session or a time, not both, not neither', () => {
    expect(rescheduleSchema.safeParse({ event_id: '4c8d3a52-8f0e-4b8e-9a55-5d5f6b0b6c11' }).success).toBe(true);
    expect(rescheduleSchema.safeParse({ starts_at: '2027-01-01T10:00:00Z' }).success).toBe(true);
    expect(rescheduleSchema.safeParse({}).success).toBe(false);
    expect(rescheduleSchema.safeParse({ event_id: 'nope' }).success).toBe(false);
  });
});
