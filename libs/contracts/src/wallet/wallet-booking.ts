import { z } from 'zod';
import {
  formatHoldingBalance,
  holdingCoversCourse,
  holdingUsable,
  WALLET_UNITS,
  type CoveringHolding,
  type WalletKind,
  type WalletUnit,
} from './wallet.schema';

/*
 * Add student on a membership or a class pack (issue 24, "In the admin"): which holdings may book a
 * seat or an appointment of a course, in which order they are offered, and what one booking uses.
 * The API (the covering read and the booking) and the Add student dialogs read these rules.
 */

/** The kinds that book a seat: a membership (one booking) or a class pack (credits). */
export const BOOKING_HOLDING_KINDS = ['membership', 'pack'] as const;
export type BookingHoldingKind = (typeof BOOKING_HOLDING_KINDS)[number];

export const WALLET_BOOKING_MESSAGES = {
  notCovering: 'This membership or pack does not cover this course.',
  notBookable: 'Only a membership or a class pack can book a seat.',
  membershipOwnSeat: "A membership books its member's own seat; book the guests another way.",
} as const;

/** What one booking of `partySize` people uses: one booking of a membership (its member's seat), a credit per person of a pack. */
export function bookingUseAmount(kind: BookingHoldingKind, partySize: number): number {
  return kind === 'membership' ? 1 : Math.max(1, partySize);
}

/** The one expiring soonest first (no expiry last), then the oldest. */
function soonestFirst(a: CoveringHolding, b: CoveringHolding): number {
  const expiry = (h: CoveringHolding) => (h.expires_at ? Date.parse(h.expires_at) : Infinity);
  return expiry(a) - expiry(b) || Date.parse(a.created_at) - Date.parse(b.created_at) || a.holding_id.localeCompare(b.holding_id);
}

const isBookingKind = (kind: WalletKind): kind is BookingHoldingKind => kind === 'membership' || kind === 'pack';

/**
 * The holdings that can book a course now, in the written order: memberships first, then packs,
 * each the one expiring soonest first (no expiry last), then the oldest. Only usable ones
 * (holdingUsable) that cover the course (holdingCoversCourse).
 */
export function bookingHoldings<H extends CoveringHolding>(
  holdings: H[],
  course: { activity_id: string; category_id: number | null },
  now: Date,
): H[] {
  return holdings
    .filter((h) => isBookingKind(h.kind) && holdingUsable(h, now) && holdingCoversCourse(h, course))
    .sort((a, b) => Number(a.kind !== 'membership') - Number(b.kind !== 'membership') || soonestFirst(a, b));
}

/**
 * Whether the holding can book a party: a membership is its member's own (a party of 1); a pack
 * needs a credit per person.
 */
export function holdingCoversParty(h: { kind: WalletKind; balance: number }, partySize: number): boolean {
  if (!isBookingKind(h.kind)) return false;
  if (h.kind === 'membership' && partySize > 1) return false;
  return h.balance >= bookingUseAmount(h.kind, partySize);
}

/** How a booking or an order is paid from what the student holds, and what is left for the card. */
export interface WalletPlan {
  /** The membership or pack that covers the booking (one booking of a membership, party_size credits of a pack), or null. */
  booking: { holding_id: string; kind: BookingHoldingKind; amount: number } | null;
  /** Gift cards, then store credit, each with the cents it pays (soonest to expire first). */
  money: { holding_id: string; kind: 'gift_card' | 'store_credit'; cents: number }[];
  /** What the card pays after them. */
  due_cents: number;
}

/**
 * Applies holdings in WALLET_APPLY_ORDER: the first holding `bookingHoldings` offers that holds
 * enough for the party (holdingCoversParty: a membership covers its member's own seat, a pack a
 * credit per person) covers the booking; then gift cards and store credit pay what is due (the one
 * expiring soonest first); the card pays the rest. A covered booking costs nothing more. A product
 * order (no course) is paid by money holdings only.
 */
export function planWalletPayment(input: {
  holdings: CoveringHolding[];
  /** The booked course, or null for a product order. */
  course: { activity_id: string; category_id: number | null } | null;
  party_size: number;
  /** What is due after discounts and points. */
  total_cents: number;
  now: Date;
  /** Whether gift cards and credit may pay (the buyer chose to use them). */
  use_money?: boolean;
}): WalletPlan {
  let booking: WalletPlan['booking'] = null;
  if (input.course && input.total_cents > 0) {
    const first = bookingHoldings(input.holdings, input.course, input.now).find((h) => holdingCoversParty(h, input.party_size));
    if (first && isBookingKind(first.kind))
      booking = { holding_id: first.holding_id, kind: first.kind, amount: bookingUseAmount(first.kind, input.party_size) };
  }
  let due = booking ? 0 : input.total_cents;
  const money: WalletPlan['money'] = [];
  if (due > 0 && input.use_money !== false) {
    for (const kind of ['gift_card', 'store_credit'] as const) {
      for (const h of input.holdings.filter((x) => x.kind === kind && holdingUsable(x, input.now)).sort(soonestFirst)) {
        if (due === 0) break;
        const cents = Math.min(due, h.balance);
        money.push({ holding_id: h.holding_id, kind, cents });
        due -= cents;
      }
    }
  }
  return { booking, money, due_cents: due };
}

/** The Add student choice: "Book on 10-class pack (3 credits left)", "Book on Gold (Unlimited)". */
export function bookOnLabel(h: { label: string; balance: number; unit: WalletUnit; unlimited?: boolean }): string {
  return `Book on ${h.label} (${h.unlimited ? 'Unlimited' : `${formatHoldingBalance(h)} left`})`;
}

/** One holding that can book the course, as GET …/wallet/covering answers it. */
export const bookingHoldingSchema = z.object({
  holding_id: z.uuid(),
  kind: z.enum(BOOKING_HOLDING_KINDS),
  label: z.string(),
  unit: z.enum(WALLET_UNITS),
  balance: z.number().int(),
  unlimited: z.boolean(),
  expires_at: z.string().nullable(),
});
export type BookingHolding = z.infer<typeof bookingHoldingSchema>;

/** GET /api/admin/student/{student_id}/wallet/covering?activity_id=: the holdings that can book it, in the written order. */
export const walletCoveringSchema = z.object({
  holdings: z.array(bookingHoldingSchema).describe('memberships first, then packs soonest to expire; only usable ones that cover the course'),
});
export type WalletCovering = z.infer<typeof walletCoveringSchema>;

/** The query of GET …/wallet/covering. */
export const walletCoveringQuerySchema = z.object({
  activity_id: z.uuid({ error: 'activity_id is the course\'s id.' }),
});
