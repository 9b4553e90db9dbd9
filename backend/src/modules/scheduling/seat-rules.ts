import { SEAT_REFUSAL_KINDS, seatRefusal as seatRule, type SeatRefusalCode, type SeatRuleInput } from '@studio/contracts';
import { DomainError } from '../../common/domain-error';

/*
 * The seat rule of libs/contracts (scheduling/seat-rule.ts: THE rules of taking a seat, in the order
 * the admin sees them) raised as the API's DomainError of its kind. Inside the seat lock it decides;
 * before it (SeatWriter.refusalBeforeLock) it may only refuse.
 */

export type { SeatRuleInput } from '@studio/contracts';

/** The seat rule's refusal at `nowMs` as a DomainError (409, or 404 for a session that is not active), or null. */
export function seatRefusal(s: SeatRuleInput, nowMs: number): DomainError<SeatRefusalCode> | null {
  const refusal = seatRule(s, nowMs);
  return refusal ? new DomainError(SEAT_REFUSAL_KINDS[refusal.code], refusal) : null;
}
