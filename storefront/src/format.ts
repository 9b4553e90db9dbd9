import type { PublicProduct, PublicSession } from '@studio/contracts';
import { formatCents } from '@studio/contracts/src/money';
import { formatDate, formatTime, formatZonedDateTime, zoneAbbreviation } from '@studio/contracts/src/time';

/** At or below this many seats a session says "Only N seats left". */
export const FEW_SEATS = 5;

export const priceText = (cents: number, free = cents === 0) => (free ? 'Free' : formatCents(cents));

const UNIT = { days: 'day', weeks: 'week', months: 'month', years: 'year' } as const;

/** "$20.00 / month", "$50.00 every 3 months", "Free" for a lead magnet. */
export function productPriceText(
  product: Pick<PublicProduct, 'kind' | 'price_cents' | 'renewal_interval_unit' | 'renewal_interval_quantity'>,
): string {
  if (product.kind === 'leadMagnet') return 'Free';
  const price = priceText(product.price_cents);
  if (product.kind !== 'subscription' || !product.renewal_interval_unit) return price;
  const unit = UNIT[product.renewal_interval_unit];
  const quantity = product.renewal_interval_quantity ?? 1;
  return quantity === 1 ? `${price} / ${unit}` : `${price} every ${quantity} ${unit}s`;
}

/** A session's day(s) and time in its location's zone, the zone named: "6:00 PM – 8:00 PM EDT". */
export function sessionWhen(session: Pick<PublicSession, 'starts_at' | 'ends_at' | 'timezone'>): {
  date: string;
  time: string;
} {
  const zone = session.timezone;
  const startDay = formatDate(session.starts_at, zone);
  const endDay = formatDate(session.ends_at, zone);
  const abbreviation = zoneAbbreviation(session.starts_at, zone);
  const start = formatTime(session.starts_at, zone);
  if (startDay === endDay)
    return { date: startDay, time: `${start} – ${formatTime(session.ends_at, zone)} ${abbreviation}`.trim() };
  return { date: `${startDay} – ${endDay}`, time: `Starts ${start} ${abbreviation}`.trim() };
}

/** "Tue, Mar 10 6:00 PM EDT": an instant in a zone, the zone named. */
export const dateTimeInZone = (instant: string, zone: string) => formatZonedDateTime(instant, zone);

/** "Sold out", "Only 2 seats left", "8 seats left". */
export function seatsText(session: Pick<PublicSession, 'seats_left' | 'sold_out'>): string {
  if (session.sold_out || session.seats_left <= 0) return 'Sold out';
  const seats = `${session.seats_left} ${session.seats_left === 1 ? 'seat' : 'seats'} left`;
  return session.seats_left <= FEW_SEATS ? `Only ${seats}` : seats;
}
