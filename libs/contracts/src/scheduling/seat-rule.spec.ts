import { PAYMENT_LINK_MESSAGES } from '../orders/payment-link';
import { SCHEDULING_MESSAGES as M } from './scheduling-messages';
import { SEAT_REFUSAL_KINDS, seatRefusal, type SeatRefusalCode, type SeatRuleInput } from './seat-rule';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const open: SeatRuleInput = {
  status: 'active',
  endsAt: new Date(NOW + 3600_000),
  capacity: 4,
  seats: 2,
  students: 2,
  held: 0,
  alreadyEnrolled: false,
  alreadyHolding: false,
  singleParty: false,
};

describe('seatRefusal: the seat rule answers a typed refusal (code, message) the API and the admin share', () => {
  it.each<[Partial<SeatRuleInput>, SeatRefusalCode, string]>([
    [{ status: 'cancelled' }, 'cancelled', 'This session was cancelled.'],
    [{ endsAt: new Date(NOW) }, 'finished', M.eventFinished],
    [{ alreadyEnrolled: true }, 'already_enrolled', M.alreadyEnrolled],
    [{ alreadyHolding: true }, 'already_holding', PAYMENT_LINK_MESSAGES.alreadyPending],
    [{ singleParty: true, students: 0, held: 1, seats: 1 }, 'single_party_taken', M.singlePartyBooked],
    [{ seats: 3, seatsAsked: 2 }, 'full', M.sessionFull],
  ])('%j is refused as %s', (change, code, message) => {
    expect(seatRefusal({ ...open, ...change }, NOW)).toEqual({ code, message });
  });

  it('a seat while one is left is no refusal; only a session that is not active is not found, the rest conflict', () => {
    expect(seatRefusal(open, NOW)).toBeNull();
    expect(Object.entries(SEAT_REFUSAL_KINDS).filter(([, kind]) => kind !== 'conflict')).toEqual([['not_found', 'not_found']]);
  });
});
