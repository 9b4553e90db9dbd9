import { bookingHoldings, bookingUseAmount, bookOnLabel, holdingCoversParty } from './wallet-booking';
import { UNLIMITED_BOOKINGS, type CoveringHolding } from './wallet.schema';

const NOW = new Date('2026-11-27T12:00:00Z');
const COURSE = { activity_id: 'c1', category_id: 4 };
let n = 0;
const holding = (h: Partial<CoveringHolding>): CoveringHolding => ({
  holding_id: `h${++n}`,
  kind: 'pack',
  balance: 5,
  status: 'active',
  expires_at: null,
  covers_activity_ids: null,
  covers_category_ids: null,
  created_at: `2026-01-0${n}T00:00:00Z`,
  ...h,
});

describe('Add student on a membership or pack: the rules', () => {
  it('offers memberships first, then packs soonest to expire (none last), oldest first on a tie', () => {
    const never = holding({});
    const later = holding({ expires_at: '2027-03-01T00:00:00Z' });
    const sooner = holding({ expires_at: '2027-01-01T00:00:00Z' });
    const member = holding({ kind: 'membership', balance: UNLIMITED_BOOKINGS });
    const olderNever = holding({ created_at: '2025-01-01T00:00:00Z' });
    expect(bookingHoldings([never, later, sooner, member, olderNever], COURSE, NOW).map((h) => h.holding_id)).toEqual(
      [member, sooner, later, olderNever, never].map((h) => h.holding_id),
    );
  });

  it('leaves out money, empty, expired and not-covering holdings', () => {
    const kept = holding({ covers_category_ids: [4] });
    const out = [
      holding({ kind: 'gift_card' }),
      holding({ kind: 'store_credit' }),
      holding({ balance: 0 }),
      holding({ status: 'expired' }),
      holding({ expires_at: NOW.toISOString() }),
      holding({ covers_activity_ids: ['other'] }),
      holding({ covers_category_ids: [2] }),
    ];
    expect(bookingHoldings([...out, kept], COURSE, NOW)).toEqual([kept]);
  });

  it('a membership uses one booking for a party; a pack a credit per person', () => {
    expect(bookingUseAmount('membership', 3)).toBe(1);
    expect(bookingUseAmount('pack', 3)).toBe(3);
    expect(bookingUseAmount('pack', 1)).toBe(1);
    expect(holdingCoversParty({ kind: 'pack', balance: 2 }, 3)).toBe(false);
    expect(holdingCoversParty({ kind: 'pack', balance: 3 }, 3)).toBe(true);
    expect(holdingCoversParty({ kind: 'membership', balance: 1 }, 3)).toBe(false);
    expect(holdingCoversParty({ kind: 'membership', balance: 1 }, 1)).toBe(true);
    expect(holdingCoversParty({ kind: 'gift_card', balance: 5000 }, 1)).toBe(false);
  });

  it('labels the choice with what is left', () => {
    expect(bookOnLabel({ label: '10-class pack', balance: 1, unit: 'credits' })).toBe('Book on 10-class pack (1 credit left)');
    expect(bookOnLabel({ label: 'Gold', balance: UNLIMITED_BOOKINGS, unit: 'bookings', unlimited: true })).toBe('Book on Gold (Unlimited)');
  });
});
