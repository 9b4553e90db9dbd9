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
} as const;

/** What one booking of `partySize` people uses: one booking of a membership, a credit per person of a pack. */
export function bookingUseAmount(kind: BookingHoldingKind, partySize: number): number {
  return kind === 'membership' ? 1 : Math.max(1, partySize);
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
  const expiry = (h: H) => (h.expires_at ? Date.parse(h.expires_at) : Infinity);
  return holdings
    .filter((h) => isBookingKind(h.kind) && holdingUsable(h, now) && holdingCoversCourse(h, course))
    .sort(
      (a, b) =>
        Number(a.kind !== 'membership') - Number(b.kind !== 'membership') ||
        expiry(a) - expiry(b) ||
        Date.parse(a.created_at) - Date.parse(b.created_at) ||
        a.holding_id.localeCompare(b.holding_id),
    );
}

/** Whether the holding holds enough for a party (a pack needs a credit per person). */
export function holdingCoversParty(h: { kind: WalletKind; balance: number }, partySize: number): boolean {
  return isBookingKind(h.kind) && h.balance >= bookingUseAmount(h.kind, partySize);
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
