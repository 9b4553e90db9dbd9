import { PAYMENT_LINK_MESSAGES, SCHEDULING_MESSAGES as M } from '@studio/contracts';
import { DomainError } from '../../common/domain-error';
import { seatRefusal, SeatRuleInput } from './seat-rules';

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
const said = (error: DomainError | null) => (error ? { status: error.status, message: error.message } : null);

describe('seatRefusal: the one set of seat rules (enroll and payment-link holds)', () => {
  it('lets a seat be taken while one is left', () => {
    expect(seatRefusal(open, NOW)).toBeNull();
    expect(seatRefusal({ ...open, seats: 3 }, NOW)).toBeNull();
  });

  it.each<[string, Partial<SeatRuleInput>, { status: number; message: string }]>([
    ['a cancelled session is refused with its own message (issue 23)', { status: 'cancelled' }, { status: 409, message: 'This session was cancelled.' }],
    ['an ended session', { endsAt: new Date(NOW) }, { status: 409, message: M.eventFinished }],
    ['a student already enrolled', { alreadyEnrolled: true }, { status: 409, message: M.alreadyEnrolled }],
    ['a student whose payment link is waiting', { alreadyHolding: true }, { status: 409, message: PAYMENT_LINK_MESSAGES.alreadyPending }],
    ['a single-party session with a party', { singleParty: true, students: 1, seats: 1 }, { status: 409, message: M.singlePartyBooked }],
    ['a single-party session held by a link', { singleParty: true, students: 0, held: 1, seats: 1 }, { status: 409, message: M.singlePartyBooked }],
    ['no seat left', { seats: 4 }, { status: 409, message: M.sessionFull }],
    ['not enough seats for the party asked', { seats: 3, seatsAsked: 2 }, { status: 409, message: M.sessionFull }],
  ])('refuses %s', (_, change, expected) => {
    expect(said(seatRefusal({ ...open, ...change }, NOW))).toEqual(expected);
  });

  it('answers the first rule broken, in the order the admin sees them', () => {
    const everything: SeatRuleInput = { ...open, endsAt: new Date(NOW - 1), alreadyEnrolled: true, alreadyHolding: true, seats: 9 };
    expect(said(seatRefusal(everything, NOW))?.message).toBe(M.eventFinished);
    expect(said(seatRefusal({ ...everything, endsAt: open.endsAt }, NOW))?.message).toBe(M.alreadyEnrolled);
    expect(said(seatRefusal({ ...everything, endsAt: open.endsAt, alreadyEnrolled: false }, NOW))?.message).toBe(PAYMENT_LINK_MESSAGES.alreadyPending);
  });

  it('a single-party course takes its first party', () => {
    expect(seatRefusal({ ...open, singleParty: true, seats: 0, students: 0 }, NOW)).toBeNull();
  });
});
