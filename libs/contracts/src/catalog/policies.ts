/**
 * The fixed cancellation and rescheduling policies (spec 000 §3, §9), with fixed ids, and the one
 * function that says what a policy allows at a given time before the start.
 */
export const POLICY_IDS = {
  flexible: 1,
  moderate: 2,
  firm: 3,
  agile: 4,
  fixed: 5,
  /** Used when self-cancel and reschedule is not enabled: the studio handles changes itself. */
  noSelfCancel: 6,
  noSelfReschedule: 7,
} as const;

export type PolicyKind = 'cancellation' | 'rescheduling';

export interface Policy {
  id: number;
  kind: PolicyKind;
  name: string;
  rule: string;
}

export const POLICIES: readonly Policy[] = [
  { id: POLICY_IDS.flexible, kind: 'cancellation', name: 'Flexible', rule: 'Full refund until 1 day before start' },
  { id: POLICY_IDS.moderate, kind: 'cancellation', name: 'Moderate', rule: 'Full refund until 5 days before start' },
  {
    id: POLICY_IDS.firm,
    kind: 'cancellation',
    name: 'Firm',
    rule: 'Full refund up to 30 days before, 50% up to 5 days before, none after',
  },
  { id: POLICY_IDS.agile, kind: 'rescheduling', name: 'Agile', rule: 'Free until 24 hours before' },
  { id: POLICY_IDS.fixed, kind: 'rescheduling', name: 'Fixed', rule: 'Free until 5 days before' },
  { id: POLICY_IDS.noSelfCancel, kind: 'cancellation', name: 'Contact the studio', rule: 'Students cannot cancel themselves' },
  { id: POLICY_IDS.noSelfReschedule, kind: 'rescheduling', name: 'Contact the studio', rule: 'Students cannot reschedule themselves' },
];

export const CANCELLATION_POLICIES = POLICIES.filter((p) => p.kind === 'cancellation');
export const RESCHEDULING_POLICIES = POLICIES.filter((p) => p.kind === 'rescheduling');

/** Defaults (spec 000 §9): Firm; Agile when self-cancel and reschedule is enabled, else the fixed alternatives. */
export function defaultPolicyIds(selfServiceEnabled: boolean) {
  return selfServiceEnabled
    ? { cancel_policy_id: POLICY_IDS.firm, reschedule_policy_id: POLICY_IDS.agile }
    : { cancel_policy_id: POLICY_IDS.noSelfCancel, reschedule_policy_id: POLICY_IDS.noSelfReschedule };
}

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Share of the price refundable when cancelling `msBeforeStart` before the start (0 to 1).
 * "Until N days before" includes exactly N days before.
 */
export function refundableShare(policyId: number, msBeforeStart: number): number {
  switch (policyId) {
    case POLICY_IDS.flexible:
      return msBeforeStart >= DAY_MS ? 1 : 0;
    case POLICY_IDS.moderate:
      return msBeforeStart >= 5 * DAY_MS ? 1 : 0;
    case POLICY_IDS.firm:
      if (msBeforeStart >= 30 * DAY_MS) return 1;
      return msBeforeStart >= 5 * DAY_MS ? 0.5 : 0;
    case POLICY_IDS.noSelfCancel:
      return 0;
    default:
      throw new RangeError(`Not a cancellation policy: ${policyId}`);
  }
}

/** Whether a reschedule `msBeforeStart` before the start is free. */
export function isRescheduleFree(policyId: number, msBeforeStart: number): boolean {
  switch (policyId) {
    case POLICY_IDS.agile:
      return msBeforeStart >= DAY_MS;
    case POLICY_IDS.fixed:
      return msBeforeStart >= 5 * DAY_MS;
    case POLICY_IDS.noSelfReschedule:
      return false;
    default:
      throw new RangeError(`Not a rescheduling policy: ${policyId}`);
  }
}

export const isCancellationPolicy = (id: number) => CANCELLATION_POLICIES.some((p) => p.id === id);
export const isReschedulingPolicy = (id: number) => RESCHEDULING_POLICIES.some((p) => p.id === id);
